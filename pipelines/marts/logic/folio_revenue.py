"""Folio lines as revenue: each charge line with its department and exact net and gross cents."""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.money import to_cents
from pipelines.vocabulary import ACCOMMODATION, CODES, OTHER, Frame, lazy

LINE_COLUMNS = (
    "property_id", "folio_line_id", "reservation_id", "reservation_room_id", "type",
    "posted_on", "service_item_id", "amount_gross", "amount_net",
)


def revenue_lines(lines: Frame, items: Frame) -> pl.LazyFrame:
    """Charge lines of core.folio_lines with `department`, `gross_cents`, `net_cents`.

    Payments (type `payment`) are not revenue and are dropped. The department is the item's
    (core.items.department), one of departments.DEPARTMENTS; a line without an item or with an
    unknown department is `other`, except a line of type `accommodation`.
    Reversals stay in with their negative amounts, so any sum is net of reversals."""
    lf = lazy(lines, "folio_lines", LINE_COLUMNS)
    it = lazy(items, "items", ["property_id", "item_id", "department"]).select(
        "property_id", pl.col("item_id").alias("service_item_id"), "department"
    )
    return (
        lf.filter(pl.col("type") != "payment")
        .join(it, on=["property_id", "service_item_id"], how="left")
        .with_columns(
            department=pl.when(pl.col("department").is_in(CODES))
            .then(pl.col("department"))
            .when(pl.col("type") == ACCOMMODATION)
            .then(pl.lit(ACCOMMODATION))
            .otherwise(pl.lit(OTHER)),
            gross_cents=to_cents(pl.col("amount_gross")),
            net_cents=to_cents(pl.col("amount_net")),
        )
    )
