"""mart.pace: on the books by days before arrival, beside the same time last year (STLY) and
last year's final actual."""

from __future__ import annotations

from datetime import date

import polars as pl

from pipelines.vocabulary import Frame, lazy

STLY_DAYS = 364  # 52 weeks: the same weekday a year earlier


def pace(otb_snapshots: Frame, occupancy_daily: Frame | None = None,
         start: date | None = None) -> pl.DataFrame:
    """Build mart.pace from mart.otb_snapshots (and mart.occupancy_daily for last year's
    actual).

    One row per stay date D and days_before k = D - S (S the snapshot date): `rooms_otb`,
    `revenue_otb_net` = OTB(S, D) and `is_rebuilt` (the snapshot's); `stly_rooms_otb`,
    `stly_revenue_otb_net`, `stly_is_rebuilt` = the same of OTB(S - 364, D - 364), null when
    that snapshot was not taken; `ly_actual_rooms_sold`, `ly_actual_room_revenue_net` = what
    D - 364 finally sold (occupancy_daily's rooms_sold and room_revenue_net of a night already
    lived), null when not lived or not in the warehouse.
    start: only the rows of snapshots from that date on (otb_snapshots must then hold the
    snapshots from start - 364 on, for STLY)."""
    lf = lazy(
        otb_snapshots, "otb_snapshots",
        ["property_id", "snapshot_date", "stay_date", "rooms_otb", "revenue_otb_net"],
    ).with_columns(
        days_before=(pl.col("stay_date") - pl.col("snapshot_date")).dt.total_days().cast(pl.Int32)
    )
    if "is_rebuilt" not in lf.collect_schema().names():
        lf = lf.with_columns(is_rebuilt=pl.lit(False))
    stly = lf.select(
        "property_id",
        "days_before",
        stay_date=pl.col("stay_date") + pl.duration(days=STLY_DAYS),
        stly_rooms_otb="rooms_otb",
        stly_revenue_otb_net="revenue_otb_net",
        stly_is_rebuilt="is_rebuilt",
    )
    rows = lf if start is None else lf.filter(pl.col("snapshot_date") >= start)
    out = rows.select("property_id", "stay_date", "days_before", "rooms_otb", "revenue_otb_net",
                      "is_rebuilt").join(stly, on=["property_id", "stay_date", "days_before"],
                                         how="left")
    if occupancy_daily is not None:
        actual = lazy(occupancy_daily, "occupancy_daily",
                      ["property_id", "stay_date", "rooms_sold", "room_revenue_net",
                       "is_actual"]).filter(pl.col("is_actual")).select(
            "property_id",
            stay_date=pl.col("stay_date") + pl.duration(days=STLY_DAYS),
            ly_actual_rooms_sold=pl.col("rooms_sold").cast(pl.Int64),
            ly_actual_room_revenue_net="room_revenue_net",
        )
        out = out.join(actual, on=["property_id", "stay_date"], how="left")
    else:
        out = out.with_columns(ly_actual_rooms_sold=pl.lit(None, dtype=pl.Int64),
                               ly_actual_room_revenue_net=pl.lit(None, dtype=pl.Decimal(18, 2)))
    return out.sort("property_id", "stay_date", "days_before").collect()
