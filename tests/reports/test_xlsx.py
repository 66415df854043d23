"""`pmsw report NAME --format xlsx`: every report, read back with openpyxl, equals its CSV
(issue 16, Excel): one sheet named after the report, the header row frozen, typed cells
(numbers as numbers, dates as dates, text as text)."""

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
from pipelines.cli.report import report as report_group

REPORTS = sorted(report_group.commands)
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _invoke(warehouse: Path, name: str, *args: str) -> Any:
    result = CliRunner().invoke(main, ["report", name, "--property", "ROMA01",
                                       "--warehouse", str(warehouse), *args])
    assert result.exit_code == 0, result.output + result.stderr
    return result


def _extra(warehouse: Path, name: str) -> list[str]:
    if name != "city-tax":
        return []
    import duckdb

    conn = duckdb.connect(str(warehouse), read_only=True)
    try:
        row = conn.execute("SELECT business_date - 1 FROM core.property WHERE code = 'ROMA01'"
                           ).fetchone()
    finally:
        conn.close()
    assert row is not None
    return ["--month", f"{row[0]:%Y-%m}"]  # of the last closed date: the demo ends today


def _same(cell: Any, text: str) -> bool:
    """An xlsx cell equals a CSV field: empty is None, numbers by value, dates by day."""
    if text == "":
        return cell is None
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
    rows = list(csv.reader(io.StringIO(_invoke(warehouse, name, *extra, "--format",
                                                "csv").stdout)))
    stdout = _invoke(warehouse, name, *extra, "--format", "xlsx").stdout_bytes
    out = tmp_path / f"{name}.xlsx"
    _invoke(warehouse, name, *extra, "--format", "xlsx", "--output", str(out))
    assert out.read_bytes()[:2] == stdout[:2] == b"PK"  # a zip: the workbook

    book = openpyxl.load_workbook(out)
    assert book.sheetnames == [name]
    sheet = book[name]
    assert sheet.freeze_panes == "A2"
    cells = [list(r) for r in sheet.iter_rows(values_only=True)]
    assert [str(c) for c in cells[0]] == rows[0]
    assert len(cells) == len(rows)
    # a quiet stretch may hold no alert, and no item for a person when the daily closes
    # posted every dropped charge (the demo's stretch ends yesterday, so it changes daily):
    # the header is still compared above; tests/finance fill the worklist by hand
    assert len(rows) > 1 or name in ("reconciliation", "alerts", "worklist"), \
        f"{name}: no rows to compare"
    for got, want in zip(cells[1:], rows[1:], strict=True):
        assert len(got) == len(want)
        for column, cell, text in zip(rows[0], got, want, strict=True):
            assert _same(cell, text), (name, column, cell, text)
    # typed: a JSON number is a numeric cell, an ISO date a date cell, other text a text cell
    typed = json.loads(_invoke(warehouse, name, *extra, "--format", "json").stdout)["rows"]
    for got, want in zip(cells[1:], typed, strict=True):
        for column, cell in zip(rows[0], got, strict=True):
            value = want[column]
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                assert isinstance(cell, (int, float)), (name, column, cell)
            elif isinstance(value, str) and ISO_DATE.fullmatch(value):
                assert isinstance(cell, (date, datetime)), (name, column, cell)
            elif isinstance(value, str):
                assert isinstance(cell, str), (name, column, cell)


def test_xlsx_to_an_unwritable_file_fails_in_one_line(warehouse: Path) -> None:
    result = CliRunner().invoke(main, ["report", "occupancy", "--format", "xlsx", "--output",
                                       "/nonexistent-dir/x.xlsx", "--warehouse",
                                       str(warehouse), "--property", "ROMA01"])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert "cannot write" in result.stderr
