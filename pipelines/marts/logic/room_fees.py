"""Accommodation lines that are not the revenue of a night sold: no-show, cancellation and
early-departure fees (mart.room_fees), and the one rule that tells them from night charges.

USALI's Rooms department records the income from guests who do not occupy a guaranteed room
or cancel late as no-show revenue, apart from the revenue of the nights sold; early-departure
charges are the same kind of income (domain.md, "Fees, supply and forecasting"). So a night's
room revenue is what that night was sold for, and the fees are rooms revenue of their own.

Each accommodation line of the folios (department accommodation, reversals included) is, by
its room entry (core.folio_lines.reservation_room_id, else the single entry of its
reservation, else the no-show entry it pays, see `with_no_show_entries`):
- `no_show`: the entry is a no-show (its charged night is never a room sold);
- `cancellation`: the entry is cancelled otherwise (a late-cancellation fee);
- `early_departure`: posted on or after the entry's departure (nights charged beyond the
  stay: an early departure that still pays the booked period);
- `other`: an entry in option, or one without a night (day use);
- `unattributed`: no room entry can be told (a line without room of a reservation with
  several entries that is not a no-show's);
- `night` otherwise: the revenue of a night sold, counted on the night of its posting date
  (a line posted before arrival on the first night).
Every kind but `night` is a fee, dated by its posting date.
"""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.folio_revenue import revenue_lines
from pipelines.marts.logic.money import from_cents
from pipelines.vocabulary import ACCOMMODATION, CANCELLED, OPTION, Frame, lazy

NIGHT = "night"
NO_SHOW = "no_show"
CANCELLATION = "cancellation"
EARLY_DEPARTURE = "early_departure"
OTHER_FEE = "other"
UNATTRIBUTED = "unattributed"

ROOM_COLUMNS = ("property_id", "reservation_id", "reservation_room_id", "status", "arrival",
                "departure", "is_no_show")
SEGMENT_COLUMNS = ("room_type_id", "room_id", "channel", "source", "market", "rate_plan_id",
                   "rate_plan_code")


def with_no_show_entries(lines: pl.LazyFrame, rooms: pl.LazyFrame) -> pl.LazyFrame:
    """Accommodation lines still without a room entry take the no-show entry they pay.

    The night audit charges a no-show's first night while no room is assigned, so the line
    has no room number; with one room entry in the reservation it is already that entry's
    (line_rooms.with_single_room_entries). With several, the lines posted on a date pair, in
    the order of their ids, with the reservation's no-show entries arrived on or before it, in
    the order of theirs; lines left over stay without entry."""
    open_lines = (
        lines.filter(pl.col("reservation_room_id").is_null()
                     & (pl.col("department") == ACCOMMODATION))
        .select("property_id", "folio_line_id", "reservation_id", "posted_on")
    )
    candidates = rooms.filter(pl.col("is_no_show")).select(
        "property_id", "reservation_id", pl.col("reservation_room_id").alias("entry"),
        "arrival")
    pairs = (
        open_lines.join(candidates, on=["property_id", "reservation_id"], how="inner")
        .filter(pl.col("arrival") <= pl.col("posted_on"))
        .with_columns(
            line_rank=pl.col("folio_line_id").rank("dense").over(
                "property_id", "reservation_id", "posted_on"),
            entry_rank=pl.col("entry").rank("dense").over(
                "property_id", "reservation_id", "posted_on"),
        )
        .filter(pl.col("line_rank") == pl.col("entry_rank"))
        .select("property_id", "folio_line_id", "entry")
    )
    return (
        lines.join(pairs, on=["property_id", "folio_line_id"], how="left")
        .with_columns(reservation_room_id=pl.coalesce("reservation_room_id", "entry"))
        .drop("entry")
    )


def accommodation_lines(lines: Frame, items: Frame, rooms: Frame) -> pl.LazyFrame:
    """Accommodation lines with `kind` (module docstring), `gross_cents`, `net_cents`.

    lines: core.folio_lines (with line_rooms.with_single_room_entries applied); items:
    core.items; rooms: room entries with `is_no_show` (no_shows.with_no_show_flag)."""
    entries = lazy(rooms, "rooms", ROOM_COLUMNS).select(*ROOM_COLUMNS)
    acc = with_no_show_entries(
        revenue_lines(lines, items).filter(pl.col("department") == ACCOMMODATION), entries)
    joined = acc.join(entries.drop("reservation_id"),
                      on=["property_id", "reservation_room_id"], how="left")
    return joined.with_columns(
        kind=pl.when(pl.col("reservation_room_id").is_null() | pl.col("status").is_null())
        .then(pl.lit(UNATTRIBUTED))
        .when(pl.col("is_no_show"))
        .then(pl.lit(NO_SHOW))
        .when(pl.col("status") == CANCELLED)
        .then(pl.lit(CANCELLATION))
        .when(pl.col("status") == OPTION)
        .then(pl.lit(OTHER_FEE))
        .when(pl.col("posted_on") >= pl.col("departure"))
        .then(pl.lit(EARLY_DEPARTURE))
        .when(pl.col("departure") <= pl.col("arrival"))
        .then(pl.lit(OTHER_FEE))
        .otherwise(pl.lit(NIGHT))
    )


def room_fees(lines: Frame, items: Frame, rooms: Frame) -> pl.DataFrame:
    """Build mart.room_fees: one row per accommodation line that is a fee (every kind but
    `night`), dated by its posting date, with the segments of its room entry (null when
    unattributed). rooms: room entries with `is_no_show` and the segment columns."""
    dims = lazy(rooms, "rooms", ["property_id", "reservation_room_id", *SEGMENT_COLUMNS]).select(
        "property_id", "reservation_room_id", *SEGMENT_COLUMNS)
    return (
        accommodation_lines(lines, items, rooms)
        .filter(pl.col("kind") != NIGHT)
        .join(dims, on=["property_id", "reservation_room_id"], how="left")
        .select(
            "property_id", "folio_line_id", "reservation_id", "reservation_room_id",
            date="posted_on", fee_kind="kind",
            fee_revenue_net=from_cents(pl.col("net_cents")),
            fee_revenue_gross=from_cents(pl.col("gross_cents")),
            **{c: pl.col(c) for c in SEGMENT_COLUMNS},
        )
        .sort("property_id", "date", "folio_line_id")
        .collect()
    )
