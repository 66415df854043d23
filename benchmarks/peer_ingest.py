"""Ingestion, our sync core vs dlt's rest_api, on one sandbox with 100 ms latency and the real
rate limit (600 calls per minute per key, burst 120).

A simulated stretch of the 40-room hotel (property 2) is played into a database file; one
sandbox serves it on the simulated clock (which stands still between calls, so both runs
read the same data). Each phase (initial load, then one simulated day and an incremental
run) runs ours, then dlt, each with a fresh full rate-limit bucket. Calls are counted at the
sandbox (its rate limiter sees every /v1 call: answered, refused 429 or retried).
"""

from __future__ import annotations

import math
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from pipelines.ingest import Endpoint, SyncSettings, sync_property
from pipelines.warehouse import connect
from sandbox.cli import server_clock
from sandbox.http.faults import FaultConfig
from sandbox.http.ratelimit import Decision, RateLimiter
from sandbox.http.server import running_sandbox
from sandbox.settings import SandboxSettings
from sandbox.simulator.run import simulate_database

from .dlt_peer import DltPeer, utc
from .results import IngestPhase, IngestRun

PROPERTY_ID = 2
KEY = "sbx_test_other_property"  # every scope, property 2 (sandbox/seed.py)
RATE_PER_MINUTE = 600
BURST = 120
LATENCY_MS = 100
STREAMS = ("events", "reservations", "folios")
SETTINGS = SyncSettings(stay_guests=False)
"""The same data dlt reads: no reservation detail calls (guests), no reference/availability."""

Rows = dict[str, set[tuple[Any, ...]]]


class CountingLimiter(RateLimiter):
    """The sandbox's limiter, counting every call it is asked about and the 429s it gives."""

    def __init__(self, rate_per_minute: int, burst: int) -> None:
        super().__init__(rate_per_minute, burst)
        self.calls = 0
        self.refused = 0
        self._count_lock = threading.Lock()

    def take(self, key: str) -> Decision:
        decision = super().take(key)
        with self._count_lock:
            self.calls += 1
            self.refused += 0 if decision.allowed else 1
        return decision


@dataclass
class Scale:
    days: int = 20
    seed: int = 42


