"""Read the core.* tables of one property into polars frames (DuckDB -> Arrow -> polars)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import duckdb
import polars as pl

from pipelines.marts.logic.money import DEFAULT_ACCOMMODATION_VAT_PCT
from pipelines.vocabulary import DEFAULT_TIMEZONE
from pipelines.warehouse import query_frame as frame


@dataclass(frozen=True)
class PropertyFacts:
    property_id: int
    business_date: date
    timezone: str


def property_facts(conn: duckdb.DuckDBPyConnection, property_id: int) -> PropertyFacts:
    """Business date and time zone of the property as last synced; ValueError before any sync."""
    found = conn.execute("SELECT business_date, timezone FROM core.property "
                         "WHERE property_id = ?", [property_id]).fetchall()
    if not found:
        raise ValueError(f"property {property_id} is not in core.property: sync its reference "
                         "data before building the marts")
    business_date, timezone = found[0]
    return PropertyFacts(property_id, business_date, timezone or DEFAULT_TIMEZONE)


def accommodation_vat(conn: duckdb.DuckDBPyConnection, property_id: int) -> Decimal:
    """The VAT of the property's accommodation item (the rate its room charges carry);
    10% when it has none or several different ones."""
    rates = conn.execute("SELECT DISTINCT tax_pct FROM core.items WHERE property_id = ? AND "
                         "department = 'accommodation'", [property_id]).fetchall()
    if len(rates) != 1:
        return DEFAULT_ACCOMMODATION_VAT_PCT
    return Decimal(rates[0][0]).normalize()


def room_entries(conn: duckdb.DuckDBPyConnection, property_id: int) -> pl.DataFrame:
    return frame(conn, """
        SELECT property_id, reservation_id, reservation_room_id, status, arrival, departure,
               room_type_id, room_id, room_code, rate_plan_id, rate_plan_code, channel, source,
               market, adults, children, CAST(brackets AS VARCHAR) AS brackets, total,
               created_at, cancelled_by, updated_at
        FROM core.reservation_rooms WHERE property_id = ? ORDER BY reservation_room_id
    """, [property_id])


def room_versions(conn: duckdb.DuckDBPyConnection, property_id: int) -> pl.DataFrame:
    return frame(conn, """
        SELECT property_id, reservation_room_id, status, arrival, departure, total,
               valid_from, valid_to, created_at
        FROM core.reservation_room_versions WHERE property_id = ?
        ORDER BY reservation_room_id, valid_from
    """, [property_id])


def events(conn: duckdb.DuckDBPyConnection, property_id: int) -> pl.DataFrame:
    return frame(conn, """
        SELECT property_id, type, entity, entity_id, created_at, CAST(data AS VARCHAR) AS data
        FROM core.events WHERE property_id = ? ORDER BY event_id
    """, [property_id])


def folio_lines(conn: duckdb.DuckDBPyConnection, property_id: int) -> pl.DataFrame:
    return frame(conn, """
        SELECT property_id, folio_line_id, reservation_id, reservation_room_id, type, posted_on,
               service_item_id, amount_gross, amount_net
        FROM core.folio_lines WHERE property_id = ? ORDER BY folio_line_id
    """, [property_id])


def items(conn: duckdb.DuckDBPyConnection, property_id: int) -> pl.DataFrame:
    return frame(conn, "SELECT property_id, item_id, department FROM core.items "
                       "WHERE property_id = ?", [property_id])


def age_brackets(conn: duckdb.DuckDBPyConnection, property_id: int) -> pl.DataFrame:
    return frame(conn, "SELECT property_id, age_bracket_id, counts_as_person "
                       "FROM core.age_brackets WHERE property_id = ?", [property_id])


def rooms(conn: duckdb.DuckDBPyConnection, property_id: int) -> pl.DataFrame:
    return frame(conn, "SELECT property_id, room_id, room_type_id, sellable FROM core.rooms "
                       "WHERE property_id = ?", [property_id])


def availability(conn: duckdb.DuckDBPyConnection, property_id: int) -> pl.DataFrame:
    return frame(conn, """
        SELECT property_id, snapshot_date, stay_date, room_type_id, total, out_of_order
        FROM core.availability WHERE property_id = ?
    """, [property_id])


def business_dates(conn: duckdb.DuckDBPyConnection, property_id: int) -> pl.DataFrame:
    """Every business date the warehouse has seen: of each property payload fetched, of each
    availability snapshot, and the current one."""
    return frame(conn, """
        SELECT DISTINCT property_id, business_date FROM (
            SELECT property_id, business_date FROM core.property WHERE property_id = $p
            UNION ALL
            SELECT property_id, CAST(payload ->> 'business_date' AS DATE) FROM raw.payloads
            WHERE property_id = $p AND stream = 'property'
            UNION ALL
            SELECT property_id, snapshot_date FROM core.availability WHERE property_id = $p
        ) WHERE business_date IS NOT NULL ORDER BY business_date
    """, {"p": property_id})


def mart(conn: duckdb.DuckDBPyConnection, table: str, property_id: int,
         where: str = "TRUE", params: list[object] | None = None) -> pl.DataFrame:
    """The property's rows of a mart already built (its inputs for the marts built on it), those
    meeting `where` (SQL over its columns, with `params`)."""
    return frame(conn, f"SELECT * FROM mart.{table} WHERE property_id = ? AND ({where})",
                 [property_id, *(params or [])])


def place(conn: duckdb.DuckDBPyConnection, property_id: int) -> pl.DataFrame:
    """property_id, code, country, province of core.property: where its holidays are."""
    return frame(conn, "SELECT property_id::BIGINT AS property_id, code, country, province "
                 "FROM core.property WHERE property_id = ?", [property_id])


def sandbox_levels(conn: duckdb.DuckDBPyConnection, property_id: int) -> pl.DataFrame:
    """property_id, stay_date, rooms_level of core.sandbox_levels: the simulator's level of
    each night (none for a real PMS), the floor forecast_accuracy scores."""
    return frame(conn, "SELECT property_id::BIGINT AS property_id, stay_date, rooms_level "
                 "FROM core.sandbox_levels WHERE property_id = ?", [property_id])


def stored_rows(conn: duckdb.DuckDBPyConnection, table: str, property_id: int) -> int:
    """The property's rows of `mart.<table>`."""
    return int(conn.execute(f"SELECT count(*) FROM mart.{table} WHERE property_id = ?",
                            [property_id]).fetchall()[0][0])


def kept_inputs(conn: duckdb.DuckDBPyConnection, table: str,
                property_id: int) -> pl.DataFrame | None:
    """What the stored rows of a snapshot mart of the property were computed from (day,
    digest; meta.mart_inputs), or None: no build recorded them, or the stored rows are no
    longer as many as that build left (emptied or recreated since)."""
    recorded = conn.execute("SELECT rows FROM meta.mart_builds WHERE property_id = ? "
                            "AND mart = ?", [property_id, table]).fetchall()
    if not recorded or recorded[0][0] != stored_rows(conn, table, property_id):
        return None
    inputs = frame(conn, "SELECT day, digest FROM meta.mart_inputs WHERE property_id = ? "
                   "AND mart = ? ORDER BY day", [property_id, table])
    return None if inputs.is_empty() else inputs
