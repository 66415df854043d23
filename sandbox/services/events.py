"""The event log: every operation records its events in its own transaction.

Which operation emits which type, and the keys of `data`, are listed in docs/events.md.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from typing import Any

from models.events import EventType

from ..db import insert, ts

RETENTION = timedelta(days=30)


def record_event(
    conn: sqlite3.Connection,
    property_id: int,
    event_type: EventType,
    entity_id: int,
    data: dict[str, Any],
    now: datetime,
) -> int:
    """Append one event; its entity follows from its type (`reservation.*` or `stay.*`)."""
    entity = event_type.value.split(".", 1)[0]
    return insert(conn, "events", {
        "property_id": property_id,
        "type": event_type.value,
        "entity": entity,
        "entity_id": entity_id,
        "data": json.dumps(data, separators=(",", ":"), sort_keys=True),
        "created_at": ts(now),
    })


def drop_expired(conn: sqlite3.Connection, now: datetime) -> int:
    """Drop events older than the log's 30 days (spec, Event log 2). Returns how many."""
    cur = conn.execute("DELETE FROM events WHERE created_at < ?", (ts(now - RETENTION),))
    return cur.rowcount
