"""What the reliability suites share: a simulated sandbox, syncs run in this process over real
HTTP, fault switches, and a row-by-row snapshot of the warehouse's `core` (and `recon`) tables.

The soak and crash tests compare two warehouses built from the same seed: one through faults or
kills, one clean. Columns that name a run or the machine's time of landing (`run_id`,
`last_seen_run`, `first_seen_run`, `fetched_at`, `loaded_at`, a reconciliation run's
`started_at` / `finished_at`) differ between any two runs and are
left out; every other column of every row must match.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import httpx

from pipelines.api import PmsError, RetryPolicy
from pipelines.ingest import Endpoint, StreamResult, SyncContext, SyncSettings, run_stream
from pipelines.ingest.streams import STREAMS
from pipelines.warehouse import connect
from sandbox.clock import SimulatedClock
from sandbox.http.server import RunningSandbox
from tests.conftest import MakeSandbox, answered

START = datetime(2026, 3, 2, 7, 0, tzinfo=UTC)  # 08:00 in Rome, a Monday
PROPERTY_ID = 2
"""Florence (40 rooms): half the calls of Rome per simulated day, same behaviour."""
PROPERTY_KEY = "sbx_test_other_property"
"""The seed's all-scopes key of property 2."""
PROPERTY_CODE = "FLR"

VOLATILE = frozenset({"run_id", "last_seen_run", "first_seen_run", "fetched_at", "loaded_at",
                      "started_at", "finished_at", "kept_at"})
"""Columns of when (the wall clock) and in which run a row was written: two runs of one seed
differ there and nowhere else (`kept_at`: mart.forecast_history, migration 0035)."""

SOAK_FAULTS: dict[str, Any] = {
    "error_rate": 0.10,  # 500 JSON or 502 HTML
    "unavailable_rate": 0.10,  # 503 + Retry-After
    "rate_limit_rate": 0.10,  # starts a burst of 429 + Retry-After
    "rate_limit_burst": 2,
    "retry_after_seconds": 0,
    "latency_ms": 0,
    "latency_jitter_ms": 20,
    "drop_before_rate": 0.10,
    "drop_after_rate": 0.10,
    "truncate_rate": 0.10,
}
"""Every fault of the sandbox's injection at 10%: about 43% of attempts fail one way or another."""

SOAK_RETRY = RetryPolicy(max_attempts=14, backoff_base=0.01, backoff_cap=0.1)
"""With 43% of attempts failing, the default 5 attempts lose 1.5% of calls and a sync of some
hundreds of calls almost never completes; 14 attempts lose one call in 100 000. Short backoffs
keep the soak within its time budget (Retry-After is still waited as sent)."""

SOAK_SETTINGS = SyncSettings(availability_nights=62)
"""One availability window (the sandbox's book only holds what the simulated days booked)."""


def start_simulated(make_sandbox: MakeSandbox, pos_dir: Path | None = None) -> RunningSandbox:
    """A fresh sandbox on a simulated clock with admin endpoints (and a POS ledger folder)."""
    extra: dict[str, Any] = {} if pos_dir is None else {"pos_export_dir": str(pos_dir)}
    return make_sandbox(clock=SimulatedClock(START), admin=True, **extra)


class Admin:
    """The `/_sandbox` endpoints of one server (never faulted)."""

    def __init__(self, server: RunningSandbox) -> None:
        self.http = httpx.Client(base_url=f"{server.root_url}/_sandbox", timeout=300)

    def close(self) -> None:
        self.http.close()

    def simulate_day(self, seed: int, property_id: int = PROPERTY_ID) -> str:
        """Play one simulated day of the hotel (activity, then the night audit)."""
        response = self.http.post("/simulate", json={"days": 1, "seed": seed,
                                                     "property_ids": [property_id]})
        business_date: str = answered(response)["business_date"]
        return business_date

    def set_faults(self, **config: Any) -> None:
        response = self.http.put("/faults", json=config)
        assert response.status_code == 200, response.text

    def fault_counts(self) -> Counter[str]:
        response = self.http.get("/faults")
        return Counter(answered(response)["counts"])


def endpoint(server: RunningSandbox, pos_dir: Path | None = None,
             key: str = PROPERTY_KEY) -> Endpoint:
    # The client's own limiter is lifted like the sandbox's (the soak is about faults).
    return Endpoint(PROPERTY_CODE, server.base_url, key, 1_000_000, 1_000_000, pos_dir)


