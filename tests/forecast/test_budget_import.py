"""`pmsw budget import FILE`: a good file round-trips into mart.budget_monthly; each bad input
is refused with one line naming the row and the field, and nothing is written."""

from __future__ import annotations

import zipfile
from datetime import date
from decimal import Decimal
from pathlib import Path

import duckdb
import openpyxl
import pytest
from click.testing import CliRunner

from pipelines.cli import main
from pipelines.warehouse import open_read_copy

GOOD = """\
property,month,segment,rooms_sold,room_revenue_net,food_beverage_revenue_net,other_revenue_net
ROMA01,2026-03,,1800,288000.00,41000.50,3000
ROMA01,2026-03,leisure,1100,176000,,
ROMA01,2026-04,,1900,310000.00,42000,3100
2,2026-03,,900,117000.10,15000,
"""


def _import(warehouse: Path, file: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["budget", "import", str(file), "--warehouse",
                                       str(warehouse)])
    return result.exit_code, result.stdout, result.stderr


def _rows(warehouse: Path, read_copy: bool = False) -> list[tuple[object, ...]]:
    """mart.budget_monthly of the warehouse, or of the read copy the reports read."""
    with (open_read_copy(warehouse) if read_copy
          else duckdb.connect(str(warehouse), read_only=True)) as conn:
        return conn.execute(
            "SELECT property_id, month, segment, budget_rooms_sold, budget_room_revenue_net, "
            "budget_food_beverage_revenue_net, budget_other_revenue_net, source_file "
            "FROM mart.budget_monthly "
            "ORDER BY property_id, month, segment NULLS FIRST").fetchall()


def _good(warehouse: Path, tmp_path: Path) -> None:
    """GOOD imported from good.csv."""
    good = tmp_path / "good.csv"
    good.write_text(GOOD, encoding="utf-8")
    assert _import(warehouse, good)[0] == 0


def _refused(warehouse: Path, file: Path) -> str:
    """The error of importing `file`: exit 1, one line, nothing written."""
    before = _rows(warehouse)
    code, _, err = _import(warehouse, file)
    assert code == 1
    assert err.strip().count("\n") == 0, err
    assert _rows(warehouse) == before
    return err


def test_good_file_round_trips(warehouse: Path, tmp_path: Path) -> None:
    file = tmp_path / "budget.csv"
    file.write_text(GOOD, encoding="utf-8")
    code, out, err = _import(warehouse, file)
    assert code == 0, err
    assert "4 budget rows imported (3 property-months replaced)" in out
    assert _rows(warehouse) == [
        (1, date(2026, 3, 1), None, 1800, Decimal("288000.00"), Decimal("41000.50"),
         Decimal("3000.00"), "budget.csv"),
        (1, date(2026, 3, 1), "leisure", 1100, Decimal("176000.00"), None, None, "budget.csv"),
        (1, date(2026, 4, 1), None, 1900, Decimal("310000.00"), Decimal("42000.00"),
         Decimal("3100.00"), "budget.csv"),
        (2, date(2026, 3, 1), None, 900, Decimal("117000.10"), Decimal("15000.00"), None,
         "budget.csv"),
    ]
    assert _rows(warehouse, read_copy=True) == _rows(warehouse)  # published: the flash sees it
    # a second file replaces the property-months it holds, and only those
    again = tmp_path / "april.csv"
    again.write_text("property,month,rooms_sold,room_revenue_net\nROMA01,2026-04,1950,"
                     "320000\n", encoding="utf-8")
    assert _import(warehouse, again)[0] == 0
    rows = _rows(warehouse)
    assert len(rows) == 4
    assert rows[2] == (1, date(2026, 4, 1), None, 1950, Decimal("320000.00"), None, None,
                       "april.csv")


