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
  310 rooms available: 61.29 %, RevPAR 61.29. F&B and other of the 112 rooms ahead at the
  revenue per room sold of the 91 closed days before the business date (Dec 15 - Mar 15:
  59 x 3 + 78 = 255 rooms, F&B 300.00, other 30.00): 300 + 112 x 300 / 255 = 431.76, 30 +
  112 x 30 / 255 = 43.18; total 19,000 + 431.76 + 43.18 = 19,474.94.
- YTD: 59 x 3 + 78 = 255 rooms, 59 x 240 + 7,800 = 21,960.00 over 590 + 150 = 740:
  34.46 %, ADR 86.12, RevPAR 29.68; no budget for January and February: none. Last year's
  (2025-01-01 to 03-15, 74 nights) holds only March's 15: not shown, nor compared.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from pipelines.cli import main

from .conftest import OCCUPANCY, roma_report, write_and_publish


def _report(warehouse: Path, *args: str) -> dict[str, Any]:
    body = roma_report(warehouse, "flash", *args)
    assert body["report"].startswith("Manager's flash for 2026-03-15 (Sun)")
    return body


def _flash(warehouse: Path, *args: str) -> dict[str, dict[str, Any]]:
    return {row["metric"]: row for row in _report(warehouse, *args)["rows"]}


MONEY = ("rooms_sold", "rooms_available", "occupancy_pct", "adr_net", "revpar_net",
         "room_revenue_net", "food_beverage_revenue_net", "other_revenue_net",
         "total_revenue_net")
"""The rows of rooms and revenue (the room statistics follow them)."""


def test_flash_figure_by_figure(hotel: Path) -> None:
    got = _flash(hotel, "--date", "2026-03-15")
    # the day's budget: March's pro rata of its 31 days (last year's March is not held whole):
    # 186 / 31 = 6 rooms, 18,600.00 / 31 = 600.00, F&B 100.00, other 10.00, total 710.00;
    # occupancy 6 / 10 = 60.00 %: 80.00 % is +20.00 pp, 8 rooms +33.33 %, 1,030.00 +45.07 %
    columns = ("day", "day_budget", "mtd", "mtd_budget", "month_expected")
    assert {m: tuple(got[m][c] for c in columns) for m in MONEY} == {
        "rooms_sold": (8, 6, 78, 90, 190),
        "rooms_available": (10, 10, 150, 150, 310),
        "occupancy_pct": (80, 60, 52, 60, 61.29),
        "adr_net": (100, 100, 100, 100, 100),
        "revpar_net": (80, 60, 52, 60, 61.29),
        "room_revenue_net": (800, 600, 7800, 9000, 19000),
        "food_beverage_revenue_net": (200, 100, 300, 1500, 431.76),
        "other_revenue_net": (30, 10, 30, 150, 43.18),
        "total_revenue_net": (1030, 710, 8130, 10650, 19474.94)}
    assert (got["rooms_sold"]["day_last_year"], got["room_revenue_net"]["day_last_year"],
            got["adr_net"]["day_last_year"]) == (6, 540, 90)
    assert (got["occupancy_pct"]["day_vs_budget"], got["rooms_sold"]["day_vs_budget"],
            got["total_revenue_net"]["day_vs_budget"]) == (20, 33.33, 45.07)
    assert got["rooms_sold"]["day_vs_last_year"] == 33.33  # 8 against 6
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
    assert (got["rooms_sold"]["month_budget"], got["total_revenue_net"]["month_budget"]) \
        == (186, 22010)
    # every figure of the expected end is there: the title says nothing of it
    assert "month_expected" not in _report(hotel, "--date", "2026-03-15")["report"]
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
    occupancy = roma_report(hotel, "occupancy", "--from", "2026-03-01", "--to", "2026-03-15")
    assert occupancy["total"]["adr_net"] == got["adr_net"]["mtd"]


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


