"""The flash's day, MTD and YTD against the forecast made before them (issue 48, item 3), on
the hand-built hotel (tests/forecast/conftest.py: flash of Mar 15, business date Mar 16;
Mar 1-14 5 rooms sold at 100.00, Mar 15 8 rooms, 10 rooms available a night), with a
forecast history written by hand:

- as of Feb 28 (March's eve): every night of March 6 rooms, 600.00, F&B 120.00, other 12.00;
- as of Mar 14 (the day before): Mar 15 7 rooms, 735.00, F&B 140.00, other 14.00;
- Mar 15 ended with 1 complimentary room (the forecast counts it in, rooms sold do not).

Day: forecast 7 - 1 = 6 rooms sold, 735.00, occupancy 6 / 10 = 60.00 %, ADR 735 / 6 =
122.50, RevPAR 73.50. Actual 8 rooms, 800.00, 80.00 %, ADR 100.00, RevPAR 80.00: rooms
+33.33 %, occupancy +20.00 pp, ADR -22.50 / 122.50 = -18.37 %, revenue and RevPAR 65 / 735
= +8.84 %.

MTD (Mar 1-15 as of Feb 28): 15 x 6 - 1 = 89 rooms, 9,000.00; occupancy 89 / 150 = 59.33 %,
ADR 9,000 / 89 = 101.12, RevPAR 60.00. Actual 78 rooms, 7,800.00, 52.00 %, ADR 100.00,
RevPAR 52.00: rooms -11 / 89 = -12.36 %, occupancy -7.33 pp, revenue and RevPAR -13.33 %,
ADR -1.12 / 101.12 = -1.11 %.

F&B, other and total (actual: F&B posted Mar 1 100.00 and Mar 15 200.00, other Mar 15 30.00):
day forecast F&B 140.00, other 14.00, total 735 + 140 + 14 = 889.00 against 200.00 (+60 / 140
= +42.86 %), 30.00 (+16 / 14 = +114.29 %), 800 + 200 + 30 = 1,030.00 (+141 / 889 = +15.86 %);
MTD forecast 15 x 120 = 1,800.00, 15 x 12 = 180.00, 9,000 + 1,800 + 180 = 10,980.00 against
300.00 (-83.33 %), 30.00 (-83.33 %), 7,800 + 300 + 30 = 8,130.00 (-2,850 / 10,980 = -25.96 %).

YTD: January and February have no forecast kept (59 nights): none, the title says so."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import openpyxl
from click.testing import CliRunner

from pipelines.cli import main

from .conftest import roma_report, write_and_publish

HISTORY = """
INSERT INTO mart.forecast_history (property_id, as_of_date, stay_date, rooms_forecast,
    room_revenue_forecast_net, method, kept_at, food_beverage_revenue_forecast_net,
    other_revenue_forecast_net)
SELECT 1, DATE '{as_of}', CAST(d AS DATE), {rooms}, {revenue}, 'additive_pickup', now(), {fnb},
    {other}
FROM range(DATE '{first}', DATE '{last}' + 1, INTERVAL 1 DAY) t(d);
"""


EVE_AND_DAY = (("2026-02-28", "2026-03-01", "2026-03-31", 6, 600, 120, 12),
               ("2026-03-14", "2026-03-15", "2026-03-15", 7, 735, 140, 14))


def _flash(warehouse: Path, form: str) -> bytes:
    done = CliRunner().invoke(main, ["report", "flash", "--warehouse", str(warehouse),
                                     "--property", "ROMA01", "--format", form, "--date",
                                     "2026-03-15"])
    assert done.exit_code == 0, done.stderr
    return done.stdout_bytes


def _report(warehouse: Path) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The flash of Mar 15, and its rows by metric."""
    body = roma_report(warehouse, "flash", "--date", "2026-03-15")
    return body, {row["metric"]: row for row in body["rows"]}


def _history(warehouse: Path, *kept: tuple[str, str, str, int, int, int, int]) -> None:
    write_and_publish(warehouse, "UPDATE mart.occupancy_daily SET rooms_complimentary = 1 "
                                 "WHERE stay_date = DATE '2026-03-15';" + "".join(
                                     HISTORY.format(as_of=a, first=f, last=t, rooms=r,
                                                    revenue=v, fnb=fb, other=o)
                                     for a, f, t, r, v, fb, o in kept))


