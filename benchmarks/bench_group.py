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

With `--memory` it runs only the initial load of the group and then the one-day incremental of
GRP001 alone, of 5 hotels, of the N hotels, of the N hotels with `--properties-at-once 5`
(and 10), and of the N hotels with DuckDB's own memory default instead of the writer's cap
(PMSW_WAREHOUSE_MEMORY_LIMIT, docs/operations.md): peak memory against the number of
properties, what the cap on properties costs in time, and what the writer's DuckDB cap saves.
Each run's RSS is sampled every 50 ms with its high-water mark (a shorter peak counts) and its
peak told before the streams, per stream, between the streams and after them.
`--rate-per-minute 60000` lifts the limit to look at memory in minutes (its times mean
nothing then).

With `--scale 5,10,20,40` (and `--at-once 5`) it runs the initial load of the N = --hotels
hotels, then the one-day incremental of the first 5, 10, 20 and 40 of them, 5 at a time, each
from the same warehouse: peak memory against the number of properties at the same number in
flight. With `--writer-memory 48MB` each size runs again with the writer's DuckDB limited to
that (PMSW_WAREHOUSE_MEMORY_LIMIT): is the growth DuckDB's buffer pool, which keeps the blocks
a run touches up to its limit? (Measured at b3e2b65: not alone; b921919:benchmarks/results.md.) Each
`--variant LABEL:VAR=VALUE[,VAR=VALUE]` runs each size again with those variables in the
command's environment: another malloc (`LD_PRELOAD` of jemalloc, from Debian's libjemalloc2),
glibc's tunables (`MALLOC_ARENA_MAX`, `MALLOC_MMAP_THRESHOLD_`), polars' allocator options
(`_RJEM_MALLOC_CONF`, its value may hold commas), the writer's limit together with them.
`--repeat R` runs every size and variant R times, the repeats apart, and tells the median with
the min and max.

Each figure is a ratio to a baseline run here, in the same process, on the same sandbox. The
"sync" time is the streams' span in meta.sync_runs (first start to last end); "whole" is the
command's wall time: interpreter and Dagster start, streams, marts of every property, checks
and the publish.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from statistics import median

import duckdb
import httpx

from pipelines.demo.sandbox_process import sandbox_process
from pipelines.ingest.settings import SyncSettings
from pipelines.warehouse import MEMORY_ENV
from pipelines.warehouse.connection import writer_memory_limit
from sandbox.seed import GROUP_FIRST_ID, group_code, group_key
from sandbox.simulator.run import simulate_database

from .machine import describe, high_water_mib, rss_mib

REPO = Path(__file__).resolve().parents[1]
LAUNCHER = Path(__file__).with_name("launch.py")
RATE, BURST = 600, 120
"""The spec's limit per key, on the sandbox and in each property's client."""


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
    peak_by_phase: dict[str, float] = field(default_factory=dict)
    """Highest RSS sampled (MiB) `before` the first stream, while each stream ran (any of the
    run's properties), `between` the streams' spans, and `after` the streams (marts, checks,
    publish)."""


