"""Time `pmsw demo` (a year of two hotels, 28 daily syncs by default) against the 300 s target.

    .venv/bin/python benchmarks/bench_demo.py [--keep] [--real-limit] [--days N] [--daily-syncs N]

Runs the demo in a temporary folder (the repository's data/ is left alone) and prints each
step's seconds and the ratio of the total to the target (below 1.0 meets it). The machine's
load counts: the figure is only meaningful on an otherwise idle machine (printed with it).

The demo lifts the rate limit (pipelines/demo/config.py, UNLIMITED_RATE) so it runs in
minutes. `--real-limit` runs the same demo with the sandbox and the client at the spec's
limit, 600 calls a minute per key with a burst of 120 (spec, Limits), and reports the API
calls of the syncs (meta.sync_runs) against the bound that limit sets (calls / 600 per minute
per hotel; the hotels' keys are limited apart, their syncs run one after the other). Not in
CI: at full size it runs for hours.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

import duckdb

from pipelines.api import DEFAULT_BURST, DEFAULT_RATE_PER_MINUTE
from pipelines.demo import DemoConfig, run_demo
from pipelines.demo.config import UNLIMITED_RATE

TARGET_SECONDS = 300.0


def _sync_calls(warehouse: Path) -> dict[str, int]:
    """API calls of the demo's syncs per property code (meta.sync_runs)."""
    with duckdb.connect(str(warehouse), read_only=True) as conn:
        rows = conn.execute(
            "SELECT p.code, sum(r.calls) FROM meta.sync_runs r JOIN core.property p "
            "USING (property_id) GROUP BY 1 ORDER BY 1").fetchall()
    return {str(code): int(calls) for code, calls in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the demo's folder")
    parser.add_argument("--real-limit", action="store_true",
                        help=f"the spec's limit ({DEFAULT_RATE_PER_MINUTE}/min, burst "
                             f"{DEFAULT_BURST}) instead of the demo's lifted one")
    parser.add_argument("--days", type=int, default=DemoConfig.days)
    parser.add_argument("--daily-syncs", type=int, default=DemoConfig.daily_syncs)
    args = parser.parse_args()
    rate, burst = ((DEFAULT_RATE_PER_MINUTE, DEFAULT_BURST) if args.real_limit
                   else (UNLIMITED_RATE, UNLIMITED_RATE))
    root = Path(tempfile.mkdtemp(prefix="pmsw-bench-demo-"))
    load_before = os.getloadavg()[0]
    began = time.perf_counter()
    result = run_demo(DemoConfig(data_dir=root, warehouse=root / "warehouse.duckdb",
                                 days=args.days, daily_syncs=args.daily_syncs,
                                 rate_per_minute=rate, burst=burst, progress=False))
    wall = time.perf_counter() - began
    limit = (f"at the real limit, {rate}/min burst {burst} per key" if args.real_limit
             else "rate limit lifted")
    print(f"\nbench_demo: pmsw demo, {args.days} days + {args.daily_syncs} daily syncs, "
          f"two hotels, {limit}")
    for step, seconds in result.seconds.items():
        print(f"  {step:<12} {seconds:>8.1f} s")
    print(f"  {'total':<12} {wall:>8.1f} s   target {TARGET_SECONDS:.0f} s   "
          f"ratio {wall / TARGET_SECONDS:.2f}")
    calls = _sync_calls(root / "warehouse.duckdb")
    bound = sum(calls.values()) / DEFAULT_RATE_PER_MINUTE * 60
    print(f"  sync calls   {calls} = {sum(calls.values())}; at {DEFAULT_RATE_PER_MINUTE}/min "
          f"they need at least {bound:.0f} s")
    if args.real_limit:
        synced = sum(result.seconds.get(s, 0.0) for s in ("first_sync", "daily", "final_sync"))
        print(f"  sync steps   {synced:.1f} s = {synced / bound:.2f} of that bound")
    print(f"  load average (1 min) before {load_before:.1f}, after {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    if args.keep:
        print(f"  kept {root}")
    else:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
