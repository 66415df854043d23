"""The pieces of the ingestion race (benchmarks/race.py): the limit and latency it runs at,
the sandbox's limiter counting calls, our sync core as a contender, the rows compared and the
floor of calls.
"""

from __future__ import annotations

import math
import threading
from pathlib import Path
from typing import Any

from pipelines.ingest import Endpoint, SyncSettings, sync_property
from pipelines.warehouse import connect
from sandbox.http.ratelimit import Decision, RateLimiter

from .dlt_peer import utc

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


class Ours:
    """Our sync core (pipelines.ingest) into a DuckDB warehouse file."""

    def __init__(self, work: Path, base_url: str, key: str = KEY,
                 code: str = "florence") -> None:
        self.warehouse = work / "ours.duckdb"
        self.endpoint = Endpoint(code, base_url, key, RATE_PER_MINUTE, BURST)
        self.runs = 0

    def run(self) -> None:
        self.runs += 1
        with connect(self.warehouse) as conn:
            sync_property(self.endpoint, conn, f"bench-{self.runs}", SETTINGS, streams=STREAMS)

    def rows(self) -> Rows:
        with connect(self.warehouse, read_only=True) as conn:
            return {
                "reservations": {(int(i), utc(u)) for i, u in conn.execute(
                    "SELECT reservation_id, updated_at FROM core.reservations").fetchall()},
                "folio_lines": {(int(i),) for (i,) in conn.execute(
                    "SELECT folio_line_id FROM core.folio_lines").fetchall()},
                "events": {(int(i),) for (i,) in conn.execute(
                    "SELECT event_id FROM core.events").fetchall()},
            }


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