def test_a_missing_expected_end_is_said_in_the_title(hotel: Path) -> None:
    """With no F&B nor other revenue in the 91 closed days, the nights ahead spend nothing:
    F&B and other expected 0.00, total the room revenue (190 rooms, 19,000.00). Without the
    forecast of one night ahead (Mar 31) the month's expected end is none, and the title
    says why (before: nothing said, every figure there)."""
    write_and_publish(hotel, "UPDATE mart.revenue_daily SET department_revenue_net = 0 "
                             "WHERE department <> 'accommodation'")
    body = _report(hotel, "--date", "2026-03-15")
    got = {row["metric"]: row for row in body["rows"]}
    assert (got["rooms_sold"]["month_expected"], got["room_revenue_net"]["month_expected"]) \
        == (190, 19000)
    assert [got[m]["month_expected"] for m in ("food_beverage_revenue_net", "other_revenue_net",
                                              "total_revenue_net")] == [0, 0, 19000]
    write_and_publish(hotel, "DELETE FROM mart.forecast_daily WHERE stay_date = "
                             "DATE '2026-03-31'")
    body = _report(hotel, "--date", "2026-03-15")
    assert "; month_expected: none, mart.forecast_daily does not hold the month's nights " \
        "ahead; year_expected: none, mart.forecast_daily does not hold the year's nights " \
        "ahead" in body["report"]
    assert all(row["month_expected"] is None for row in body["rows"])


def test_the_year_as_expected_to_end_against_its_budget(hotel: Path) -> None:
    """YTD against the forecast: the year's expected end (issue 48, item 3). With the forecast
    of every night to Dec 31 (7 rooms, 700.00 a night, 10 rooms) and a budget for every month
    (March's, the others 100 rooms, 10,000.00, F&B 1,000.00, other 100.00):
    - nights ahead Mar 16 - Dec 31: 16 + 275 = 291; rooms 291 x 7 = 2,037, 203,700.00;
    - year: 255 + 2,037 = 2,292 rooms of 740 + 2,910 = 3,650 (62.79 %), 21,960.00 +
      203,700.00 = 225,660.00 (ADR 98.46, RevPAR 61.82); F&B 300.00 + 2,037 x 300 / 255 =
      2,696.47, other 30.00 + 2,037 x 30 / 255 = 269.65, total 228,626.12;
    - budget: 186 + 11 x 100 = 1,286 rooms (of the expected 3,650: 35.23 %), 18,600 + 110,000
      = 128,600.00, F&B 14,100.00, other 1,410.00, total 144,110.00."""
    write_and_publish(hotel, """
        INSERT INTO mart.forecast_daily
        SELECT 1, DATE '2026-03-16', CAST(d AS DATE), 0, 0, 0, 7, 6, 8, 700, 100, 70, 10, 10,
               'additive_pickup', NULL, NULL
        FROM range(DATE '2026-04-01', DATE '2027-01-01', INTERVAL 1 DAY) t(d);
        INSERT INTO mart.budget_monthly
        SELECT 1, CAST(m AS DATE), NULL, 100, 10000, 1000, 100, 'budget.csv', now()
        FROM range(DATE '2026-01-01', DATE '2027-01-01', INTERVAL 1 MONTH) t(m)
        WHERE m <> DATE '2026-03-01'""")
    body = _report(hotel, "--date", "2026-03-15")
    got = {row["metric"]: row for row in body["rows"]}
    assert {m: got[m]["year_expected"] for m in MONEY} == {
        "rooms_sold": 2292, "rooms_available": 3650, "occupancy_pct": 62.79, "adr_net": 98.46,
        "revpar_net": 61.82, "room_revenue_net": 225660,
        "food_beverage_revenue_net": 2696.47, "other_revenue_net": 269.65,
        "total_revenue_net": 228626.12}
    assert {m: got[m]["year_budget"] for m in MONEY} == {
        "rooms_sold": 1286, "rooms_available": 3650, "occupancy_pct": 35.23, "adr_net": 100,
        "revpar_net": 35.23, "room_revenue_net": 128600, "food_beverage_revenue_net": 14100,
        "other_revenue_net": 1410, "total_revenue_net": 144110}
    assert "year_expected" not in body["report"]
    # no forecast nor budget is made of the room statistics
    assert all(got[s]["year_expected"] is got[s]["year_budget"] is None
               for s in ("arrivals", "walk_ins", "rooms_house_use"))


