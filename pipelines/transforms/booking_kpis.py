"""mart.booking_kpis: bookings of each month of arrival and channel, and how they ended."""

from __future__ import annotations

import polars as pl

from .frames import CANCELLED, DEFAULT_TIMEZONE, OPTION, Frame, lazy
from .money import div_half_up
from .otb_changes import local_date

ROOM_COLUMNS = (
    "property_id", "reservation_id", "reservation_room_id", "status", "arrival", "departure",
    "channel", "created_at", "is_no_show",
)


def booking_kpis(rooms: Frame, timezone: str = DEFAULT_TIMEZONE) -> pl.DataFrame:
    """Build mart.booking_kpis from room entries (core.reservation_rooms with is_no_show).

    Cohort: reservations by the month of their first arrival (the head's arrival) and channel;
    reservations whose rooms are all still options are not bookings yet and are left out.
    - bookings: reservations; room_nights: nights of all their room entries.
    - cancellation_rate_bookings: reservations with every room cancelled / bookings.
    - cancellation_rate_room_nights: cancelled room nights / room nights.
    - avg_lead_time_days: mean of arrival - local creation date over bookings.
    - alos: room nights / room entries, both not cancelled (no-shows are cancelled).
    - no_show_rate: no-show room entries / expected arrivals (entries not cancelled, plus
      no-shows). Rates are fractions (0.25 = 25%), null when the base is 0."""
    lf = lazy(rooms, "rooms", ROOM_COLUMNS)
    schema = lf.collect_schema()
    entries = lf.with_columns(
        nights=(pl.col("departure") - pl.col("arrival")).dt.total_days().cast(pl.Int64),
        created=local_date("created_at", timezone, schema),
        cancelled=pl.col("status") == CANCELLED,
    )
    heads = (
        entries.group_by("property_id", "reservation_id")
        .agg(
            arrival=pl.col("arrival").min(),
            channel=pl.col("channel").first(),
            created=pl.col("created").min(),
            all_option=(pl.col("status") == OPTION).all(),
            all_cancelled=pl.col("cancelled").all(),
        )
        .filter(~pl.col("all_option"))
        .with_columns(
            arrival_month=pl.col("arrival").dt.truncate("1mo"),
            lead_days=(pl.col("arrival") - pl.col("created")).dt.total_days(),
        )
    )
    cohort = ["property_id", "arrival_month", "channel"]
    by_head = heads.group_by(cohort).agg(
        bookings=pl.len().cast(pl.Int64),
        cancelled_bookings=pl.col("all_cancelled").sum().cast(pl.Int64),
        lead_days=pl.col("lead_days").sum().cast(pl.Int64),
    )
    by_room = (
        entries.join(
            heads.select("property_id", "reservation_id", "arrival_month", "channel"),
            on=["property_id", "reservation_id"],
            how="inner",
            suffix="_head",
        )
        .drop("channel")
        .rename({"channel_head": "channel"})
        .group_by(cohort)
        .agg(
            room_nights=pl.col("nights").sum(),
            cancelled_room_nights=pl.col("nights").filter(pl.col("cancelled")).sum(),
            stayed_room_nights=pl.col("nights").filter(~pl.col("cancelled")).sum(),
            stayed_rooms=(~pl.col("cancelled")).sum(),
            no_shows=pl.col("is_no_show").sum(),
        )
    )
    return (
        by_head.join(by_room, on=cohort, how="left", nulls_equal=True)
        .select(
            *cohort,
            "bookings",
            "room_nights",
            cancellation_rate_bookings=_rate(pl.col("cancelled_bookings"), pl.col("bookings")),
            cancellation_rate_room_nights=_rate(
                pl.col("cancelled_room_nights"), pl.col("room_nights")
            ),
            avg_lead_time_days=_exact(pl.col("lead_days"), pl.col("bookings"), 2),
            alos=_rate(pl.col("stayed_room_nights"), pl.col("stayed_rooms")),
            no_show_rate=_rate(pl.col("no_shows"), pl.col("stayed_rooms") + pl.col("no_shows")),
        )
        .sort(cohort, nulls_last=True)
        .collect()
    )


def _rate(part: pl.Expr, whole: pl.Expr) -> pl.Expr:
    """part / whole to four decimals, half-up (docs/kpi.md); null when whole is 0."""
    return _exact(part, whole, 4)


def _exact(part: pl.Expr, whole: pl.Expr, decimals: int) -> pl.Expr:
    """Integer part / whole as a Decimal of `decimals` places, rounded half-up in integer
    arithmetic (no float, so ties such as 2.675 round up); null when whole is 0."""
    scale = 10**decimals
    scaled = div_half_up(part.cast(pl.Int64) * scale, whole.cast(pl.Int64))
    return (
        pl.when(whole > 0)
        .then((scaled.cast(pl.Decimal(20, decimals)) / scale).cast(pl.Decimal(18, decimals)))
        .otherwise(None)
    )
