"""The reconciliation's side of the warehouse: its inputs as polars frames (from core.*) and
its runs and results (recon.runs, recon.results), each run written in one transaction."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

import duckdb
import polars as pl

from pipelines.ingest.store import property_row
from pipelines.recon.logic import RESOLUTION_STATES, STATUSES
from pipelines.warehouse import insert_frame, query_frame, transaction


@dataclass(frozen=True)
class ReconInputs:
    """One property's rows the reconciliation of [first, last] needs."""

    property_id: int
    property_code: str
    business_date: date
    """The property's business date when it was last synced: dates before it are closed."""
    stays: pl.DataFrame
    items: pl.DataFrame
    age_brackets: pl.DataFrame
    ledger: pl.DataFrame
    folios: pl.DataFrame
    lines: pl.DataFrame


class ReconInputError(ValueError):
    """The warehouse cannot answer the reconciliation asked (names what is missing)."""


def property_place(conn: duckdb.DuckDBPyConnection,
                   property_id: int) -> tuple[str | None, str | None]:
    """(city, star_rating) of the property as last synced (GET /property): they select its
    city tax rule (docs/reconciliation.md, City tax)."""
    rows = conn.execute("SELECT city, star_rating FROM core.property WHERE property_id = ?",
                        [property_id]).fetchall()  # fetchall: no result left open
    return (None, None) if not rows else (rows[0][0], rows[0][1])


def read_inputs(conn: duckdb.DuckDBPyConnection, property_id: int, first: date,
                last: date) -> ReconInputs:
    """The room entries of every reservation with a stay touching [first, last] or a ledger
    line in it, with their folios and lines (any date), the ledger lines of the dates, the
    items and age brackets."""
    pid, code, business_date = property_row(conn, property_id)
    params: dict[str, Any] = {"p": pid, "first": first, "last": last,
                              "after": last + timedelta(days=1)}
    scoped = """reservation_id IN (
        SELECT reservation_id FROM core.reservation_rooms
         WHERE property_id = $p AND arrival <= $after AND departure >= $first
        UNION SELECT reservation_id FROM core.pos_ledger
         WHERE property_id = $p AND business_date BETWEEN $first AND $last
           AND reservation_id IS NOT NULL)"""

    def frame(sql: str, values: dict[str, Any]) -> pl.DataFrame:
        return query_frame(conn, sql, values)

    return ReconInputs(
        property_id=pid, property_code=code, business_date=business_date,
        stays=frame(f"""
            SELECT property_id, reservation_room_id, reservation_id, status, arrival,
                   departure, adults, CAST(brackets AS VARCHAR) AS brackets,
                   rate_plan_code, room_code, total
              FROM core.reservation_rooms WHERE property_id = $p AND {scoped}
             ORDER BY reservation_room_id""", params),
        items=frame("SELECT property_id, item_id, code, name, price FROM core.items "
                    "WHERE property_id = $p ORDER BY item_id", {"p": pid}),
        age_brackets=frame("SELECT property_id, age_bracket_id, age_to "
                           "FROM core.age_brackets WHERE property_id = $p", {"p": pid}),
        ledger=frame("""
            SELECT property_id, ticket_id, line, business_date, reservation_id,
                   reservation_room_id, item_code, quantity, unit_price, total
              FROM core.pos_ledger
             WHERE property_id = $p AND business_date BETWEEN $first AND $last
             ORDER BY ticket_id, line""", {"p": pid, "first": first, "last": last}),
        folios=frame(f"SELECT property_id, folio_id, reservation_id, status "
                     f"FROM core.folios WHERE property_id = $p AND {scoped} "
                     f"ORDER BY folio_id", params),
        lines=frame(f"""
            SELECT property_id, folio_line_id, folio_id, reservation_id,
                   reservation_room_id, type, description, posted_on, quantity, total,
                   service_item_id, reversal_of
              FROM core.folio_lines WHERE property_id = $p AND {scoped}
             ORDER BY folio_line_id""", params),
    )


def _cents(value: int) -> Decimal:
    return Decimal(value) / 100