def test_flash_defaults_to_the_day_before_the_business_date(hotel: Path) -> None:
    """The last closed business date, by the reports' one as-of rule, named in the JSON."""
    assert _flash(hotel)["rooms_sold"]["day"] == 8
    assert _report(hotel)["as_of"] == "2026-03-15 (closed)"


@pytest.mark.parametrize(("day", "code", "said"), [
    ("2026-02-30", 2, "Invalid value for '--date': '2026-02-30' is not a date: use YYYY-MM-DD, "
                      "e.g. 2026-03-01 (see --help)"),  # a usage error
    # the business date is still open: its night is on the books, not sold
    ("2026-03-16", 1, "--date 2026-03-16: the flash is of a closed business date; the last one "
                      "of ROMA01 is 2026-03-15 (business date 2026-03-16)")])
def test_flash_of_a_bad_date_is_one_line(day: str, code: int, said: str, hotel: Path) -> None:
    done = CliRunner().invoke(main, ["report", "flash", "--warehouse", str(hotel),
                                     "--property", "ROMA01", "--date", day])
    assert (done.exit_code, done.stderr) == (code, f"Error: {said}\n")


def test_flash_as_xlsx(hotel: Path) -> None:
    """The workbook (pipelines.reports.excel): one sheet named after the report, the title
    block above the CSV's header (row 4), typed cells, read back with openpyxl: rooms are
    whole numbers, occupancy a fraction with a % format."""
    done = CliRunner().invoke(main, ["report", "flash", "--warehouse", str(hotel),
                                     "--property", "ROMA01", "--date", "2026-03-15",
                                     "--format", "xlsx"])
    assert done.exit_code == 0, done.stderr
    book = openpyxl.load_workbook(io.BytesIO(done.stdout_bytes))
    assert book.sheetnames == ["flash", "ahead"]  # the nights ahead: their own sheet
    assert str(book["flash"]["A1"].value).startswith("Manager's flash for 2026-03-15")
    sheet = [list(row) for row in book["flash"].iter_rows(min_row=4, values_only=True)]
    assert sheet[0][:9] == ["metric", "day", "day_budget", "day_vs_budget", "day_last_year",
                            "day_vs_last_year", "day_forecast", "day_vs_forecast", "mtd"]
    by_metric = {row[0]: row for row in sheet[1:]}
    assert [by_metric["rooms_sold"][i] for i in (1, 2, 4, 8)] == [8, 6, 6, 78]
    assert all(isinstance(by_metric["rooms_sold"][i], int) for i in (1, 2, 4, 8))
    occupancy = next(row for row in book["flash"].iter_rows(min_row=5)
                     if row[0].value == "occupancy_pct")
    assert "%" in occupancy[1].number_format
    assert 0 < float(occupancy[1].value) < 1
    assert by_metric["total_revenue_net"][8] == 8130


def _outcome(rid: int, booked_on: str, firm: bool) -> str:
    return (f"(1, {rid}, 'phone', DATE '2026-04-01', DATE '2026-04-01', DATE '{booked_on}', 20, "
            f"'15-30', 4, '{'on_the_books' if firm else 'option'}', {firm}, false, false, 1, 1, "
            "0, 0, 1, 1, 0, 0, 0)")


