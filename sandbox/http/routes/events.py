"""Routes of API v1: the event log (spec, Endpoints, Events; Events, Event log)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from models.common import Scope
from models.events import Event, EventBatch, EventType

from ...context import Ctx
from ...db import all_rows, one, ts
from ...errors import invalid_request
from ...services.events import RETENTION, drop_expired
from ..deps import require
from .common import ERROR_RESPONSES

router = APIRouter(responses=ERROR_RESPONSES, tags=["events"])

Reader = Annotated[Ctx, Depends(require(Scope.EVENTS_READ))]

BATCH_MAX = 500
EVENT_ID_MAX = 2**63 - 1  # SQLite INTEGER: no event id goes beyond it
KNOWN_TYPES = frozenset(event_type.value for event_type in EventType)


def parse_types(types: str | None) -> list[str]:
    """`reservation.created,stay.updated` -> the list; an unknown name is a 400 on `types`."""
    names = [name.strip() for name in (types or "").split(",") if name.strip()]
    unknown = [name for name in names if name not in KNOWN_TYPES]
    if unknown:
        raise invalid_request(
            f"types: unknown event type {unknown[0]!r}; known: {', '.join(sorted(KNOWN_TYPES))}",
            field="types")
    return names


def expire(conn: sqlite3.Connection, now: datetime) -> None:
    """Drop events past the 30 days, cheaply: only when the oldest one (indexed) is past them."""
    if one(conn, "SELECT 1 FROM events WHERE created_at < ? LIMIT 1",
           ts(now - RETENTION)) is not None:
        drop_expired(conn, now)


def _event(row: sqlite3.Row) -> Event:
    data: dict[str, Any] = json.loads(row["data"])
    return Event(id=row["id"], type=row["type"], entity=row["entity"],
                 entity_id=row["entity_id"], created_at=row["created_at"], data=data)


@router.get("/events", response_model=EventBatch, status_code=200)
async def list_events(
    ctx: Reader,
    after: Annotated[int, Query(ge=0, le=EVENT_ID_MAX, description="only events with a greater id")]
    = 0,
    types: Annotated[str | None, Query(description="comma-separated event types")] = None,
    limit: Annotated[int, Query(ge=1, le=BATCH_MAX)] = 100,
) -> EventBatch:
    names = parse_types(types)
    expire(ctx.conn, ctx.now())
    sql = "SELECT * FROM events WHERE property_id = ? AND id > ?"
    params: list[Any] = [ctx.property_id, after]
    if names:
        sql += f" AND type IN ({', '.join('?' for _ in names)})"
        params.extend(names)
    sql += " ORDER BY id LIMIT ?"
    params.append(limit + 1)
    rows = all_rows(ctx.conn, sql, *params)
    batch = [_event(row) for row in rows[:limit]]
    return EventBatch(data=batch, has_more=len(rows) > limit,
                      next_after=batch[-1].id if batch else after)
