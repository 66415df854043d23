"""mart.booking_kpis: firm bookings of each month of arrival and channel, and how they ended,
summed from mart.booking_outcomes (the one classification, booking_outcomes.py)."""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.money import div_half_up
from pipelines.vocabulary import Frame, lazy

OUTCOME_COLUMNS = (
    "property_id", "arrival_month", "channel", "lead_time_days", "is_booking", "is_cancelled",
    "is_lapsed_option", "room_nights", "cancelled_room_nights", "stayed_rooms",
    "stayed_room_nights", "no_shows",
)


def booking_kpis(outcomes: Frame) -> pl.DataFrame:
    """Build mart.booking_kpis from mart.booking_outcomes.

    Cohort: reservations by the month of their first arrival and channel.
    - bookings: firm bookings made; room_nights: nights of their firm room entries.
    - cancellation_rate_bookings: guest cancellations / bookings (no-shows and lapsed options
      are not cancellations: `no_shows` and `lapsed_options` are counted beside).
    - cancellation_rate_room_nights: nights cancelled by the guest / room_nights.
    - avg_lead_time_days: mean of arrival - local booking date over bookings.
    - alos: room nights / room entries, both on the books.
    - no_show_rate: no-show room entries / expected arrivals (on the books plus no-shows).
    Rates are fractions (0.25 = 25%), null when the base is 0. A cohort with only lapsed
    options has a row with 0 bookings."""
    lf = lazy(outcomes, "booking_outcomes", OUTCOME_COLUMNS).filter(
        pl.col("is_booking") | pl.col("is_lapsed_option"))
    booking = pl.col("is_booking")
    cohort = ["property_id", "arrival_month", "channel"]

    def of_bookings(column: str) -> pl.Expr:
        return pl.col(column).filter(booking).sum().cast(pl.Int64)

    return (
        lf.group_by(cohort)
        .agg(
            bookings=booking.sum().cast(pl.Int64),
            room_nights=of_bookings("room_nights"),
            cancelled_bookings=pl.col("is_cancelled").sum().cast(pl.Int64),
            cancelled_room_nights=of_bookings("cancelled_room_nights"),
            lead_days=of_bookings("lead_time_days"),
            stayed_rooms=of_bookings("stayed_rooms"),
            stayed_room_nights=of_bookings("stayed_room_nights"),
            no_shows=of_bookings("no_shows"),
            lapsed_options=pl.col("is_lapsed_option").sum().cast(pl.Int64),
        )
        .select(
            *cohort,
            "bookings",
            "room_nights",
            "cancelled_bookings",
            "cancelled_room_nights",
            cancellation_rate_bookings=_rate(pl.col("cancelled_bookings"), pl.col("bookings")),
            cancellation_rate_room_nights=_rate(
                pl.col("cancelled_room_nights"), pl.col("room_nights")
            ),
            avg_lead_time_days=_exact(pl.col("lead_days"), pl.col("bookings"), 2),
            alos=_rate(pl.col("stayed_room_nights"), pl.col("stayed_rooms")),
            no_shows="no_shows",
            no_show_rate=_rate(pl.col("no_shows"), pl.col("stayed_rooms") + pl.col("no_shows")),
            lapsed_options="lapsed_options",
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
