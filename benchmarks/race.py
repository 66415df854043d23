"""The ingestion race (issue 18): our sync core vs dlt's `rest_api`, one call at a time
(serial), the same listing every reservation on every run so that its folios child misses
no line (complete), and with `parallelized: true` on its folios child resource (parallel),
on one hotel.

    .venv/bin/python -m benchmarks.race --hotel 40 [--days 20] [--repeats 3] [--json out.json]

A simulated stretch of the hotel is played into a database file once. Each repeat serves a
fresh copy of it in process (100 ms added latency, the real limit: 600 calls per minute per
key, burst 120) and lives through three phases, each contender running once per phase, on
its own warehouse, with a fresh full rate-limit bucket:

- `initial load` at 07:00 local time of the day after the simulated stretch;
- `after 1 hour`: the hotel's 07:00-08:00 played (breakfast charges on the folios of the
  rooms in house, departures, bookings), then an incremental run;
- `after 1 day`: the hotel played to 08:00 of the next day (its night audit included), then
  an incremental run.

The simulated clock stands still while the contenders run, so all of them read the same data.
Calls are counted at the sandbox (its rate limiter sees every /v1 call: answered, refused 429
or retried). A contender that raises (dlt's `PipelineStepFailed` when a call is still refused
after its retries) is recorded with its error, and runs again in the next phase.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from sandbox.cli import server_clock
from sandbox.clock import SimulatedClock
from sandbox.db import one, transaction
from sandbox.http.faults import FaultConfig
from sandbox.http.ratelimit import RateLimiter
from sandbox.http.server import running_sandbox
from sandbox.settings import SandboxSettings, save_clock, stored_demand
from sandbox.simulator.engine import AUDIT_MINUTE, DayQueue, Simulation, audit_through
from sandbox.simulator.params import SimParams
from sandbox.simulator.run import simulate_database

from .dlt_peer import DltPeer, utc
from .peer_ingest import (
    BURST,
    LATENCY_MS,
    RATE_PER_MINUTE,
    CountingLimiter,
    Ours,
    Rows,
    compare,
    floor_calls,
)
from .results import CONTENDERS, PHASES, RaceRun, figures

START_MINUTE = 7 * 60
"""The initial load runs at 07:00 local time (before breakfast and the departures)."""


@dataclass(frozen=True)
class Hotel:
    rooms: int
    property_id: int
    key: str
    code: str


HOTELS = {
    40: Hotel(40, 2, "sbx_test_other_property", "florence"),
    80: Hotel(80, 1, "sbx_test_all_scopes", "rome"),
}


# -- the hotel's day, played an hour at a time -------------------------------------------------

class Stepper:
    """Plays the simulated hotel up to a local time: the simulator's day queue, popped as far
    as the time asked (the rest kept for the next call), the night audit at 02:00."""

    def __init__(self, simulation: Simulation, clock: SimulatedClock) -> None:
        self.simulation = simulation
        self.clock = clock
        self.day: date | None = None
        self.queue: DayQueue | None = None

    def business_date(self) -> date:
        pid = self.simulation.property_ids[0]
        row = one(self.simulation.state.conn,
                  "SELECT business_date FROM properties WHERE id = ?", pid)
        assert row is not None
        return date.fromisoformat(row["business_date"])

    def play_until(self, day: date, minute: int) -> datetime:
        """Play every action before `minute` of `day` (local), audits of the days passed."""
        sim, conn = self.simulation, self.simulation.state.conn
        until = sim.at(day, minute)
        while True:
            if self.queue is None:
                self.day = self.business_date()
                self.queue = DayQueue()
                with transaction(conn):
                    for hotel in sim.hotels:
                        hotel.schedule(self.day, self.queue, True)
            assert self.day is not None
            heap = self.queue._heap  # the next action's minute (DayQueue has no peek)
            while heap and sim.at(self.day, heap[0][0]) < until:
                item = self.queue.pop()
                assert item is not None
                action_minute, action = item
                if sim.at(self.day, action_minute) > self.clock.now():
                    self.clock.set(sim.at(self.day, action_minute))
                with transaction(conn):
                    action()
            audit_at = sim.at(self.day + timedelta(days=1), AUDIT_MINUTE)
            if heap or audit_at >= until:
                break
            self.clock.set(audit_at)
            with transaction(conn):
                audit_through(sim.state, self.day, sim.property_ids)
            self.queue = None
        if until > self.clock.now():
            self.clock.set(until)
        save_clock(conn, self.clock)
        return until


# -- truth, floor ----------------------------------------------------------------------------

def truth(db: Path, pid: int) -> tuple[Rows, dict[int, tuple[Any, ...]]]:
    """What the API holds for the property, and each reservation's folios (id, status,
    line ids) to tell which reservations' folios changed."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        rows: Rows = {
            "reservations": {(int(i), utc(u)) for i, u in conn.execute(
                "SELECT id, updated_at FROM reservations WHERE property_id = ?", (pid,))},
            "folio_lines": {(int(i),) for (i,) in conn.execute(
                "SELECT l.id FROM folio_lines l JOIN folios f ON f.id = l.folio_id "
                "WHERE f.property_id = ?", (pid,))},
            "events": {(int(i),) for (i,) in conn.execute(
                "SELECT id FROM events WHERE property_id = ?", (pid,))},
        }
        folios: dict[int, list[tuple[Any, ...]]] = {}
        for reservation, folio, status, lines in conn.execute(
                "SELECT f.reservation_id, f.id, f.status, group_concat(l.id) FROM folios f "
                "LEFT JOIN folio_lines l ON l.folio_id = f.id WHERE f.property_id = ? "
                "AND f.reservation_id IS NOT NULL GROUP BY f.id ORDER BY f.id", (pid,)):
            ids = tuple(sorted(int(x) for x in lines.split(","))) if lines else ()
            folios.setdefault(int(reservation), []).append((folio, status, ids))
        return rows, {r: tuple(f) for r, f in folios.items()}


