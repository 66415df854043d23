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
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx


class SandboxStartError(RuntimeError):
    """The sandbox process exited or did not answer in time."""


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
        with log_path.open("wb") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        base_url = f"http://{host}:{port}/v1"
        try:
            _wait_until_serving(process, base_url, startup_timeout, log_path)
            yield base_url
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_until_serving(process: subprocess.Popen[bytes], base_url: str, timeout: float,
                        log_path: Path) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise SandboxStartError(f"the sandbox exited with status {process.returncode}:\n"
                                    + log_path.read_text(errors="replace"))
        try:
            # The docs page, not /openapi.json: the server builds that document on its first
            # request (0.7 s of its CPU), which nobody here reads.
            if httpx.get(f"{base_url}/docs", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise SandboxStartError(f"the sandbox did not answer within {timeout:.0f} s")
        time.sleep(0.1)