def test_day_and_month_to_date_against_the_forecast_made_before(hotel: Path) -> None:
    _history(hotel, *EVE_AND_DAY)
    body, got = _report(hotel)
    figures = ("rooms_sold", "occupancy_pct", "adr_net", "revpar_net", "room_revenue_net")
    columns = ("day_forecast", "day_vs_forecast", "mtd_forecast", "mtd_vs_forecast")
    assert {m: tuple(got[m][c] for c in columns) for m in figures} == {
        "rooms_sold": (6, 33.33, 89, -12.36),
        "occupancy_pct": (60, 20, 59.33, -7.33),
        "adr_net": (122.5, -18.37, 101.12, -1.11),
        "revpar_net": (73.5, 8.84, 60, -13.33),
        "room_revenue_net": (735, 8.84, 9000, -13.33)}
    assert got["occupancy_pct"]["change_unit"] == "pp"
    # the supply is the actual one, as the budget's
    assert (got["rooms_available"]["day_forecast"], got["rooms_available"]["mtd_forecast"]) \
        == (10, 150)
    departments = ("food_beverage_revenue_net", "other_revenue_net", "total_revenue_net")
    assert [[got[m][c] for c in ("day", "day_forecast", "day_vs_forecast")]
            for m in departments] == [[200, 140, 42.86], [30, 14, 114.29], [1030, 889, 15.86]]
    assert [[got[m][c] for c in ("mtd", "mtd_forecast", "mtd_vs_forecast")]
            for m in departments] == [[300, 1800, -83.33], [30, 180, -83.33],
                                      [8130, 10980, -25.96]]
    assert all(got[m]["change_unit"] == "%" for m in departments)
    assert all(got[m]["ytd_forecast"] is None and got[m]["ytd_vs_forecast"] is None
               for m in got)
    assert "; ytd_forecast: none, no forecast kept of 59 of its nights (first 2026-01-01)" \
        in body["report"]
    assert "day_forecast" not in body["report"]
    assert "mtd_forecast" not in body["report"]
    # the room statistics have no forecast
    assert got["arrivals"]["day_forecast"] is None


def test_the_forecast_rooms_sold_take_the_no_shows_off_too(hotel: Path) -> None:
    """The forecast's rooms are the books at the night's end: sold + complimentary +
    no-shows (docs/kpi.md). Mar 15 ended with 1 complimentary room and 2 no-shows: the day's
    forecast of 7 rooms is 7 - 1 - 2 = 4 rooms sold, occupancy 4 / 10 = 40.00 %, ADR 735 / 4 =
    183.75; against 8 sold at 100.00: +100.00 %, +40.00 pp, ADR -83.75 / 183.75 = -45.58 %."""
    _history(hotel, ("2026-03-14", "2026-03-15", "2026-03-15", 7, 735, 140, 14))
    write_and_publish(hotel, "UPDATE mart.occupancy_daily SET no_shows = 2 "
                             "WHERE stay_date = DATE '2026-03-15'")
    got = _report(hotel)[1]
    assert [(got[m]["day_forecast"], got[m]["day_vs_forecast"])
            for m in ("rooms_sold", "occupancy_pct", "adr_net")] == [
        (4, 100), (40, 40), (183.75, -45.58)]


def test_a_month_without_its_eve_falls_back_and_says_so(hotel: Path) -> None:
    """No forecast kept as of Feb 28: March's nights fall back to the latest kept before it,
    Feb 20's (5 rooms, 500.00 a night): 15 x 5 - 1 = 74 rooms, 7,500.00; 78 rooms is
    4 / 74 = +5.41 %, 7,800.00 is +4.00 %. The day keeps its own (as of Mar 14). With
    January and February's nights kept too (as of Dec 31 and Jan 31, 3 rooms, 240.00 a
    night: 59 x 3 = 177 rooms, 14,160.00), the year to date is each month's forecast:
    177 + 74 = 251 rooms, 21,660.00 against 255 rooms (+1.59 %), 21,960.00 (+1.39 %). Their
    departments (30.00 F&B, 3.00 other a night; March's fallback 100.00 and 10.00): F&B 59 x 30
    + 15 x 100 = 3,270.00 against 300.00 (-2,970 / 3,270 = -90.83 %), other 177 + 150 =
    327.00, total 21,660 + 3,270 + 327 = 25,257.00 against 21,960 + 300 + 30 = 22,290.00
    (-2,967 / 25,257 = -11.75 %)."""
    _history(hotel, ("2026-02-20", "2026-03-01", "2026-03-31", 5, 500, 100, 10),
             ("2026-03-14", "2026-03-15", "2026-03-15", 7, 735, 140, 14))
    body, got = _report(hotel)
    assert (got["rooms_sold"]["mtd_forecast"], got["room_revenue_net"]["mtd_forecast"]) == \
        (74, 7500)
    assert (got["rooms_sold"]["mtd_vs_forecast"], got["room_revenue_net"]["mtd_vs_forecast"]) \
        == (5.41, 4)
    assert got["rooms_sold"]["day_forecast"] == 6
    assert "; mtd_forecast as of 2026-02-20 where none was kept as of 2026-02-28" \
        in body["report"]
    write_and_publish(hotel, HISTORY.format(as_of="2025-12-31", first="2026-01-01",
                                            last="2026-01-31", rooms=3, revenue=240, fnb=30,
                                            other=3)
                      + HISTORY.format(as_of="2026-01-31", first="2026-02-01",
                                       last="2026-02-28", rooms=3, revenue=240, fnb=30,
                                       other=3))
    body, got = _report(hotel)
    assert (got["rooms_sold"]["ytd_forecast"], got["room_revenue_net"]["ytd_forecast"]) == \
        (251, 21660)
    assert (got["rooms_sold"]["ytd_vs_forecast"], got["room_revenue_net"]["ytd_vs_forecast"]) \
        == (1.59, 1.39)
    assert [(got[m]["ytd_forecast"], got[m]["ytd_vs_forecast"]) for m in (
        "food_beverage_revenue_net", "other_revenue_net", "total_revenue_net")] == [
        (3270, -90.83), (327, -90.83), (25257, -11.75)]
    # March's fallback is the YTD's too, said once for each period
    assert "; ytd_forecast as of 2026-02-20 where none was kept as of 2026-02-28" \
        in body["report"]


