"""benchmarks/bench_marts.py (polars transforms vs the same marts in DuckDB SQL) at several
sizes, each in its own process so its peak memory is its own."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from .results import MartsRun

REPO = Path(__file__).resolve().parents[1]
_TOTAL = re.compile(r"total: polars ([\d.]+) s, duckdb ([\d.]+) s")
_PEAK = re.compile(r"after duckdb (\d+) MiB")
_SIZE = re.compile(r"versions, ([\d,]+) room-night versions")


def parse(hotels: int, years: int, output: str) -> MartsRun:
    total, peak, size = _TOTAL.search(output), _PEAK.search(output), _SIZE.search(output)
    if total is None or peak is None:
        raise RuntimeError(f"bench_marts {hotels} x {years}: no totals in its output:\n{output}")
    return MartsRun(hotels, years, float(total.group(1)), float(total.group(2)),
                    float(peak.group(1)), "DIFFERENT" not in output,
                    size.group(1) if size else "")


def run_marts(hotels: int, years: int) -> MartsRun:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_marts", "--hotels", str(hotels),
         "--years", str(years)], cwd=REPO, capture_output=True, text=True, check=True)
    return parse(hotels, years, done.stdout)
