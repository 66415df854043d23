"""`pmsw report NAME --format xlsx`: every report, read back with openpyxl, equals its CSV and
its JSON total (issue 16, Excel; issue 48, "Excel to forward"): one sheet named after the
report; a title block (the title naming the hotel, period and business date, the As-of
line); the header bold, frozen with the block above it, with an autofilter over the rows;
typed cells (counts whole, amounts with two decimals, percentages as fractions with a %
format, dates as dates, text as text); the total row kept, bold."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from pipelines.cli import main
from pipelines.reports.command import report as report_group
from tests.stored_rows import stored_rows

PACKS = ("close-pack",)
"""Reports of several tables, one sheet each: tests/finance/test_close_pack.py reads them
back."""
REPORTS = sorted(set(report_group.commands) - set(PACKS))
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _invoke(warehouse: Path, name: str, *args: str) -> Any:
    result = CliRunner().invoke(main, ["report", name, "--property", "ROMA01",
                                       "--warehouse", str(warehouse), *args])
    assert result.exit_code == 0, result.output + result.stderr
    return result


def _extra(warehouse: Path, name: str) -> list[str]:
    if name != "city-tax":
        return []
    [(closed,)] = stored_rows(warehouse, "SELECT business_date - 1 FROM core.property "
                                         "WHERE code = 'ROMA01'")
    return ["--month", f"{closed:%Y-%m}"]  # of the last closed date: the demo ends today


HEADER = 4
"""Excel's row of the header: the title, the As-of line and an empty row above it."""


def _percentage(column: str, row: list[str]) -> bool:
    """A column of percentages, or a percentage row of a table of metrics (the flash)."""
    return column.endswith("_pct") or (row[0].endswith("_pct") and column != "metric")


def _same(cell: Any, text: str, percent: bool = False) -> bool:
    """An xlsx cell equals a CSV field: empty is None, numbers by value (a percentage is a
    fraction), dates by day."""
    if text == "":
        return cell is None
    if percent and isinstance(cell, (int, float)):
        return Decimal(str(cell * 100)).quantize(Decimal("0.01")) == Decimal(text).quantize(
            Decimal("0.01"))
    if isinstance(cell, bool):
        return text == str(cell)
    if isinstance(cell, (int, float)):
        return Decimal(str(cell)).quantize(Decimal("0.01")) == Decimal(text).quantize(
            Decimal("0.01"))
    if isinstance(cell, datetime):
        return cell.date().isoformat() == text or cell.isoformat(sep=" ") == text
    if isinstance(cell, date):
        return cell.isoformat() == text
    return str(cell) == text


def test_the_test_covers_every_report() -> None:
    assert {"occupancy", "pickup", "pace", "segments", "revenue",
            "reconciliation"} <= set(REPORTS)


@pytest.mark.parametrize("name", REPORTS)
def test_report_as_xlsx_reads_back_as_the_csv(warehouse: Path, tmp_path: Path,
                                              name: str) -> None:
    extra = _extra(warehouse, name)
    typed_report = json.loads(_invoke(warehouse, name, *extra, "--format", "json").stdout)
    sections = list(typed_report.get("sections", {}))  # the flash's nights ahead
    text = _invoke(warehouse, name, *extra, "--format", "csv").stdout
    # a report with sections: its own CSV block first, each section's after an empty line
    rows = list(csv.reader(io.StringIO(text.split("\n\n")[0] if sections else text)))
    stdout = _invoke(warehouse, name, *extra, "--format", "xlsx").stdout_bytes
    out = tmp_path / f"{name}.xlsx"
    _invoke(warehouse, name, *extra, "--format", "xlsx", "--output", str(out))
    assert out.read_bytes()[:2] == stdout[:2] == b"PK"  # a zip: the workbook

    book = openpyxl.load_workbook(out)
    assert book.sheetnames == [name, *sections]
    sheet = book[name]
    assert sheet.freeze_panes == f"A{HEADER + 1}"
    title, as_of = sheet["A1"].value, sheet["A2"].value
    assert title == typed_report["report"]
    assert sheet["A1"].font.b
    assert str(as_of).startswith("As of")
    cells = [list(r) for r in sheet.iter_rows(min_row=HEADER, values_only=True)]
    assert [str(c) for c in cells[0]] == rows[0]
    assert all(sheet.cell(HEADER, col).font.b for col in range(1, len(rows[0]) + 1))
    assert sheet.cell(HEADER, 1).border.bottom.style == "thin"
    total = typed_report["total"]
    assert len(cells) == len(rows) + (total is not None)
    if len(rows) > 1:
        last = openpyxl.utils.get_column_letter(len(rows[0]))
        assert sheet.auto_filter.ref == f"A{HEADER}:{last}{HEADER + len(rows) - 1}"
    # a quiet stretch may hold no alert, and no item for a person when the daily closes
    # posted every dropped charge (the demo's stretch ends yesterday, so it changes daily):
    # the header is still compared above; tests/finance fill the worklist by hand
    assert len(rows) > 1 or name in ("reconciliation", "alerts", "worklist"), \
        f"{name}: no rows to compare"
    for got, want in zip(cells[1:], rows[1:], strict=False):
        assert len(got) == len(want)
        for column, cell, text in zip(rows[0], got, want, strict=True):
            assert _same(cell, text, _percentage(column, want)), (name, column, cell, text)
    # typed: a JSON number is a numeric cell (a whole number a count, shown without decimals;
    # a percentage with a % format), an ISO date a date cell, other text a text cell
    typed = typed_report["rows"]
    for index, want in enumerate(typed, start=HEADER + 1):
        for col, column in enumerate(rows[0], start=1):
            cell, value = sheet.cell(index, col), want[column]
            percent = _percentage(column, [str(want[rows[0][0]]), *[""] * len(rows[0])])
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                assert isinstance(cell.value, (int, float)), (name, column, cell.value)
                if percent:
                    assert "%" in cell.number_format, (name, column, cell.number_format)
                elif isinstance(value, int) and not isinstance(want.get(column), float):
                    assert "." not in cell.number_format, (name, column, cell.number_format)
            elif isinstance(value, str) and ISO_DATE.fullmatch(value):
                assert isinstance(cell.value, (date, datetime)), (name, column, cell.value)
            elif isinstance(value, str) and value:  # an empty text is an empty cell
                assert isinstance(cell.value, str), (name, column, cell.value)
    if total is not None:  # kept, bold, equal to the JSON's
        row = HEADER + len(rows)
        assert sheet.cell(row, 1).border.top.style == "thin"
        for col, column in enumerate(rows[0], start=1):
            cell, value = sheet.cell(row, col), total[column]
            assert cell.font.b
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                percent = _percentage(column, [str(total[rows[0][0]])])
                got = cell.value * 100 if percent else cell.value
                assert Decimal(str(got)).quantize(Decimal("0.01")) == Decimal(
                    str(value)).quantize(Decimal("0.01")), (name, column, cell.value, value)
            elif value not in (None, ""):
                assert str(cell.value) == str(value), (name, column, cell.value, value)


def test_xlsx_to_an_unwritable_file_fails_in_one_line(warehouse: Path) -> None:
    result = CliRunner().invoke(main, ["report", "occupancy", "--format", "xlsx", "--output",
                                       "/nonexistent-dir/x.xlsx", "--warehouse",
                                       str(warehouse), "--property", "ROMA01"])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert "cannot write" in result.stderr