def missing_extra(got: Rows, api: Rows, events_from: int) -> tuple[dict[str, int], dict[str, int]]:
    missing, extra = {}, {}
    for table in ("reservations", "folio_lines", "events"):
        a, b = got.get(table, set()), api[table]
        if table == "events":
            a, b = {e for e in a if e[0] >= events_from}, {e for e in b if e[0] >= events_from}
        missing[table], extra[table] = len(b - a), len(a - b)
    return missing, extra


def innermost(error: BaseException) -> str:
    """The run's error as 'Outer: innermost cause' (dlt wraps the HTTP error twice)."""
    inner = error
    seen = {id(inner)}
    while (nxt := inner.__cause__ or inner.__context__) is not None and id(nxt) not in seen:
        seen.add(id(nxt))
        inner = nxt
    text = f"{type(error).__name__}"
    if inner is not error:  # the URL without host nor id, so that runs' errors compare
        first_line = re.sub(r"/\d+(?=/|$)", "/{id}",
                            re.sub(r"https?://[^/\s]+", "", str(inner).splitlines()[0][:160])
                            if str(inner) else "")
        return f"{text}: {type(inner).__name__}: {first_line}"
    return text


# -- one repeat --------------------------------------------------------------------------------

def simulate(work: Path, hotel: Hotel, days: int, seed: int,
             log: Callable[[str], None]) -> Path:
    db = work / f"hotel{hotel.rooms}.sqlite"
    began = time.perf_counter()
    simulate_database(str(db), days=days, seed=seed, property_ids=(hotel.property_id,))
    log(f"{hotel.rooms} rooms: simulated {days} days (+180 booking-only warm-up) in "
        f"{time.perf_counter() - began:.0f} s")
    return db


