"""The group layout's parallel runs (issue 51; docs/scaling.md, "A group: one file per property").

    uv run --group bench python -m benchmarks.bench_group_files [--hotels 8] [--days 3]
    uv run --group bench python -m benchmarks.bench_group_files --hotels 50 --days 1 \
        --warmup-days 3 --singles 2 --sandboxes 10

The sandbox serves N hotels of a group, each its own key at the spec's limit (600/min, burst
120) with 100 ms added latency; `--sandboxes S` starts S sandbox processes, each on its own
copy of the simulated database, hotel i served by sandbox i mod S (the rig: one sandbox
process is one core, benchmarks/group_rig.py). Each hotel's initial load alone, one after
another (`pmsw sync --property CODE --warehouse DIR`, its own fresh group directory), is the
baseline: the slowest of them (`--singles K`: only the K hotels with the most reservations,
the slowest since a load's calls follow its reservations). Then the N hotels as parallel runs
into one group directory (`pmsw sync --warehouse DIR --properties-at-once N`: a process per
property, each its own file), after the keys' buckets refilled; then the group once more, an
incremental with nothing changed (the sandbox's clock stands still): the least an hourly run
costs. Printed: the ratio of the group's wall time to the slowest single's (goal <= 1.2 at
8, <= 1.5 above), and to the group's two floors: the rate limit's (the most calls of one
property: the burst at once, the rest at the key's 10/s) and the CPU's (the CPU-seconds of the
syncs and the sandboxes over the machine's cores), with the idle cores the goal would take;
each run's calls, CPU-seconds, peak RSS and bytes written, the sandboxes' CPU, the files'
sizes, and the machine's load.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import duckdb

from benchmarks import group_rig as rig
from sandbox.seed import GROUP_FIRST_ID, group_code
from sandbox.simulator.params import SimParams
from sandbox.simulator.run import simulate_database

REPO = Path(__file__).resolve().parents[1]


def floors(seconds: float, slowest: float, calls: dict[str, int], cpu: float,
           cores: int) -> str:
    """The group run's `seconds` against its floors: the rate limit's (its property with the
    most `calls`) and the CPU's (`cpu` seconds the group needed over `cores`); the idle cores
    its goal (1.2x the `slowest` alone up to 8 properties, 1.5x above) would take."""
    code = max(calls, key=lambda c: (calls[c], c))
    limit, machine = rig.limit_floor(calls[code]), cpu / cores
    goal = 1.2 if len(calls) <= 8 else 1.5
    against = f"the group {seconds / limit:.2f}x" if limit else "no wait"
    return (f"  floors: the rate limit {limit:.1f} s ({code}'s {calls[code]:,} calls, "
            f"{rig.BURST} at once, the rest at {rig.RATE // 60}/s): {against}; the CPU "
            f"{machine:.1f} s ({cpu:.1f} CPU-s of syncs and sandboxes over {cores} cores): "
            f"the group {seconds / machine:.2f}x, the floor {machine / slowest:.2f}x the slowest "
            f"alone; within {goal}x the slowest alone ({goal * slowest:.0f} s) the group's CPU "
            f"needs {cpu / (goal * slowest):.2f} idle cores")


def _sync(env: dict[str, str], group: Path, codes: list[str]) -> rig.Cost:
    """What `pmsw sync` of `codes` into the group directory `group` cost."""
    group.mkdir(parents=True, exist_ok=True)
    return rig.run_measured(
        [sys.executable, "-m", "pipelines.cli", "sync", "--no-progress", "--warehouse",
         str(group), "--properties-at-once", str(len(codes)),
         *(a for c in codes for a in ("--property", c))], REPO, env)


def _calls(member: Path, since: int = 0) -> int:
    """API calls of the sync runs of `member` after its first `since` runs."""
    with duckdb.connect(str(member), read_only=True) as conn:
        row = conn.execute(
            "SELECT sum(calls) FROM meta.sync_runs WHERE run_id NOT IN (SELECT run_id FROM "
            "meta.sync_runs GROUP BY run_id ORDER BY min(started_at) LIMIT ?)",
            [since]).fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def _largest(database: Path, ids: tuple[int, ...], count: int) -> list[str]:
    """Codes of the `count` hotels with the most reservations, most first."""
    with closing(sqlite3.connect(database)) as conn:
        rows = conn.execute(
            f"SELECT property_id FROM reservations WHERE property_id IN "
            f"({','.join('?' * len(ids))}) GROUP BY property_id "
            f"ORDER BY count(*) DESC, property_id LIMIT ?", [*ids, count]).fetchall()
    return [group_code(pid - GROUP_FIRST_ID + 1) for (pid,) in rows]


def _marts(member: Path, work: Path) -> tuple[float, float]:
    """Wall and CPU-seconds of the first build of every mart of a copy of `member` after its
    initial load (its marts' rows and records deleted first: what its sync built at its end)."""
    from pipelines.marts import MARTS, MartSettings, build_marts
    from pipelines.warehouse import writer

    copy = work / "marts.duckdb"
    shutil.copyfile(member, copy)
    with writer(copy, publish=False) as conn:
        row = conn.execute("SELECT min(property_id) FROM meta.sync_runs").fetchone()
        assert row is not None
        for table in ("meta.mart_inputs", "meta.mart_builds", *(f"mart.{m}" for m in MARTS)):
            conn.execute(f"DELETE FROM {table}")
        began, cpu = time.perf_counter(), time.process_time()
        build_marts(conn, int(row[0]), MartSettings(events=()))
        return time.perf_counter() - began, time.process_time() - cpu


def _cpu(fleet: list[rig.Sandbox]) -> float:
    return sum(rig.cpu_seconds(s.pid) for s in fleet)


def _line(what: str, cost: rig.Cost, calls: int, properties: int = 1) -> str:
    each = f", the limit's floor {rig.limit_floor(calls):.1f} s" if properties == 1 else (
        f" (each {cost.cpu / properties:.1f} CPU-s, {cost.written / properties / 2**20:.1f} MiB)")
    return (f"{what}: {cost.seconds:7.1f} s, {calls:6,} calls, CPU {cost.cpu:7.1f} s, "
            f"peak RSS {cost.rss_mib:5.0f} MiB, written {cost.written / 2**20:7.1f} MiB{each}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hotels", type=int, default=8)
    parser.add_argument("--days", type=int, default=3, help="simulated days after warm-up")
    parser.add_argument("--warmup-days", type=int, default=30)
    parser.add_argument("--seed", type=int, default=51)
    parser.add_argument("--latency-ms", type=int, default=100)
    parser.add_argument("--singles", type=int, default=0,
                        help="hotels run alone: the K with the most reservations (0: all)")
    parser.add_argument("--sandboxes", type=int, default=1, help="sandbox processes")
    parser.add_argument("--no-incremental", action="store_true",
                        help="skip the incremental after the group run")
    args = parser.parse_args(argv)
    print(f"machine: {os.cpu_count()} cores, load at start {os.getloadavg()}", flush=True)
    codes = [group_code(n) for n in range(1, args.hotels + 1)]
    ids = tuple(GROUP_FIRST_ID + n for n in range(args.hotels))
    work = Path(tempfile.mkdtemp(prefix="pmsw-bench-group-files-"))
    try:
        began = time.perf_counter()
        database = work / "sim.sqlite"
        simulate_database(str(database), days=args.days, seed=args.seed, group=args.hotels,
                          property_ids=ids,
                          params=replace(SimParams(), warmup_days=args.warmup_days))
        print(f"simulated {args.days} days (+{args.warmup_days} warm-up) of {args.hotels} "
              f"hotels in {time.perf_counter() - began:.0f} s", flush=True)
        alone = _largest(database, ids, args.singles or args.hotels)
        with rig.sandboxes(database, args.sandboxes, [
                "--admin", "--clock", "simulated", "--rate-per-minute", str(rig.RATE),
                "--burst", str(rig.BURST)], args.latency_ms) as fleet:
            env = rig.properties_env(work / "properties.yaml", {
                c: fleet[i % len(fleet)].base_url for i, c in enumerate(codes)})
            singles = {}
            for code in alone:
                singles[code] = _sync(env, work / f"alone-{code}", [code])
                print(_line(f"{code} alone", singles[code],
                            _calls(work / f"alone-{code}" / f"{code}.duckdb")), flush=True)
            top = max(singles, key=lambda c: singles[c].seconds)
            wall, cpu = _marts(work / f"alone-{top}" / f"{top}.duckdb", work)
            print(f"{top}'s marts built whole again (a copy, in this process): {wall:.1f} s, "
                  f"CPU {cpu:.1f} s", flush=True)
            time.sleep(13)  # every key's bucket full again (120 calls at 10/s)
            load, served = os.getloadavg(), _cpu(fleet)
            group = _sync(env, work / "group", codes)
            load_after, served = os.getloadavg(), _cpu(fleet) - served
            members = [work / "group" / f"{c}.duckdb" for c in codes]
            calls = [_calls(m) for m in members]
            if not args.no_incremental:
                time.sleep(13)
                again = _sync(env, work / "group", codes)
                again_calls = sum(_calls(m, since=1) for m in members)
        slowest = max(singles, key=lambda c: singles[c].seconds)
        print(_line(f"{args.hotels} properties as parallel runs", group, sum(calls),
                    args.hotels))
        print(f"  calls per property {min(calls):,}-{max(calls):,}; sandboxes ({len(fleet)}) "
              f"CPU {served:.1f} s; syncs + sandboxes {group.cpu + served:.0f} CPU-s = "
              f"{(group.cpu + served) / (os.cpu_count() or 1) / group.seconds:.2f} of the "
              f"{os.cpu_count()} cores over the run")
        sizes = [m.stat().st_size for m in members]
        print(f"  files {min(sizes) / 2**20:.1f}-{max(sizes) / 2**20:.1f} MiB per property "
              f"(+ each its read copy), {sum(sizes) / 2**20:.0f} MiB in all")
        if not args.no_incremental:
            print(_line("  then an incremental, nothing changed", again, again_calls,
                        args.hotels))
        print(f"{args.hotels} properties as parallel runs: {group.seconds:.1f} s against the "
              f"slowest alone {slowest} {singles[slowest].seconds:.1f} s: "
              f"{group.seconds / singles[slowest].seconds:.2f}x (load before {load}, after "
              f"{load_after})")
        print(floors(group.seconds, singles[slowest].seconds, dict(zip(codes, calls,
                     strict=True)), group.cpu + served, os.cpu_count() or 1))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
