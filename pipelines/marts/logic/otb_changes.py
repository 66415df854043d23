"""Room versions as dated changes of the books: the building block of OTB, pickup and pace.

A version is on the books at the end of local date S when valid_from <= end of S < valid_to
(UTC timestamps, local dates in the property's time zone). Writing M(S) for the local midnight
that ends S, that is valid_from < M(S) <= valid_to, i.e. S in [date(valid_from), date(valid_to)):
a version first counts on the local date it starts and last counts the day before the local
date it ends. A version replaced on the day it started never counts at the end of any day.
"""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.money import DEFAULT_ACCOMMODATION_VAT_PCT, VatRate
from pipelines.marts.logic.stay_nights import explode_nights, nightly_revenue_cents
from pipelines.vocabulary import ON_THE_BOOKS, OPTION, Frame, lazy

VERSION_COLUMNS = (
    "property_id", "reservation_room_id", "status", "arrival", "departure", "total",
    "valid_from", "valid_to",
)
CHANGE_KEY = ["property_id", "stay_date", "change_date"]


def local_date(column: str, timezone: str, schema: pl.Schema) -> pl.Expr:
    """Local calendar date of a timestamp column (a naive timestamp is taken as UTC)."""
    expr = pl.col(column)
    dtype = schema[column]
    if isinstance(dtype, pl.Datetime) and dtype.time_zone is None:
        expr = expr.dt.replace_time_zone("UTC")
    return expr.dt.convert_time_zone(timezone).dt.date()


def version_nights(
    versions: Frame, timezone: str, vat_pct: VatRate = DEFAULT_ACCOMMODATION_VAT_PCT
) -> pl.LazyFrame:
    """Nights of versions on the books or in option, with the snapshot dates they count on:
    `snap_from` (inclusive) and `snap_to` (exclusive, null while current), `is_option`,
    `net_cents` (the night's share of the version total, net of VAT)."""
    lf = lazy(versions, "versions", VERSION_COLUMNS)
    schema = lf.collect_schema()
    kept = lf.filter(pl.col("status").is_in([*ON_THE_BOOKS, OPTION])).with_columns(
        snap_from=local_date("valid_from", timezone, schema),
        snap_to=local_date("valid_to", timezone, schema),
        is_option=pl.col("status") == OPTION,
    )
    kept = kept.filter(pl.col("snap_to").is_null() | (pl.col("snap_to") > pl.col("snap_from")))
    nights = nightly_revenue_cents(explode_nights(kept), vat_pct)
    return nights.select(
        "property_id", "reservation_room_id", "stay_date", "snap_from", "snap_to",
        "is_option", "net_cents",
    )


def book_changes(nights: pl.LazyFrame) -> pl.LazyFrame:
    """Per (property_id, stay_date, change_date): `rooms_new` and `rooms_cancelled` (room nights
    that came onto / went off the books that day), `revenue_cents` (change of net revenue on the
    books, rate changes included) and `option_rooms` (change of room nights in option).

    A room night of one entry that stays on the books across consecutive versions (a rate
    change, a room move) is one span: it is new once and cancelled at most once."""
    books = nights.filter(~pl.col("is_option"))
    entry_night = ["property_id", "reservation_room_id", "stay_date"]
    spans = (
        books.sort([*entry_night, "snap_from"])
        .with_columns(
            starts=(
                pl.col("snap_from") != pl.col("snap_to").shift(1).over(entry_night)
            ).fill_null(True)
        )
        .with_columns(span=pl.col("starts").cum_sum())
        .group_by([*entry_night, "span"])
        .agg(
            start=pl.col("snap_from").first(),
            end=pl.col("snap_to").last(),
        )
    )
    zero = pl.lit(0, dtype=pl.Int64)
    parts = [
        spans.select("property_id", "stay_date", change_date="start",
                     rooms_new=pl.lit(1, dtype=pl.Int64), rooms_cancelled=zero,
                     revenue_cents=zero, option_rooms=zero),
        spans.drop_nulls("end").select("property_id", "stay_date", change_date="end",
                                       rooms_new=zero, rooms_cancelled=pl.lit(1, dtype=pl.Int64),
                                       revenue_cents=zero, option_rooms=zero),
        books.select("property_id", "stay_date", change_date="snap_from", rooms_new=zero,
                     rooms_cancelled=zero, revenue_cents="net_cents", option_rooms=zero),
        books.drop_nulls("snap_to").select("property_id", "stay_date", change_date="snap_to",
                                           rooms_new=zero, rooms_cancelled=zero,
                                           revenue_cents=-pl.col("net_cents"), option_rooms=zero),
    ]
    options = nights.filter(pl.col("is_option"))
    parts += [
        options.select("property_id", "stay_date", change_date="snap_from", rooms_new=zero,
                       rooms_cancelled=zero, revenue_cents=zero,
                       option_rooms=pl.lit(1, dtype=pl.Int64)),
        options.drop_nulls("snap_to").select("property_id", "stay_date", change_date="snap_to",
                                             rooms_new=zero, rooms_cancelled=zero,
                                             revenue_cents=zero,
                                             option_rooms=pl.lit(-1, dtype=pl.Int64)),
    ]
    return (
        pl.concat(parts, how="vertical")
        .group_by(CHANGE_KEY)
        .agg(pl.col("rooms_new", "rooms_cancelled", "revenue_cents", "option_rooms").sum())
    )


def cumulative_grid(
    changes: pl.LazyFrame, ranges: pl.LazyFrame, ahead_days: int
) -> pl.LazyFrame:
    """Running totals of `changes` on a dense grid.

    ranges: property_id, first_snapshot, last_snapshot. The grid holds every snapshot_date S in
    [first, last] and stay_date D in [S, S + ahead_days]; each change column holds its sum over
    change dates <= S (changes before the first S of a stay date are folded into it)."""
    grid = (
        ranges.select(
            "property_id",
            snapshot_date=pl.date_ranges("first_snapshot", "last_snapshot", interval="1d"),
        )
        .explode("snapshot_date")
        .join(pl.LazyFrame({"offset": list(range(ahead_days + 1))}), how="cross")
        .with_columns(stay_date=pl.col("snapshot_date") + pl.duration(days=pl.col("offset")))
        .drop("offset")
    )
    folded = (
        changes.join(ranges, on="property_id", how="inner")
        .with_columns(
            snapshot_date=pl.max_horizontal(
                "change_date",
                pl.col("stay_date") - pl.duration(days=ahead_days),
                "first_snapshot",
            )
        )
        .filter(
            (pl.col("snapshot_date") <= pl.col("stay_date"))
            & (pl.col("snapshot_date") <= pl.col("last_snapshot"))
        )
        .group_by("property_id", "snapshot_date", "stay_date")
        .agg(pl.col("rooms_new", "rooms_cancelled", "revenue_cents", "option_rooms").sum())
    )
    sums = ["rooms_new", "rooms_cancelled", "revenue_cents", "option_rooms"]
    return (
        grid.join(folded, on=["property_id", "snapshot_date", "stay_date"], how="left")
        .with_columns(pl.col(sums).fill_null(0))
        .sort("property_id", "stay_date", "snapshot_date")
        .with_columns(pl.col(sums).cum_sum().over("property_id", "stay_date"))
    )

