"""What every stream of a sync works with: the client, the warehouse, the run, the meter."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

import duckdb

from models import Property
from pipelines.api import CallMeter
from pipelines.ingest.settings import SyncSettings
from pipelines.ingest.store import SyncRun, record_sync_run
from pipelines.properties import Endpoint


@dataclass
class StreamResult:
    """What one stream did in one run (also the Dagster metadata)."""

    stream: str
    rows: int = 0
    calls: int = 0
    errors: int = 0
    seconds: float = 0.0
    status: str = "success"
    message: str | None = None
    cursor: str | None = None
    preview: list[dict[str, Any]] = field(default_factory=list)
    details: dict[str, int | str] = field(default_factory=dict)


class SyncContext:
    """One property, one warehouse connection, one run id, one metered API client."""

    def __init__(self, endpoint: Endpoint, conn: duckdb.DuckDBPyConnection, run_id: str,
                 settings: SyncSettings | None = None) -> None:
        self.endpoint = endpoint
        self.conn = conn
        self.run_id = run_id
        self.settings = settings or SyncSettings()
        self.meter = CallMeter()
        self._http = self.meter.http_client()
        self.client = endpoint.client(http_client=self._http, retry=self.settings.retry)
        self._property: Property | None = None

    def close(self) -> None:
        self.client.close()
        self._http.close()

    def __enter__(self) -> SyncContext:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def pms_property(self) -> Property:
        """GET /property, once per context: the property of the key and its business date."""
        if self._property is None:
            self._property = self.client.get_property()
        return self._property

    @property
    def property_id(self) -> int:
        return self.pms_property.id

    @property
    def business_date(self) -> date:
        """The property's working date (never the machine's)."""
        return self.pms_property.business_date

    def fetched_at(self) -> datetime:
        """The server's time of the latest answer (HTTP Date header)."""
        if self.meter.server_time is None:
            raise RuntimeError(f"{self.endpoint.base_url}: the answers carry no Date header; "
                               "fetched_at must be the server's time")
        return self.meter.server_time


StreamFn = Callable[[SyncContext, StreamResult], None]


def run_stream(ctx: SyncContext, stream: str, fn: StreamFn) -> StreamResult:
    """Run one stream, logging it in meta.sync_runs (calls, rows, seconds, errors, status).

    The run log is operational: its times are the machine's clock, written apart from the
    landing transactions (a stream that dies leaves its row `running`).
    """
    result = StreamResult(stream)
    calls0, errors0 = ctx.meter.calls, ctx.meter.errors
    began = time.perf_counter()
    started_at = datetime.now(UTC)
    property_id = ctx.property_id
    record_sync_run(ctx.conn, SyncRun(ctx.run_id, property_id, stream, started_at, "running"))

    def log(status: str, message: str | None) -> None:
        result.calls = ctx.meter.calls - calls0
        result.errors = ctx.meter.errors - errors0
        result.seconds = round(time.perf_counter() - began, 3)
        record_sync_run(ctx.conn, SyncRun(
            ctx.run_id, property_id, stream, started_at, status, datetime.now(UTC),
            result.calls, result.rows, result.seconds, result.errors, message))

    try:
        fn(ctx, result)
    except Exception as error:
        log("failed", f"{type(error).__name__}: {error}")
        raise
    log(result.status, result.message)
    return result
