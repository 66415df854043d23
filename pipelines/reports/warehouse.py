"""Open the warehouse's read copy and find the property a report is about."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

import duckdb

from pipelines.reports.errors import ReportError
from pipelines.warehouse import WarehouseError, WarehouseMissingError, open_read_copy

SETUP_HINT = "run `make demo` or `pmsw sync` first"


@dataclass(frozen=True)
class PropertyRow:
    property_id: int
    code: str
    name: str
    currency: str
    business_date: date


def open_warehouse(path: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the warehouse's published read copy (never the writer's
    file, so a report never waits for a sync nor makes one fail; docs/operations.md,
    "Reading while syncing")."""
    try:
        return open_read_copy(path)
    except WarehouseMissingError as error:
        if not path.exists():  # a file, or a group's directory
            raise ReportError(f"no warehouse at {path}: {SETUP_HINT}, or pass --warehouse "
                              "(or set PMSW_WAREHOUSE)") from None
        raise ReportError(str(error)) from None
    except WarehouseError as error:
        raise ReportError(str(error)) from None


def as_of_line(conn: duckdb.DuckDBPyConnection, prop: PropertyRow) -> str:
    """`As of ...`: when the read copy was published and the runs it holds for the property."""
    rows = {str(part): (run, finished) for part, run, finished in conn.execute(
        "SELECT part, run_id, finished_at FROM meta.published WHERE property_id = ?",
        [prop.property_id]).fetchall()} if _has_table(conn, "meta", "published") else {}
    published = conn.execute("SELECT max(published_at) FROM meta.published").fetchone() \
        if rows else None
    if not rows or published is None or published[0] is None:
        return f"As of: {prop.code} business date {prop.business_date} (publish time unknown)"
    synced = max((f for part, (_, f) in rows.items()
                  if part not in ("marts", "reconciliation") and f is not None), default=None)
    marts = rows.get("marts")
    parts = [f"As of {_stamp(published[0])}: {prop.code} business date {prop.business_date}",
             f"synced {_stamp(synced)}" if synced else "never synced"]
    if "reservations" in rows:
        parts[-1] += f" by run {rows['reservations'][0]}"
    if marts is not None:
        parts.append(f"marts run {marts[0]}")
    return ", ".join(parts)


def _stamp(value: object) -> str:
    from datetime import datetime

    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S %Z").strip()
    return str(value)


def _has_table(conn: duckdb.DuckDBPyConnection, schema: str, name: str) -> bool:
    row = conn.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = ? AND "
        "table_name = ?", [schema, name]).fetchone()
    return row is not None and row[0] > 0


def require_tables(conn: duckdb.DuckDBPyConnection, path: Path, *tables: str) -> None:
    """Fail with one line when the warehouse lacks a table the report reads."""
    for table in tables:
        schema, name = table.split(".")
        if not _has_table(conn, schema, name):
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
