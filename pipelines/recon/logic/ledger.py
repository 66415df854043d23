"""Expected charges from the POS ledger: every ticket line charged to a room entry.

The source reference of a line is `T-000123/1` (ticket id / line number), the form POS
charges carry in their folio line's description ("Bar [T-000123/1]"): a repost writes the same
description, so the matcher finds it by the reference like any POS posting.
"""

from __future__ import annotations

import re
from datetime import date

import polars as pl

from pipelines.marts.logic import to_cents
from pipelines.recon.logic.frames import (
    ITEM_COLUMNS,
    LEDGER_COLUMNS,
    Frame,
    conform,
    lazy,
    milli,
)

POS = "pos"
TICKET_REF = re.compile(r"\[([A-Za-z]+-\d+/\d+)\]")
"""A POS reference in a folio line's description: "[T-000123/1]"."""


def ticket_ref(description: pl.Expr) -> pl.Expr:
    """The ticket reference a folio line's description carries, or null."""
    return description.str.extract(TICKET_REF.pattern, 1)


def pos_ledger(ledger: Frame, items: Frame, first: date, last: date) -> pl.LazyFrame:
    """Ledger lines of business dates [first, last] tied to a room entry, as expected charges
    (the ledger's quantity, unit price and total, VAT included)."""
    item = lazy(items, "items", ITEM_COLUMNS).select(
        pl.col("property_id").cast(pl.Int64), item_code=pl.col("code"),
        item_id=pl.col("item_id").cast(pl.Int64), item_name=pl.col("name"))
    lines = (
        lazy(ledger, "pos_ledger", LEDGER_COLUMNS)
        .filter(pl.col("reservation_room_id").is_not_null()
                & pl.col("business_date").is_between(pl.lit(first), pl.lit(last)))
        .with_columns(pl.col("property_id").cast(pl.Int64))
        .join(item, on=["property_id", "item_code"], how="left")
        .with_columns(source_ref=pl.format("{}/{}", pl.col("ticket_id"), pl.col("line")))
    )
    return conform(lines.with_columns(
        source=pl.lit(POS),
        description=pl.format("{} [{}]", pl.col("item_name").fill_null(pl.col("item_code")),
                              pl.col("source_ref")),
        quantity_milli=milli(pl.col("quantity")),
        unit_cents=to_cents(pl.col("unit_price")),
        expected_cents=to_cents(pl.col("total")),
        compare_amount=pl.lit(True), repost=pl.lit(True),
    ))
