"""The test rig of bench_group_files: sandbox processes, and what a child process cost.

A sandbox is one Python process (uvicorn, one worker): serving 50 keys at 10 calls/s each is
500 calls/s from one interpreter, more than one core gives. So the rig can start several
sandboxes, each on its own copy of the simulated database and each the only server of its
hotels' keys (the per-key limit stays exact: a key's bucket lives in one process).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from pipelines.demo.sandbox_process import free_port, serving_process
from sandbox.seed import group_key

TICK = os.sysconf("SC_CLK_TCK")


LAUNCHER = Path(__file__).with_name("launch.py")
RATE, BURST = 600, 120
"""The spec's limit per key, on the sandbox and in each property's client."""


@dataclass(frozen=True)
class Cost:
    """What one child process (and the children it waited for) cost."""

    seconds: float
    cpu: float
    """User + system CPU-seconds."""
    rss_mib: float
    """Peak RSS of the largest single process (its own: started from launch.py)."""
    written: int
    """Bytes it caused to be written to storage (rusage's output blocks x 512)."""


def properties_env(path: Path, served: dict[str, str]) -> dict[str, str]:
    """This process's environment without its PMS_, PMSW_ and DAGSTER_ settings, with a
    properties file at `path` of the group's hotels `served` (code -> the base URL serving
    it), each its own key (KEY_<code>) at the real limit."""
    lines, env = ["properties:"], {}
    for code, base_url in served.items():
        lines += [f"  - code: {code}", f"    base_url: {base_url}",
                  f"    api_key_env: KEY_{code}", f"    rate_per_minute: {RATE}",
                  f"    burst: {BURST}"]
        env[f"KEY_{code}"] = group_key(int(code.removeprefix("GRP")))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("PMS_", "PMSW_", "DAGSTER_"))}
    return {**clean, "PMSW_PROPERTIES_FILE": str(path), **env}


def limit_floor(calls: int) -> float:
    """Seconds a run of `calls` calls takes at least under its key's limit: the burst at
    once, the rest at RATE a minute."""
    return max(calls - BURST, 0) / (RATE / 60)


def run_measured(command: Sequence[str], cwd: Path, env: dict[str, str]) -> Cost:
    """Run `command` to its end from benchmarks/launch.py: its cost; raise when it fails.
    The peak RSS is the command's own, not this process's (the rig's simulation and marts
    would otherwise count: launch.py says why); the CPU and bytes are the launcher's with
    every process it waited for (the command's own processes, and the launcher's start)."""
    began = time.perf_counter()
    with tempfile.NamedTemporaryFile(prefix="run-measured-", suffix=".log") as log, \
            subprocess.Popen([sys.executable, str(LAUNCHER), log.name, "--", *command],
                             cwd=cwd, env=env, stdout=subprocess.PIPE, text=True) as launcher:
        assert launcher.stdout is not None
        told = launcher.stdout.read().split()
        _, status, usage = os.wait4(launcher.pid, 0)
        launcher.returncode = os.waitstatus_to_exitcode(status)
        output = Path(log.name).read_text(errors="replace")
    if launcher.returncode != 0 or len(told) != 3 or told[1] != "0":
        raise RuntimeError(f"{' '.join(command[-6:])} failed:\n{output[-3000:]}")
    return Cost(time.perf_counter() - began, usage.ru_utime + usage.ru_stime,
                int(told[2]) / 1024, usage.ru_oublock * 512)


def cpu_seconds(pid: int) -> float:
    """User + system CPU-seconds of the running process `pid` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


@dataclass(frozen=True)
class Sandbox:
    base_url: str
    pid: int


@contextmanager
def sandboxes(database: Path, count: int, args: Sequence[str],
              latency_ms: int) -> Iterator[list[Sandbox]]:
    """`count` sandboxes, each serving its own copy of `database` with `args` and
    `latency_ms` added to every call; all stopped when the block ends."""
    with ExitStack() as stack:
        fleet = []
        for n in range(count):
            copy = database.with_name(f"{database.stem}-{n}.sqlite")
            shutil.copyfile(database, copy)
            fleet.append(_serve(stack, copy, args, latency_ms))
        yield fleet


def _serve(stack: ExitStack, copy: Path, args: Sequence[str], latency_ms: int) -> Sandbox:
    port = free_port()
    root = f"http://127.0.0.1:{port}"
    process = stack.enter_context(serving_process(
        f"the sandbox at {root}", [sys.executable, "-m", "pipelines.cli", "sandbox", "serve",
                                   "--host", "127.0.0.1", "--port", str(port), "--db", str(copy),
                                   *args],
        lambda: httpx.get(f"{root}/v1/openapi.json", timeout=2).status_code == 200,
        copy.with_suffix(".log"), 120, poll=0.2))
    httpx.put(f"{root}/_sandbox/faults", json={"latency_ms": latency_ms},
              timeout=30).raise_for_status()
    return Sandbox(f"{root}/v1", process.pid)
