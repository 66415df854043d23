"""`pmsw budget import`: read a budget file (CSV or XLSX, its first sheet), check it
(pipelines.transforms.budget) and replace the budget of the property-months it holds in
mart.budget_monthly, all or nothing."""

from __future__ import annotations

import csv
import re
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import polars as pl

from pipelines.reports.xlsx import XlsxError, excel_date, read_first_sheet
from pipelines.transforms.budget import (
    BudgetError,
    budget_rows,
    known_properties,
    property_months,
)
from pipelines.warehouse import insert_frame, transaction


def read_table(path: Path) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the file as text; blank rows are skipped. BudgetError when the
    file cannot be read."""
    if not path.is_file():
        raise BudgetError(f"no file {path}")
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        return _read_xlsx(path)
    if path.suffix.lower() == ".xls":
        raise BudgetError(f"{path.name}: the old .xls format is not read; save as .xlsx or CSV")
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            table = list(csv.reader(handle))
    except (UnicodeDecodeError, csv.Error) as error:
        raise BudgetError(f"{path.name}: not a UTF-8 CSV file ({error})") from None
    return _split(path, table)


def _split(path: Path, table: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    if not table:
        raise BudgetError(f"{path.name} row 1, field property: empty file (no header)")
    header, body = table[0], table[1:]
    while body and not any(c.strip() for c in body[-1]):
        body.pop()
    return header, body


def _read_xlsx(path: Path) -> tuple[list[str], list[list[str]]]:
    """The first sheet; a month typed as a date (an Excel serial number) becomes YYYY-MM."""
    try:
        table = read_first_sheet(path.read_bytes())
    except XlsxError as error:
        raise BudgetError(f"{path.name}: {error}") from None
    header, body = _split(path, table)
    names = [h.strip().lower() for h in header]
    if "month" in names:
        at = names.index("month")
        for row in body:
            if at < len(row) and re.fullmatch(r"\d{5}(\.0+)?", row[at].strip()):
                row[at] = f"{excel_date(float(row[at])):%Y-%m}"
    return header, body


def check_file(conn: duckdb.DuckDBPyConnection, path: Path) -> pl.DataFrame:
    """The file's rows, checked against the properties and market segments of the warehouse."""
    header, rows = read_table(path)
    codes = {int(pid): str(code) for pid, code in
             conn.execute("SELECT property_id, code FROM core.property").fetchall()}
    segments: dict[int, list[str]] = {}
    for pid, value in conn.execute("SELECT property_id, value FROM core.classifications "
                                   "WHERE kind = 'market'").fetchall():
        segments.setdefault(int(pid), []).append(str(value))
    return budget_rows(path.name, header, rows, known_properties(codes, segments))


def import_budget(conn: duckdb.DuckDBPyConnection, path: Path) -> pl.DataFrame:
    """Check the file, then replace the property-months it holds; return the rows written."""
    rows = check_file(conn, path).with_columns(
        source_file=pl.lit(path.name), imported_at=pl.lit(datetime.now(UTC)))
    with transaction(conn):
        for pid, month in property_months(rows):
            conn.execute("DELETE FROM mart.budget_monthly WHERE property_id = ? AND month = ?",
                         [pid, month])
        insert_frame(conn, "mart.budget_monthly", rows)
    return rows
