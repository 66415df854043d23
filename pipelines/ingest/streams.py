"""The streams of a sync, in the order they run, and a whole sync of one property."""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from pipelines.ingest.availability import sync_availability
from pipelines.ingest.context import StreamFn, StreamResult, SyncContext, run_stream
from pipelines.ingest.events import sync_events
from pipelines.ingest.folios import sync_folios
from pipelines.ingest.pos_ledger import sync_pos_ledger
from pipelines.ingest.reference import sync_reference
from pipelines.ingest.reservations import sync_reservations
from pipelines.ingest.settings import SyncSettings
from pipelines.properties import Endpoint

STREAMS: dict[str, StreamFn] = {
    "reference": sync_reference,
    "events": sync_events,  # before reservations: an event gap asks for their full resync
    "reservations": sync_reservations,
    "folios": sync_folios,  # after reservations: folios are found through them
    "availability": sync_availability,
    "pos_ledger": sync_pos_ledger,
}


def sync_stream(endpoint: Endpoint, conn: duckdb.DuckDBPyConnection, run_id: str,
                stream: str, settings: SyncSettings | None = None) -> StreamResult:
    """Run one stream of one property (what one Dagster asset does)."""
    with SyncContext(endpoint, conn, run_id, settings) as ctx:
        return run_stream(ctx, stream, STREAMS[stream])


def sync_property(endpoint: Endpoint, conn: duckdb.DuckDBPyConnection, run_id: str,
                  settings: SyncSettings | None = None,
                  streams: Sequence[str] | None = None) -> list[StreamResult]:
    """Run the streams (all by default) of one property in order, on one client."""
    wanted = list(STREAMS) if streams is None else [s for s in STREAMS if s in streams]
    with SyncContext(endpoint, conn, run_id, settings) as ctx:
        return [run_stream(ctx, name, STREAMS[name]) for name in wanted]
