"""Run the sandbox PMS as a child process (`pmsw sandbox serve`) on a free loopback port.

The pipeline never imports `sandbox`: it starts the server through the `pmsw` command line and
talks to it over HTTP like to any PMS.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx


class StartError(RuntimeError):
    """A child process exited or did not answer in time."""


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def sandbox_process(startup_timeout: float = 300.0, *, db_path: Path | None = None,
                    extra_args: Sequence[str] = (), log_path: Path | None = None,
                    ) -> Iterator[str]:
    """Start a sandbox and yield its base URL (ending in `/v1`); stop it when the block ends.

    Without `db_path` the database lives in a temporary directory deleted afterwards.
    `extra_args` go to `pmsw sandbox serve` (e.g. `--admin --clock simulated`); the server's
    output goes to `log_path` (default: next to the database)."""
    host, port = "127.0.0.1", free_port()
    with ExitStack() as stack:
        if db_path is None:
            workdir = Path(stack.enter_context(
                tempfile.TemporaryDirectory(prefix="pmsw-sandbox-")))
            db_path = workdir / "sandbox.sqlite"
        log_path = log_path or db_path.with_suffix(".log")
        command = [sys.executable, "-m", "pipelines.cli", "sandbox", "serve", "--host", host,
                   "--port", str(port), "--db", str(db_path), *extra_args]
        base_url = f"http://{host}:{port}/v1"
        # The docs page, not /openapi.json: the server builds that document on its first
        # request (0.7 s of its CPU), which nobody here reads.
        docs = f"{base_url}/docs"
        with serving_process("the sandbox", command, lambda: httpx.get(docs, timeout=2)
                             .status_code == 200, log_path, startup_timeout, poll=0.1):
            yield base_url


@contextmanager
def serving_process(name: str, command: Sequence[str], ready: Callable[[], bool],
                    log_path: Path, timeout: float, *, cwd: Path | None = None,
                    env: Mapping[str, str] | None = None, poll: float = 0.3,
                    ) -> Iterator[subprocess.Popen[bytes]]:
    """Start `command` (its output to `log_path`), wait until `ready()` (a connection refused
    is not yet), and stop it when the block ends (killed past 20 s). StartError naming it
    `name`, with its output, when it exits first, or when not ready within `timeout` s."""
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log,
                                   stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise StartError(f"{name} exited with status {process.returncode}:\n"
                                 + log_path.read_text(errors="replace"))
            try:
                if ready():
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise StartError(f"{name} did not answer within {timeout:.0f} s")
            time.sleep(poll)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
