"""Land the event log: each event once by id, and the `after` cursor with it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import duckdb

from models import Event
from pipelines.ingest.store.raw import Payload, append_raw, payloads_of
from pipelines.ingest.store.sync_state import advance_cursor
from pipelines.warehouse import INT, JSON, STR, TS, drop, require_aware, stage, to_json, transaction

STREAM = "events"

_EVENT = {
    "property_id": INT, "event_id": INT, "type": STR, "entity": STR, "entity_id": INT,
    "created_at": TS, "data": JSON, "run_id": STR, "fetched_at": TS,
}


@dataclass(frozen=True)
class EventLanding:
    received: int
    inserted: int
    cursor: str | None


def land_events(
    conn: duckdb.DuckDBPyConnection,
    property_id: int,
    events: Sequence[Event],
    *,
    run_id: str,
    fetched_at: datetime,
    payloads: Sequence[Payload] | None = None,
    new_cursor: int | None = None,
) -> EventLanding:
    """Insert the events not landed yet and move the events cursor, in one transaction.

    The cursor becomes the largest of: the stored cursor, `new_cursor` (e.g. the API's
    `next_after`) and the largest id in the batch. The log is read oldest first, so landing
    batch by batch is safe.
    """
    require_aware(fetched_at, "fetched_at")
    rows = [{
        "property_id": property_id, "event_id": e.id, "type": e.type, "entity": e.entity,
        "entity_id": e.entity_id, "created_at": e.created_at, "data": to_json(e.data),
        "run_id": run_id, "fetched_at": fetched_at,
    } for e in events]
    top = max([e.id for e in events] + ([new_cursor] if new_cursor is not None else []),
              default=None)
    with transaction(conn):
        append_raw(conn, property_id, STREAM, payloads_of(events, payloads),
                   run_id=run_id, fetched_at=fetched_at)
        stage(conn, "_stg_events", _EVENT, rows)
        before = conn.execute("SELECT count(*) FROM core.events WHERE property_id = ?",
                              [property_id]).fetchone()
        conn.execute("""
            INSERT INTO core.events BY NAME
            SELECT * FROM _stg_events s
            WHERE NOT EXISTS (SELECT 1 FROM core.events e
                              WHERE e.property_id = s.property_id AND e.event_id = s.event_id)
            QUALIFY row_number() OVER (PARTITION BY event_id) = 1
        """)
        after = conn.execute("SELECT count(*) FROM core.events WHERE property_id = ?",
                             [property_id]).fetchone()
        cursor = None
        if top is not None:
            cursor = advance_cursor(conn, property_id, STREAM, top, run_id=run_id, at=fetched_at)
        drop(conn, "_stg_events")
    inserted = (0 if after is None else int(after[0])) - (0 if before is None else int(before[0]))
    return EventLanding(len(rows), inserted, cursor)
