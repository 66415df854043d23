"""A report table as an Excel workbook a controller would forward: one sheet named after the
report, written with openpyxl (typed, and already the reader of `pmsw budget import`).

- a title block: the report's title (hotel, period, currency, business date) and the "As of"
  line (when the read copy was published, the runs it holds), then an empty row;
- the header, bold, frozen with everything above it, with an autofilter over the rows;
- typed cells: counts as whole numbers, amounts with two decimals, percentages (a column or,
  in a table of metrics, a row whose name ends in `_pct`) as fractions with a % format, dates as
  dates, text as text; identifiers (`*_id`, `*_number`) without a thousands separator;
- the total row kept, bold, below the rows (outside the autofilter);
- column widths from the longest text shown.

Below the title block the rows read back equal the CSV's (a percentage times 100)."""

from __future__ import annotations

import io
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Border, Font, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from pipelines.reports.reports import Table

AMOUNT_FORMAT = "#,##0.00"
COUNT_FORMAT = "#,##0"
IDENTIFIER_FORMAT = "0"
PERCENT_FORMAT = "0.00%"
DATE_FORMAT = "yyyy-mm-dd"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm:ss"
IDENTIFIER_SUFFIXES = ("_id", "_number")
HEADER_ROW = 3
"""Title, As of, an empty row, then the header (row 4 in Excel's numbering)."""
MAX_WIDTH = 60


def sheet_name(name: str) -> str:
    """Excel allows 31 characters and no []:*?/\\ in a sheet name."""
    clean = "".join("_" if c in "[]:*?/\\" else c for c in name)
    return clean[:31] or "report"


def is_percentage(column: str, row: tuple[Any, ...], columns: tuple[str, ...] | list[str]
                  ) -> bool:
    """A cell holds a percentage when its column says so, or its row does in a table of
    metrics (the flash: one metric per row, its first column named `metric`)."""
    if column.endswith("_pct"):
        return True
    return bool(columns) and columns[0] == "metric" and str(row[0]).endswith("_pct")


NUMBER_FORMATS = {"amount": AMOUNT_FORMAT, "count": COUNT_FORMAT, "id": IDENTIFIER_FORMAT,
                  "pct": PERCENT_FORMAT, "date": DATE_FORMAT, "datetime": DATETIME_FORMAT,
                  "text": "General"}
BOLD = Font(bold=True)
LINE = Side(style="thin")


def _kind(value: Any, column: str, percent: bool) -> str:
    if isinstance(value, bool) or value is None or value == "":
        return "text"
    if percent and isinstance(value, (int, Decimal, float)):
        return "pct"
    if isinstance(value, int):
        return "id" if column.endswith(IDENTIFIER_SUFFIXES) else "count"
    if isinstance(value, (Decimal, float)):
        return "amount"
    if isinstance(value, datetime):
        return "datetime"
    if isinstance(value, date):
        return "date"
    return "text"


def _shown(value: Any, kind: str) -> str:
    """The text a cell shows, for the column's width."""
    if kind == "pct":
        return f"{float(value):,.2f} %"
    if kind in ("amount",):
        return f"{float(value):,.2f}"
    if kind == "count":
        return f"{value:,}"
    if kind in ("date", "datetime", "id"):
        return str(value)
    return "" if value is None else str(value)


def _write(sheet: Worksheet, row: int, col: int, value: Any, kind: str, total: bool) -> None:
    """One cell (row and col from 0, as the header's HEADER_ROW)."""
    cell = sheet.cell(row + 1, col + 1)
    if value is None or value == "":
        cell.value = None
    elif kind == "pct":
        cell.value = float(Decimal(str(value)) / 100)
    elif kind == "amount":
        cell.value = float(value)
    elif kind == "date" and not isinstance(value, datetime):
        cell.value = datetime(value.year, value.month, value.day)
    elif kind == "datetime":
        cell.value = value.replace(tzinfo=None)  # Excel has no time zone: the title says UTC
    elif kind == "text" and not isinstance(value, bool):
        cell.value = str(value)
    else:
        cell.value = value
    cell.number_format = NUMBER_FORMATS[kind]
    if total:
        cell.font = BOLD
        cell.border = Border(top=LINE)


def render_xlsx(table: Table, name: str, as_of: str = "") -> bytes:
    """The workbook's bytes: one sheet `name` (a pack: one sheet per section, named after
    it; a table with sections: its own sheet, then theirs), the title block, the header
    frozen under it, typed cells, the total row kept."""
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    parts = ([(name, table)] if table.columns else []) + list(table.sections)
    for n, (section, part) in enumerate(parts):
        _fill(sheet if n == 0 else book.create_sheet(), part, section, as_of)
    if not parts:
        _fill(sheet, table, name, as_of)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _fill(sheet: Worksheet, table: Table, name: str, as_of: str) -> None:
    sheet.title = sheet_name(name)
    sheet["A1"] = table.title
    sheet["A1"].font = Font(bold=True, size=13)
    if as_of:
        sheet["A2"] = as_of
        sheet["A2"].font = Font(italic=True)
    columns = list(table.columns)
    widths = [len(c) for c in columns]
    for col, column in enumerate(columns, start=1):
        cell = sheet.cell(HEADER_ROW + 1, col, column)
        cell.font = BOLD
        cell.border = Border(bottom=LINE)
    body = [(row, False) for row in table.rows]
    if table.total is not None:
        body.append((table.total, True))
    for offset, (row, total) in enumerate(body, start=1):
        for col, (column, value) in enumerate(zip(columns, row, strict=True)):
            kind = _kind(value, column, is_percentage(column, row, columns))
            _write(sheet, HEADER_ROW + offset, col, value, kind, total)
            widths[col] = max(widths[col], len(_shown(value, kind)))
    for col, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(col)].width = min(width + 2, MAX_WIDTH)
    sheet.freeze_panes = f"A{HEADER_ROW + 2}"
    if columns:
        sheet.auto_filter.ref = (f"A{HEADER_ROW + 1}:{get_column_letter(len(columns))}"
                                 f"{HEADER_ROW + 1 + len(table.rows)}")
