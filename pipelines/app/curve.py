"""The booking curve of one night: how its rooms on the books grew, snapshot by snapshot,
beside the same time last year. Each point is the night's row of `pmsw report pace --from
NIGHT --to NIGHT --as-of DAY` (mart.pace, over mart.otb_snapshots): nothing is computed again."""

from __future__ import annotations

from datetime import date, timedelta

from pipelines.reports import Table
from pipelines.vocabulary import counted

from .reads import Reader

CURVE_DAYS = 90
"""How many days before the night the curve starts."""
POINT = slice(2, 9)
"""The pace report's columns a point keeps: days_before .. stly_is_rebuilt."""


def booking_curve(reader: Reader, night: date, days: int = CURVE_DAYS) -> Table:
    """The night's pace row as of each day from `days` before it to the night itself (or to
    the last closed business date, when the night is still ahead)."""
    closed = reader.prop.business_date - timedelta(days=1)
    rows: list[tuple[object, ...]] = []
    columns: tuple[str, ...] = ()
    for back in range(days, -1, -1):
        as_of = night - timedelta(days=back)
        if as_of > closed:
            break
        pace = reader.report("pace", night, night, as_of=as_of)
        columns = tuple(pace.columns[POINT])
        rows.extend((as_of, *row[POINT]) for row in pace.rows)
    return Table(f"Booking curve of {night} ({night:%a}): the night's row of pmsw report pace "
                 f"as of each day from {counted(days, 'day')} before it to {min(night, closed)}",
                 ("as_of", *(columns or ("days_before",))), rows)