def _room(rrid: int, status: str, cancelled_by: str | None, updated_at: str) -> str:
    return ("INSERT INTO core.reservation_rooms (property_id, reservation_room_id, "
            "reservation_id, status, arrival, departure, nights, adults, brackets, children, "
            "room_type_id, room_type_code, discount_pct, cancelled_by, total, updated_at, "
            "reservation_type, created_at, last_seen_run, fetched_at) VALUES "
            f"(1, {rrid}, {rrid}, '{status}', DATE '2026-04-01', DATE '2026-04-03', 2, 2, "
            f"'{{}}', 0, 1, 'DBL', 0, {'NULL' if cancelled_by is None else repr(cancelled_by)}, "
            f"200, TIMESTAMPTZ '{updated_at}+00', 'individual', TIMESTAMPTZ '2025-01-02 10:00+00', "
            "'test', now());\n")


def _version(rrid: int, status: str, valid_from: str, valid_to: str | None) -> str:
    to = "NULL" if valid_to is None else f"TIMESTAMPTZ '{valid_to}+00'"
    return ("INSERT INTO core.reservation_room_versions (property_id, reservation_room_id, "
            "reservation_id, valid_from, valid_to, version_hash, status, arrival, departure, "
            "nights, adults, brackets, children, room_type_id, room_type_code, total, "
            "reservation_type, created_at, first_seen_run) VALUES "
            f"(1, {rrid}, {rrid}, TIMESTAMPTZ '{valid_from}+00', {to}, '{rrid}-{valid_from}', "
            f"'{status}', DATE '2026-04-01', DATE '2026-04-03', 2, 2, '{{}}', 0, 1, 'DBL', 200, "
            "'individual', TIMESTAMPTZ '2025-01-02 10:00+00', 'test');\n")


def _event(event_id: int, kind: str, rrid: int, at: str) -> str:
    return ("INSERT INTO core.events VALUES "
            f"(1, {event_id}, '{kind}', 'stay', {rrid}, TIMESTAMPTZ '{at}+00', '{{}}', 'test', "
            "now());\n")


_CANCELLATIONS = (
    # 1: the guest cancelled on Mar 15 (event 10:00 UTC, 11:00 in Rome; landed at 11:30), then
    #    the cancelled room changed again on Mar 20 (updated_at): still Mar 15's.
    _room(1, "cancelled", "guest", "2026-03-20 09:00") + _event(12, "stay.cancelled", 1,
                                                                 "2026-03-15 10:00")
    + _version(1, "confirmed", "2026-03-01 08:00", "2026-03-15 11:30")
    + _version(1, "cancelled", "2026-03-15 11:30", "2026-03-20 09:00")
    + _version(1, "cancelled", "2026-03-20 09:00", None)
    # 2: event at 23:30 UTC on Mar 14 = 00:30 on Mar 15 in Rome: Mar 15's.
    + _room(2, "cancelled", "guest", "2026-03-14 23:30")
    + _event(11, "stay.cancelled", 2, "2026-03-14 23:30")
    # 3: cancelled by the hotel on Mar 15 (a no-show): not a guest's cancellation.
    + _room(3, "cancelled", "hotel", "2026-03-15 01:00")
    + _event(13, "stay.cancelled", 3, "2026-03-15 01:00")
    # 4: the guest cancelled on Mar 3 (the first event of the log): MTD.
    + _room(4, "cancelled", "guest", "2026-03-03 09:00")
    + _event(10, "stay.cancelled", 4, "2026-03-03 09:00")
    # 5: cancelled Jan 10, before the event log reaches: its first cancelled version's
    #    valid_from; changed again on Mar 15 (updated_at, a new version): Jan 10's (YTD only).
    + _room(5, "cancelled", "guest", "2026-03-15 09:00")
    + _version(5, "confirmed", "2026-01-05 08:00", "2026-01-10 12:00")
    + _version(5, "cancelled", "2026-01-10 12:00", "2026-03-15 09:00")
    + _version(5, "cancelled", "2026-03-15 09:00", None)
    # 6: checked in on Mar 15: no cancellation.
    + _room(6, "checked_in", None, "2026-03-15 14:00")
    + _event(14, "stay.checked_in", 6, "2026-03-15 14:00")
    # 7: the guest cancelled on 2025-03-15, before the event log: last year's day and MTD.
    + _room(7, "cancelled", "guest", "2025-03-15 12:00")
    + _version(7, "cancelled", "2025-03-15 12:00", None)
    # 8: cancelled (by nobody said: the guest) on Mar 16, after the day: not counted.
    + _room(8, "cancelled", None, "2026-03-16 09:00")
    + _event(15, "stay.cancelled", 8, "2026-03-16 09:00"))
