"""`pmsw report forecast-months` of the hand-built hotel (tests/forecast/conftest.py), figure
by figure. Business date 2026-03-16: the nights to Mar 15 are closed, the forecast as of
Mar 16 covers Mar 16-31.

- January (closed): 31 x 3 = 93 rooms of 310, 30.00 %, 93 x 80 = 7,440.00, ADR 80.00, RevPAR
  24.00; no budget; January 2025 is not in the warehouse: no last year.
- February (closed): 28 x 3 = 84 rooms of 280, 30.00 %, 6,720.00, RevPAR 24.00.
- March: 15 nights closed, 14 x 5 + 8 = 78 rooms; on the books for the 16 nights ahead 16 x 4 =
  64; expected 78 + 16 x 7 = 190 rooms of 310, 61.29 %, 7,800 + 16 x 700 = 19,000.00, ADR
  100.00, RevPAR 61.29; budget 186 rooms, 18,600.00: +2.15 %; March 2025 holds 15 of its 31
  nights: no last year, the title says so.
  F&B and other: March's 300.00 / 30.00 posted + the 112 rooms ahead at the revenue per room
  sold of the 91 closed days before the business date (Dec 15 - Mar 15: 255 rooms, F&B
  300.00, other 30.00): 300 + 112 x 300 / 255 = 431.76, 30 + 112 x 30 / 255 = 43.18, total
  19,000 + 431.76 + 43.18 = 19,474.94; January and February (closed, nothing posted): 0.00,
  total = their room revenue.
- April: the forecast ends with Mar 31: not shown, the title says so.
- Total of January-March: 74 nights closed, 255 rooms actual, 64 on the books, 367 expected of
  900, 40.78 %, 33,160.00, ADR 90.35, RevPAR 36.84; no budget for January: no budget total.
  F&B 431.76, other 43.18, total 33,634.94.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conftest import OCCUPANCY, roma_report, write_and_publish

FIGURES = ("month", "nights_closed", "rooms_actual", "rooms_otb", "rooms_expected",
           "occupancy_expected_pct", "adr_expected_net", "revpar_expected_net",
           "room_revenue_expected_net", "budget_rooms_sold",
           "budget_room_revenue_net", "vs_budget_pct", "last_year_rooms_sold",
           "last_year_room_revenue_net", "vs_last_year_pct")


def _rows(body: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [tuple(row[c] for c in FIGURES) for row in body["rows"]]


def test_months_figure_by_figure(hotel: Path) -> None:
    body = roma_report(hotel, "forecast-months", "--from", "2026-01-15", "--to", "2026-04-02")
    assert body["as_of"] == "2026-03-15 (closed)"  # nights to Mar 15 actual, the rest forecast
    assert _rows(body) == [
        ("2026-01", 31, 93, 0, 93, 30, 80, 24, 7440, None, None, None, None, None, None),
        ("2026-02", 28, 84, 0, 84, 30, 80, 24, 6720, None, None, None, None, None, None),
        ("2026-03", 15, 78, 64, 190, 61.29, 100, 61.29, 19000, 186, 18600, 2.15,
         None, None, None)]
    assert tuple(body["total"][c] for c in FIGURES) == (
        "total", 74, 255, 64, 367, 40.78, 90.35, 36.84, 33160, None, None, None, None, None,
        None)
    revenue = ("food_beverage_revenue_expected_net", "other_revenue_expected_net",
               "total_revenue_expected_net")
    assert [tuple(row[c] for c in revenue) for row in body["rows"]] == [
        (0, 0, 7440), (0, 0, 6720), (431.76, 43.18, 19474.94)]
    assert tuple(body["total"][c] for c in revenue) == (431.76, 43.18, 33634.94)
    assert body["report"].endswith(
        "2026-01 to 2026-04, EUR, business date 2026-03-16; not shown: 2026-04 (the forecast "
        "ends with 2026-03-31); last year not shown for 2026-01 (the warehouse holds 0 of 31 "
        "nights), 2026-02 (the warehouse holds 0 of 28 nights), 2026-03 (the warehouse holds 15 "
        "of 31 nights)")


def test_a_month_with_budget_and_last_year_and_their_totals(hotel: Path) -> None:
    """With the rest of March 2025 (Mar 16-31, 5 rooms at 90.00) the month of last year is
    whole: 14 x 4 + 6 + 16 x 5 = 142 rooms, 12,780.00; 19,000.00 against it: +48.67 %."""
    write_and_publish(hotel, OCCUPANCY.format(first="2025-03-16", last="2025-03-31", sold=5,
                                              rate=90))
    body = roma_report(hotel, "forecast-months", "--from", "2026-03-01", "--to", "2026-03-31")
    assert _rows(body) == [
        ("2026-03", 15, 78, 64, 190, 61.29, 100, 61.29, 19000, 186, 18600, 2.15,
         142, 12780, 48.67)]
    total = tuple(body["total"][c] for c in FIGURES)
    assert total[9:] == (186, 18600, 2.15, 142, 12780, 48.67)
    assert body["report"].endswith("business date 2026-03-16")  # nothing left out


def test_the_default_is_the_business_dates_month_and_the_11_after(hotel: Path) -> None:
    body = roma_report(hotel, "forecast-months")
    assert [row["month"] for row in body["rows"]] == ["2026-03"]
    assert "2026-03 to 2027-02, EUR" in body["report"]
    assert "; not shown: 2026-04 (the forecast ends with 2026-03-31), 2026-05 (" in \
        body["report"]
    assert "2027-02 (the forecast ends with 2026-03-31); last year" in body["report"]


def test_a_closed_month_the_warehouse_lacks_a_night_of_is_not_shown(hotel: Path) -> None:
    write_and_publish(hotel, "DELETE FROM mart.occupancy_daily WHERE stay_date = DATE '2026-02-10'")
    body = roma_report(hotel, "forecast-months", "--from", "2026-02-01", "--to", "2026-03-31")
    assert [row["month"] for row in body["rows"]] == ["2026-03"]
    assert "; not shown: 2026-02 (the warehouse holds 27 of 28 nights)" in body["report"]


def test_a_month_with_nights_on_the_books_alone_is_not_shown(hotel: Path) -> None:
    """The report's rule (docs/flash.md, "The months ahead"): a month the forecast does
    not cover whole is not shown, the title says why. Mar 30-31 hold the books alone (method
    `on_the_books`, 4 rooms, 400.00: no method had the history to forecast them, as on a young
    history far out); summed with the 14 nights forecast March would read 78 + 14 x 7 + 2 x 4
    = 184 rooms, a month that is half forecast and half books."""
    write_and_publish(hotel, "UPDATE mart.forecast_daily SET method = 'on_the_books', "
                             "rooms_forecast = 4, room_revenue_forecast_net = 400 "
                             "WHERE stay_date >= DATE '2026-03-30'")
    body = roma_report(hotel, "forecast-months", "--from", "2026-02-01", "--to", "2026-03-31")
    assert [row["month"] for row in body["rows"]] == ["2026-02"]  # closed: what it sold
    assert "; not shown: 2026-03 (2 nights on the books alone from 2026-03-30: no method has " \
        "the history to forecast them)" in body["report"]


def test_a_month_whose_forecast_rooms_have_no_rate_is_not_shown(hotel: Path) -> None:
    """A month shown carries the revenue of its forecast rooms. Mar 31 forecast at 7 rooms
    over 4 on the books, its revenue NULL: its 3 rooms to come have no rate (migration 0036;
    before it the mart wrote the books' 400.00 alone). Shown, March would read 190 rooms at
    19,000 - 700 = 18,300.00 with Mar 31 left out of the revenue (the demo's far nights of
    `last_year` on a young history read so)."""
    write_and_publish(hotel, "UPDATE mart.forecast_daily SET room_revenue_forecast_net = NULL "
                             "WHERE stay_date = DATE '2026-03-31'")
    body = roma_report(hotel, "forecast-months", "--from", "2026-03-01", "--to", "2026-03-31")
    assert body["rows"] == []
    assert body["report"].endswith(
        "business date 2026-03-16; not shown: 2026-03 (1 night of rooms forecast without a "
        "rate from 2026-03-31)")
