"""`pmsw budget import`: read a budget file (CSV or XLSX, its first sheet), check it
(pipelines.forecast.logic.budget) and replace the budget of the property-months it holds in
mart.budget_monthly, all or nothing.

On a group directory (one file a property, docs/scaling.md) `import_budget_group` checks the
whole file against the group's properties (every member's read copy) before it writes
anything, then writes each property's rows into that property's own file through `writer()`,
which publishes that member's read copy only: all or nothing per property."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import duckdb
import openpyxl
import polars as pl
from openpyxl.utils.datetime import from_excel
from openpyxl.utils.exceptions import InvalidFileException

from pipelines.forecast.logic.budget import (
    BudgetError,
    budget_rows,
    known_properties,
    property_months,
)
from pipelines.warehouse import (
    insert_frame,
    open_read_copy,
    property_file,
    transaction,
    writer,
)


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
            text = handle.read()
        semicolons = _semicolons(text)
        table = list(csv.reader(io.StringIO(text, newline=""),
                                delimiter=";" if semicolons else ","))
    except (UnicodeDecodeError, csv.Error) as error:
        raise BudgetError(f"{path.name}: not a UTF-8 CSV file ({error})") from None
    if semicolons:
        header = table[0] if table else []
        table = [[_decimal_point(path, n, header[j] if j < len(header) else f"{j + 1}", cell)
                  for j, cell in enumerate(row)] for n, row in enumerate(table, start=1)]
    return _split(path, table)


_DECIMAL_COMMA = re.compile(r"^(\s*-?\d+),(\d{1,2}\s*)$")
"""An amount written with a decimal comma (260000,50): what Excel writes where the comma is
the decimal separator, in files it separates with semicolons."""
_GROUPED = re.compile(r"^\s*-?\d{1,3}(\.\d{3})+(,\d+)?\s*$")
"""A number with a point between its thousands (1.600, 260.000,50): never guessed (1.600 may
be a decimal point), refused."""


def _decimal_point(path: Path, row: int, field: str, cell: str) -> str:
    """A cell of a semicolon file with its decimal comma made a point; BudgetError for a
    number with a thousands separator."""
    if row > 1 and _GROUPED.match(cell):
        raise BudgetError(f"{path.name} row {row}, field {field.strip()}: {cell.strip()!r} has "
                          "a thousands separator; write the number without it "
                          "(260000,50)")
    return _DECIMAL_COMMA.sub(r"\1.\2", cell)


def _semicolons(text: str) -> bool:
    """Whether the file is separated by semicolons: Excel's CSV in the locales whose decimal
    separator is the comma (Italian among them), told by the header line."""
    header = text.split("\n", 1)[0]
    return ";" in header and "," not in header


def _split(path: Path, table: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    if not table:
        raise BudgetError(f"{path.name} row 1, field property: empty file (no header)")
    header, body = table[0], table[1:]
    while body and not any(c.strip() for c in body[-1]):
        body.pop()
    return header, body


def _text(value: Any) -> str:
    """A cell as text: empty for none, a whole float without its .0, a date as ISO."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime) and value.time() == datetime.min.time():
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def _month_text(value: Any) -> str:
    """A month cell as text; a date (a date cell, or an Excel serial day number) as YYYY-MM."""
    if isinstance(value, date):
        return f"{value:%Y-%m}"
    if isinstance(value, int | float) and not isinstance(value, bool) \
            and re.fullmatch(r"\d{5}", _text(value)):
        return f"{from_excel(value):%Y-%m}"
    return _text(value)


def _read_xlsx(path: Path) -> tuple[list[str], list[list[str]]]:
    """The first sheet (openpyxl, cached values of formulas); a month typed as a date
    becomes YYYY-MM."""
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, ValueError, OSError,
            SyntaxError) as error:
        raise BudgetError(f"{path.name}: not a readable XLSX workbook ({_why(error)})") from None
    try:
        if not book.worksheets:
            raise BudgetError(f"{path.name}: not a readable XLSX workbook (no worksheet)")
        cells = [list(row) for row in book.worksheets[0].iter_rows(values_only=True)]
    except (KeyError, ValueError, TypeError, SyntaxError) as error:
        raise BudgetError(f"{path.name}: not a readable XLSX workbook ({_why(error)})") from None
    finally:
        book.close()
    header = [_text(v) for v in cells[0]] if cells else []
    names = [h.strip().lower() for h in header]
    at = names.index("month") if "month" in names else None
    table = [header, *([_month_text(v) if i == at else _text(v) for i, v in enumerate(row)]
                       for row in cells[1:])] if cells else []
    return _split(path, table)


def _why(error: BaseException) -> str:
    """The exception on one line."""
    return " ".join(str(error).split()) or type(error).__name__


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


def _stamped(rows: pl.DataFrame, path: Path) -> pl.DataFrame:
    return rows.with_columns(source_file=pl.lit(path.name),
                             imported_at=pl.lit(datetime.now(UTC)))


def _replace(conn: duckdb.DuckDBPyConnection, rows: pl.DataFrame) -> None:
    """Replace the property-months `rows` hold with them, in one transaction."""
    with transaction(conn):
        for pid, month in property_months(rows):
            conn.execute("DELETE FROM mart.budget_monthly WHERE property_id = ? AND month = ?",
                         [pid, month])
        insert_frame(conn, "mart.budget_monthly", rows)


def import_budget(conn: duckdb.DuckDBPyConnection, path: Path) -> pl.DataFrame:
    """Check the file, then replace the property-months it holds; return the rows written."""
    rows = _stamped(check_file(conn, path), path)
    _replace(conn, rows)
    return rows


def import_budget_group(group: Path, path: Path, *, wait: float | None = None
                        ) -> pl.DataFrame:
    """The group layout (module doc): the file checked whole against the group's read
    copies, then each property's rows replaced in its own file (its read copy published);
    return the rows written. A property of the file without a file in the group is refused
    in one line before anything is written."""
    with open_read_copy(group) as reader:
        rows = _stamped(check_file(reader, path), path)
        codes = {int(pid): str(code) for pid, code in
                 reader.execute("SELECT property_id, code FROM core.property").fetchall()}
    files = {pid: property_file(group, codes[pid])
             for pid in sorted(set(rows["property_id"].to_list()))}
    for pid, member in files.items():
        with writer(member, wait=wait) as conn:
            _replace(conn, rows.filter(pl.col("property_id") == pid))
    return rows
