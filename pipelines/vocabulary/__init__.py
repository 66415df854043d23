"""The trade's shared definitions, pure (polars only), used by every domain, the views and the
reports alike: the input checks and status vocabulary of the transforms (`frames`), the
departments of folio lines (`departments`), a folio line's room (`line_rooms`), and a count
in words, singular or plural (`words`)."""

from pipelines.vocabulary.departments import (
    ACCOMMODATION,
    CODES,
    DEPARTMENTS,
    NON_ROOM_REVENUE,
    OTHER,
    REVENUE_DEPARTMENTS,
    line_department_sql,
)
from pipelines.vocabulary.frames import (
    CANCELLED,
    DEFAULT_TIMEZONE,
    HOUSE_USE_PLAN,
    ON_THE_BOOKS,
    OPTION,
    WALK_IN_CHANNEL,
    Frame,
    lazy,
)
from pipelines.vocabulary.line_rooms import line_room_entries, with_single_room_entries
from pipelines.vocabulary.words import counted, counted_expr

__all__ = [
    "ACCOMMODATION",
    "CANCELLED",
    "CODES",
    "DEFAULT_TIMEZONE",
    "DEPARTMENTS",
    "HOUSE_USE_PLAN",
    "NON_ROOM_REVENUE",
    "ON_THE_BOOKS",
    "OPTION",
    "OTHER",
    "REVENUE_DEPARTMENTS",
    "WALK_IN_CHANNEL",
    "Frame",
    "counted",
    "counted_expr",
    "lazy",
    "line_department_sql",
    "line_room_entries",
    "with_single_room_entries",
]
