"""A monthly budget file, checked row by row into the rows of mart.budget_monthly.

Pure: the rows come in as text (the header and the cells of a CSV file or an XLSX sheet), the known
properties and market segments as plain mappings. The first fault found stops the import with
one line naming the row (1 = the header, as a spreadsheet numbers them) and the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

import polars as pl

REQUIRED = ("property", "month", "rooms_sold", "room_revenue_net")
OPTIONAL = ("segment", "food_beverage_revenue_net", "other_revenue_net")
MONEY = ("room_revenue_net", "food_beverage_revenue_net", "other_revenue_net")
_MONTH = re.compile(r"^(\d{4})-(\d{2})(?:-01)?$")
SCHEMA: dict[str, pl.DataType] = {
    "property_id": pl.Int64(), "month": pl.Date(), "segment": pl.String(),
    "rooms_sold": pl.Int64(), "room_revenue_net": pl.Decimal(18, 2),
    "food_beverage_revenue_net": pl.Decimal(18, 2), "other_revenue_net": pl.Decimal(18, 2),
}
TABLE_NAMES = {"rooms_sold": "budget_rooms_sold", "room_revenue_net": "budget_room_revenue_net",
               "food_beverage_revenue_net": "budget_food_beverage_revenue_net",
               "other_revenue_net": "budget_other_revenue_net"}
"""The file's figure columns (docs/flash.md, as a budget names them) -> mart.budget_monthly's
(migration 0038: the budget's, never taken for the actual figure of the same name)."""


class BudgetError(ValueError):
    """One line: where the file is wrong and why."""


@dataclass(frozen=True)
class KnownProperty:
    property_id: int
    code: str
    segments: frozenset[str]
    """Market segments of core.classifications (kind market)."""


def _fail(name: str, row: int, field: str, why: str) -> BudgetError:
    return BudgetError(f"{name} row {row}, field {field}: {why}")


def _property(value: str, known: Sequence[KnownProperty]) -> KnownProperty | None:
    wanted = value.strip().lower()
    for prop in known:
        if wanted in (prop.code.lower(), str(prop.property_id)):
            return prop
    return None


def _month(value: str) -> date | None:
    match = _MONTH.match(value.strip())
    if match is None:
        return None
    year, month = int(match.group(1)), int(match.group(2))
    if not 1 <= month <= 12 or year < 1900:
        return None
    return date(year, month, 1)


def _number(value: str, integer: bool) -> Decimal | None:
    text = value.strip().replace(" ", "")
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    if not number.is_finite():
        return None
    if integer and number != number.to_integral_value():
        return None
    if not integer and number != number.quantize(Decimal("0.01")):
        return None
    return number


def budget_rows(name: str, header: Sequence[str], rows: Sequence[Sequence[str]],
                known: Sequence[KnownProperty]) -> pl.DataFrame:
    """The rows of mart.budget_monthly (without source_file, imported_at; the figures under
    their TABLE_NAMES), or BudgetError.

    Columns: property (code or id), month (YYYY-MM), rooms_sold, room_revenue_net; optional
    segment (a market segment; empty: the whole property), food_beverage_revenue_net,
    other_revenue_net. Refused: an unknown column or property, a month that is not one, a
    segment the property does not know, a figure that is not a number, is negative or has
    more than two decimals (a fraction of a room), a row repeating a property, month and
    segment, an empty file."""
    columns = [c.strip().lower() for c in header]
    for index, column in enumerate(columns):
        if column not in REQUIRED + OPTIONAL:
            raise _fail(name, 1, column or f"#{index + 1}",
                        f"unknown column (use {', '.join(REQUIRED + OPTIONAL)})")
        if columns.index(column) != index:
            raise _fail(name, 1, column, "the column appears twice")
    for column in REQUIRED:
        if column not in columns:
            raise _fail(name, 1, column, "missing column")
    if not rows:
        raise _fail(name, 2, "property", "no budget row in the file")
    out: list[dict[str, object]] = []
    seen: dict[tuple[int, date, str | None], int] = {}
    for offset, cells in enumerate(rows):
        line = offset + 2
        if len(cells) > len(columns) and any(c.strip() for c in cells[len(columns):]):
            raise _fail(name, line, f"#{len(columns) + 1}", "more cells than columns")
        cell = dict(zip(columns, [*cells, *[""] * (len(columns) - len(cells))], strict=False))
        prop = _property(cell["property"], known)
        if prop is None:
            raise _fail(name, line, "property", f"unknown property {cell['property']!r} "
                        f"(known: {', '.join(p.code for p in known) or 'none'})")
        month = _month(cell["month"])
        if month is None:
            raise _fail(name, line, "month", f"{cell['month']!r} is not a month (use YYYY-MM)")
        segment = cell.get("segment", "").strip() or None
        if segment is not None and segment not in prop.segments:
            raise _fail(name, line, "segment", f"unknown segment {segment!r} for {prop.code} "
                        f"(known: {', '.join(sorted(prop.segments)) or 'none'})")
        row: dict[str, object] = {"property_id": prop.property_id, "month": month,
                                  "segment": segment}
        for field in ("rooms_sold", *MONEY):
            text = cell.get(field, "")
            if not text.strip():
                if field in REQUIRED:
                    raise _fail(name, line, field, "empty")
                row[field] = None
                continue
            number = _number(text, integer=field == "rooms_sold")
            if number is None:
                kind = "a whole number" if field == "rooms_sold" else \
                    "an amount with at most two decimals"
                raise _fail(name, line, field, f"{text.strip()!r} is not {kind}")
            if number < 0:
                raise _fail(name, line, field, f"negative figure {text.strip()}")
            row[field] = int(number) if field == "rooms_sold" else number
        key = (prop.property_id, month, segment)
        if key in seen:
            raise _fail(name, line, "segment" if segment else "month",
                        f"duplicate of row {seen[key]} ({prop.code} {month:%Y-%m}"
                        f"{' ' + segment if segment else ''})")
        seen[key] = line
        out.append(row)
    return pl.DataFrame(out, schema=SCHEMA, orient="row").rename(TABLE_NAMES)


def property_months(rows: pl.DataFrame) -> list[tuple[int, date]]:
    """The (property_id, month) pairs a file budgets: the import replaces them."""
    return sorted({(int(p), m) for p, m in rows.select("property_id", "month").iter_rows()})


def known_properties(codes: Mapping[int, str],
                     segments: Mapping[int, Sequence[str]]) -> list[KnownProperty]:
    return [KnownProperty(pid, code, frozenset(segments.get(pid, ())))
            for pid, code in sorted(codes.items())]
