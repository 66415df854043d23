"""Time `pmsw demo` at full size (a year of two hotels, 28 daily syncs) against the 300 s target.

    .venv/bin/python benchmarks/bench_demo.py [--keep]

Runs the demo in a temporary folder (the repository's data/ is left alone) and prints each
step's seconds and the ratio of the total to the target (below 1.0 meets it). The machine's
load counts: the figure is only meaningful on an otherwise idle machine (printed with it).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from pipelines.demo import DemoConfig, run_demo

TARGET_SECONDS = 300.0


def main() -> None:
    keep = "--keep" in sys.argv
    root = Path(tempfile.mkdtemp(prefix="pmsw-bench-demo-"))
    load_before = os.getloadavg()[0]
    began = time.perf_counter()
    result = run_demo(DemoConfig(data_dir=root, warehouse=root / "warehouse.duckdb",
                                 progress=False))
    wall = time.perf_counter() - began
    print("\nbench_demo: pmsw demo at full size (337 days + 28 daily syncs, two hotels)")
    for step, seconds in result.seconds.items():
        print(f"  {step:<12} {seconds:>8.1f} s")
    print(f"  {'total':<12} {wall:>8.1f} s   target {TARGET_SECONDS:.0f} s   "
          f"ratio {wall / TARGET_SECONDS:.2f}")
    print(f"  load average (1 min) before {load_before:.1f}, after {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    if not keep:
        import shutil

        shutil.rmtree(root, ignore_errors=True)
    else:
        print(f"  kept {root}")


if __name__ == "__main__":
    main()
