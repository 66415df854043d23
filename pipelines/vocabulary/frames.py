"""Shared plumbing of the transforms: input checks and the status vocabulary."""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

Frame = pl.DataFrame | pl.LazyFrame

OPTION = "option"
CANCELLED = "cancelled"
ON_THE_BOOKS = ("confirmed", "checked_in", "checked_out")
DEFAULT_TIMEZONE = "Europe/Rome"
HOUSE_USE_PLAN = "HOUSE"
"""Rate plan code of house-use rooms (staff, the hotel's own use; docs/sandbox.md)."""
WALK_IN_CHANNEL = "walk_in"
"""Channel of a walk-in: a guest who came to the desk without a booking (docs/kpi.md)."""


def lazy(frame: Frame, name: str, columns: Iterable[str]) -> pl.LazyFrame:
    """The frame as a LazyFrame, after checking it has `columns` (naming any missing)."""
    lf = frame.lazy()
    present = set(lf.collect_schema().names())
    missing = [c for c in columns if c not in present]
    if missing:
        raise ValueError(f"{name} lacks column(s) {', '.join(missing)}")
    return lf
