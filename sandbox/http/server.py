"""Run a sandbox on a loopback port inside this process (tests, the demo, benchmarks)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

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
def running_sandbox(
    settings: SandboxSettings | None = None,
    clock: Clock | None = None,
    host: str = "127.0.0.1",
) -> Iterator[RunningSandbox]:
    """Serve a fresh sandbox over real HTTP on a free loopback port until the block ends."""
    app = create_app(settings, clock)
    config = uvicorn.Config(app, host=host, port=0, log_level="warning", lifespan="on",
                            access_log=False, date_header=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the sandbox server did not start")
        time.sleep(0.01)
    port: int = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield RunningSandbox(app=app, host=host, port=port)
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        app.state.sandbox.conn.close()


@contextmanager
def serving_simulation(db: Path, rate_per_minute: int = 1_000_000,
                       burst: int = 1_000_000) -> Iterator[RunningSandbox]:
    """Serve a simulated database (admin routes on) until the block ends, its clock carrying
    on from where the simulation stopped; each key's limit as given (by default far above any
    test's calls)."""
    conn = open_db(str(db))
    try:
        now = stored_clock(conn)
    finally:
        conn.close()
    if now is None:
        raise ValueError(f"{db} has no simulated clock: simulate it first")
    settings = SandboxSettings(db_path=str(db), admin=True, rate_per_minute=rate_per_minute,
                               burst=burst)
    with running_sandbox(settings, SimulatedClock(now)) as sandbox:
        yield sandbox
