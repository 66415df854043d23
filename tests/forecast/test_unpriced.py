"""A night whose rooms still to come have no rate is not priced (issue 49; migration 0036):
its room revenue is NULL in mart.forecast_daily, not 0.00, and every report that shows it says
"not priced" (docs/forecast.md, "Band, revenue, ADR and occupancy").

By hand, the forecast: a hotel of 10 rooms whose history holds the nights 15 March 2025 to
28 February 2026, each ended with 4 rooms for 400.00 and nothing booked ahead (no booking
curve: no snapshot before a night's own day). As of 28 February 2026:
- Friday 20 March 2026 (0 on the books): last_year, 364 days back 21 March 2025, 4 rooms (no
  other method has the history). No ADR for its 4 rooms to come: March 2025 is not complete
  (last year's month ADR), no curve night at 20 days out, nothing on the books: NULL.
- Saturday 21 March 2026 (1 room on the books for 150.00): last_year 4 rooms, the 3 to come at
  the ADR on the books, 150 + 3 x 150 = 600.00, ADR 150.00.

The reports, on the hand-built hotel of tests/forecast/conftest.py (business date 16 March
2026, every night ahead 7 rooms forecast for 700.00): 18 March made not priced.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import polars as pl

from pipelines.forecast import forecast_daily

from .conftest import hotel_of, otb, roma_report, write_and_publish

D = date.fromisoformat


def test_a_night_without_a_rate_for_its_rooms_to_come_has_no_revenue() -> None:
    first, last = D("2025-03-15"), D("2026-02-28")
    nights = [first + timedelta(days=n) for n in range((last - first).days + 1)]
    rows = [(night, night, 4, 400.0) for night in nights]
    rows += [(last, D("2026-03-20"), 0, 0.0), (last, D("2026-03-21"), 1, 150.0)]
    out = forecast_daily(otb((1, *r) for r in rows), hotel_of(10), as_of_date=last).filter(
        pl.col("stay_date").is_in([D("2026-03-20"), D("2026-03-21")])).sort("stay_date")
    assert out["method"].to_list() == ["last_year", "last_year"]
    assert out["rooms_forecast"].to_list() == [4.0, 4.0]
    assert out["room_revenue_forecast_net"].to_list() == [None, 600.0]
    assert out["adr_forecast_net"].to_list() == [None, 150.0]


def test_the_reports_say_a_night_is_not_priced(hotel: Path) -> None:
    write_and_publish(hotel, "UPDATE mart.forecast_daily SET room_revenue_forecast_net = NULL, "
                             "adr_forecast_net = NULL WHERE stay_date = DATE '2026-03-18'")
    night = "2026-03-18"
    forecast = roma_report(hotel, "forecast", "--from", "2026-03-16", "--to", "2026-03-19")
    by_night = {r["stay_date"]: r for r in forecast["rows"]}
    assert by_night[night]["room_revenue_forecast_net"] == "not priced"
    assert by_night[night]["adr_forecast_net"] == "not priced"
    assert float(by_night["2026-03-19"]["room_revenue_forecast_net"]) == 700.0
    # no total of the revenue with a night left out; the rooms still add: 4 x 7
    assert forecast["total"]["room_revenue_forecast_net"] == "not priced"
    assert float(forecast["total"]["rooms_forecast"]) == 28
    assert "1 of the nights not priced from 2026-03-18" in forecast["report"]
    ahead = {r["stay_date"]: r for r in roma_report(hotel, "flash-ahead")["rows"]}
    assert ahead[night]["room_revenue_forecast_net"] == "not priced"
    assert ahead[night]["adr_forecast_net"] == "not priced"
    assert float(ahead["2026-03-17"]["room_revenue_forecast_net"]) == 700.0
    months = roma_report(hotel, "forecast-months", "--from", "2026-03-01", "--to", "2026-03-31")
    assert months["rows"] == []
    assert months["report"].endswith(
        "not shown: 2026-03 (1 night of rooms forecast without a rate from 2026-03-18)")