"""Room entries cancelled on known dates (Rome, UTC+1 in March). Cancellations made on
2026-03-15: 1 and 2 (day 2); last year 7 (1: +100.00 %); MTD 1, 2, 4 (3; last year 1); YTD 1,
2, 4, 5 (4)."""


def test_flash_room_statistics(hotel: Path) -> None:
    """The Manager Flash's room statistics (docs/kpi.md, "Room statistics"), sums of
    mart.occupancy_daily's days. Jan 1 - Mar 14 (73 days; 59 of 3 sold, 14 of 5): each day 2
    arrivals, 1 departure, 1 complimentary room which is house use, in house sold + 1, persons
    2 x sold + 1. Mar 15 (8 sold): 4 arrivals, 1 departure, 2 complimentary of which 1 house
    use, 10 in house, 17 persons, 1 no-show, 1 walk-in, 1 room out of order. Last year: 1
    arrival a day Mar 1-14, 2 on Mar 15. Firm bookings made: 3 on Mar 15 (and an option, not
    counted), 2 on Mar 10, 1 on Feb 1 (and 1 on Mar 16, after the day).
    - day: as Mar 15; 3 reservations made.
    - MTD: arrivals 14 x 2 + 4 = 32 (last year 14 + 2 = 16: +100.00 %), departures 15, in
      house 14 x 6 + 10 = 94, persons 14 x 11 + 17 = 171, complimentary 14 + 2 = 16, house use
      15, reservations 5.
    - YTD: arrivals 73 x 2 + 4 = 150, departures 74, in house 59 x 4 + 94 = 330, persons
      59 x 7 + 171 = 584, complimentary 75, house use 74, reservations 6; last year's YTD is
      held in part: not shown.
    Cancellations made: see _CANCELLATIONS (day 2, last year 1: +100.00 %; MTD 3; YTD 4)."""
    write_and_publish(hotel, f"""
        UPDATE mart.occupancy_daily SET arrivals = 2, departures = 1, rooms_complimentary = 1,
            rooms_house_use = 1, rooms_in_house = rooms_sold + 1, persons = 2 * rooms_sold + 1
            WHERE stay_date BETWEEN DATE '2026-01-01' AND DATE '2026-03-14';
        UPDATE mart.occupancy_daily SET arrivals = 4, departures = 1, rooms_complimentary = 2,
            rooms_house_use = 1, rooms_in_house = 10, persons = 17, no_shows = 1, walk_ins = 1,
            rooms_out_of_order = 1 WHERE stay_date = DATE '2026-03-15';
        UPDATE mart.occupancy_daily SET arrivals = CASE WHEN stay_date = DATE '2025-03-15'
            THEN 2 ELSE 1 END WHERE stay_date < DATE '2026-01-01';
        INSERT INTO mart.booking_outcomes VALUES {_outcome(1, '2026-03-15', True)},
            {_outcome(2, '2026-03-15', True)}, {_outcome(3, '2026-03-15', True)},
            {_outcome(4, '2026-03-15', False)}, {_outcome(5, '2026-03-10', True)},
            {_outcome(6, '2026-03-10', True)}, {_outcome(7, '2026-02-01', True)},
            {_outcome(8, '2026-03-16', True)};
        {_CANCELLATIONS}""")
    body = _report(hotel, "--date", "2026-03-15")
    assert "cancellations_made" not in body["report"]  # built: the title no longer excuses it
    got = {row["metric"]: row for row in body["rows"]}
    stats = ("arrivals", "departures", "rooms_in_house", "persons", "no_shows", "walk_ins",
             "rooms_out_of_order", "rooms_complimentary", "rooms_house_use",
             "reservations_made", "cancellations_made")
    assert [row["metric"] for row in body["rows"]][-len(stats):] == list(stats)
    assert {s: got[s]["day"] for s in stats} == {
        "arrivals": 4, "departures": 1, "rooms_in_house": 10, "persons": 17, "no_shows": 1,
        "walk_ins": 1, "rooms_out_of_order": 1, "rooms_complimentary": 2,
        "rooms_house_use": 1, "reservations_made": 3, "cancellations_made": 2}
    assert {s: got[s]["mtd"] for s in stats} == {
        "arrivals": 32, "departures": 15, "rooms_in_house": 94, "persons": 171, "no_shows": 1,
        "walk_ins": 1, "rooms_out_of_order": 1, "rooms_complimentary": 16,
        "rooms_house_use": 15, "reservations_made": 5, "cancellations_made": 3}
    assert {s: got[s]["ytd"] for s in stats} == {
        "arrivals": 150, "departures": 74, "rooms_in_house": 330, "persons": 584,
        "no_shows": 1, "walk_ins": 1, "rooms_out_of_order": 1, "rooms_complimentary": 75,
        "rooms_house_use": 74, "reservations_made": 6, "cancellations_made": 4}
    assert (got["arrivals"]["day_last_year"], got["arrivals"]["mtd_last_year"],
            got["arrivals"]["mtd_vs_last_year"], got["arrivals"]["change_unit"]) == \
        (2, 16, 100, "%")
    assert got["arrivals"]["ytd_last_year"] is None
    assert (got["cancellations_made"]["day_last_year"],
            got["cancellations_made"]["day_vs_last_year"],
            got["cancellations_made"]["mtd_last_year"]) == (1, 100, 1)
    assert got["rooms_in_house"]["mtd_budget"] is None
    # pmsw report occupancy reads the same definition: complimentary rooms beside rooms sold
    occupancy = roma_report(hotel, "occupancy", "--from", "2026-03-01", "--to", "2026-03-15")
    assert occupancy["columns"][2:5] == ["rooms_sold", "rooms_complimentary", "rooms_house_use"]
    assert (occupancy["total"]["rooms_sold"], occupancy["total"]["rooms_complimentary"],
            occupancy["total"]["rooms_house_use"]) == (78, 16, 15)
    assert occupancy["rows"][-1]["rooms_complimentary"] == 2


