"""mart.pace: on the books by days before arrival, beside the same time last year (STLY)."""

from __future__ import annotations

import polars as pl

from .frames import Frame, lazy

STLY_DAYS = 364  # 52 weeks: the same weekday a year earlier


def pace(otb_snapshots: Frame) -> pl.DataFrame:
    """Build mart.pace from mart.otb_snapshots.

    One row per stay date D and days_before k = D - S (S the snapshot date): `rooms_otb`,
    `revenue_otb_net` = OTB(S, D); `stly_rooms_otb`, `stly_revenue_otb_net` = OTB(S - 364,
    D - 364), null when that snapshot was not taken."""
    lf = lazy(
        otb_snapshots, "otb_snapshots",
        ["property_id", "snapshot_date", "stay_date", "rooms_otb", "revenue_otb_net"],
    ).with_columns(
        days_before=(pl.col("stay_date") - pl.col("snapshot_date")).dt.total_days().cast(pl.Int32)
    )
    stly = lf.select(
        "property_id",
        "days_before",
        stay_date=pl.col("stay_date") + pl.duration(days=STLY_DAYS),
        stly_rooms_otb="rooms_otb",
        stly_revenue_otb_net="revenue_otb_net",
    )
    return (
        lf.select("property_id", "stay_date", "days_before", "rooms_otb", "revenue_otb_net")
        .join(stly, on=["property_id", "stay_date", "days_before"], how="left")
        .sort("property_id", "stay_date", "days_before")
        .collect()
    )
