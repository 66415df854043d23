"""Run a sandbox on a loopback port inside this process (tests, the demo, benchmarks)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI

from ..clock import Clock, SimulatedClock
from ..db import open_db
from ..settings import SandboxSettings, stored_clock
from .app import create_app
from .state import ServerState


@dataclass
class RunningSandbox:
    app: FastAPI
    host: str
    port: int

    @property
    def base_url(self) -> str:
        """The API's base URL, version segment included (spec: `{base_url}` ends in `/v1`)."""
        return f"http://{self.host}:{self.port}/v1"

    @property
    def root_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def state(self) -> ServerState:
        state: ServerState = self.app.state.sandbox
        return state


@contextmanager
def serving_app(app: Any, host: str = "127.0.0.1", **config: Any) -> Iterator[int]:
    """Serve the ASGI `app` with uvicorn in a thread on a free port of `host` until the block
    ends: the port. `config`: more of uvicorn.Config's settings."""
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=0, log_level="warning",
                                           **config))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the server of {type(app).__name__} did not start")
        time.sleep(0.01)
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=20)


@contextmanager
def running_sandbox(
    settings: SandboxSettings | None = None,
    clock: Clock | None = None,
    host: str = "127.0.0.1",
) -> Iterator[RunningSandbox]:
    """Serve a fresh sandbox over real HTTP on a free loopback port until the block ends."""
    app = create_app(settings, clock)
    try:
        with serving_app(app, host, lifespan="on", access_log=False,
                         date_header=False) as port:
            yield RunningSandbox(app=app, host=host, port=port)
    finally:
        app.state.sandbox.conn.close()


@contextmanager
def serving_simulation(db: Path, rate_per_minute: int = 1_000_000,
                       burst: int = 1_000_000) -> Iterator[RunningSandbox]:
    """Serve a simulated database (admin routes on) until the block ends, its clock carrying
    on from where the simulation stopped; each key's limit as given (by default far above any
    test's calls)."""
    with closing(open_db(str(db))) as conn:
        now = stored_clock(conn)
    if now is None:
        raise ValueError(f"{db} has no simulated clock: simulate it first")
    settings = SandboxSettings(db_path=str(db), admin=True, rate_per_minute=rate_per_minute,
                               burst=burst)
    with running_sandbox(settings, SimulatedClock(now)) as sandbox:
        yield sandbox
