"""Folios read from the API as the frames the matcher takes (what core.folios and
core.folio_lines would hold after landing them).

A line's room entry is derived as the warehouse derives it: the only room entry of the
folio's reservation whose room number is the line's room, or among several the one whose stay
covers `posted_on` (departure day included); null when neither decides.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from models import Folio
from pipelines.transforms.reconcile.frames import STAY_COLUMNS, Frame, lazy

_FOLIO_SCHEMA = pl.Schema({"property_id": pl.Int64(), "folio_id": pl.Int64(),
                           "reservation_id": pl.Int64(), "status": pl.String()})
_LINE_SCHEMA = pl.Schema({
    "property_id": pl.Int64(), "folio_line_id": pl.Int64(), "folio_id": pl.Int64(),
    "reservation_id": pl.Int64(), "type": pl.String(), "description": pl.String(),
    "posted_on": pl.Date(), "quantity": pl.Decimal(12, 3), "total": pl.Decimal(12, 2),
    "room": pl.String(), "service_item_id": pl.Int64(), "reversal_of": pl.Int64(),
})


def folio_frames(property_id: int, folios: Sequence[Folio],
                 stays: Frame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(folios, lines) frames of API folios; lines carry the derived `reservation_room_id`."""
    folio_rows = [{"property_id": property_id, "folio_id": f.id,
                   "reservation_id": f.reservation_id, "status": f.status.value}
                  for f in folios]
    line_rows = [{
        "property_id": property_id, "folio_line_id": ln.id, "folio_id": f.id,
        "reservation_id": f.reservation_id, "type": ln.type, "description": ln.description,
        "posted_on": ln.posted_on, "quantity": ln.quantity, "total": ln.total, "room": ln.room,
        "service_item_id": ln.service_item_id, "reversal_of": ln.reversal_of,
    } for f in folios for ln in f.lines]
    lines = pl.DataFrame(line_rows, schema=_LINE_SCHEMA)
    candidates = (
        lines.lazy().filter(pl.col("room") != "")
        .join(lazy(stays, "stays", STAY_COLUMNS).select(
            pl.col("property_id").cast(pl.Int64), pl.col("reservation_id").cast(pl.Int64),
            pl.col("reservation_room_id").cast(pl.Int64), room=pl.col("room_code"),
            arrival="arrival", departure="departure"),
            on=["property_id", "reservation_id", "room"], how="inner")
        .with_columns(covers=pl.col("posted_on").is_between("arrival", "departure"))
        .group_by("folio_line_id")
        .agg(reservation_room_id=pl.when(pl.len() == 1)
             .then(pl.col("reservation_room_id").min())
             .when(pl.col("covers").sum() == 1)
             .then(pl.col("reservation_room_id").filter(pl.col("covers")).min()))
    )
    with_rooms = lines.lazy().join(candidates, on="folio_line_id", how="left").collect()
    return pl.DataFrame(folio_rows, schema=_FOLIO_SCHEMA), with_rooms
