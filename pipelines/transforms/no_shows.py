"""Which room entries are no-shows, and when rooms were cancelled, from the event log."""

from __future__ import annotations

import polars as pl

from .frames import Frame, lazy


def cancellations(events: Frame) -> pl.DataFrame:
    """One row per cancelled room entry: `reservation_room_id`, `cancelled_at` (the last
    `stay.cancelled` event), `is_no_show` (its data says reason no_show, as the sandbox's night
    audit records it: {by: hotel, reason: no_show})."""
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


def with_no_show_flag(rooms: Frame, events: Frame) -> pl.DataFrame:
    """Room entries with `is_no_show`: cancelled, and the last cancellation was a no-show."""
    lf = lazy(rooms, "rooms", ["property_id", "reservation_room_id", "status"])
    flags = cancellations(events).lazy().select("property_id", "reservation_room_id", "is_no_show")
    return (
        lf.join(flags, on=["property_id", "reservation_room_id"], how="left")
        .with_columns(
            is_no_show=(pl.col("is_no_show").fill_null(False) & (pl.col("status") == "cancelled"))
        )
        .collect()
    )
