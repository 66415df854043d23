"""benchmarks/bench_marts.py keeps running: its quick option (2 hotels x 1 year, never the full
100 x 3 here) prints the same totals for polars and DuckDB SQL and its ratio. No time is
asserted (tests never fail on a measurement)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_marts.py"


def test_quick_benchmark_cross_checks_and_prints_its_ratio() -> None:
    run = subprocess.run([sys.executable, str(BENCH), "--quick"], capture_output=True,
                         text=True, timeout=300, check=False, cwd=BENCH.parents[1])
    assert run.returncode == 0, run.stderr[-2000:]
    assert "2 hotels x 1 years" in run.stdout
    assert run.stdout.count(" same") == 8
    assert "DIFFERENT" not in run.stdout
    assert "ratio polars/duckdb" in run.stdout
