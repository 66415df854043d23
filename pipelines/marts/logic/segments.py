"""mart.segment_daily: rooms sold and room revenue by stay date and each segment dimension."""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.money import from_cents, ratio_cents, to_cents
from pipelines.vocabulary import ON_THE_BOOKS, OPTION, Frame, lazy

DIMENSIONS = ["channel", "source", "market", "rate_plan_id", "rate_plan_code", "room_type_id"]


def segment_daily(stay_nights: Frame, fees: Frame | None = None) -> pl.DataFrame:
    """Build mart.segment_daily from mart.stay_nights and mart.room_fees: per property, stay
    date, channel, source, market, rate plan (its id and code: every room night carries the
    plan of its room entry, a negotiated plan too) and booked room type: `rooms_sold` (as in
    occupancy: on the books, not complimentary, not a no-show), `room_revenue_nights_net` (the
    nights not in option), `room_revenue_fees_net` (fees posted that date, by the segments of
    their room entry; null segments for a fee of no room entry), `room_revenue_net` (both) and
    `adr_net` = nights revenue / rooms_sold. Summed over the segments of a date these give the
    occupancy_daily figures of that date."""
    lf = lazy(
        stay_nights, "stay_nights",
        ["property_id", "stay_date", "status", "is_complimentary", "is_no_show",
         "room_revenue_net", *DIMENSIONS],
    )
    sold = pl.col("status").is_in(ON_THE_BOOKS) & ~pl.col("is_complimentary") & ~pl.col(
        "is_no_show"
    )
    keys = ["property_id", "stay_date", *DIMENSIONS]
    nights = (
        lf.filter(pl.col("status") != OPTION)
        .group_by(keys)
        .agg(
            rooms_sold=sold.cast(pl.Int64).sum(),
            net=to_cents(pl.col("room_revenue_net")).sum(),
        )
    )
    if fees is None:
        fee_sums = nights.select(*keys, fee=pl.lit(0, dtype=pl.Int64)).head(0)
    else:
        fee_sums = (
            lazy(fees, "room_fees", ["property_id", "date", "fee_revenue_net", *DIMENSIONS])
            .group_by("property_id", pl.col("date").alias("stay_date"), *DIMENSIONS)
            .agg(fee=to_cents(pl.col("fee_revenue_net")).sum())
        )
    return (
        nights.join(fee_sums, on=keys, how="full", coalesce=True, nulls_equal=True)
        .with_columns(pl.col("rooms_sold", "net", "fee").fill_null(0))
        .filter((pl.col("rooms_sold") != 0) | (pl.col("net") != 0) | (pl.col("fee") != 0))
        .select(
            *keys,
            "rooms_sold",
            room_revenue_nights_net=from_cents(pl.col("net")),
            room_revenue_fees_net=from_cents(pl.col("fee")),
            room_revenue_net=from_cents(pl.col("net") + pl.col("fee")),
            adr_net=ratio_cents(pl.col("net"), pl.col("rooms_sold")),
        )
        .sort(keys, nulls_last=True)
        .collect()
    )
