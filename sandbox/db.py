"""SQLite storage of the sandbox: opening, schema, transactions and small row helpers."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from importlib.resources import files
from typing import Any

from models.common import format_timestamp

SCHEMA = files("sandbox").joinpath("schema.sql").read_text(encoding="utf-8")


def open_db(path: str) -> sqlite3.Connection:
    """Open (and create when new) the sandbox database; `:memory:` for tests."""
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    if path != ":memory:":
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
    conn.executescript(SCHEMA)
    return conn


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One atomic unit of work: everything inside commits together or not at all.

    Nested use joins the outer transaction (a SAVEPOINT), so services can call each other.
    """
    if conn.in_transaction:
        conn.execute("SAVEPOINT nested")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK TO nested")
            conn.execute("RELEASE nested")
            raise
        conn.execute("RELEASE nested")
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def one(conn: sqlite3.Connection, sql: str, *params: Any) -> sqlite3.Row | None:
    try:
        row: sqlite3.Row | None = conn.execute(sql, params).fetchone()
    except OverflowError:
        return None  # an integer beyond SQLite's 64 bits: no row can match it
    return row


def all_rows(conn: sqlite3.Connection, sql: str, *params: Any) -> list[sqlite3.Row]:
    try:
        return list(conn.execute(sql, params).fetchall())
    except OverflowError:
        return []  # an integer beyond SQLite's 64 bits: no row can match it


def insert(conn: sqlite3.Connection, table: str, values: dict[str, Any]) -> int:
    cols = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    cur = conn.execute(f"INSERT INTO {table} ({cols}) VALUES ({marks})", tuple(values.values()))
    assert cur.lastrowid is not None
    return cur.lastrowid


def update(conn: sqlite3.Connection, table: str, row_id: int, values: dict[str, Any]) -> None:
    if not values:
        return
    sets = ", ".join(f"{col} = ?" for col in values)
    conn.execute(f"UPDATE {table} SET {sets} WHERE id = ?", (*values.values(), row_id))


CENT = Decimal("0.01")


def to_cents(amount: Decimal) -> int:
    """Decimal currency amount to integer cents, rounding half up."""
    return int((amount * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def from_cents(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(CENT)


def ts(instant: datetime) -> str:
    return format_timestamp(instant)


def iso(day: date) -> str:
    return day.isoformat()
