"""meta.sync_state (cursors, full-resync flags) and meta.sync_runs (the run log)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

import duckdb

from models import format_timestamp
from pipelines.warehouse import require_aware, transaction

CursorKind = Literal["timestamp", "int", "date"]


@dataclass(frozen=True)
class SyncState:
    property_id: int
    stream: str
    cursor_value: str | None
    cursor_kind: str
    updated_at: datetime | None
    run_id: str | None
    full_resync_required: bool
    full_resync_reason: str | None


def get_state(conn: duckdb.DuckDBPyConnection, property_id: int, stream: str) -> SyncState | None:
    row = conn.execute(
        "SELECT property_id, stream, cursor_value, cursor_kind, updated_at, run_id, "
        "full_resync_required, full_resync_reason FROM meta.sync_state "
        "WHERE property_id = ? AND stream = ?", [property_id, stream]).fetchone()
    return None if row is None else SyncState(*row)


def get_cursor(conn: duckdb.DuckDBPyConnection, property_id: int, stream: str) -> str | None:
    state = get_state(conn, property_id, stream)
    return None if state is None else state.cursor_value


def get_timestamp_cursor(conn: duckdb.DuckDBPyConnection, property_id: int,
                         stream: str = "reservations") -> datetime | None:
    value = get_cursor(conn, property_id, stream)
    return None if value is None else datetime.fromisoformat(value.replace("Z", "+00:00"))


def get_int_cursor(conn: duckdb.DuckDBPyConnection, property_id: int,
                   stream: str = "events") -> int | None:
    value = get_cursor(conn, property_id, stream)
    return None if value is None else int(value)


def _encode(value: datetime | int | date) -> tuple[str, CursorKind]:
    if isinstance(value, datetime):
        return format_timestamp(require_aware(value, "cursor")), "timestamp"
    if isinstance(value, date):
        return value.isoformat(), "date"
    return str(value), "int"


def _key(text: str, kind: str) -> tuple[int, str]:
    # Orders cursors of one kind: ints numerically, timestamps (fixed RFC 3339 Z) and dates as text.
    return (int(text), "") if kind == "int" else (0, text)


def advance_cursor(conn: duckdb.DuckDBPyConnection, property_id: int, stream: str,
                   value: datetime | int | date, *, run_id: str, at: datetime) -> str:
    """Move the cursor forward to `value`; a lower value leaves it where it is (never rewinds).

    Returns the stored cursor. Call it inside the transaction that landed the rows it covers.
    """
    text, kind = _encode(value)
    with transaction(conn):
        current = get_state(conn, property_id, stream)
        if current is not None and current.cursor_value is not None:
            if current.cursor_kind != kind:
                raise ValueError(f"cursor of {stream} is a {current.cursor_kind}, not a {kind}")
            if _key(current.cursor_value, kind) >= _key(text, kind):
                text = current.cursor_value
        _upsert(conn, property_id, stream, text, kind, run_id, at)
    return text


def reset_cursor(conn: duckdb.DuckDBPyConnection, property_id: int, stream: str,
                 value: datetime | int | date | None, *, run_id: str, at: datetime) -> None:
    """Set the cursor to `value` even backwards (None: the next sync is a full load)."""
    with transaction(conn):
        if value is not None:
            text, kind = _encode(value)
            _upsert(conn, property_id, stream, text, kind, run_id, at)
            return
        current = get_state(conn, property_id, stream)
        kind_before = "timestamp" if current is None else current.cursor_kind
        _upsert(conn, property_id, stream, None, kind_before, run_id, at)


def _upsert(conn: duckdb.DuckDBPyConnection, property_id: int, stream: str, text: str | None,
            kind: str, run_id: str, at: datetime) -> None:
    conn.execute(
        "INSERT INTO meta.sync_state (property_id, stream, cursor_value, cursor_kind, "
        "updated_at, run_id) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (property_id, stream) DO UPDATE SET cursor_value = excluded.cursor_value, "
        "cursor_kind = excluded.cursor_kind, updated_at = excluded.updated_at, "
        "run_id = excluded.run_id",
        [property_id, stream, text, kind, require_aware(at, "at"), run_id])


def require_full_resync(conn: duckdb.DuckDBPyConnection, property_id: int, stream: str,
                        reason: str, *, cursor_kind: CursorKind = "timestamp") -> None:
    """Flag `stream` of the property for a full resync, saying why (kept until cleared)."""
    conn.execute(
        "INSERT INTO meta.sync_state (property_id, stream, cursor_kind, full_resync_required, "
        "full_resync_reason) VALUES (?, ?, ?, true, ?) ON CONFLICT (property_id, stream) "
        "DO UPDATE SET full_resync_required = true, "
        "full_resync_reason = excluded.full_resync_reason",
        [property_id, stream, cursor_kind, reason])


def clear_full_resync(conn: duckdb.DuckDBPyConnection, property_id: int, stream: str) -> None:
    conn.execute(
        "UPDATE meta.sync_state SET full_resync_required = false, full_resync_reason = NULL "
        "WHERE property_id = ? AND stream = ?", [property_id, stream])


@dataclass(frozen=True)
class SyncRun:
    run_id: str
    property_id: int
    stream: str
    started_at: datetime
    status: str
    ended_at: datetime | None = None
    calls: int = 0
    rows: int = 0
    seconds: float = 0.0
    errors: int = 0
    message: str | None = None


def record_sync_run(conn: duckdb.DuckDBPyConnection, run: SyncRun) -> None:
    """Insert or update the run log row of (run, property, stream)."""
    with transaction(conn):
        conn.execute(
            'INSERT OR REPLACE INTO meta.sync_runs (run_id, property_id, stream, started_at, '
            'ended_at, calls, "rows", seconds, errors, status, message) '
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [run.run_id, run.property_id, run.stream, require_aware(run.started_at, "started_at"),
             run.ended_at, run.calls, run.rows, run.seconds, run.errors, run.status, run.message])
