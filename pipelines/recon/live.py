"""Folios read from the API as the frames the matcher takes (what core.folios and
core.folio_lines would hold after landing them); a line's room entry is derived by the same
rule as at landing (`pipelines.vocabulary.line_rooms`)."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from models import Folio
from pipelines.vocabulary import Frame, line_room_entries

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
    lines = line_room_entries(pl.DataFrame(line_rows, schema=_LINE_SCHEMA), stays)
    return pl.DataFrame(folio_rows, schema=_FOLIO_SCHEMA), lines
