"""Every benchmark in one command: writes benchmarks/results.md whole and prints it.

    uv run --group bench python -m benchmarks.run_all                 # about three hours
    uv run --group bench python -m benchmarks.run_all --only race     # one part (repeatable)
    uv run --group bench python -m benchmarks.run_all --full          # + marts at 100 hotels
    uv run --group bench python -m benchmarks.run_all --only forecast --quick   # the quick sizes

The file has one section per benchmark, in the order of LAYOUT: those of the parts run now,
the last ones written of the parts not run, and nothing else (`results.compose`). Parts:

- race: our sync core vs dlt's rest_api, serial, complete and parallel, on the 40- and 80-room
  hotel, initial load and incrementals after 1 hour and 1 day, `--repeats` runs each
  (benchmarks/race.py; the two hotels at once, each in its own process with its own sandbox
  and key: the runs are bound by the rate limit and the latency, not by the CPU);
- marts: polars vs DuckDB SQL at 1 and 10 hotels (100 with --full) x 3 years, each size in
  its own process with its peak RSS (benchmarks/marts_scale.py);
- throughput: the sandbox's requests per second (benchmarks/throughput.py);
- the others run one script each and keep what it prints (SCRIPTS).
The parts run one after the other. `--rewrite` runs none and writes the file again from its
last sections (after a change to the layout or to `compose`).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from .machine import describe
from .results import (
    Measured,
    RaceRun,
    Section,
    compose,
    figures,
    machine_section,
    marts_section,
    notes_section,
    race_sections,
    script_section,
    throughput_section,
)

REPO = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).resolve().parent / "results.md"

SCRIPTS: dict[str, tuple[list[str], list[str], str, str]] = {
    # part: (the command, its arguments under --quick, the section's key, what it measures)
    "client": (["-m", "benchmarks.bench_client_folios"], [], "Client rate",
               "The client's rate against the rate limit (`benchmarks/bench_client_folios.py`): "
               "folios of 1,500 reservations, 200 ms added latency, 600/min burst 120."),
    "simulator": (["-m", "benchmarks.bench_simulator"], ["--days", "30"], "Simulator year",
                  "A year of the 80-room hotel through the simulator "
                  "(`benchmarks/bench_simulator.py`, target 60 s)."),
    "demo": (["-m", "benchmarks.bench_demo"], [], "Demo steps",
             "`pmsw demo` (rate limit lifted, as the demo runs) step by step "
             "(`benchmarks/bench_demo.py`, target 300 s)."),
    "group": (["-m", "benchmarks.bench_group"], [], "A hotel group",
              "20 hotels of a group synced by `pmsw sync` in one run, each its own key at the "
              "real limit, against each alone (`benchmarks/bench_group.py`; goals: the one-day "
              "incremental within 1.5x the slowest hotel alone, the initial load bounded by "
              "the per-key limit, peak memory flat in the number of hotels)."),
    "group-files": (["-m", "benchmarks.bench_group_files"],
                    ["--hotels", "2", "--days", "1", "--warmup-days", "7"],
                    "A group as parallel runs",
                    "Hotels of a group in the group layout (one DuckDB file each), synced as "
                    "parallel runs by `pmsw sync --warehouse DIR`, against each alone "
                    "(`benchmarks/bench_group_files.py`; goal: 8 hotels within 1.2x the slowest "
                    "alone, at the real limit per key)."),
    "ingest": (["-m", "benchmarks.bench_ingest"], ["--days", "30"], "Ingestion of a year",
               "Initial load and one-day incremental of a simulated year of the 80-room hotel, "
               "calls against the floor and wall time against the rate-limit bound "
               "(`benchmarks/bench_ingest.py`)."),
    "hourly": (["-m", "benchmarks.bench_hourly"], ["--days", "20"],
               "Hourly incremental folio reads",
               "An hourly run's calls by stream and folio class, and the warehouse's bytes "
               "per property (`benchmarks/bench_hourly.py`, 60 simulated days)."),
    "publish": (["-m", "benchmarks.bench_publish"], ["--mib", "20"],
                "Publishing the read copy",
                "`pipelines.warehouse.publish` against a plain copy of the same bytes, nothing "
                "changed and one day changed, on a synthetic file of 20 MiB (`--mib 60` for a "
                "property-year; `benchmarks/bench_publish.py`, goal: at most 2x)."),
    "marts-growth": (["-m", "benchmarks.bench_marts_growth"], ["--years", "1"],
                     "Marts against history and change",
                     "The marts of one 80-room property at 1, 2 and 3 years, after 1 %, 10 % "
                     "and 100 % of its room entries changed (`benchmarks/bench_marts_growth.py`)."),
    "forecast": (["-m", "benchmarks.bench_forecast"], ["--quick"], "Forecast",
                 "The marts (otb_snapshots + pickup + pace) and then forecast_daily + backtest "
                 "+ accuracy on bench_marts' synthetic history, 1 and 10 hotels x 3 years, in "
                 "the same process (`benchmarks/bench_forecast.py`)."),
    "app": (["-m", "benchmarks.bench_app"], ["--quick"], "The morning page",
            "`pmsw app`'s morning page (30 nights, 8 reports), cold (a new process to the whole "
            "page) and warm, on 1 and 10 hotels x 3 years of synthetic history, against the "
            "page's reports run alone in the same process, and the app's memory "
            "(`benchmarks/bench_app.py`; goal: under 1 s warm, under 3 s cold)."),
}
PARTS = ("race", "client", "simulator", "demo", "marts", "throughput", "group", "ingest",
         "hourly", "publish", "marts-growth", "forecast", "app", "group-files")
LAYOUT: list[tuple[str, str]] = [
    ("Machine", "python -m benchmarks.run_all"),
    *((key, f"python -m benchmarks.run_all --only {part}") for part, key in (
        ("race", "Ingestion"), ("race", "Ingestion vs the floor"),
        *((p, SCRIPTS[p][2]) for p in ("client", "simulator", "demo")),
        ("marts", "Transforms"), ("throughput", "Sandbox throughput"),
        *((p, SCRIPTS[p][2]) for p in PARTS[6:]))),
    ("Notes", "python -m benchmarks.run_all"),
]
"""The sections of results.md, in order: (key, the command that measures it)."""


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} / {five:.1f} / {fifteen:.1f}"


def commit() -> str:
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True,
                              check=False).stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", ".",
                ":(exclude)benchmarks/results.md")  # the file being written
    return f"{head} (with uncommitted changes)" if dirty else head


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def notes(args: argparse.Namespace) -> list[str]:
    return [
        "The race runs are bound by the rate limit (600 calls/min per key, burst 120) and the "
        "100 ms latency, not by the CPU: the load average printed with each part matters "
        "little to them; the marts, the simulator and the demo are CPU-bound and follow it.",
        "dlt has no client-side token bucket: a 429 is retried by its HTTP helper "
        "(Retry-After honoured, 5 attempts: dlt's defaults), then the run fails with "
        "`PipelineStepFailed` and loads nothing of that run. Serial, its rest_api source makes "
        "one call at a time, so at 100 ms latency it stays under 10 calls/s and its time "
        "follows the latency; `parallelized: true` on the folios child resource (dlt's "
        "documented way to fetch the children of many parents at once, its extract pool of 5 "
        "workers) goes past the limit once the burst is spent. Ours keeps 8 calls in flight "
        "under its own token bucket, so its time follows the limit. dlt complete is "
        "rest_api's one configuration that misses no folio line on its incremental runs: "
        "the reservations resource without its incremental cursor, so every run lists every "
        "reservation and its folios child reads the folios of each (API v1 has no folio "
        "change feed).",
        "Calls are counted at the sandbox (its rate limiter is asked about every /v1 call, "
        "retries and 429s included). The sandbox runs in the race's process, on the "
        "simulated clock, which stands still while the contenders run: they all read the "
        "same data. Between phases the simulator plays the hotel (benchmarks/race.py, "
        "Stepper): 07:00-08:00 local for the hour (breakfast charges on in-house folios, "
        "departures, bookings), then to 08:00 of the next day for the day.",
        "Ours runs the streams events, reservations and folios with `stay_guests` off (the "
        "data dlt reads); as shipped it also reads reference (7 calls), availability (6) and "
        "the detail of each reservation read (guests). Its folio reads follow "
        "docs/ingestion.md (Folios): changed, in house, departed within 7 days, and a "
        "rotating sweep of the open folios of the future book, each read within 24 hours - "
        "so the run a day after the last one sweeps the whole book.",
        "'Ended equal to the API' compares reservation ids + updated_at, folio line ids and "
        "event ids with the sandbox's database after the runs (events that fell out of the "
        "API's 30-day log are left out). dlt's child resource reads the folios of the "
        "reservations its incremental read returns, so a folio that changes without its "
        "reservation (a charge posted in house) is missed by its incremental runs: the "
        "'missing' folio lines.",
        f"Scale: {args.days} simulated days (seed {args.seed}) after 180 booking-only warm-up "
        "days (the future book is most of the initial load); a year at the real limit is "
        "~25,000 calls of the 40-room hotel, about 45 minutes per run (use --days).",
        "Sandbox throughput: the list of 200 reservations is the heavy answer (a few pages per "
        "sync); the per-reservation endpoints, most of the calls, are served far above the "
        "limit. The clients run on the same cores, so the figures are a lower bound on a "
        "shared 2-core machine.",
        "Transforms at 100 hotels x 3 years ran (--full)." if args.full else
        "Transforms at 100 hotels x 3 years are not in the default run (--full adds them).",
    ]


def run_race(args: argparse.Namespace, work: Path) -> list[Section]:
    """Both hotels at once, each `python -m benchmarks.race` in its own process."""
    procs = []
    for rooms in (40, 80):
        out = work / f"race{rooms}.json"
        cmd = [sys.executable, "-m", "benchmarks.race", "--hotel", str(rooms), "--days",
               str(args.days), "--seed", str(args.seed), "--repeats", str(args.repeats),
               "--json", str(out)]
        log(f"race: {rooms} rooms ({args.repeats} repeats) ...")
        procs.append((rooms, out, subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL)))
    runs: list[RaceRun] = []
    for rooms, out, proc in procs:
        if proc.wait() != 0:
            raise RuntimeError(f"the race of the {rooms}-room hotel failed ({proc.returncode})")
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(out, args.keep / out.name)
        runs += [RaceRun(**r) for r in json.loads(out.read_text())]
    scale = (f"the 40-room hotel (property 2) and the 80-room hotel (property 1), each alone "
             f"in its sandbox, {args.days} simulated days (seed {args.seed}) after 180 "
             "booking-only warm-up days; 100 ms added latency and the real limit (600/min, "
             "burst 120); initial load at 07:00 local, the hour 07:00-08:00 played, then the "
             "day to 08:00")
    return race_sections(figures(runs), args.measured(), scale, args.repeats)


def run_script(args: argparse.Namespace, part: str) -> list[Section]:
    path, quick, heading, about = SCRIPTS[part]
    command = [*path, *(quick if args.quick else [])]
    log(f"{part}: {' '.join(command)} ...")
    done = subprocess.run([sys.executable, *command], cwd=REPO, capture_output=True, text=True,
                          check=False)
    output = done.stdout if done.returncode == 0 else (
        f"{done.stdout}\nFAILED (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return [script_section(heading, heading, about, output, args.measured())]


def run_marts(args: argparse.Namespace) -> list[Section]:
    from .marts_scale import run_marts as one_size

    sizes = (1,) if args.quick else (1, 10, 100) if args.full else (1, 10)
    years = 1 if args.quick else args.years
    found = []
    for hotels in sizes:
        log(f"transforms: {hotels} hotels x {years} years ...")
        found.append(one_size(hotels, years))
    note = (f"benchmarks/bench_marts.py at {', '.join(map(str, sizes))} hotels x {years} "
            "years of synthetic 80-room history (each size in its own process, its peak RSS), "
            "otb_snapshots + pickup + occupancy_daily"
            + ("." if args.full else "; 100 hotels only with --full."))
    return [marts_section(found, note, args.measured())]


def run_throughput(args: argparse.Namespace, work: Path) -> list[Section]:
    from .race import HOTELS, simulate
    from .throughput import measure as hammer

    hotel = simulate(work, HOTELS[40], args.days, args.seed, log)
    log(f"sandbox throughput, {args.threads} threads ...")
    return [throughput_section(hammer(hotel, work, threads=args.threads), args.measured())]


def write(output: Path, sections: list[Section]) -> None:
    old = output.read_text() if output.exists() else ""
    output.write_text(compose(old, sections, LAYOUT))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=20, help="simulated days (default 20)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--repeats", type=int, default=3, help="runs per race figure")
    parser.add_argument("--full", action="store_true", help="transforms at 100 hotels too")
    parser.add_argument("--years", type=int, default=3, help="years of the marts history")
    parser.add_argument("--threads", type=int, default=8, help="throughput client threads")
    parser.add_argument("--only", choices=PARTS, action="append", help="run these parts only")
    parser.add_argument("--quick", action="store_true",
                        help="the benchmarks' quick sizes (a check that they run, not figures)")
    parser.add_argument("--keep", type=Path, help="keep the race's runs (JSON) in this folder")
    parser.add_argument("--output", type=Path, default=RESULTS)
    parser.add_argument("--rewrite", action="store_true",
                        help="run no part: write the file again from its last sections")
    args = parser.parse_args(argv)
    if args.rewrite:
        write(args.output, [])
        return
    parts = args.only or list(PARTS)
    command = "python -m benchmarks.run_all " + " ".join(argv if argv is not None
                                                          else sys.argv[1:])
    sections: list[Section] = [machine_section(describe(), now())]
    work = Path(tempfile.mkdtemp(prefix="pmsw-bench-"))
    try:
        for part in parts:
            began_at, began_load, at = now(), load(), commit()

            def measured(began_at: str = began_at, began_load: str = began_load,
                         at: str = at) -> Measured:
                """Called when the part's figures are in: the load at its end is now's."""
                return Measured(began_at, at, command.strip(), began_load, load())

            args.measured = measured
            if part == "race":
                found = run_race(args, work)
            elif part == "marts":
                found = run_marts(args)
            elif part == "throughput":
                found = run_throughput(args, work)
            else:
                found = run_script(args, part)
            sections += found
            write(args.output, sections)  # after each part: a later failure keeps these
            log(f"{part} done")
        sections.append(notes_section(notes(args)))
        write(args.output, sections)
        print("\n".join(s.text() for s in sections))
        log(f"wrote {args.output} (sections: {', '.join(s.key for s in sections)})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
