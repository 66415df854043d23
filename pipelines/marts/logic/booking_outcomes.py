"""mart.booking_outcomes: how each reservation ended, the one classification of cancellations,
no-shows and lapsed options that mart.booking_kpis and the views count (docs/kpi.md, Booking
outcomes).

A room entry is, by its current state and the no-show rule (no_shows.with_no_show_flag):
- on the books: confirmed, checked in or checked out (complimentary included);
- a guest cancellation: cancelled by the guest (or by nobody said);
- a no-show: no_shows' rule;
- a lapsed option: cancelled by the hotel, not a no-show, an option before (or first seen
  cancelled);
- a hotel cancellation: cancelled by the hotel, not a no-show, confirmed before;
- an open option.
The first four but the lapsed option are firm: a reservation with a firm room entry is a firm
booking made. Cancellation rate = guest cancellations / firm bookings made (D-Edge, STR):
no-shows and lapsed options are reported beside it, never inside it.
"""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.otb_changes import local_date
from pipelines.vocabulary import CANCELLED, DEFAULT_TIMEZONE, ON_THE_BOOKS, OPTION, Frame, lazy

ROOM_COLUMNS = (
    "property_id", "reservation_id", "reservation_room_id", "status", "cancelled_by", "arrival",
    "departure", "channel", "created_at", "is_no_show", "is_lapsed_option",
)
LEAD_TIME_BUCKETS = ((1, "0-1"), (7, "2-7"), (14, "8-14"), (30, "15-30"), (60, "31-60"),
                     (90, "61-90"), (180, "91-180"), (None, "181+"))
"""(last day of the bucket, label), in order; None: no upper bound."""
HOTEL = "hotel"


def lead_time_bucket(days: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """(label, order 1..8) of the lead time bucket of `days`."""
    label: pl.Expr = pl.lit(LEAD_TIME_BUCKETS[-1][1])
    order: pl.Expr = pl.lit(len(LEAD_TIME_BUCKETS))
    for position, (upto, name) in reversed(list(enumerate(LEAD_TIME_BUCKETS[:-1], start=1))):
        assert upto is not None
        label = pl.when(days <= upto).then(pl.lit(name)).otherwise(label)
        order = pl.when(days <= upto).then(pl.lit(position)).otherwise(order)
    return label, order.cast(pl.Int32)


def booking_outcomes(rooms: Frame, timezone: str = DEFAULT_TIMEZONE) -> pl.DataFrame:
    """One row per reservation (columns of mart.booking_outcomes) from its room entries
    (core.reservation_rooms with is_no_show and is_lapsed_option)."""
    lf = lazy(rooms, "rooms", ROOM_COLUMNS)
    schema = lf.collect_schema()
    cancelled = pl.col("status") == CANCELLED
    by_hotel = cancelled & (pl.col("cancelled_by") == HOTEL)
    entries = lf.with_columns(
        nights=(pl.col("departure") - pl.col("arrival")).dt.total_days().cast(pl.Int64),
        booked=local_date("created_at", timezone, schema),
        stayed=pl.col("status").is_in(ON_THE_BOOKS),
        guest_cancelled=cancelled & (pl.col("cancelled_by") != HOTEL).fill_null(True),
        no_show=by_hotel & pl.col("is_no_show"),
        lapsed=by_hotel & ~pl.col("is_no_show") & pl.col("is_lapsed_option"),
        hotel_cancelled=by_hotel & ~pl.col("is_no_show") & ~pl.col("is_lapsed_option"),
        open_option=pl.col("status") == OPTION,
    ).with_columns(firm=pl.col("stayed") | pl.col("guest_cancelled") | pl.col("no_show")
                   | pl.col("hotel_cancelled"))

    def nights_of(flag: str) -> pl.Expr:
        return pl.col("nights").filter(pl.col(flag)).sum().cast(pl.Int32)

    def count_of(flag: str) -> pl.Expr:
        return pl.col(flag).sum().cast(pl.Int32)

    heads = entries.sort("reservation_room_id").group_by("property_id", "reservation_id").agg(
        channel=pl.col("channel").first(),
        arrival=pl.col("arrival").min(),
        booked_on=pl.col("booked").min(),
        firm_rooms=count_of("firm"),
        room_nights=nights_of("firm"),
        cancelled_rooms=count_of("guest_cancelled"),
        cancelled_room_nights=nights_of("guest_cancelled"),
        stayed_rooms=count_of("stayed"),
        stayed_room_nights=nights_of("stayed"),
        no_shows=count_of("no_show"),
        hotel_cancelled_rooms=count_of("hotel_cancelled"),
        lapsed_option_rooms=count_of("lapsed"),
    )
    lead = (pl.col("arrival") - pl.col("booked_on")).dt.total_days().cast(pl.Int32)
    label, order = lead_time_bucket(pl.col("lead_time_days"))
    is_booking = pl.col("firm_rooms") > 0
    is_cancelled = is_booking & (pl.col("cancelled_rooms") == pl.col("firm_rooms"))
    return (
        heads.with_columns(lead_time_days=lead)
        .with_columns(
            arrival_month=pl.col("arrival").dt.truncate("1mo"),
            lead_time_bucket=label, lead_time_order=order,
            is_booking=is_booking, is_cancelled=is_cancelled,
            is_lapsed_option=~is_booking & (pl.col("lapsed_option_rooms") > 0),
            outcome=pl.when(pl.col("stayed_rooms") > 0).then(pl.lit("on_the_books"))
            .when(is_cancelled).then(pl.lit("cancelled"))
            .when(pl.col("no_shows") > 0).then(pl.lit("no_show"))
            .when(is_booking).then(pl.lit("hotel_cancelled"))
            .when(pl.col("lapsed_option_rooms") > 0).then(pl.lit("lapsed_option"))
            .otherwise(pl.lit("option")),
        )
        .select(
            "property_id", "reservation_id", "channel", "arrival", "arrival_month", "booked_on",
            "lead_time_days", "lead_time_bucket", "lead_time_order", "outcome", "is_booking",
            "is_cancelled", "is_lapsed_option", "firm_rooms", "room_nights", "cancelled_rooms",
            "cancelled_room_nights", "stayed_rooms", "stayed_room_nights", "no_shows",
            "hotel_cancelled_rooms", "lapsed_option_rooms",
        )
        .sort("property_id", "reservation_id")
        .collect()
    )