def run_repeat(work: Path, simulated: Path, hotel: Hotel, repeat: int,
               log: Callable[[str], None]) -> list[RaceRun]:
    db = work / "served.sqlite"
    shutil.copyfile(simulated, db)
    settings = SandboxSettings(db_path=str(db), rate_per_minute=RATE_PER_MINUTE, burst=BURST,
                               admin=True)
    clock = server_clock("simulated", str(db), None)
    assert isinstance(clock, SimulatedClock)
    runs: list[RaceRun] = []
    with running_sandbox(settings, clock) as sandbox:
        state = sandbox.state
        seed, origin = stored_demand(state.conn)
        assert seed is not None
        pid = hotel.property_id
        row = one(state.conn, "SELECT business_date FROM properties WHERE id = ?", pid)
        assert row is not None
        day = date.fromisoformat(row["business_date"])
        simulation = Simulation(state, clock, seed, (pid,), first_arrival=day,
                                first_booking_day=day, demand_origin=origin or day,
                                params=SimParams())
        stepper = Stepper(simulation, clock)
        ours = Ours(work, sandbox.base_url, key=hotel.key, code=hotel.code)
        contenders: dict[str, tuple[Callable[[], None], Callable[[], Rows]]] = {
            "ours": (ours.run, ours.rows)}
        for name, parallel, complete in (("dlt serial", False, False),
                                         ("dlt complete", False, True),
                                         ("dlt parallel", True, False)):
            folder = work / name.replace(" ", "_")
            folder.mkdir()
            peer = DltPeer(folder, sandbox.base_url, hotel.key, parallel=parallel,
                           complete=complete)
            contenders[name] = (peer.run, peer.rows)
        state.faults = FaultConfig(latency_ms=LATENCY_MS)
        before_rows, before_folios = truth(db, pid)
        for phase, (when, minute) in zip(PHASES, ((day, START_MINUTE),
                                                  (day, START_MINUTE + 60),
                                                  (day + timedelta(days=1), START_MINUTE + 60)),
                                         strict=True):
            state.limiter = RateLimiter(10**8, 10**8)
            at = stepper.play_until(when, minute)
            api_rows, api_folios = truth(db, pid)
            if phase == "initial load":
                changed = folio_changed = 0
                floor = floor_calls(len(api_rows["reservations"]), len(api_rows["events"]),
                                    len(api_rows["reservations"]))
            else:
                changed_ids = {r for r, _ in api_rows["reservations"]
                               - before_rows["reservations"]}
                folio_ids = {r for r, f in api_folios.items() if before_folios.get(r) != f}
                changed, folio_changed = len(changed_ids), len(folio_ids)
                new_events = len(api_rows["events"] - before_rows["events"])
                floor = floor_calls(changed, new_events, len(changed_ids | folio_ids))
            log(f"{hotel.rooms} rooms, repeat {repeat}, {phase} at {at:%Y-%m-%d %H:%M} UTC: "
                f"{changed} reservations changed, {folio_changed} with folios changed; "
                f"floor {floor} calls")
            for who in CONTENDERS:
                run, rows = contenders[who]
                limiter = CountingLimiter(RATE_PER_MINUTE, BURST)
                state.limiter = limiter
                error = ""
                began = time.perf_counter()
                try:
                    run()
                except Exception as exc:  # a failed run is a result
                    error = innermost(exc)
                seconds = time.perf_counter() - began
                got = rows()
                # after the runs: GET /events drops events past the log's 30 days
                end_rows, _ = truth(db, pid)
                oldest = min((e[0] for e in end_rows["events"]), default=0)
                missing, extra = missing_extra(got, end_rows, oldest)
                runs.append(RaceRun(
                    hotel.rooms, repeat, phase, who, round(seconds, 2), limiter.calls,
                    limiter.refused, error, {t: len(v) for t, v in got.items()}, missing,
                    extra, compare(got, end_rows, oldest), floor, changed, folio_changed))
                log(f"  {who}: {seconds:.1f} s, {limiter.calls} calls, {limiter.refused} x 429"
                    f"{', FAILED ' + error if error else ''}; missing {missing}")
            before_rows, before_folios = api_rows, api_folios
    return runs


def race(hotel: Hotel, days: int, seed: int, repeats: int,
         log: Callable[[str], None]) -> list[RaceRun]:
    work = Path(tempfile.mkdtemp(prefix=f"pmsw-race-{hotel.rooms}-"))
    try:
        simulated = simulate(work, hotel, days, seed, log)
        runs: list[RaceRun] = []
        for repeat in range(1, repeats + 1):
            folder = work / f"repeat{repeat}"
            folder.mkdir()
            runs += run_repeat(folder, simulated, hotel, repeat, log)
        return runs
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hotel", type=int, choices=sorted(HOTELS), default=40,
                        help="rooms: 40 (property 2) or 80 (property 1)")
    parser.add_argument("--days", type=int, default=20, help="simulated days (default 20)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write every run here")
    args = parser.parse_args(argv)

    def log(message: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    runs = race(HOTELS[args.hotel], args.days, args.seed, args.repeats, log)
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in runs], indent=1))
    for f in figures(runs):
        print(f"{f.hotel} rooms | {f.phase} | {f.who} | {f.seconds[0]:.1f} s "
              f"({f.seconds[1]:.1f}-{f.seconds[2]:.1f}) | {f.calls[0]:.0f} calls | "
              f"{f.refused[0]} x 429 | failed {f.failed}/{f.runs} | equal {f.equal}/{f.runs} | "
              f"missing {f.missing}")


if __name__ == "__main__":
    main()
