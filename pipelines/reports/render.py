"""Render a report table as aligned text, CSV or JSON (Excel: excel.py)."""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from decimal import Decimal
from typing import Any

from pipelines.reports.reports import Table

FORMATS = ("table", "csv", "json", "xlsx")
"""xlsx is binary: `pipelines.reports.excel.render_xlsx`, not `render`."""


def _json_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        # Amounts with two decimals: a float prints them exactly (shortest repr).
        return int(value) if value == value.to_integral_value() and value.as_tuple(
            ).exponent == 0 else float(value)
    if isinstance(value, date):
        return value.isoformat()
    return value


IDENTIFIER_SUFFIXES = ("_id", "_number")
"""Columns that name a record (folio 26762, reservation 25294): printed as the PMS shows
them, without a thousands separator, so that they can be searched for as they are."""


def _csv_value(value: Any) -> Any:
    """An amount with its cents as stored (1234.50, not 1234.5): the text a ledger shows."""
    return str(value) if isinstance(value, Decimal) else _json_value(value)


def _text(value: Any, column: str = "") -> str:
    if isinstance(value, int) and column.endswith(IDENTIFIER_SUFFIXES):
        return str(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return f"{value:,.2f}" if value.as_tuple().exponent != 0 else f"{value}"
    if isinstance(value, float):
        return f"{value:,.2f}"
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10_000 else str(value)
    return str(value)


def render(table: Table, fmt: str) -> str:
    if fmt == "xlsx":
        raise ValueError("xlsx is binary: use pipelines.reports.excel.render_xlsx")
    if table.sections and not table.columns:
        return _render_sections(table, fmt)
    if fmt == "json":
        return json.dumps({"report": table.title,
                           **({"as_of": table.as_of} if table.as_of else {}),
                           "columns": list(table.columns),
                           "rows": [{c: _json_value(v) for c, v in zip(table.columns, row,
                                                                     strict=True)}
                                    for row in table.rows],
                           "total": None if table.total is None else {
                               c: _json_value(v) for c, v in zip(table.columns, table.total,
                                                                 strict=True)},
                           **({"sections": {name: json.loads(render(part, "json"))
                                            for name, part in table.sections}}
                              if table.sections else {})},
                          indent=2)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(table.columns)
        for row in table.rows:
            writer.writerow(["" if v is None else _csv_value(v) for v in row])
        return "\n\n".join([out.getvalue().rstrip("\n"), *_section_blocks(table)])
    return "\n\n".join([_aligned(table), *(_aligned(part) for _, part in table.sections)])


def _aligned(table: Table) -> str:
    body = [[_text(v, c) for v, c in zip(row, table.columns, strict=True)] for row in table.rows]
    total = [_text(v) for v in table.total] if table.total is not None else None
    lines_all = [list(table.columns), *body, *([total] if total else [])]
    widths = [max(len(r[i]) for r in lines_all) for i in range(len(table.columns))]
    numeric = [all(_is_number(r[i]) for r in body + ([total] if total else []))
               for i in range(len(table.columns))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if num else c.ljust(w)
                         for c, w, num in zip(cells, widths, numeric, strict=True)).rstrip()

    out = [table.title, "", line(list(table.columns)),
           "  ".join("-" * w for w in widths)]
    out += [line(r) for r in body]
    if total is not None:
        out += ["  ".join("-" * w for w in widths), line(total)]
    if not body:
        out.append("(no rows)")
    return "\n".join(out)


def _is_number(text: str) -> bool:
    stripped = text.replace(",", "").replace(".", "", 1).lstrip("-+")
    return stripped.isdigit() or text == ""


def _render_sections(table: Table, fmt: str) -> str:
    """A pack: JSON one object per section under `sections`; CSV each section's block
    (`_section_blocks`), blocks apart by an empty line; text each table under the title."""
    if fmt == "json":
        return json.dumps({"report": table.title, "sections": {
            name: json.loads(render(part, "json")) for name, part in table.sections}},
            indent=2)
    if fmt == "csv":
        return "\n\n".join(_section_blocks(table))
    return "\n\n".join([table.title, *(_aligned(part) for _, part in table.sections)])


def _section_blocks(table: Table) -> list[str]:
    """Each section as a CSV block whose first column, `section`, names it."""
    blocks = []
    for name, part in table.sections:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["section", *part.columns])
        for row in part.rows:
            writer.writerow([name, *["" if v is None else _csv_value(v) for v in row]])
        blocks.append(out.getvalue().rstrip("\n"))
    return blocks