def truth_rows(db: Path) -> Rows:
    """What the API holds for the property (read from the sandbox's database file)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {
            "reservations": {(int(i), utc(u)) for i, u in conn.execute(
                "SELECT id, updated_at FROM reservations WHERE property_id = ?", (PROPERTY_ID,))},
            "folio_lines": {(int(i),) for (i,) in conn.execute(
                "SELECT l.id FROM folio_lines l JOIN folios f ON f.id = l.folio_id "
                "WHERE f.property_id = ?", (PROPERTY_ID,))},
            "events": {(int(i),) for (i,) in conn.execute(
                "SELECT id FROM events WHERE property_id = ?", (PROPERTY_ID,))},
        }
    finally:
        conn.close()


class Ours:
    """Our sync core (pipelines.ingest) into a DuckDB warehouse file."""

    def __init__(self, work: Path, base_url: str, key: str = KEY,
                 code: str = "florence") -> None:
        self.warehouse = work / "ours.duckdb"
        self.endpoint = Endpoint(code, base_url, key, RATE_PER_MINUTE, BURST)
        self.runs = 0
        self.folio_reservations_read = 0

    def run(self) -> None:
        self.runs += 1
        conn = connect(self.warehouse)
        try:
            results = sync_property(self.endpoint, conn, f"bench-{self.runs}", SETTINGS,
                                    streams=STREAMS)
        finally:
            conn.close()
        folios = next(r for r in results if r.stream == "folios")
        self.folio_reservations_read = int(folios.details.get("reservations_read", 0))

    def rows(self) -> Rows:
        conn = connect(self.warehouse, read_only=True)
        try:
            return {
                "reservations": {(int(i), utc(u)) for i, u in conn.execute(
                    "SELECT reservation_id, updated_at FROM core.reservations").fetchall()},
                "folio_lines": {(int(i),) for (i,) in conn.execute(
                    "SELECT folio_line_id FROM core.folio_lines").fetchall()},
                "events": {(int(i),) for (i,) in conn.execute(
                    "SELECT event_id FROM core.events").fetchall()},
            }
        finally:
            conn.close()


def compare(left: Rows, right: Rows, events_from: int = 0) -> str:
    """'same' or what differs, table by table (left minus right / right minus left); events
    below `events_from` are left out (landed before they fell out of the 30-day log)."""
    parts = []
    for table in ("reservations", "folio_lines", "events"):
        a, b = left[table], right[table]
        if table == "events":
            a, b = {e for e in a if e[0] >= events_from}, {e for e in b if e[0] >= events_from}
        if a != b:
            parts.append(f"{table}: {len(a - b)} only in first, {len(b - a)} only in second")
    return "same" if not parts else "; ".join(parts)


def floor_calls(reservations: int, events: int, folio_reservations: int) -> int:
    """The fewest calls for these rows (benchmarks/bench_ingest.py's floor): reservation pages
    of 200, event batches of 500, one folio list per reservation."""
    return (max(1, math.ceil(reservations / 200)) + max(1, math.ceil(events / 500))
            + folio_reservations)


def simulate(work: Path, scale: Scale, log: Callable[[str], None]) -> Path:
    """The simulated hotel's database file (property 2 only)."""
    db = work / "hotel.sqlite"
    began = time.perf_counter()
    report = simulate_database(str(db), days=scale.days, seed=scale.seed,
                               property_ids=(PROPERTY_ID,))
    log(f"simulated {scale.days} days (+{(report.first_day - report.warmup_from).days} "
        f"booking-only warm-up) of property {PROPERTY_ID} in {time.perf_counter() - began:.0f} s")
    return db


def run_ingest(work: Path, db: Path, log: Callable[[str], None]) -> list[IngestPhase]:
    """Both phases on a copy of `db` (the copy is advanced; `db` is left as simulated)."""
    served = work / "served.sqlite"
    shutil.copyfile(db, served)
    db = served
    settings = SandboxSettings(db_path=str(db), rate_per_minute=RATE_PER_MINUTE, burst=BURST,
                               admin=True)
    phases: list[IngestPhase] = []
    with running_sandbox(settings, server_clock("simulated", str(db), None)) as sandbox:
        state = sandbox.state
        ours = Ours(work, sandbox.base_url)
        peer = DltPeer(work, sandbox.base_url, KEY)
        headers = {"Authorization": f"Bearer {KEY}"}
        for phase in ("initial load", "one-day incremental"):
            state.faults = FaultConfig()
            state.limiter = RateLimiter(10**8, 10**8)
            changed: int | None = None
            if phase != "initial load":
                before = httpx.get(f"{sandbox.root_url}/_sandbox/clock").json()
                httpx.post(f"{sandbox.root_url}/_sandbox/advance",
                           json={"days": 1, "property_ids": [PROPERTY_ID]},
                           timeout=600).raise_for_status()
                changed = int(httpx.get(f"{sandbox.base_url}/reservations", headers=headers,
                                        params={"updated_since": before["now"],
                                                "page_size": 1}).json()["total"])
            state.faults = FaultConfig(latency_ms=LATENCY_MS)
            measured: list[tuple[str, float, CountingLimiter, Rows]] = []
            for name, run, rows in (("ours", ours.run, ours.rows), ("dlt", peer.run, peer.rows)):
                limiter = CountingLimiter(RATE_PER_MINUTE, BURST)
                state.limiter = limiter
                log(f"{phase}: {name} ...")
                began = time.perf_counter()
                run()
                seconds = time.perf_counter() - began
                measured.append((name, seconds, limiter, rows()))
                log(f"{phase}: {name} {seconds:.1f} s, {limiter.calls} calls, "
                    f"{limiter.refused} x 429")
            # After the runs: GET /events drops events past the log's 30 days from the table.
            truth = truth_rows(db)
            oldest = min((e[0] for e in truth["events"]), default=0)
            runs = [IngestRun(name, seconds, limiter.calls, limiter.refused,
                              compare(got, truth, oldest), {t: len(v) for t, v in got.items()})
                    for name, seconds, limiter, got in measured]
            ours_rows, dlt_rows = ours.rows(), peer.rows()
            n_res, n_events = len(truth["reservations"]), len(truth["events"])
            if changed is None:
                floor = floor_calls(n_res, n_events, n_res)
            else:
                floor = floor_calls(changed, 1, changed)
            phases.append(IngestPhase(
                phase, runs, compare(ours_rows, dlt_rows), floor, changed,
                ours.folio_reservations_read, {t: len(v) for t, v in truth.items()}))
    return phases
