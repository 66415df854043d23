"""Which room entry a folio line belongs to: the one rule, for the landing and the live frames.

The API gives a line's room number, not its room entry. The entry is the only room entry of
the folio's reservation whose room number is the line's room, or among several the one whose
stay covers `posted_on` (departure day included). A line posted while no room was assigned (a
no-show charge of a room never assigned, a deposit) has an empty room: when its reservation
holds a single room entry, the line can only be that entry's. Otherwise null.
"""

from __future__ import annotations

import polars as pl

from pipelines.vocabulary.frames import Frame, lazy

KEYS = ["property_id", "reservation_id"]
ROOM_COLUMNS = ["property_id", "reservation_id", "reservation_room_id", "room_code", "arrival",
                "departure"]


def line_room_entries(lines: Frame, rooms: Frame) -> pl.DataFrame:
    """`lines` (property_id, folio_line_id, reservation_id, room, posted_on) with their
    `reservation_room_id` derived from `rooms` (core.reservation_rooms columns)."""
    lf = lazy(lines, "folio_lines", ["property_id", "folio_line_id", "reservation_id", "room",
                                     "posted_on"]).drop("reservation_room_id", strict=False)
    entries = lazy(rooms, "rooms", ROOM_COLUMNS).select(pl.col(KEYS).cast(pl.Int64),
                                                        pl.exclude(KEYS))
    by_room = (
        lf.filter(pl.col("room") != "").select(*KEYS, "folio_line_id", "room", "posted_on")
        .with_columns(pl.col(KEYS).cast(pl.Int64))
        .join(entries.rename({"room_code": "room"}), on=[*KEYS, "room"], how="inner")
        .group_by("property_id", "folio_line_id")
        .agg(reservation_room_id=pl.when(pl.len() == 1)
             .then(pl.col("reservation_room_id").min())
             .when(pl.col("posted_on").is_between("arrival", "departure").sum() == 1)
             .then(pl.col("reservation_room_id")
                   .filter(pl.col("posted_on").is_between("arrival", "departure")).min()))
    )
    with_rooms = lf.with_columns(pl.col(KEYS).cast(pl.Int64)).join(
        by_room, on=["property_id", "folio_line_id"], how="left")
    return with_single_room_entries(with_rooms, entries)


def with_single_room_entries(lines: Frame, rooms: Frame) -> pl.DataFrame:
    """Lines with a null `reservation_room_id` take the only room entry of their reservation;
    lines of reservations with several entries (or none) keep theirs (null)."""
    lf = lazy(lines, "folio_lines", [*KEYS, "reservation_room_id"])
    only = (
        lazy(rooms, "rooms", [*KEYS, "reservation_room_id"])
        .group_by(KEYS)
        .agg(pl.col("reservation_room_id").first().alias("only_entry"), entries=pl.len())
        .filter(pl.col("entries") == 1)
        .drop("entries")
    )
    return (
        lf.join(only, on=KEYS, how="left")
        .with_columns(reservation_room_id=pl.coalesce("reservation_room_id", "only_entry"))
        .drop("only_entry")
        .collect()
    )
