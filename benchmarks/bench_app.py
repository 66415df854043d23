"""Benchmark: the morning page of `pmsw app` (issue 50; goal: under 1 s warm, under 3 s cold).

On a warehouse of `hotels` x `years` of synthetic history (benchmarks/app_warehouse.py: the
marts the page reads, built by the marts' transforms, landed by the writer, the read copy
published), for hotel 1 and the 30 nights from its business date:

- cold: `pmsw app` started as a new process, asked for the morning page (its full address,
  so no redirect) until it answers: the seconds from starting the process to the whole page
  received (imports, the server's start, the first open of the read copy, the reports, the
  HTML with its charts' data), and that first request's own seconds;
- warm: the same page asked again REPEATS times: the median (and the slowest);
- the baseline, in this process: the reports the page runs (pace, pickup over 1, 7 and 30
  days, forecast, occupancy, alerts, forecast-months), each as `pmsw report` runs it, on the
  read copy opened read-only as the app opens it for each request: the same work without
  the web server, the layout and the charts' data; the first run and the median of the others;
- the app's memory after the warm requests: resident (VmRSS) and its peak (VmHWM).

Beside each wall time, the CPU seconds spent (the app's process, from /proc; this process's
for the baseline), which a loaded machine does not stretch as it stretches the wall time
(DuckDB and polars use both cores: CPU can exceed wall).

"Full render" is the page's HTML received whole: every figure is in it, rendered on the
server; the browser then draws the three charts with plotly.js, which the app serves once
and the browser caches (tests/app's Chromium test checks they are drawn).

    .venv/bin/python -m benchmarks.bench_app --quick                 # 1 hotel x 1 year
    .venv/bin/python -m benchmarks.bench_app                         # 1 and 10 hotels x 3 years
    .venv/bin/python -m benchmarks.bench_app --hotels 10 --years 3   # one size, this process
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import httpx

from benchmarks.app_warehouse import build, business_date, code
from benchmarks.by_years import each_in_own_process
from benchmarks.group_rig import cpu_seconds
from benchmarks.machine import describe
from pipelines.demo.sandbox_process import free_port
from pipelines.reports import open_warehouse, resolve_property, run_report

REPO = Path(__file__).resolve().parents[1]
REPEATS = 5
NIGHTS = 30
GOAL_WARM_S, GOAL_COLD_S = 1.0, 3.0
PAGE_REPORTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("pace", {}), ("forecast", {}), ("occupancy", {}), ("alerts", {}),
    ("forecast-months", {}), *(("pickup", {"window": w}) for w in (1, 7, 30)))
"""The reports the morning page runs (pipelines/app/morning.py), with their options."""


def reports_alone(path: Path, first: date, last: date) -> tuple[float, float]:
    """The page's reports on the read copy, opened read-only as for one request: wall and CPU
    seconds."""
    started, cpu = time.perf_counter(), time.process_time()
    with open_warehouse(path) as conn:
        prop = resolve_property(conn, path, code(1))
        for name, options in PAGE_REPORTS:
            whole = name == "forecast-months"  # the page asks it for its default months
            run_report(conn, path, name, prop, None if whole else first,
                       None if whole else last, **options)
    return time.perf_counter() - started, time.process_time() - cpu


def _memory_mib(pid: int) -> tuple[float, float]:
    """VmRSS and VmHWM of process `pid`, MiB."""
    fields = dict(line.split(":", 1) for line in
                  Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


def _page(address: str) -> tuple[float, int]:
    started = time.perf_counter()
    response = httpx.get(address, timeout=120)
    if response.status_code != 200:
        raise RuntimeError(f"{address}: HTTP {response.status_code}: {response.text[-500:]}")
    return time.perf_counter() - started, len(response.content)


def the_app(path: Path, address: str) -> dict[str, float]:
    """`pmsw app` as a new process: cold, first request, warm median and max, HTML, memory."""
    port = free_port()
    url = f"http://127.0.0.1:{port}{address}"
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "pipelines.cli", "app", "--port",
                                str(port), "--warehouse", str(path)], cwd=REPO,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"pmsw app exited: {process.communicate()[1].decode()}")
            try:
                first, size = _page(url)
                break
            except httpx.TransportError:
                time.sleep(0.02)
        cold, cold_cpu = time.perf_counter() - started, cpu_seconds(process.pid)
        warm = [_page(url)[0] for _ in range(REPEATS)]
        warm_cpu = (cpu_seconds(process.pid) - cold_cpu) / REPEATS
        rss, peak = _memory_mib(process.pid)
    finally:
        process.terminate()
        process.wait(timeout=30)
    return {"cold": cold, "cold_cpu": cold_cpu, "first": first, "warm": statistics.median(warm),
            "warm_max": max(warm), "warm_cpu": warm_cpu, "kib": size / 1024, "rss": rss,
            "peak": peak}


def run(hotels: int, years: int) -> None:
    today = business_date(years)
    first, last = today, today + timedelta(days=NIGHTS - 1)
    address = f"/?property={code(1)}&from={first}&to={last}"
    with tempfile.TemporaryDirectory(prefix="bench-app-") as scratch:
        path = Path(scratch) / "warehouse.duckdb"
        build(path, hotels, years)
        alone = [reports_alone(path, first, last) for _ in range(REPEATS + 1)]
        app = the_app(path, address)
    base = statistics.median(wall for wall, _ in alone[1:])
    base_cpu = statistics.median(cpu for _, cpu in alone[1:])
    print(f"{hotels} hotel(s) x {years} year(s), {code(1)}'s morning page ({NIGHTS} nights "
          f"from {first}, {len(PAGE_REPORTS)} reports): reports alone {base:.2f} s, CPU "
          f"{base_cpu:.2f} s (first {alone[0][0]:.2f} s); page cold {app['cold']:.2f} s, CPU "
          f"{app['cold_cpu']:.2f} s (new process to the whole page; its request "
          f"{app['first']:.2f} s), warm {app['warm']:.2f} s (median of {REPEATS}, slowest "
          f"{app['warm_max']:.2f} s), CPU {app['warm_cpu']:.2f} s a request = "
          f"{app['warm'] / base:.2f} x the reports alone; "
          f"HTML {app['kib']:.0f} KiB; app RSS {app['rss']:.0f} MiB (peak "
          f"{app['peak']:.0f} MiB); goal warm < {GOAL_WARM_S:.0f} s "
          f"{'met' if app['warm'] < GOAL_WARM_S else 'NOT met'}, cold < {GOAL_COLD_S:.0f} s "
          f"{'met' if app['cold'] < GOAL_COLD_S else 'NOT met'}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hotels", type=int, help="one size only, in this process")
    parser.add_argument("--years", type=int, default=3)
    parser.add_argument("--quick", action="store_true",
                        help="1 hotel x 1 year (a check that it runs, not a figure)")
    args = parser.parse_args()
    if args.quick:
        run(1, 1)
    elif args.hotels is not None:
        run(args.hotels, args.years)
    else:
        print("\n".join(f"{k}: {v}" for k, v in describe().items()), flush=True)
        each_in_own_process("benchmarks.bench_app", [(1, args.years), (10, args.years)])


if __name__ == "__main__":
    main()
