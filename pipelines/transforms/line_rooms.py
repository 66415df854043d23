"""Folio lines without a room entry, attributed when their reservation has only one.

core.folio_lines derives `reservation_room_id` from the line's room number; a line posted while
no room was assigned (a no-show charge of a room never assigned, a deposit) has an empty room
and no entry. When the line's reservation holds a single room entry, the line can only be
that entry's.
"""

from __future__ import annotations

import polars as pl

from .frames import Frame, lazy


def with_single_room_entries(lines: Frame, rooms: Frame) -> pl.DataFrame:
    """Lines with a null `reservation_room_id` take the only room entry of their reservation;
    lines of reservations with several entries (or none) keep theirs (null)."""
    lf = lazy(lines, "folio_lines", ["property_id", "reservation_id", "reservation_room_id"])
    only = (
        lazy(rooms, "rooms", ["property_id", "reservation_id", "reservation_room_id"])
        .group_by("property_id", "reservation_id")
        .agg(pl.col("reservation_room_id").first().alias("only_entry"), entries=pl.len())
        .filter(pl.col("entries") == 1)
        .drop("entries")
    )
    return (
        lf.join(only, on=["property_id", "reservation_id"], how="left")
        .with_columns(reservation_room_id=pl.coalesce("reservation_room_id", "only_entry"))
        .drop("only_entry")
        .collect()
    )
