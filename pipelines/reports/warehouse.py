"""Open the warehouse read-only and find the property a report is about."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

import duckdb

from .errors import ReportError

SETUP_HINT = "run `make demo` or `pmsw sync` first"


@dataclass(frozen=True)
class PropertyRow:
    property_id: int
    code: str
    name: str
    currency: str
    business_date: date


def open_warehouse(path: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection (reports never write, and may run beside a sync)."""
    if not path.is_file():
        raise ReportError(f"no warehouse at {path}: {SETUP_HINT}, or pass --warehouse")
    try:
        conn = duckdb.connect(str(path), read_only=True)
    except duckdb.Error as error:
        first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ReportError(f"cannot open the warehouse {path}: {first_line}") from None
    conn.execute("SET TimeZone = 'UTC'")
    return conn


def require_tables(conn: duckdb.DuckDBPyConnection, path: Path, *tables: str) -> None:
    """Fail with one line when the warehouse lacks a table the report reads."""
    for table in tables:
        schema, name = table.split(".")
        row = conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = ? AND "
            "table_name = ?", [schema, name]).fetchone()
        if row is None or row[0] == 0:
            raise ReportError(f"the warehouse {path} has no table {table}: {SETUP_HINT}")


def resolve_property(conn: duckdb.DuckDBPyConnection, path: Path,
                     wanted: str | None) -> PropertyRow:
    """The property named by code (case-insensitive) or id; the only one when not named."""
    require_tables(conn, path, "core.property")
    rows = [PropertyRow(int(r[0]), str(r[1]), str(r[2]), str(r[3]), r[4]) for r in
            conn.execute("SELECT property_id, code, name, currency, business_date "
                         "FROM core.property ORDER BY property_id").fetchall()]
    if not rows:
        raise ReportError(f"the warehouse {path} holds no property yet: {SETUP_HINT}")
    known = ", ".join(f"{r.code} ({r.property_id})" for r in rows)
    if wanted is None:
        if len(rows) == 1:
            return rows[0]
        raise ReportError(f"the warehouse holds several properties: pass --property, one of "
                          f"{known}")
    for row in rows:
        if wanted.strip().lower() in (row.code.lower(), str(row.property_id)):
            return row
    raise ReportError(f"unknown property {wanted!r}: the warehouse holds {known}")


def parse_date(value: str, option: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise ReportError(f"{option} {value!r} is not a date: use YYYY-MM-DD, e.g. "
                          "2026-03-01") from None