class RetryCounter(logging.Handler):
    """Counts the client's retries from its debug log ('retrying in')."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.retries = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "retrying in" in record.getMessage():
            self.retries += 1


@contextmanager
def counting_retries() -> Iterator[RetryCounter]:
    logger = logging.getLogger("pipelines.api")
    counter = RetryCounter()
    level = logger.level
    logger.setLevel(logging.DEBUG)
    logger.addHandler(counter)
    try:
        yield counter
    finally:
        logger.removeHandler(counter)
        logger.setLevel(level)


@dataclass
class SyncTally:
    syncs: int = 0
    failed_attempts: int = 0
    calls: int = 0
    failures: list[str] = field(default_factory=list)


def sync_once(ep: Endpoint, conn: duckdb.DuckDBPyConnection, run_id: str,
              retry: RetryPolicy | None = None,
              settings: SyncSettings = SOAK_SETTINGS) -> list[StreamResult]:
    """Every stream of one property, in order, as `pipelines.ingest.sync_property` runs them,
    with the client's retry policy replaced when `retry` is given."""
    with SyncContext(ep, conn, run_id, settings) as ctx:
        http = None
        if retry is not None:
            ctx.client.close()
            http = ctx.meter.http_client()  # metered like the context's own
            ctx.client = ep.client(http_client=http, retry=retry)
        try:
            return [run_stream(ctx, name, fn) for name, fn in STREAMS.items()]
        finally:
            if http is not None:
                http.close()


def sync_until_done(ep: Endpoint, db: Path, label: str, tally: SyncTally,
                    retry: RetryPolicy | None = None, max_runs: int = 6) -> None:
    """Run the sync; when it fails (retries spent), run it again, as the next hourly run would,
    before the simulated hotel moves on."""
    for attempt in range(1, max_runs + 1):
        tally.syncs += 1
        conn = connect(db)
        try:
            results = sync_once(ep, conn, f"{label}-{attempt}", retry)
        except PmsError as error:
            tally.failed_attempts += 1
            tally.failures.append(f"{label}: {type(error).__name__}: {error}")
            continue
        finally:
            conn.close()
        tally.calls += sum(r.calls for r in results)
        return
    raise AssertionError(f"{label}: the sync failed {max_runs} times: {tally.failures[-3:]}")


def snapshot(db: Path, schemas: tuple[str, ...] = ("core", "recon"),
             ) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of `schemas`, volatile columns left out, sorted."""
    with connect(db) as conn:
        return _snapshot(conn, schemas)


def _snapshot(conn: duckdb.DuckDBPyConnection,
              schemas: tuple[str, ...]) -> dict[str, list[tuple[Any, ...]]]:
    tables = conn.execute(
        "SELECT table_schema, table_name, list(column_name ORDER BY ordinal_position) "
        "FROM information_schema.columns WHERE table_schema IN (SELECT unnest(?)) "
        "GROUP BY ALL ORDER BY 1, 2", [list(schemas)]).fetchall()
    found: dict[str, list[tuple[Any, ...]]] = {}
    for schema, table, columns in tables:
        kept = [c for c in columns if c not in VOLATILE]
        select = ", ".join(f'"{c}"' for c in kept)
        rows = conn.execute(f'SELECT {select} FROM "{schema}"."{table}"').fetchall()
        found[f"{schema}.{table}"] = sorted((_hashable(row) for row in rows), key=repr)
    return found


def _hashable(value: Any) -> Any:
    """A row as `compare` sets it: a LIST value (mart.v_quarantine's record_ids) as a tuple,
    a STRUCT or MAP as its sorted items."""
    if isinstance(value, list | tuple):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    return value


def compare(expected: dict[str, list[tuple[Any, ...]]],
            actual: dict[str, list[tuple[Any, ...]]]) -> int:
    """Assert both snapshots hold the same rows; return the number of rows compared."""
    assert sorted(actual) == sorted(expected)
    compared = 0
    for table, rows in expected.items():
        got = actual[table]
        got_set, rows_set = set(got), set(rows)
        missing = [r for r in rows if r not in got_set]
        extra = [r for r in got if r not in rows_set]
        assert not missing, f"{table}: {len(missing)} rows missing, first {missing[:2]}"
        assert not extra, f"{table}: {len(extra)} rows extra, first {extra[:2]}"
        assert len(got) == len(rows), f"{table}: {len(got)} rows vs {len(rows)}"
        compared += len(rows)
    return compared