def test_budget_spread_by_last_years_nights(hotel: Path) -> None:
    """With last year's March held whole (Mar 16-31, 2025: 5 rooms a night), March's budget
    is spread over its nights as last year's rooms sold: 14 x 4 + 6 + 16 x 5 = 142 rooms.
    Mar 15 takes 6 / 142: 186 x 6 / 142 = 7.86 -> 8 rooms, 18,600.00 x 6 / 142 = 785.92;
    the MTD 62 / 142: 186 x 62 / 142 = 81.21 -> 81 rooms, 18,600.00 x 62 / 142 = 8,121.13
    (1,153,200 / 142 = 8,121.126...); the whole month stays 186. The title says so."""
    write_and_publish(hotel, OCCUPANCY.format(first="2025-03-16", last="2025-03-31", sold=5,
                                              rate=90))
    body = _report(hotel, "--date", "2026-03-15")
    assert "; budget of part of a month spread over the nights as last year's rooms sold" \
        in body["report"]
    got = {row["metric"]: row for row in body["rows"]}
    assert (got["rooms_sold"]["day_budget"], got["room_revenue_net"]["day_budget"]) == \
        (8, 785.92)
    assert (got["rooms_sold"]["mtd_budget"], got["room_revenue_net"]["mtd_budget"]) == \
        (81, 8121.13)
    assert got["rooms_sold"]["month_budget"] == 186