class RssSampler:
    """Samples a child process's resident memory every 50 ms, with the wall clock: per sample
    the highest it reached since the sample before (its VmHWM when that rose, else its VmRSS
    now), so a peak shorter than 50 ms is told in the phase it fell in."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.samples: list[tuple[datetime, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        high = 0.0
        while not self._stop.wait(0.05):
            try:
                now, water = rss_mib(self.pid), high_water_mib(self.pid)
            except OSError:  # it has exited
                return
            self.samples.append((datetime.now(UTC), water if water > high else now))
            high = water

    def by_phase(self, streams: list[tuple[str, datetime, datetime]]) -> dict[str, float]:
        """The highest sample before the first stream started (the interpreter, Dagster's
        start), inside each stream's span (first start to last end over the properties),
        between the streams' spans (Dagster's steps, the streams' asset checks) and after the
        last stream ended."""
        peaks: dict[str, float] = {}
        first = min(began for _, began, _ in streams)
        last = max(ended for _, _, ended in streams)
        phases: list[tuple[str, list[float]]] = [
            ("before", [rss for at, rss in self.samples if at < first])]
        phases += [(name, [rss for at, rss in self.samples if began <= at <= ended])
                   for name, began, ended in streams]
        phases.append(("between", [rss for at, rss in self.samples if first <= at <= last
                                   and not any(b <= at <= e for _, b, e in streams)]))
        phases.append(("after", [rss for at, rss in self.samples if at > last]))
        for name, inside in phases:
            if inside:
                peaks[name] = max(inside)
        return peaks


def _properties(path: Path, base_url: str, codes: list[str], rate: int,
                burst: int) -> dict[str, str]:
    lines, env = ["properties:"], {}
    for code in codes:
        number = int(code.removeprefix("GRP"))
        lines += [f"  - code: {code}", f"    base_url: {base_url}",
                  f"    api_key_env: KEY_{code}", f"    rate_per_minute: {rate}",
                  f"    burst: {burst}"]
        env[f"KEY_{code}"] = group_key(number)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"PMSW_PROPERTIES_FILE": str(path), **env}


def machine_mib() -> float:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20


def pmsw_sync(work: Path, base_url: str, codes: list[str], warehouse: Path,
              at_once: int | None = None, limit: tuple[int, int] = (RATE, BURST),
              env_extra: dict[str, str] | None = None) -> Sync:
    """`pmsw sync` of `codes` into `warehouse` in a child process (`--properties-at-once`
    `at_once`, each key's client at `limit`: per minute, burst; `env_extra` added to its
    environment); its wall time and peak RSS."""
    env = _properties(work / f"properties-{len(codes)}.yaml", base_url, codes, *limit)
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("PMS_", "PMSW_", "DAGSTER_"))}
    log = work / "sync.log"
    began = time.perf_counter()
    log.unlink(missing_ok=True)
    launcher = subprocess.Popen(  # the sync's peak free of this process's (launch.py)
        [sys.executable, str(LAUNCHER), str(log), "--", sys.executable, "-m", "pipelines.cli",
         "sync", "--no-progress", "--warehouse", str(warehouse),
         *([] if at_once is None else ["--properties-at-once", str(at_once)])],
        cwd=REPO, env={**clean, **env, **(env_extra or {})}, stdout=subprocess.PIPE, text=True)
    assert launcher.stdout is not None
    with RssSampler(int(launcher.stdout.readline())) as sampler:
        code, peak_kib = (int(v) for v in launcher.stdout.readline().split())
    launcher.wait()
    whole = time.perf_counter() - began
    if code != 0:
        raise RuntimeError(f"pmsw sync failed:\n{log.read_text()[-3000:]}")
    conn = duckdb.connect(str(warehouse), read_only=True)
    try:
        run = conn.execute("SELECT run_id FROM meta.sync_runs ORDER BY started_at DESC "
                           "LIMIT 1").fetchone()
        assert run is not None
        rows = conn.execute(
            "SELECT p.code, sum(s.calls), min(s.started_at), max(s.ended_at) "
            "FROM meta.sync_runs s JOIN core.property p USING (property_id) "
            "WHERE s.run_id = ? GROUP BY 1", [run[0]]).fetchall()
        streams = conn.execute(
            "SELECT stream, min(started_at), max(ended_at) FROM meta.sync_runs "
            "WHERE run_id = ? GROUP BY 1 ORDER BY 2", [run[0]]).fetchall()
    finally:
        conn.close()
    span = (max(r[3] for r in rows) - min(r[2] for r in rows)).total_seconds()
    return Sync(codes, whole, span, {str(r[0]): int(r[1]) for r in rows},
                peak_kib / 1024, sampler.by_phase(
                    [(str(name), began, ended) for name, began, ended in streams]))


def variant(text: str) -> tuple[str, dict[str, str]]:
    """`LABEL:VAR=VALUE[,VAR=VALUE]` as (label, environment); a preloaded library must exist
    (the loader would only warn, and the run would measure without it)."""
    label, sep, assignments = text.partition(":")
    # A comma starts another assignment only before NAME=: a value may hold commas
    # (_RJEM_MALLOC_CONF=dirty_decay_ms:100,muzzy_decay_ms:0).
    pairs = re.split(r",(?=[A-Za-z_][A-Za-z0-9_]*=)", assignments) if assignments else []
    env = dict(pair.split("=", 1) for pair in pairs if "=" in pair)
    if not sep or not label or not env or len(env) != len(pairs):
        raise SystemExit(f"--variant {text!r}: expected LABEL:VAR=VALUE[,VAR=VALUE]")
    for library in env.get("LD_PRELOAD", "").split():
        if not Path(library).is_file():
            raise SystemExit(f"--variant {label}: LD_PRELOAD {library} is not a file")
    return label, env


def bound(calls: int) -> float:
    """Seconds the rate limit alone needs for `calls` on one key: the burst, then 10/s."""
    return max(0, calls - BURST) / (RATE / 60)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hotels", type=int, default=20)
    parser.add_argument("--days", type=int, default=7, help="simulated days after warm-up")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--latency-ms", type=int, default=100)
    parser.add_argument("--memory", action="store_true",
                        help="only peak memory against the number of properties (and the cap)")
    parser.add_argument("--scale", default=None,
                        help="numbers of hotels (comma-separated, at most --hotels): the "
                             "incremental of each at --at-once, peak memory against them")
    parser.add_argument("--at-once", type=int, default=5,
                        help="properties at once of the --scale runs")
    parser.add_argument("--writer-memory", default=None,
                        help="with --scale: each size again with this DuckDB memory limit of "
                             "the writer (e.g. 48MB); the same as --variant "
                             "SIZE:PMSW_WAREHOUSE_MEMORY_LIMIT=SIZE")
    parser.add_argument("--variant", action="append", default=[],
                        metavar="LABEL:VAR=VALUE[,VAR=VALUE]",
                        help="with --scale: each size again with these variables in `pmsw "
                             "sync`'s environment (e.g. jemalloc:LD_PRELOAD=/usr/lib/x86_64-"
                             "linux-gnu/libjemalloc.so.2); repeatable")
    parser.add_argument("--repeat", type=int, default=1,
                        help="with --scale: runs of each size and variant (the median, min "
                             "and max are told)")
    parser.add_argument("--rate-per-minute", type=int, default=RATE,
                        help="each key's limit (sandbox and client); above the spec's 600 "
                             "only to look at memory quickly: the times then mean nothing")
    args = parser.parse_args(argv)
    variants = [*([(f"the writer's DuckDB at {args.writer_memory}",
                    {MEMORY_ENV: args.writer_memory})] if args.writer_memory else []),
                *(variant(v) for v in args.variant)]
    machine = describe()
    print(f"machine: {machine['nproc']} cores, {machine['memory']}, load "
          f"{machine['load average at start (1/5/15 min)']}")
    codes = [group_code(n) for n in range(1, args.hotels + 1)]
    burst = BURST if args.rate_per_minute == RATE else args.rate_per_minute
    limit = (args.rate_per_minute, burst)
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
                "--admin", "--clock", "simulated", "--rate-per-minute", str(args.rate_per_minute),
                "--burst", str(burst)]) as base_url:
            root = base_url.removesuffix("/v1")
            httpx.put(f"{root}/_sandbox/faults", json={"latency_ms": args.latency_ms},
                      timeout=30).raise_for_status()
            initial = pmsw_sync(work, base_url, codes, work / "group.duckdb", limit=limit)
            if not (args.memory or args.scale):
                time.sleep(13)  # GRP001's bucket refills (120 calls at 10/s) before its run
                alone = pmsw_sync(work, base_url, codes[:1], work / "alone.duckdb",
                                  limit=limit)
            httpx.post(f"{root}/_sandbox/advance", json={"days": 1, "property_ids": list(ids)},
                       timeout=1800).raise_for_status()
            start = work / "after-initial.duckdb"
            shutil.copyfile(work / "group.duckdb", start)

            def from_start(name: str, chosen: list[str], at_once: int | None = None,
                           env: dict[str, str] | None = None) -> Sync:
                target = work / f"{name}.duckdb"
                shutil.copyfile(start, target)
                if args.rate_per_minute == RATE:
                    time.sleep(13)  # every bucket full again, as an hour apart
                try:
                    return pmsw_sync(work, base_url, chosen, target, at_once, limit, env)
                finally:  # a copy of the group's warehouse per run would fill the disk
                    for copy in (target, target.with_suffix(".read.duckdb")):
                        copy.unlink(missing_ok=True)

            if args.scale:
                sizes = sorted({int(n) for n in args.scale.split(",")})
                if sizes[-1] > args.hotels:
                    raise SystemExit(f"--scale {sizes[-1]} is more than --hotels {args.hotels}")
                default = f"as shipped (the writer's DuckDB at {writer_memory_limit()})"
                plan = [(label, env, n) for label, env in [(default, {}), *variants]
                        for n in sizes]
                done: list[list[Sync]] = [[] for _ in plan]
                for repeat in range(args.repeat):  # the repeats apart, not back to back
                    for i, (_, env, n) in enumerate(plan):
                        done[i].append(from_start(f"scale-{n}-{i}-{repeat}", codes[:n],
                                                  args.at_once, env=env))
                rows = [(f"{n} hotels", args.at_once, label, runs)
                        for (label, _, n), runs in zip(plan, done, strict=True)]
                report_memory(args, initial, rows, setting="setting",
                              initial_setting=default)
                return
            if args.memory:
                capped = f"the writer's ({writer_memory_limit()})"
                at_once = min(SyncSettings().properties_at_once, args.hotels)
                duckdb_default = f"{int(0.8 * machine_mib())}MiB"
                report_memory(args, initial, [
                    ("1 hotel", 1, capped, [from_start("one", codes[:1])]),
                    ("5 hotels", 5, capped, [from_start("five", codes[:5])]),
                    (f"{args.hotels} hotels", at_once, capped, [from_start("group", codes)]),
                    (f"{args.hotels} hotels", 5, capped, [from_start("group-5", codes, 5)]),
                    (f"{args.hotels} hotels", 10, capped, [from_start("group-10", codes, 10)]),
                    (f"{args.hotels} hotels", at_once, f"DuckDB's default ({duckdb_default})",
                     [from_start("group-uncapped", codes,
                                 env={MEMORY_ENV: duckdb_default})]),
                ])
                return
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
          f"{initial.span / bound(largest):.2f}x the largest property's rate-limit bound "
          f"({largest} calls: {bound(largest):.1f} s) |")
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


def report_memory(args: argparse.Namespace, initial: Sync,
                  runs: list[tuple[str, int, str, list[Sync]]],
                  setting: str = "DuckDB memory limit", initial_setting: str = "the writer's",
                  ) -> None:
    """`runs`: (label, properties at once, the value of `setting`, its runs); the first is
    the baseline (the fewest hotels). Each figure is the median of the runs, with their min
    and max when there are several."""
    baseline = median([r.peak_rss_mib for r in runs[0][3]])
    print(f"\n{args.hotels} hotels (odd 80 rooms, even 40), each its own key at "
          f"{args.rate_per_minute}/min, {args.latency_ms} ms added latency; one-day "
          "incremental" + (f"; median of {args.repeat} runs (min-max)" if args.repeat > 1
                           else "") + "\n")
    print(f"| run | properties at once | {setting} | calls | sync s | whole s | "
          f"peak RSS MiB | RSS vs {runs[0][0]} |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    initial_at_once = min(SyncSettings().properties_at_once, len(initial.codes))
    print(f"| initial load, {len(initial.codes)} hotels | {initial_at_once} | {initial_setting} | "
          f"{sum(initial.calls.values())} | {initial.span:.1f} | {initial.whole:.1f} | "
          f"{initial.peak_rss_mib:.0f} | |")
    for label, at_once, value, syncs in runs:
        peak = [r.peak_rss_mib for r in syncs]
        print(f"| {label} | {at_once} | {value} | {sum(syncs[0].calls.values())} | "
              f"{spread([r.span for r in syncs], '.1f')} | "
              f"{spread([r.whole for r in syncs], '.1f')} | {spread(peak, '.0f')} | "
              f"{median(peak) / baseline:.2f}x |")
    phases = list(dict.fromkeys(p for r in [initial, *(s for *_, syncs in runs for s in syncs)]
                                for p in r.peak_by_phase))
    print("\nThe highest RSS in each phase (MiB, sampled every 50 ms with the process's "
          "high-water mark, so a shorter peak counts; the median of the runs) before the "
          "first stream (the interpreter, Dagster's start), while each stream ran (any "
          "property), between the streams' spans (Dagster's steps, the streams' asset checks) "
          "and after the streams (the marts, marts_at_once properties at a time; the checks; the "
          "publish):\n")
    print(f"| run | properties at once | {setting} | " + " | ".join(phases) + " |")
    print("|---|---:|---|" + "---:|" * len(phases))
    first = (f"initial load, {len(initial.codes)} hotels", initial_at_once, initial_setting,
             [initial])
    for label, at_once, value, syncs in [first, *runs]:
        cells = [[r.peak_by_phase[p] for r in syncs if p in r.peak_by_phase] for p in phases]
        print(f"| {label} | {at_once} | {value} | " + " | ".join(
            f"{median(c):.0f}" if c else "" for c in cells) + " |")


def spread(values: list[float], form: str) -> str:
    """The median, and (min-max) when there are several values."""
    if len(values) == 1:
        return format(values[0], form)
    return f"{format(median(values), form)} ({format(min(values), form)}-" \
           f"{format(max(values), form)})"


if __name__ == "__main__":
    main()
