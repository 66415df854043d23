"""A count in words, singular for one and plural otherwise: "1 room", "2 rooms", "0 nights",
"1 day before" (alerts, their stretches, the reports' titles and notes)."""

from __future__ import annotations

from decimal import Decimal

import polars as pl


def counted(n: int | Decimal, noun: str, spec: str = "") -> str:
    """`n` (formatted with `spec`: "+" signs it) and `noun` ("room", "night", "room night":
    the plural adds an s), singular when n is 1 or -1."""
    return f"{n:{spec}} {noun if abs(n) == 1 else noun + 's'}"


def counted_expr(n: pl.Expr | str, noun: str) -> pl.Expr:
    """`counted` of a column of whole numbers (a name or an expression); null where it is
    null."""
    value = pl.col(n) if isinstance(n, str) else n
    return pl.when(value.abs() == 1).then(pl.format("{} " + noun, value)).otherwise(
        pl.format("{} " + noun + "s", value))
