"""`pmsw report flash` of the hand-built hotel (tests/forecast/conftest.py), figure by
figure.

Flash for Mar 15 (15 of March's 31 days):
- day: 8 sold of 10, 80.00 %, ADR 100.00, RevPAR 80.00, total 800 + 200 + 30 = 1,030.00;
  a year earlier 6 sold, 540.00, ADR 90.00.
- MTD: 14 x 5 + 8 = 78 of 150, 52.00 %, 7,800.00, F&B 300.00, total 8,130.00. Budget pro
  rata 15/31: 90 rooms, 9,000.00, 1,500.00, 150.00, total 10,650.00 -> -13.33 % rooms,
  -23.66 % total, occupancy 52.00 against 60.00: -8.00 points. Last year: 14 x 4 + 6 = 62
  rooms of 150 (41.33 %), 5,580.00 -> +25.81 %, +39.78 %, occupancy +10.67 points.
- Month expected: 78 + 16 x 7 = 190 rooms, 7,800 + 16 x 700 = 19,000.00 over 150 + 16 x 10 =
  310 rooms available: 61.29 %, RevPAR 61.29.
- YTD: 59 x 3 + 78 = 255 rooms, 59 x 240 + 7,800 = 21,960.00 over 590 + 150 = 740:
  34.46 %, ADR 86.12, RevPAR 29.68; no budget for January and February: none. Last year's
  (2025-01-01 to 03-15, 74 nights) holds only March's 15: not shown, nor compared.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import openpyxl
from click.testing import CliRunner

from pipelines.cli import main

from .conftest import write_and_publish


def _report(warehouse: Path, *args: str) -> dict[str, Any]:
    done = CliRunner().invoke(main, ["report", "flash", "--warehouse", str(warehouse),
                                     "--property", "ROMA01", "--format", "json", *args])
    assert done.exit_code == 0, done.stderr
    body: dict[str, Any] = json.loads(done.stdout)
    assert body["report"].startswith("Manager's flash for 2026-03-15 (Sun)")
    return body


def _flash(warehouse: Path, *args: str) -> dict[str, dict[str, Any]]:
    return {row["metric"]: row for row in _report(warehouse, *args)["rows"]}


def test_flash_figure_by_figure(hotel: Path) -> None:
    got = _flash(hotel, "--date", "2026-03-15")
    day = {m: got[m]["day"] for m in got}
    assert day == {"rooms_sold": 8, "rooms_available": 10, "occupancy_pct": 80,
                   "adr_net": 100, "revpar_net": 80, "room_revenue_net": 800,
                   "food_beverage_revenue_net": 200, "other_revenue_net": 30,
                   "total_revenue_net": 1030}
    assert (got["rooms_sold"]["day_last_year"], got["room_revenue_net"]["day_last_year"],
            got["adr_net"]["day_last_year"]) == (6, 540, 90)
    mtd = {m: got[m]["mtd"] for m in got}
    assert mtd == {"rooms_sold": 78, "rooms_available": 150, "occupancy_pct": 52,
                   "adr_net": 100, "revpar_net": 52, "room_revenue_net": 7800,
                   "food_beverage_revenue_net": 300, "other_revenue_net": 30,
                   "total_revenue_net": 8130}
    budget = {m: got[m]["mtd_budget"] for m in got}
    assert budget == {"rooms_sold": 90, "rooms_available": 150, "occupancy_pct": 60,
                      "adr_net": 100, "revpar_net": 60, "room_revenue_net": 9000,
                      "food_beverage_revenue_net": 1500, "other_revenue_net": 150,
                      "total_revenue_net": 10650}
    assert got["rooms_sold"]["mtd_vs_budget"] == -13.33
    assert got["total_revenue_net"]["mtd_vs_budget"] == -23.66
    assert (got["rooms_sold"]["mtd_last_year"], got["room_revenue_net"]["mtd_last_year"]) \
        == (62, 5580)
    assert got["rooms_sold"]["mtd_vs_last_year"] == 25.81
    assert got["room_revenue_net"]["mtd_vs_last_year"] == 39.78
    # a percentage against its base is read in points (issue 48, item 3)
    assert (got["occupancy_pct"]["mtd_vs_budget"], got["occupancy_pct"]["change_unit"]) == \
        (-8, "pp")
    assert got["occupancy_pct"]["mtd_vs_last_year"] == 10.67
    assert {got[m]["change_unit"] for m in got if m != "occupancy_pct"} == {"%"}
    expected = {m: got[m]["month_expected"] for m in got}
    assert expected == {"rooms_sold": 190, "rooms_available": 310, "occupancy_pct": 61.29,
                        "adr_net": 100, "revpar_net": 61.29, "room_revenue_net": 19000,
                        "food_beverage_revenue_net": None, "other_revenue_net": None,
                        "total_revenue_net": None}
    assert (got["rooms_sold"]["month_budget"], got["total_revenue_net"]["month_budget"]) \
        == (186, 22010)
    ytd = {m: got[m]["ytd"] for m in ("rooms_sold", "rooms_available", "occupancy_pct",
                                      "adr_net", "revpar_net", "room_revenue_net")}
    assert ytd == {"rooms_sold": 255, "rooms_available": 740, "occupancy_pct": 34.46,
                   "adr_net": 86.12, "revpar_net": 29.68, "room_revenue_net": 21960}
    assert all(got[m]["ytd_budget"] is None for m in got)
    assert all(got[m][c] is None for m in got for c in ("ytd_last_year", "ytd_vs_last_year"))


def test_adr_is_of_the_nights_sold_and_revenue_keeps_the_fees(hotel: Path) -> None:
    """A no-show fee of 60.00 posted to the night of Mar 15 (docs/kpi.md: rooms revenue, not
    the revenue of a night sold). ADR stays on the nights: day 800.00 / 8 = 100.00, MTD
    7,800.00 / 78 = 100.00, as `pmsw report occupancy` has it; room revenue and RevPAR keep the
    fee: day 860.00 and 86.00, MTD 7,860.00 and 7,860.00 / 150 = 52.40."""
    write_and_publish(hotel, "UPDATE mart.occupancy_daily SET room_revenue_net = "
                             "room_revenue_net + 60 WHERE stay_date = DATE '2026-03-15'")
    got = _flash(hotel, "--date", "2026-03-15")
    assert {c: got["adr_net"][c] for c in ("day", "mtd")} == {"day": 100, "mtd": 100}
    assert {c: got["room_revenue_net"][c] for c in ("day", "mtd")} == {"day": 860,
                                                                       "mtd": 7860}
    assert {c: got["revpar_net"][c] for c in ("day", "mtd")} == {"day": 86, "mtd": 52.4}
    done = CliRunner().invoke(main, ["report", "occupancy", "--warehouse", str(hotel),
                                     "--property", "ROMA01", "--from", "2026-03-01", "--to",
                                     "2026-03-15", "--format", "json"])
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["total"]["adr_net"] == got["adr_net"]["mtd"]


def test_a_period_the_warehouse_holds_in_part_is_not_shown(hotel: Path) -> None:
    """A sum over some of a period's nights is no figure of the period: the year to date of
    last year here, and with 2025-03-01 gone the month to date of last year too (14 of its 15
    nights); the title names each, and the day a year earlier (held) still shows."""
    body = _report(hotel, "--date", "2026-03-15")
    assert body["report"].endswith("; ytd_last_year not shown: the warehouse holds 15 of 74 "
                                   "nights")
    write_and_publish(hotel, "DELETE FROM mart.occupancy_daily WHERE stay_date = DATE '2025-03-01'")
    body = _report(hotel, "--date", "2026-03-15")
    assert body["report"].endswith(
        "; mtd_last_year not shown: the warehouse holds 14 of 15 nights"
        "; ytd_last_year not shown: the warehouse holds 14 of 74 nights")
    got = {row["metric"]: row for row in body["rows"]}
    assert all(got[m][c] is None for m in got for c in (
        "mtd_last_year", "mtd_vs_last_year", "ytd_last_year", "ytd_vs_last_year"))
    assert (got["rooms_sold"]["mtd"], got["rooms_sold"]["day_last_year"]) == (78, 6)
    assert got["rooms_sold"]["mtd_vs_budget"] == -13.33


def test_flash_defaults_to_the_day_before_the_business_date(hotel: Path) -> None:
    """The last closed business date, by the reports' one as-of rule, named in the JSON."""
    assert _flash(hotel)["rooms_sold"]["day"] == 8
    assert _report(hotel)["as_of"] == "2026-03-15 (closed)"


