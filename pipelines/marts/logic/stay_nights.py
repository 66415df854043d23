"""mart.stay_nights: one row per room entry and night (arrival inclusive, departure exclusive).

Room revenue of a night:
- a night to come (stay date on or after the business date) takes its share of the stay total,
  split evenly with the rounding on the last night (zero when the room is cancelled);
- a night already lived (stay date before the business date) takes the accommodation lines
  posted on the room entry's folios for that date, reversals included (zero when none), that
  pay a night sold: no-show, cancellation and early-departure fees are not the revenue of a
  night (room_fees.accommodation_lines tells them apart; they are in mart.room_fees).
Net = gross / (1 + accommodation VAT) per night from the stay; a folio line has its own net.
"""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.money import (
    DEFAULT_ACCOMMODATION_VAT_PCT,
    VatRate,
    from_cents,
    net_from_gross,
    split_evenly,
    to_cents,
    vat_bp_expr,
)
from pipelines.marts.logic.room_fees import NIGHT, accommodation_lines
from pipelines.vocabulary import CANCELLED, OPTION, Frame, lazy

ROOM_COLUMNS = (
    "property_id", "reservation_id", "reservation_room_id", "status", "arrival", "departure",
    "room_type_id", "room_id", "room_code", "rate_plan_id", "rate_plan_code", "channel",
    "source", "market", "adults", "children", "persons", "total", "is_no_show",
)

KEY = ["property_id", "reservation_room_id", "stay_date"]


def explode_nights(rooms: pl.LazyFrame) -> pl.LazyFrame:
    """One row per night of each row (arrival inclusive, departure exclusive), with
    `stay_date`, `night_index` (0-based) and `nights`."""
    return (
        rooms.with_columns(
            nights=(pl.col("departure") - pl.col("arrival")).dt.total_days().cast(pl.Int64),
            stay_date=pl.date_ranges("arrival", "departure", interval="1d", closed="left"),
        )
        .filter(pl.col("nights") > 0)
        .explode("stay_date")
        .with_columns(
            night_index=(pl.col("stay_date") - pl.col("arrival")).dt.total_days().cast(pl.Int64)
        )
    )


def nightly_revenue_cents(nights: pl.LazyFrame, vat_pct: VatRate) -> pl.LazyFrame:
    """Add `gross_cents` and `net_cents`: the night's share of `total` (see money.split_evenly)."""
    return nights.with_columns(
        gross_cents=split_evenly(to_cents(pl.col("total")), pl.col("nights"), pl.col("night_index"))
    ).with_columns(net_cents=net_from_gross(pl.col("gross_cents"), vat_bp_expr(vat_pct)))


def _posted_accommodation(
    lines: Frame, items: Frame, rooms: Frame, nights: pl.LazyFrame, business_dates: pl.LazyFrame
) -> pl.LazyFrame:
    """Night-charge cents per (room entry, night) for lines posted before the business date.

    A line is for the night of its `posted_on`; one posted before arrival goes to the first
    night. Fees (no-show, cancellation, early departure: lines of a cancelled entry or posted
    on or after its departure) are not night charges (room_fees.accommodation_lines)."""
    spans = nights.group_by("property_id", "reservation_room_id").agg(
        first_night=pl.col("stay_date").min(), last_night=pl.col("stay_date").max()
    )
    return (
        accommodation_lines(lines, items, rooms)
        .filter(pl.col("kind") == NIGHT)
        .join(business_dates, on="property_id", how="inner")
        .filter(pl.col("posted_on") < pl.col("business_date"))
        .join(spans, on=["property_id", "reservation_room_id"], how="inner")
        .with_columns(
            stay_date=pl.col("posted_on").clip(pl.col("first_night"), pl.col("last_night"))
        )
        .group_by(KEY)
        .agg(posted_gross=pl.col("gross_cents").sum(), posted_net=pl.col("net_cents").sum())
    )


def stay_nights(
    rooms: Frame,
    properties: Frame,
    lines: Frame,
    items: Frame,
    vat_pct: VatRate = DEFAULT_ACCOMMODATION_VAT_PCT,
) -> pl.DataFrame:
    """Build mart.stay_nights.

    rooms: core.reservation_rooms with `persons` (persons.with_persons) and `is_no_show`
    (no_shows.with_no_show_flag). properties: property_id, business_date. lines: core.folio_lines;
    items: core.items. vat_pct: accommodation VAT, one rate or one per property_id."""
    room_lf = lazy(rooms, "rooms", ROOM_COLUMNS)
    bd = lazy(properties, "properties", ["property_id", "business_date"]).select(
        "property_id", "business_date"
    )
    nights = nightly_revenue_cents(explode_nights(room_lf), vat_pct)
    posted = _posted_accommodation(lines, items, rooms, nights, bd)
    is_cancelled = pl.col("status") == CANCELLED
    return (
        nights.join(bd, on="property_id", how="left")
        .join(posted, on=KEY, how="left")
        .with_columns(
            is_actual=pl.col("stay_date") < pl.col("business_date"),
            is_option=pl.col("status") == OPTION,
            is_cancelled=is_cancelled,
            is_complimentary=(to_cents(pl.col("total")) == 0) & ~is_cancelled,
        )
        .with_columns(
            gross=pl.when(pl.col("is_actual"))
            .then(pl.col("posted_gross").fill_null(0))
            .when(is_cancelled)
            .then(0)
            .otherwise(pl.col("gross_cents")),
            net=pl.when(pl.col("is_actual"))
            .then(pl.col("posted_net").fill_null(0))
            .when(is_cancelled)
            .then(0)
            .otherwise(pl.col("net_cents")),
            room_revenue_source=pl.when(pl.col("is_actual"))
            .then(pl.lit("folio"))
            .otherwise(pl.lit("stay")),
        )
        .select(
            "property_id", "reservation_id", "reservation_room_id", "stay_date",
            "arrival", "departure", "nights", "night_index", "status",
            "is_option", "is_cancelled", "is_no_show", "is_complimentary",
            "room_type_id", "room_id", "room_code", "rate_plan_id", "rate_plan_code",
            "channel", "source", "market", "adults", "children", "persons",
            room_revenue_gross=from_cents(pl.col("gross")),
            room_revenue_net=from_cents(pl.col("net")),
            room_revenue_source="room_revenue_source",
            is_actual=pl.col("is_actual").fill_null(False),
        )
        .sort(KEY)
        .collect()
    )

