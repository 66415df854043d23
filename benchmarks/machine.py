"""What machine the figures were measured on: cores, memory, CPU model, versions, load."""

from __future__ import annotations

import os
import platform
from importlib import metadata
from pathlib import Path

LIBRARIES = ("dlt", "duckdb", "polars", "httpx", "fastapi", "uvicorn", "pydantic")


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def describe() -> dict[str, str]:
    load = os.getloadavg()
    return {
        "nproc": str(os.cpu_count()),
        "memory": _memory(),
        "CPU": _cpu_model(),
        "OS": platform.platform(),
        "Python": platform.python_version(),
        "libraries": ", ".join(f"{n} {_version(n)}" for n in LIBRARIES),
        "load average at start (1/5/15 min)": f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}",
    }


def rss_mib(pid: int | None = None) -> float:
    """Resident memory (VmRSS) of process `pid` (this one by default) in MiB. OSError once it
    has exited: ProcessLookupError while a zombie (it has no VmRSS), FileNotFoundError once
    reaped."""
    return _status_mib(pid, "VmRSS")


def high_water_mib(pid: int | None = None) -> float:
    """The highest resident memory process `pid` has had so far (VmHWM), in MiB: a peak
    shorter than any sampling interval is in it. OSError once it has exited."""
    return _status_mib(pid, "VmHWM")


def _status_mib(pid: int | None, field: str) -> float:
    status = Path(f"/proc/{'self' if pid is None else pid}/status").read_text()
    for line in status.splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise ProcessLookupError(f"process {pid} has exited")