def test_a_kept_night_without_a_price_leaves_the_period_without_a_forecast(hotel: Path) -> None:
    """A forecast that could not price a night keeps its revenue as NULL (migration 0036):
    March's eve forecast without a price for Mar 10 leaves the month to date with no forecast
    and the title saying why; the day (as of Mar 14, priced) keeps its own: 6 rooms,
    735.00."""
    _history(hotel, *EVE_AND_DAY)
    write_and_publish(hotel, "UPDATE mart.forecast_history SET room_revenue_forecast_net = NULL "
                             "WHERE as_of_date = DATE '2026-02-28' "
                             "AND stay_date = DATE '2026-03-10';")
    body, got = _report(hotel)
    assert (got["rooms_sold"]["day_forecast"], got["room_revenue_net"]["day_forecast"]) == \
        (6, 735)
    assert got["rooms_sold"]["mtd_forecast"] is None
    assert got["room_revenue_net"]["mtd_forecast"] is None
    assert ("; mtd_forecast: none, the forecast kept of 1 of its nights has no price "
            "(first 2026-03-10: not priced)") in body["report"]


def test_a_night_kept_without_its_departments_leaves_them_without_a_forecast(
        hotel: Path) -> None:
    """A night kept before migration 0039 (or when the days before sold no room) has no F&B
    nor other forecast: March's eve forecast without them for Mar 10 leaves the month to
    date's F&B, other and total without a forecast, the title saying why; its rooms and room
    revenue keep theirs (89 rooms, 9,000.00), the day keeps its departments (140.00 F&B)."""
    _history(hotel, *EVE_AND_DAY)
    write_and_publish(hotel, "UPDATE mart.forecast_history SET "
                             "food_beverage_revenue_forecast_net = NULL, "
                             "other_revenue_forecast_net = NULL WHERE as_of_date = "
                             "DATE '2026-02-28' AND stay_date = DATE '2026-03-10';")
    body, got = _report(hotel)
    assert (got["rooms_sold"]["mtd_forecast"], got["room_revenue_net"]["mtd_forecast"]) == \
        (89, 9000)
    assert [got[m]["mtd_forecast"] for m in (
        "food_beverage_revenue_net", "other_revenue_net", "total_revenue_net")] == \
        [None, None, None]
    assert got["food_beverage_revenue_net"]["mtd_vs_forecast"] is None
    assert got["food_beverage_revenue_net"]["day_forecast"] == 140
    assert ("; mtd_forecast of F&B, other and total: none, no F&B nor other forecast kept of 1 "
            "of its nights (first 2026-03-10)") in body["report"]
    assert "day_forecast of F&B" not in body["report"]


def test_the_departments_forecast_in_csv_and_xlsx(hotel: Path) -> None:
    """The same rows in every format: total revenue's day forecast 889.00 (+15.86 %) and
    month to date 10,980.00 (-25.96 %), F&B's 140.00 and 1,800.00, as worked out above."""
    _history(hotel, *EVE_AND_DAY)
    columns = ("day_forecast", "day_vs_forecast", "mtd_forecast", "mtd_vs_forecast")
    text = _flash(hotel, "csv").decode().split("\n\n")[0]  # the ahead section follows
    rows = {row["metric"]: row for row in csv.DictReader(io.StringIO(text))}
    assert [rows["total_revenue_net"][c] for c in columns] == \
        ["889.00", "15.86", "10980.00", "-25.96"]
    assert [rows["food_beverage_revenue_net"][c] for c in columns] == \
        ["140.00", "42.86", "1800.00", "-83.33"]
    book = openpyxl.load_workbook(io.BytesIO(_flash(hotel, "xlsx")))
    sheet = [list(row) for row in book["flash"].iter_rows(min_row=4, values_only=True)]
    header, by_metric = sheet[0], {row[0]: row for row in sheet[1:]}
    assert [by_metric["total_revenue_net"][header.index(c)] for c in columns] == \
        [889, 15.86, 10980, -25.96]