def save_run(conn: duckdb.DuckDBPyConnection, *, property_id: int, mode: str, first: date,
             last: date, started_at: datetime, finished_at: datetime,
             summary: dict[str, tuple[int, int]], rules: dict[str, Any],
             results: pl.DataFrame) -> int:
    """Write the run and its results in one transaction; return its run_id (max + 1).

    `summary`: per status (count, expected amount in cents); `results`: the stored columns
    of recon.results but run_id.
    """
    counts: dict[str, Any] = {}
    for status in STATUSES:
        n, cents = summary.get(status, (0, 0))
        counts[f"{status}_count"] = n
        counts[f"{status}_amount"] = _cents(cents)
    expected_n = sum(n for n, _ in summary.values())
    expected_cents = sum(c for _, c in summary.values())
    with transaction(conn):
        row = conn.execute("SELECT coalesce(max(run_id), 0) + 1 FROM recon.runs").fetchone()
        run_id = int(row[0]) if row else 1
        values = {
            "run_id": run_id, "property_id": property_id, "mode": mode, "first_date": first,
            "last_date": last, "started_at": started_at, "finished_at": finished_at,
            "expected_count": expected_n, "expected_amount": _cents(expected_cents),
            **counts, "rules": json.dumps(rules, sort_keys=True, default=str),
        }
        names = ", ".join(values)
        marks = ", ".join(f"${name}" for name in values)
        conn.execute(f"INSERT INTO recon.runs ({names}) VALUES ({marks})", values)
        staged = results.with_columns(run_id=pl.lit(run_id, dtype=pl.Int64))
        insert_frame(conn, "recon.results", staged)
    return run_id


def resolved_keys(conn: duckdb.DuckDBPyConnection, property_id: int) -> pl.DataFrame:
    """The charges of the property whose latest resolution is not `open`: key, state,
    resolved_by, resolved_at (a later apply never posts them)."""
    return query_frame(conn, """
        SELECT key, state, resolved_by, resolved_at FROM (
            SELECT * FROM recon.resolutions WHERE property_id = $p
            QUALIFY row_number() OVER (PARTITION BY key ORDER BY resolution_id DESC) = 1)
         WHERE state <> 'open' ORDER BY key""", {"p": property_id})


def find_item(conn: duckdb.DuckDBPyConnection, item: str,
              property_id: int | None = None) -> tuple[int, str]:
    """(property_id, key) of a charge named by its worklist item (the 12 characters of
    recon.v_worklist.item), its Idempotency-Key or its key; one-line error when unknown or
    ambiguous."""
    wanted = item.strip()
    rows = conn.execute("""
        SELECT DISTINCT property_id, key FROM recon.results
         WHERE (substr(idempotency_key, 7, 12) = lower($w) OR idempotency_key = $w
                OR key = $w) AND ($p IS NULL OR property_id = $p)
         ORDER BY ALL""", {"w": wanted, "p": property_id}).fetchall()
    if not rows:
        raise ReconInputError(f"unknown item {wanted!r}: not a charge of any reconciliation "
                              "run (see pmsw report worklist)")
    if len(rows) > 1:
        raise ReconInputError(f"item {wanted!r} names {len(rows)} charges: give the key")
    return int(rows[0][0]), str(rows[0][1])


def add_resolution(conn: duckdb.DuckDBPyConnection, *, property_id: int, key: str,
                   state: str, note: str, resolved_by: str, resolved_at: datetime) -> int:
    """Append one resolution (never updates); return its resolution_id."""
    if state not in RESOLUTION_STATES:
        raise ReconInputError(f"unknown state {state!r}: one of {', '.join(RESOLUTION_STATES)}")
    if not note.strip():
        raise ReconInputError("a resolution needs a note (--note TEXT): what was done, or why")
    with transaction(conn):
        row = conn.execute("SELECT coalesce(max(resolution_id), 0) + 1 "
                           "FROM recon.resolutions").fetchone()
        resolution_id = int(row[0]) if row else 1
        conn.execute("INSERT INTO recon.resolutions VALUES ($1, $2, $3, $4, $5, $6, $7)",
                     [resolution_id, property_id, key, state, note.strip(), resolved_by,
                      resolved_at])
    return resolution_id
