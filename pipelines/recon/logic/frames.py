"""Columns of the reconciliation's frames, the status vocabulary, and small expressions.

Amounts are Int64 cents and quantities Int64 thousandths inside (exact joins and sums);
`results_frame` turns them back into Decimals at the end. Every input is one property's
rows as the warehouse holds them (core.*), checked for the columns used.
"""

from __future__ import annotations

import polars as pl

from pipelines.vocabulary import Frame, lazy

MATCHED = "matched"
MISSING = "missing"
POSTED = "posted"
AMOUNT_MISMATCH = "amount_mismatch"
BLOCKED = "blocked"
FAILED = "failed"
STATUSES = (MATCHED, MISSING, POSTED, AMOUNT_MISMATCH, BLOCKED, FAILED)

RESOLUTION_STATES = ("open", "invoiced_separately", "credited", "written_off", "not_due")
"""States of a charge that cannot be posted (recon.resolutions.state)."""

IN_HOUSE_OR_DEPARTED = ("checked_in", "checked_out")

STAY_COLUMNS = ("property_id", "reservation_room_id", "reservation_id", "status", "arrival",
                "departure", "adults", "brackets", "rate_plan_code", "room_code", "total")
ITEM_COLUMNS = ("property_id", "item_id", "code", "name", "price")
BRACKET_COLUMNS = ("property_id", "age_bracket_id", "age_to")
LEDGER_COLUMNS = ("property_id", "ticket_id", "line", "business_date", "reservation_id",
                  "reservation_room_id", "item_code", "quantity", "unit_price", "total")
FOLIO_COLUMNS = ("property_id", "folio_id", "reservation_id", "status")
LINE_COLUMNS = ("property_id", "folio_line_id", "folio_id", "reservation_id",
                "reservation_room_id", "type", "description", "posted_on", "quantity",
                "total", "service_item_id", "reversal_of")

EXPECTED_SCHEMA: dict[str, pl.DataType] = {
    "property_id": pl.Int64(),
    "reservation_id": pl.Int64(),
    "reservation_room_id": pl.Int64(),
    "business_date": pl.Date(),
    "item_code": pl.String(),
    "item_id": pl.Int64(),
    "source": pl.String(),
    "source_ref": pl.String(),
    "description": pl.String(),
    "quantity_milli": pl.Int64(),
    "unit_cents": pl.Int64(),
    "expected_cents": pl.Int64(),
    "compare_amount": pl.Boolean(),
    "repost": pl.Boolean(),
}
"""An expected charge (before its key): what should be on the room entry's folio."""


def milli(expr: pl.Expr) -> pl.Expr:
    """A Decimal (or integer) quantity as Int64 thousandths, half-up."""
    return (expr.cast(pl.Decimal(20, 4)).round(3, mode="half_away_from_zero") * 1000
            ).cast(pl.Int64)


def amount_cents(quantity_milli: pl.Expr, unit_cents: pl.Expr) -> pl.Expr:
    """quantity x unit price, rounded half-up to the cent (as the PMS totals a line)."""
    product = quantity_milli * unit_cents
    return (product.abs() + 500) // 1000 * product.sign()


def conform(frame: pl.LazyFrame) -> pl.LazyFrame:
    """Exactly the columns of EXPECTED_SCHEMA, in order, with their types."""
    return frame.select([pl.col(name).cast(dtype) for name, dtype in EXPECTED_SCHEMA.items()])


def empty_expected() -> pl.LazyFrame:
    return pl.LazyFrame(schema=EXPECTED_SCHEMA)


__all__ = ["Frame", "lazy"]
