"""A report table as an Excel workbook: one sheet named after the report, the header frozen,
typed cells (numbers as numbers with two decimals for amounts, dates as dates, text as text).

Written by polars' `write_excel` (xlsxwriter). The sheet holds the same header and rows as the
CSV (`render(table, "csv")`), no title and no total line, so a sheet read back equals the
CSV."""

from __future__ import annotations

import io
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import polars as pl

from .reports import Table

AMOUNT_FORMAT = "#,##0.00"
DATE_FORMAT = "yyyy-mm-dd"


def _dtype(values: list[Any]) -> pl.DataType:
    """The column's type from its values (None ignored): a column mixing kinds is text."""
    present = [v for v in values if v is not None and v != ""]
    if not present:
        return pl.String()
    if all(isinstance(v, bool) for v in present):
        return pl.Boolean()
    if all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pl.Int64()
    if all(isinstance(v, (int, Decimal, float)) and not isinstance(v, bool) for v in present):
        return pl.Float64()
    if all(isinstance(v, datetime) for v in present):
        return pl.Datetime()
    if all(isinstance(v, date) and not isinstance(v, datetime) for v in present):
        return pl.Date()
    return pl.String()


def _cell(value: Any, dtype: pl.DataType) -> Any:
    if value is None or value == "":
        return None
    if isinstance(dtype, pl.Float64):
        return float(value)
    if isinstance(dtype, pl.String):
        return value.isoformat() if isinstance(value, date) else str(value)
    return value


def table_frame(table: Table) -> pl.DataFrame:
    """The table's rows as a typed frame (one column per report column)."""
    columns: dict[str, pl.Series] = {}
    for i, name in enumerate(table.columns):
        values = [row[i] for row in table.rows]
        dtype = _dtype(values)
        columns[name] = pl.Series(name, [_cell(v, dtype) for v in values], dtype=dtype)
    return pl.DataFrame(columns) if columns else pl.DataFrame()


def sheet_name(name: str) -> str:
    """Excel allows 31 characters and no []:*?/\\ in a sheet name."""
    clean = "".join("_" if c in "[]:*?/\\" else c for c in name)
    return clean[:31] or "report"


def render_xlsx(table: Table, name: str) -> bytes:
    """The workbook's bytes: one sheet `name`, header row frozen, typed cells."""
    frame = table_frame(table)
    out = io.BytesIO()
    frame.write_excel(
        out, worksheet=sheet_name(name), table_style=None, autofilter=True, autofit=True,
        freeze_panes=(1, 0), float_precision=2,
        dtype_formats={pl.Float64: AMOUNT_FORMAT, pl.Date: DATE_FORMAT,
                       pl.Datetime: "yyyy-mm-dd hh:mm:ss"})
    return out.getvalue()
