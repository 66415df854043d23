"""The flash's day, MTD and YTD against the forecast made before them (issue 48, item 3), on
the hand-built hotel (tests/forecast/conftest.py: flash of Mar 15, business date Mar 16;
Mar 1-14 5 rooms sold at 100.00, Mar 15 8 rooms, 10 rooms available a night), with a
forecast history written by hand:

- as of Feb 28 (March's eve): every night of March 6 rooms, 600.00;
- as of Mar 14 (the day before): Mar 15 7 rooms, 735.00;
- Mar 15 ended with 1 complimentary room (the forecast counts it in, rooms sold do not).

Day: forecast 7 - 1 = 6 rooms sold, 735.00, occupancy 6 / 10 = 60.00 %, ADR 735 / 6 =
122.50, RevPAR 73.50. Actual 8 rooms, 800.00, 80.00 %, ADR 100.00, RevPAR 80.00: rooms
+33.33 %, occupancy +20.00 pp, ADR -22.50 / 122.50 = -18.37 %, revenue and RevPAR 65 / 735
= +8.84 %.

MTD (Mar 1-15 as of Feb 28): 15 x 6 - 1 = 89 rooms, 9,000.00; occupancy 89 / 150 = 59.33 %,
ADR 9,000 / 89 = 101.12, RevPAR 60.00. Actual 78 rooms, 7,800.00, 52.00 %, ADR 100.00,
RevPAR 52.00: rooms -11 / 89 = -12.36 %, occupancy -7.33 pp, revenue and RevPAR -13.33 %,
ADR -1.12 / 101.12 = -1.11 %.

YTD: January and February have no forecast kept (59 nights): none, the title says so.
No F&B nor other forecast is kept: their rows and the total have none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.report_json import report_json

from .conftest import write_and_publish

HISTORY = """
INSERT INTO mart.forecast_history
SELECT 1, DATE '{as_of}', CAST(d AS DATE), {rooms}, {revenue}, 'additive_pickup', now()
FROM range(DATE '{first}', DATE '{last}' + 1, INTERVAL 1 DAY) t(d);
"""


def _report(warehouse: Path) -> dict[str, Any]:
    return report_json(warehouse, "flash", "--property", "ROMA01", "--date", "2026-03-15")


def _history(warehouse: Path, *kept: tuple[str, str, str, int, int]) -> None:
    write_and_publish(warehouse, "UPDATE mart.occupancy_daily SET rooms_complimentary = 1 "
                                 "WHERE stay_date = DATE '2026-03-15';" + "".join(
                                     HISTORY.format(as_of=a, first=f, last=t, rooms=r,
                                                    revenue=v) for a, f, t, r, v in kept))


def test_day_and_month_to_date_against_the_forecast_made_before(hotel: Path) -> None:
    _history(hotel, ("2026-02-28", "2026-03-01", "2026-03-31", 6, 600),
             ("2026-03-14", "2026-03-15", "2026-03-15", 7, 735))
    body = _report(hotel)
    got = {row["metric"]: row for row in body["rows"]}
    figures = ("rooms_sold", "occupancy_pct", "adr_net", "revpar_net", "room_revenue_net")
    assert {m: got[m]["day_forecast"] for m in figures} == {
        "rooms_sold": 6, "occupancy_pct": 60, "adr_net": 122.5, "revpar_net": 73.5,
        "room_revenue_net": 735}
    assert {m: got[m]["day_vs_forecast"] for m in figures} == {
        "rooms_sold": 33.33, "occupancy_pct": 20, "adr_net": -18.37, "revpar_net": 8.84,
        "room_revenue_net": 8.84}
    assert {m: got[m]["mtd_forecast"] for m in figures} == {
        "rooms_sold": 89, "occupancy_pct": 59.33, "adr_net": 101.12, "revpar_net": 60,
        "room_revenue_net": 9000}
    assert {m: got[m]["mtd_vs_forecast"] for m in figures} == {
        "rooms_sold": -12.36, "occupancy_pct": -7.33, "adr_net": -1.11, "revpar_net": -13.33,
        "room_revenue_net": -13.33}
    assert got["occupancy_pct"]["change_unit"] == "pp"
    # the supply is the actual one, as the budget's
    assert (got["rooms_available"]["day_forecast"], got["rooms_available"]["mtd_forecast"]) \
        == (10, 150)
    for m in ("food_beverage_revenue_net", "other_revenue_net", "total_revenue_net"):
        assert [got[m][c] for c in ("day_forecast", "mtd_forecast", "mtd_vs_forecast")] \
            == [None, None, None]
    assert all(got[m]["ytd_forecast"] is None and got[m]["ytd_vs_forecast"] is None
               for m in got)
    assert "; ytd_forecast: none, no forecast kept of 59 of its nights (first 2026-01-01)" \
        in body["report"]
    assert "day_forecast" not in body["report"]
    assert "mtd_forecast" not in body["report"]
    # the room statistics have no forecast
    assert got["arrivals"]["day_forecast"] is None


def test_a_month_without_its_eve_falls_back_and_says_so(hotel: Path) -> None:
    """No forecast kept as of Feb 28: March's nights fall back to the latest kept before it,
    Feb 20's (5 rooms, 500.00 a night): 15 x 5 - 1 = 74 rooms, 7,500.00; 78 rooms is
    4 / 74 = +5.41 %, 7,800.00 is +4.00 %. The day keeps its own (as of Mar 14). With
    January and February's nights kept too (as of Dec 31 and Jan 31, 3 rooms, 240.00 a
    night: 59 x 3 = 177 rooms, 14,160.00), the year to date is each month's forecast:
    177 + 74 = 251 rooms, 21,660.00 against 255 rooms (+1.59 %), 21,960.00 (+1.39 %)."""
    _history(hotel, ("2026-02-20", "2026-03-01", "2026-03-31", 5, 500),
             ("2026-03-14", "2026-03-15", "2026-03-15", 7, 735))
    body = _report(hotel)
    got = {row["metric"]: row for row in body["rows"]}
    assert (got["rooms_sold"]["mtd_forecast"], got["room_revenue_net"]["mtd_forecast"]) == \
        (74, 7500)
    assert (got["rooms_sold"]["mtd_vs_forecast"], got["room_revenue_net"]["mtd_vs_forecast"]) \
        == (5.41, 4)
    assert got["rooms_sold"]["day_forecast"] == 6
    assert "; mtd_forecast as of 2026-02-20 where none was kept as of 2026-02-28" \
        in body["report"]
    write_and_publish(hotel, HISTORY.format(as_of="2025-12-31", first="2026-01-01",
                                            last="2026-01-31", rooms=3, revenue=240)
                      + HISTORY.format(as_of="2026-01-31", first="2026-02-01",
                                       last="2026-02-28", rooms=3, revenue=240))
    body = _report(hotel)
    got = {row["metric"]: row for row in body["rows"]}
    assert (got["rooms_sold"]["ytd_forecast"], got["room_revenue_net"]["ytd_forecast"]) == \
        (251, 21660)
    assert (got["rooms_sold"]["ytd_vs_forecast"], got["room_revenue_net"]["ytd_vs_forecast"]) \
        == (1.59, 1.39)
    # March's fallback is the YTD's too, said once for each period
    assert "; ytd_forecast as of 2026-02-20 where none was kept as of 2026-02-28" \
        in body["report"]


def test_a_kept_night_without_a_price_leaves_the_period_without_a_forecast(hotel: Path) -> None:
    """A forecast that could not price a night keeps its revenue as NULL (migration 0036):
    March's eve forecast without a price for Mar 10 leaves the month to date with no forecast
    and the title saying why; the day (as of Mar 14, priced) keeps its own: 6 rooms,
    735.00."""
    _history(hotel, ("2026-02-28", "2026-03-01", "2026-03-31", 6, 600),
             ("2026-03-14", "2026-03-15", "2026-03-15", 7, 735))
    write_and_publish(hotel, "UPDATE mart.forecast_history SET room_revenue_forecast_net = NULL "
                             "WHERE as_of_date = DATE '2026-02-28' "
                             "AND stay_date = DATE '2026-03-10';")
    body = _report(hotel)
    got = {row["metric"]: row for row in body["rows"]}
    assert (got["rooms_sold"]["day_forecast"], got["room_revenue_net"]["day_forecast"]) == \
        (6, 735)
    assert got["rooms_sold"]["mtd_forecast"] is None
    assert got["room_revenue_net"]["mtd_forecast"] is None
    assert ("; mtd_forecast: none, the forecast kept of 1 of its nights has no price "
            "(first 2026-03-10: not priced)") in body["report"]