def test_flash_bad_date_is_one_line(hotel: Path) -> None:
    done = CliRunner().invoke(main, ["report", "flash", "--warehouse", str(hotel),
                                     "--property", "ROMA01", "--date", "2026-02-30"])
    assert done.exit_code == 2  # a usage error
    assert done.stderr.strip().count("\n") == 0
    assert "'--date': '2026-02-30' is not a date" in done.stderr


def test_flash_of_a_date_not_closed_is_one_line(hotel: Path) -> None:
    """The business date (2026-03-16) is still open: its night is on the books, not sold."""
    done = CliRunner().invoke(main, ["report", "flash", "--warehouse", str(hotel),
                                     "--property", "ROMA01", "--date", "2026-03-16"])
    assert done.exit_code == 1
    assert done.stderr == ("Error: --date 2026-03-16: the flash is of a closed business date; "
                           "the last one of ROMA01 is 2026-03-15 (business date 2026-03-16)\n")


def test_flash_as_xlsx(hotel: Path) -> None:
    """The workbook (pipelines.reports.excel): one sheet named after the report, the title
    block above the CSV's header (row 4), typed cells, read back with openpyxl: rooms are
    whole numbers, occupancy a fraction with a % format."""
    done = CliRunner().invoke(main, ["report", "flash", "--warehouse", str(hotel),
                                     "--property", "ROMA01", "--date", "2026-03-15",
                                     "--format", "xlsx"])
    assert done.exit_code == 0, done.stderr
    book = openpyxl.load_workbook(io.BytesIO(done.stdout_bytes))
    assert book.sheetnames == ["flash"]
    assert str(book["flash"]["A1"].value).startswith("Manager's flash for 2026-03-15")
    sheet = [list(row) for row in book["flash"].iter_rows(min_row=4, values_only=True)]
    assert sheet[0][:4] == ["metric", "day", "day_last_year", "mtd"]
    by_metric = {row[0]: row for row in sheet[1:]}
    assert by_metric["rooms_sold"][1:4] == [8, 6, 78]
    assert all(isinstance(v, int) for v in by_metric["rooms_sold"][1:4])
    occupancy = next(row for row in book["flash"].iter_rows(min_row=5)
                     if row[0].value == "occupancy_pct")
    assert "%" in occupancy[1].number_format
    assert 0 < float(occupancy[1].value) < 1
    assert by_metric["total_revenue_net"][3] == 8130
