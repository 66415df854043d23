"""benchmarks/bench_forecast.py keeps running: its quick option (1 hotel x 1 year, never the
10 x 3 here) prints the marts' time, the forecast's, their ratio and the WAPE at 30 days. No
time is asserted (tests never fail on a measurement)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_quick_benchmark_prints_its_ratio() -> None:
    run = subprocess.run([sys.executable, "-m", "benchmarks.bench_forecast", "--quick"],
                         capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "1 hotels x 1 years" in run.stdout
    assert "366 forecast rows" in run.stdout
    assert "ratio forecast/marts" in run.stdout
    assert "chosen" in run.stdout