HEADER = "property,month,segment,rooms_sold,room_revenue_net\n"
BAD = {
    "unknown property": (HEADER + "ROMA01,2026-05,,10,100\nNAPO01,2026-05,,10,100\n",
                         "row 3, field property: unknown property 'NAPO01'"),
    "unknown month": (HEADER + "ROMA01,2026-13,,10,100\n",
                      "row 2, field month: '2026-13' is not a month"),
    "unknown segment": (HEADER + "ROMA01,2026-05,,10,100\nROMA01,2026-05,cruise,5,50\n",
                        "row 3, field segment: unknown segment 'cruise' for ROMA01"),
    "duplicate row": (HEADER + "ROMA01,2026-05,leisure,10,100\nFIRE01,2026-05,,1,1\n"
                      "roma01,2026-05,leisure,11,110\n",
                      "row 4, field segment: duplicate of row 2"),
    "negative figure": (HEADER + "ROMA01,2026-05,,10,100\nROMA01,2026-06,,10,-1.00\n",
                        "row 3, field room_revenue_net: negative figure -1.00"),
    "negative rooms": (HEADER + "ROMA01,2026-05,,-3,100\n",
                       "row 2, field rooms_sold: negative figure -3"),
    "not a number": (HEADER + "ROMA01,2026-05,,ten,100\n",
                     "row 2, field rooms_sold: 'ten' is not a whole number"),
    "unknown column": ("property,month,rooms,room_revenue_net\nROMA01,2026-05,1,1\n",
                       "row 1, field rooms: unknown column"),
    "missing column": ("property,month,room_revenue_net\nROMA01,2026-05,1\n",
                       "row 1, field rooms_sold: missing column"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_each_bad_input_is_one_line_and_writes_nothing(case: str, warehouse: Path,
                                                       tmp_path: Path) -> None:
    _good(warehouse, tmp_path)
    text, expected = BAD[case]
    bad = tmp_path / "bad.csv"
    bad.write_text(text, encoding="utf-8")
    err = _refused(warehouse, bad)
    assert err.startswith("Error: bad.csv ")
    assert expected in err


def test_a_semicolon_file_with_decimal_commas_round_trips_like_its_csv(
        warehouse: Path, tmp_path: Path) -> None:
    """Excel's CSV where the comma is the decimal separator (Italian among those locales):
    fields separated by semicolons, amounts with a decimal comma. The same rows as GOOD."""
    _good(warehouse, tmp_path)
    expected = [row[:-1] for row in _rows(warehouse)]
    italian = tmp_path / "budget-it.csv"
    italian.write_text(
        "property;month;segment;rooms_sold;room_revenue_net;food_beverage_revenue_net;"
        "other_revenue_net\r\n"
        "ROMA01;2026-03;;1800;288000,00;41000,5;3000\r\n"
        "ROMA01;2026-03;leisure;1100;176000;;\r\n"
        "ROMA01;2026-04;;1900;310000,00;42000;3100\r\n"
        "2;2026-03;;900;117000,10;15000;\r\n", encoding="utf-8")
    code, out, err = _import(warehouse, italian)
    assert code == 0, err
    assert "4 budget rows imported (3 property-months replaced)" in out
    assert [row[:-1] for row in _rows(warehouse)] == expected
    for rooms, amount, field, cell in (("1600", "260.000,50", "room_revenue_net", "260.000,50"),
                                       ("1.600", "260000,50", "rooms_sold", "1.600")):
        thousands = tmp_path / "thousands.csv"
        thousands.write_text("property;month;rooms_sold;room_revenue_net\n"
                             f"ROMA01;2026-05;{rooms};{amount}\n", encoding="utf-8")
        assert _refused(warehouse, thousands) == (
            f"Error: thousands.csv row 2, field {field}: '{cell}' has a thousands separator; "
            "write the number without it (260000,50)\n")


def _workbook(path: Path, rows: list[list[object]]) -> None:
    """A workbook written by openpyxl: a title sheet is not first, the budget sheet is."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "budget"
    for row in rows:
        sheet.append(row)
    book.create_sheet("notes").append(["not read"])
    book.save(path)


def test_an_xlsx_file_round_trips_like_its_csv(warehouse: Path, tmp_path: Path) -> None:
    """The first sheet of a workbook, typed cells: figures as numbers, a month as a date
    cell or as a bare Excel serial day number (46082 is 2026-03-01) counts as its month."""
    header, *lines = [line.split(",") for line in GOOD.strip().splitlines()]
    cells: list[list[object]] = [list(header)]
    for index, line in enumerate(lines):
        row: list[object] = [float(c) if "." in c else (int(c) if c.isdigit() else c or None)
                             for c in line]
        if line[1] == "2026-03":
            row[1] = date(2026, 3, 1) if index % 2 == 0 else 46082
        cells.append(row)
    assert cells[1][:5] == ["ROMA01", date(2026, 3, 1), None, 1800, 288000.0]
    assert cells[2][1] == 46082
    file = tmp_path / "budget.xlsx"
    _workbook(file, cells)
    code, out, err = _import(warehouse, file)
    assert code == 0, err
    assert "4 budget rows imported" in out
    from_xlsx = [row[:-1] for row in _rows(warehouse)]
    _good(warehouse, tmp_path)
    assert [row[:-1] for row in _rows(warehouse)] == from_xlsx

    cells[2][4] = -5
    _workbook(file, cells)
    assert "budget.xlsx row 3, field room_revenue_net: negative figure -5" in _refused(
        warehouse, file)


@pytest.mark.parametrize("content", [b"property,month\nROMA01,2026-03\n", b""])
def test_an_unreadable_workbook_is_one_line_and_writes_nothing(
        content: bytes, warehouse: Path, tmp_path: Path) -> None:
    """A CSV or an empty file saved as .xlsx, and a zip archive that holds no workbook."""
    _good(warehouse, tmp_path)
    for name in ("bad.xlsx", "zip.xlsx"):
        file = tmp_path / name
        if name == "zip.xlsx":
            with zipfile.ZipFile(file, "w") as archive:
                archive.writestr("budget.csv", content)
        else:
            file.write_bytes(content)
        err = _refused(warehouse, file)
        assert err.startswith(f"Error: {name}: not a readable XLSX workbook ("), err


def test_the_budget_asset_imports_the_same_file(warehouse: Path, tmp_path: Path) -> None:
    """Dagster's asset mart/budget_monthly (issue 47, item 2: the budget in the asset graph)
    imports a file given as run config exactly as `pmsw budget import` does, publishes, and a
    bad file fails the run with the one line naming row and field, writing nothing."""
    import dagster as dg

    from pipelines.defs.forecast.budget import budget_monthly
    from pipelines.defs.resources import WarehouseResource

    file = tmp_path / "budget.csv"
    file.write_text(GOOD, encoding="utf-8")
    resources = {"warehouse": WarehouseResource(path=str(warehouse))}
    done = dg.materialize([budget_monthly], resources=resources, run_config={
        "ops": {"mart__budget_monthly": {"config": {"file": str(file)}}}})
    assert done.success
    (materialized,) = done.asset_materializations_for_node("mart__budget_monthly")
    assert materialized.metadata["rows"].value == 4
    assert materialized.metadata["property_months"].value == 3
    by_asset = _rows(warehouse, read_copy=True)
    assert [r[:7] for r in by_asset] == [r[:7] for r in _rows(warehouse)]
    assert len(by_asset) == 4
    bad = tmp_path / "bad.csv"
    bad.write_text("property,month,rooms_sold,room_revenue_net\nROMA01,2026-05,-5,1\n",
                   encoding="utf-8")
    failed = dg.materialize([budget_monthly], resources=resources, raise_on_error=False,
                            run_config={"ops": {"mart__budget_monthly": {"config": {
                                "file": str(bad)}}}})
    assert not failed.success
    (failure,) = [e for e in failed.all_events if e.event_type_value == "STEP_FAILURE"]
    assert "bad.csv row 2, field rooms_sold: negative figure -5" in \
        failure.step_failure_data.error.message
    assert _rows(warehouse) == by_asset  # nothing written
