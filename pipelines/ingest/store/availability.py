"""Land availability snapshots: per business date read, night and room type."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

import duckdb

from models import TypeAvailability
from pipelines.ingest.store.raw import Payload, append_raw, payloads_of
from pipelines.ingest.store.sync_state import advance_cursor
from pipelines.warehouse import (
    DATE,
    INT,
    STR,
    TS,
    drop,
    require_aware,
    stage,
    transaction,
    write_difference,
)

STREAM = "availability"

_ROW = {
    "property_id": INT, "snapshot_date": DATE, "stay_date": DATE, "room_type_id": INT,
    "room_type_code": STR, "total": INT, "occupied": INT, "out_of_order": INT,
    "available": INT, "run_id": STR, "fetched_at": TS,
}


def land_availability(
    conn: duckdb.DuckDBPyConnection,
    property_id: int,
    availability: Sequence[TypeAvailability],
    *,
    snapshot_date: date,
    run_id: str,
    fetched_at: datetime,
    payloads: Sequence[Payload] | None = None,
    advance: bool = True,
) -> int:
    """Store one read of GET /availability taken on business date `snapshot_date`.

    Rows of the same snapshot date, night and type are replaced (the latest read of the day
    wins). With `advance`, the availability cursor moves to `snapshot_date` in the same
    transaction (pass False for all windows but the last of a 365-night snapshot).
    """
    require_aware(fetched_at, "fetched_at")
    rows = [{
        "property_id": property_id, "snapshot_date": snapshot_date, "stay_date": day.date,
        "room_type_id": t.room_type_id, "room_type_code": t.code, "total": day.total,
        "occupied": day.occupied, "out_of_order": day.out_of_order,
        "available": day.available, "run_id": run_id, "fetched_at": fetched_at,
    } for t in availability for day in t.days]
    with transaction(conn):
        append_raw(conn, property_id, STREAM, payloads_of(availability, payloads),
                   run_id=run_id, fetched_at=fetched_at)
        stage(conn, "_stg_avail", _ROW, rows)
        write_difference(conn, "core.availability", "SELECT * FROM _stg_avail QUALIFY "
                         "row_number() OVER (PARTITION BY stay_date, room_type_id) = 1")
        if advance:
            advance_cursor(conn, property_id, STREAM, snapshot_date, run_id=run_id, at=fetched_at)
        drop(conn, "_stg_avail")
    return len(rows)
