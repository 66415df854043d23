"""mart.revenue_daily: revenue by posting date and department, from folio lines."""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.folio_revenue import revenue_lines
from pipelines.marts.logic.money import from_cents
from pipelines.vocabulary import DEPARTMENTS, REVENUE_DEPARTMENTS, Frame

__all__ = ["DEPARTMENTS", "revenue_daily"]


def revenue_daily(lines: Frame, items: Frame) -> pl.DataFrame:
    """Build mart.revenue_daily: one row per property, posting date and department
    (accommodation, food_beverage, other, and city_tax listed apart with is_revenue false):
    `department_revenue_net`, `revenue_gross`, `vat` = gross - net, summed over the charge
    lines posted that business date, reversals included. Payments are not revenue. Totals of
    revenue are sums over the rows where is_revenue is true: city tax is outside VAT and never
    revenue."""
    return (
        revenue_lines(lines, items)
        .group_by("property_id", pl.col("posted_on").alias("date"), "department")
        .agg(net=pl.col("net_cents").sum(), gross=pl.col("gross_cents").sum())
        .select(
            "property_id", "date", "department",
            is_revenue=pl.col("department").is_in(REVENUE_DEPARTMENTS),
            department_revenue_net=from_cents(pl.col("net")),
            revenue_gross=from_cents(pl.col("gross")),
            vat=from_cents(pl.col("gross") - pl.col("net")),
        )
        .sort("property_id", "date", "department")
        .collect()
    )
