"""Which room entries are no-shows, from what the warehouse keeps for ever (docs/kpi.md,
No-show); and when rooms were cancelled, from the event log (the rebuild's faster path).

API v1 has no no-show status: the night audit cancels a room still expected on its arrival
date as the hotel (`cancelled_by = hotel`) and charges its first night. So a room entry is a
no-show when
1. it is cancelled by the hotel,
2. on or after its arrival date: the first version of core.reservation_room_versions in
   status `cancelled` starts (local date of the property) on or after the arrival, and
3. it was a firm booking, not an option lapsing: the version before the cancellation was not
   an `option`; when the warehouse never saw it before its cancellation (a first load weeks
   later), the no-show charge decides: an accommodation line on its folios posted on its
   arrival date (for the room entry, or without a room entry in its reservation).
Versions and folio lines are kept for ever, so the answer does not depend on the event log's
30 days: a warehouse loaded once, months later, finds the same no-shows as one synced daily.
"""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.folio_revenue import revenue_lines
from pipelines.marts.logic.otb_changes import local_date
from pipelines.vocabulary import ACCOMMODATION, CANCELLED, DEFAULT_TIMEZONE, OPTION, Frame, lazy

ENTRY = ["property_id", "reservation_room_id"]
HOTEL = "hotel"


def cancellations(events: Frame) -> pl.DataFrame:
    """One row per cancelled room entry: `reservation_room_id`, `cancelled_at` (the last
    `stay.cancelled` event), `is_no_show` (its data says reason no_show, as the sandbox's night
    audit records it: {by: hotel, reason: no_show}). Only what the log still holds (30 days):
    a faster path, never the only one."""
    columns = ["property_id", "type", "entity", "entity_id", "created_at", "data"]
    lf = lazy(events, "events", columns)
    return (
        lf.filter((pl.col("type") == "stay.cancelled") & (pl.col("entity") == "stay"))
        .with_columns(reason=pl.col("data").cast(pl.String).str.json_path_match("$.reason"))
        .sort("created_at")
        .group_by("property_id", pl.col("entity_id").alias("reservation_room_id"))
        .agg(
            cancelled_at=pl.col("created_at").last(),
            is_no_show=(pl.col("reason").last() == "no_show").fill_null(False),
        )
        .collect()
    )


def no_shows(rooms: Frame, versions: Frame, lines: Frame, items: Frame,
             timezone: str = DEFAULT_TIMEZONE) -> pl.DataFrame:
    """One row per room entry cancelled by the hotel: `reservation_room_id`, `cancelled_at`
    (start of its first cancelled version), `status_before` (of the version before; null when
    the warehouse first saw it cancelled), `charged` (a no-show charge on its arrival date),
    `is_no_show` (the module's rule) and `is_lapsed_option` (not a no-show, and an option
    before its cancellation or first seen cancelled: an option that lapsed; otherwise the hotel
    cancelled a firm booking)."""
    entries = lazy(rooms, "rooms", [*ENTRY, "reservation_id", "status", "cancelled_by",
                                    "arrival", "updated_at"]).filter(
        (pl.col("status") == CANCELLED) & (pl.col("cancelled_by") == HOTEL))
    vs = lazy(versions, "versions", [*ENTRY, "status", "valid_from"])
    ts_type = vs.collect_schema()["valid_from"]
    first_cancelled = (
        vs.filter(pl.col("status") == CANCELLED)
        .group_by(ENTRY).agg(cancelled_at=pl.col("valid_from").min())
    )
    before = (
        vs.join(first_cancelled, on=ENTRY, how="inner")
        .filter(pl.col("valid_from") < pl.col("cancelled_at"))
        .sort("valid_from")
        .group_by(ENTRY).agg(status_before=pl.col("status").last())
    )
    charge = revenue_lines(lines, items).filter(
        (pl.col("department") == ACCOMMODATION) & (pl.col("gross_cents") > 0))
    on_room = charge.drop_nulls("reservation_room_id").select(
        *ENTRY, arrival=pl.col("posted_on")).unique().with_columns(on_room=pl.lit(True))
    unassigned = charge.filter(pl.col("reservation_room_id").is_null()).select(
        "property_id", "reservation_id", arrival=pl.col("posted_on")).unique().with_columns(
        on_reservation=pl.lit(True))
    found = (
        entries.join(first_cancelled, on=ENTRY, how="left")
        .with_columns(cancelled_at=pl.col("cancelled_at").fill_null(
            pl.col("updated_at").cast(ts_type)))
        .join(before, on=ENTRY, how="left")
        .join(on_room, on=[*ENTRY, "arrival"], how="left")
        .join(unassigned, on=["property_id", "reservation_id", "arrival"], how="left")
    )
    schema = found.collect_schema()
    return (
        found.with_columns(
            charged=pl.col("on_room").fill_null(False) | pl.col("on_reservation").fill_null(False),
            on_or_after_arrival=local_date("cancelled_at", timezone, schema) >= pl.col("arrival"),
        )
        .with_columns(
            is_no_show=pl.col("on_or_after_arrival")
            & pl.when(pl.col("status_before").is_null()).then(pl.col("charged"))
            .otherwise(pl.col("status_before") != OPTION)
        )
        .with_columns(
            is_lapsed_option=~pl.col("is_no_show")
            & (pl.col("status_before").is_null() | (pl.col("status_before") == OPTION))
        )
        .select(*ENTRY, "cancelled_at", "status_before", "charged", "is_no_show",
                "is_lapsed_option")
        .sort(ENTRY)
        .collect()
    )


def with_no_show_flag(rooms: Frame, versions: Frame, lines: Frame, items: Frame,
                      timezone: str = DEFAULT_TIMEZONE) -> pl.DataFrame:
    """Room entries with `is_no_show` and `is_lapsed_option` (no_shows: this module's rule)."""
    flags = no_shows(rooms, versions, lines, items, timezone).lazy().select(
        *ENTRY, "is_no_show", "is_lapsed_option")
    return (
        rooms.lazy().join(flags, on=ENTRY, how="left")
        .with_columns(is_no_show=pl.col("is_no_show").fill_null(False),
                      is_lapsed_option=pl.col("is_lapsed_option").fill_null(False))
        .collect()
    )
