"""mart.segment_daily: rooms sold and room revenue by stay date and each segment dimension."""

from __future__ import annotations

import polars as pl

from .frames import ON_THE_BOOKS, OPTION, Frame, lazy
from .money import from_cents, ratio_cents, to_cents

DIMENSIONS = ["channel", "source", "market", "rate_plan_id", "room_type_id"]


def segment_daily(stay_nights: Frame) -> pl.DataFrame:
    """Build mart.segment_daily from mart.stay_nights: per property, stay date, channel,
    source, market, rate plan and booked room type: `rooms_sold` (as in occupancy: on the books,
    not complimentary, not a no-show), `room_revenue_net` (all nights but options, so no-show
    charges count) and `adr_net` = room_revenue_net / rooms_sold. Summed over the segments of a
    date these give the occupancy_daily figures of that date."""
    lf = lazy(
        stay_nights, "stay_nights",
        ["property_id", "stay_date", "status", "is_complimentary", "is_no_show",
         "room_revenue_net", *DIMENSIONS],
    )
    sold = pl.col("status").is_in(ON_THE_BOOKS) & ~pl.col("is_complimentary") & ~pl.col(
        "is_no_show"
    )
    keys = ["property_id", "stay_date", *DIMENSIONS]
    return (
        lf.filter(pl.col("status") != OPTION)
        .group_by(keys)
        .agg(
            rooms_sold=sold.cast(pl.Int64).sum(),
            net=to_cents(pl.col("room_revenue_net")).sum(),
        )
        .filter((pl.col("rooms_sold") != 0) | (pl.col("net") != 0))
        .select(
            *keys,
            "rooms_sold",
            room_revenue_net=from_cents(pl.col("net")),
            adr_net=ratio_cents(pl.col("net"), pl.col("rooms_sold")),
        )
        .sort(keys, nulls_last=True)
        .collect()
    )
