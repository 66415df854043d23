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
