"""A hotel group on one machine (issue 18, item 4; docs/ingestion.md, "A hotel group").

    uv run --group bench python -m benchmarks.bench_group [--hotels 20] [--days 7]

The sandbox (a child process, `pmsw sandbox serve --group N`) serves N hotels of a group,
alternately 80 and 40 rooms, each its own key at the real limit (600/min, burst 120), with
100 ms added latency. `pmsw sync` (a child process, as a user runs it) with a properties file
of the N hotels, each with the real limit:

1. initial load: the group in one run, against property GRP001 (80 rooms) alone, and against
   the rate-limit bound of the group's largest property (its calls less the burst, at 10/s);
2. the hotels live one more day (POST /_sandbox/advance), then the one-day incremental: the
   group in one run, against each property alone from the same warehouse (the slowest, and
   their sum: the time one run per property takes, as the pool would queue them);
3. peak memory (RSS of the `pmsw sync` process, started from benchmarks/launch.py so that the
   peak is its own and not this process's) of the incremental of 1, 5 and N properties.

The memory studies this script once ran (`--memory`, `--scale`, `--variant`, `--writer-memory`,
`--repeat`) concluded in docs/operations.md and docs/scaling.md; the script that ran them:
`git show 2d81b18:benchmarks/bench_group.py`.

Each figure is a ratio to a baseline run here, in the same process, on the same sandbox. The
"sync" time is the streams' span in meta.sync_runs (first start to last end); "whole" is the
command's wall time: interpreter and Dagster start, streams, marts of every property, checks
and the publish.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb
import httpx

from pipelines.demo.sandbox_process import sandbox_process
from pipelines.ingest.settings import SyncSettings
from pipelines.warehouse import read_copy_files
from sandbox.seed import GROUP_FIRST_ID, group_code
from sandbox.simulator.run import simulate_database

from .group_rig import BURST, RATE, limit_floor, properties_env, run_measured
from .machine import describe

REPO = Path(__file__).resolve().parents[1]


@dataclass
class Sync:
    codes: list[str]
    whole: float
    """Wall seconds of the `pmsw sync` command."""
    span: float
    """Seconds from the first stream's start to the last stream's end (meta.sync_runs)."""
    calls: dict[str, int]
    """Calls per property (meta.sync_runs of this run)."""
    peak_rss_mib: float


def pmsw_sync(work: Path, base_url: str, codes: list[str], warehouse: Path) -> Sync:
    """`pmsw sync` of `codes` into `warehouse` in a child process, each key's client at the
    real limit; its wall time and peak RSS."""
    env = properties_env(work / f"properties-{len(codes)}.yaml", dict.fromkeys(codes, base_url))
    cost = run_measured([sys.executable, "-m", "pipelines.cli", "sync", "--no-progress",
                         "--warehouse", str(warehouse)], REPO, env)
    with duckdb.connect(str(warehouse), read_only=True) as conn:
        run = conn.execute("SELECT run_id FROM meta.sync_runs ORDER BY started_at DESC "
                           "LIMIT 1").fetchone()
        assert run is not None
        rows = conn.execute(
            "SELECT p.code, sum(s.calls), min(s.started_at), max(s.ended_at) "
            "FROM meta.sync_runs s JOIN core.property p USING (property_id) "
            "WHERE s.run_id = ? GROUP BY 1", [run[0]]).fetchall()
    span = (max(r[3] for r in rows) - min(r[2] for r in rows)).total_seconds()
    return Sync(codes, cost.seconds, span, {str(r[0]): int(r[1]) for r in rows}, cost.rss_mib)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hotels", type=int, default=20)
    parser.add_argument("--days", type=int, default=7, help="simulated days after warm-up")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--latency-ms", type=int, default=100)
    args = parser.parse_args(argv)
    machine = describe()
    print(f"machine: {machine['nproc']} cores, {machine['memory']}, load "
          f"{machine['load average at start (1/5/15 min)']}")
    codes = [group_code(n) for n in range(1, args.hotels + 1)]
    ids = tuple(GROUP_FIRST_ID + n for n in range(args.hotels))
    work = Path(tempfile.mkdtemp(prefix="pmsw-bench-group-"))
    try:
        began = time.perf_counter()
        simulate_database(str(work / "sim.sqlite"), days=args.days, seed=args.seed,
                          group=args.hotels, property_ids=ids)
        print(f"simulated {args.days} days (+180 warm-up) of {args.hotels} hotels in "
              f"{time.perf_counter() - began:.0f} s")
        served = work / "served.sqlite"
        shutil.copyfile(work / "sim.sqlite", served)
        with sandbox_process(db_path=served, extra_args=[
                "--admin", "--clock", "simulated", "--rate-per-minute", str(RATE),
                "--burst", str(BURST)]) as base_url:
            root = base_url.removesuffix("/v1")
            httpx.put(f"{root}/_sandbox/faults", json={"latency_ms": args.latency_ms},
                      timeout=30).raise_for_status()
            initial = pmsw_sync(work, base_url, codes, work / "group.duckdb")
            time.sleep(13)  # GRP001's bucket refills (120 calls at 10/s) before its run
            alone = pmsw_sync(work, base_url, codes[:1], work / "alone.duckdb")
            httpx.post(f"{root}/_sandbox/advance", json={"days": 1, "property_ids": list(ids)},
                       timeout=1800).raise_for_status()
            start = work / "after-initial.duckdb"
            shutil.copyfile(work / "group.duckdb", start)

            def from_start(name: str, chosen: list[str]) -> Sync:
                target = work / f"{name}.duckdb"
                shutil.copyfile(start, target)
                time.sleep(13)  # every bucket full again, as an hour apart
                try:
                    return pmsw_sync(work, base_url, chosen, target)
                finally:  # a copy of the group's warehouse per run would fill the disk
                    for copy in (target, *read_copy_files(target)):
                        copy.unlink(missing_ok=True)

            group = from_start("incremental-group", codes)
            singles = [from_start(f"incremental-{c}", [c]) for c in codes]
            five = from_start("incremental-5", codes[:5])
        report(args, initial, alone, group, singles, five)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(args: argparse.Namespace, initial: Sync, alone: Sync, group: Sync,
           singles: list[Sync], five: Sync) -> None:
    largest = max(initial.calls.values())
    print(f"\n{args.hotels} hotels (GRP001-GRP{args.hotels:03d}: odd 80 rooms, even 40), each "
          f"its own key at {RATE}/min burst {BURST}, {args.latency_ms} ms added latency\n")
    print("| phase | run | calls | sync s | whole s | peak RSS MiB | ratio |")
    print("|---|---|---:|---:|---:|---:|---|")
    print(f"| initial load | the group, one run | {sum(initial.calls.values())} | "
          f"{initial.span:.1f} | {initial.whole:.1f} | {initial.peak_rss_mib:.0f} | sync "
          f"{initial.span / alone.span:.2f}x GRP001 alone; "
          f"{initial.span / limit_floor(largest):.2f}x the largest property's rate-limit bound "
          f"({largest} calls: {limit_floor(largest):.1f} s) |")
    print(f"| initial load | GRP001 alone | {sum(alone.calls.values())} | {alone.span:.1f} | "
          f"{alone.whole:.1f} | {alone.peak_rss_mib:.0f} | baseline |")
    slowest = max(singles, key=lambda s: s.span)
    total = sum(s.span for s in singles)
    total_whole = sum(s.whole for s in singles)
    print(f"| one-day incremental | the group, one run | {sum(group.calls.values())} | "
          f"{group.span:.1f} | {group.whole:.1f} | {group.peak_rss_mib:.0f} | sync "
          f"{group.span / slowest.span:.2f}x the slowest alone "
          f"({slowest.codes[0]}); {group.span / total:.2f}x one after another |")
    print(f"| one-day incremental | the slowest alone ({slowest.codes[0]}) | "
          f"{sum(slowest.calls.values())} | {slowest.span:.1f} | {slowest.whole:.1f} | "
          f"{slowest.peak_rss_mib:.0f} | baseline |")
    print(f"| one-day incremental | each alone, one after another | "
          f"{sum(sum(s.calls.values()) for s in singles)} | {total:.1f} | {total_whole:.1f} | "
          f"{max(s.peak_rss_mib for s in singles):.0f} (max) | "
          f"whole: the group {group.whole / total_whole:.2f}x |")
    print(f"| one-day incremental | 5 hotels, one run | {sum(five.calls.values())} | "
          f"{five.span:.1f} | {five.whole:.1f} | {five.peak_rss_mib:.0f} | |")
    one_rss = singles[0].peak_rss_mib
    print(f"\npeak RSS of the incremental: 1 hotel {one_rss:.0f} MiB, 5 hotels "
          f"{five.peak_rss_mib:.0f} MiB ({five.peak_rss_mib / one_rss:.2f}x), {args.hotels} "
          f"hotels {group.peak_rss_mib:.0f} MiB ({group.peak_rss_mib / one_rss:.2f}x)")
    print("the whole command's time of the group includes the marts of every hotel, built "
          f"{SyncSettings().marts_at_once} properties at a time: "
          f"{group.whole - group.span:.1f} s beside "
          f"{slowest.whole - slowest.span:.1f} s for one hotel")


if __name__ == "__main__":
    main()
