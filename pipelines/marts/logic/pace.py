"""mart.pace: on the books by days before arrival, beside the same time last year (STLY) and
last year's final actual."""

from __future__ import annotations

from datetime import date

import polars as pl

from pipelines.vocabulary import Frame, lazy

STLY_DAYS = 364  # 52 weeks: the same weekday a year earlier
ALIGN_REACH = 40
"""Days a night aligned by a holiday's or event's name may lie from 364 days back (Easter moves
by up to 35): a build from `start` reads the snapshots from start - STLY_DAYS - ALIGN_REACH."""


def _last_year(rows: pl.LazyFrame, calendar: Frame | None) -> pl.LazyFrame:
    """rows with ly_date: the calendar's same night last year (aligned by holiday and event,
    `pipelines.forecast.calendar`), else 364 days back."""
    back = pl.col("stay_date") - pl.duration(days=STLY_DAYS)
    if calendar is None:
        return rows.with_columns(ly_date=back)
    days = lazy(calendar, "calendar", ["property_id", "stay_date", "ly_date"]).select(
        pl.col("property_id").cast(rows.collect_schema()["property_id"]), "stay_date",
        cal_ly_date="ly_date")
    return rows.join(days, on=["property_id", "stay_date"], how="left").with_columns(
        ly_date=pl.coalesce("cal_ly_date", back)).drop("cal_ly_date")


def pace(otb_snapshots: Frame, occupancy_daily: Frame | None = None,
         start: date | None = None, calendar: Frame | None = None) -> pl.DataFrame:
    """Build mart.pace from mart.otb_snapshots (and mart.occupancy_daily for last year's
    actual).

    One row per stay date D and days_before k = D - S (S the snapshot date): `rooms_otb`,
    `revenue_otb_net` = OTB(S, D) and `is_rebuilt` (the snapshot's); `stly_rooms_otb`,
    `stly_revenue_otb_net`, `stly_is_rebuilt` = the same of OTB(S - 364, D - 364), null when
    that snapshot was not taken; `ly_actual_rooms_sold`, `ly_actual_room_revenue_net` = what
    D - 364 finally sold (occupancy_daily's rooms_sold and room_revenue_net of a night already
    lived), null when not lived or not in the warehouse.
    start: only the rows of snapshots from that date on (otb_snapshots must then hold the
    snapshots from start - 364 on, for STLY; from start - 364 - ALIGN_REACH with a calendar).
    calendar: property_id, stay_date, ly_date (`pipelines.forecast.property_calendars`):
    last year's night is the calendar's (Christmas Day with Christmas Day), not D - 364; the STLY
    is then OTB(ly_date - k, ly_date) and last year's actual that of ly_date."""
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
        ly_date="stay_date",
        stly_rooms_otb="rooms_otb",
        stly_revenue_otb_net="revenue_otb_net",
        stly_is_rebuilt="is_rebuilt",
    )
    rows = lf if start is None else lf.filter(pl.col("snapshot_date") >= start)
    out = _last_year(rows.select("property_id", "stay_date", "days_before", "rooms_otb",
                                 "revenue_otb_net", "is_rebuilt"), calendar).join(
        stly, on=["property_id", "ly_date", "days_before"], how="left")
    if occupancy_daily is not None:
        actual = lazy(occupancy_daily, "occupancy_daily",
                      ["property_id", "stay_date", "rooms_sold", "room_revenue_net",
                       "is_actual"]).filter(pl.col("is_actual")).select(
            "property_id",
            ly_date="stay_date",
            ly_actual_rooms_sold=pl.col("rooms_sold").cast(pl.Int64),
            ly_actual_room_revenue_net="room_revenue_net",
        )
        out = out.join(actual, on=["property_id", "ly_date"], how="left")
    else:
        out = out.with_columns(ly_actual_rooms_sold=pl.lit(None, dtype=pl.Int64),
                               ly_actual_room_revenue_net=pl.lit(None, dtype=pl.Decimal(18, 2)))
    return out.drop("ly_date").sort("property_id", "stay_date", "days_before").collect()
