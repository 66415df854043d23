"""The departments' forecast scored (docs/forecast.md, "The departments' forecast, scored"):
`department_errors` then `accuracy` on a backtest worked by hand.

Two nights scored one day ahead by the chosen method:
- Mar 11 as of Mar 10: 12 rooms, room revenue 1,200.00. The 91 days before Mar 10: 910 rooms
  on the books at the night's end, 91,000.00 room revenue, 1,820.00 F&B and 455.00 other
  posted: F&B 2.00 and other 0.50 a room, a day 1,000.00 / 20.00 / 5.00. Forecast F&B
  12 x 2 = 24.00, other 6.00, total 1,230.00; baseline 20.00, 5.00, 1,025.00.
  Actual: rooms 1,100.00, F&B 30.00, other 4.00, total 1,134.00.
- Mar 12 as of Mar 11: 8 rooms, 850.00. The 91 days before: 910 rooms, 91,000.00, 2,275.00
  F&B, 455.00 other: 2.50 and 0.50 a room, 25.00 and 5.00 a day. Forecast 20.00, 4.00,
  874.00; baseline 25.00, 5.00, 1,030.00. Actual 900.00, 18.00, 6.00, total 924.00.
- Mar 13 as of Mar 12: its 91 days posted no revenue the warehouse read: no rate, not scored
  (nor its baseline), its room revenue neither.
Room revenue: (|1,200 - 1,100| + |850 - 900|) / 2,000 = 7.50 %, bias (100 - 50) / 2,000 =
+2.50 %; baseline 1,000.00 a day: (100 + 100) / 2,000 = 10.00 %. F&B: (|24 - 30| + |20 -
18|) / (30 + 18) = 8 / 48 = 16.67 %; baseline (10 + 7) / 48 = 35.42 %. Other: (2 + 2) / 10 =
40.00 %; baseline (1 + 1) / 10 = 20.00 %. Total: (96 + 50) / 2,058 = 7.09 %; baseline (109 +
106) / 2,058 = 10.45 %. The other method's rows: none."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import polars as pl

from pipelines.forecast.logic import REVENUE_COLUMNS, accuracy, department_errors
from pipelines.marts.departments import nights_revenue, recent_days
from pipelines.warehouse import connect


def _errors() -> pl.DataFrame:
    nights = [date(2026, 3, d) for d in (11, 12, 13)]
    rows = [(1, date(2026, 3, d - 1), night, 1, method, rooms, None, None,
             revenue if method == "chosen" else None, 10)
            for method in ("chosen", "additive_pickup")
            for d, night, rooms, revenue in zip((11, 12, 13), nights, (12.0, 8.0, 9.0),
                                                (1200.0, 850.0, 900.0), strict=True)]
    return pl.DataFrame(rows, orient="row", schema={
        "property_id": pl.Int64, "as_of_date": pl.Date, "stay_date": pl.Date,
        "horizon_days": pl.Int64, "method": pl.String, "rooms_forecast": pl.Float64,
        "rooms_low": pl.Float64, "rooms_high": pl.Float64,
        "room_revenue_forecast": pl.Float64, "rooms_actual": pl.Int64})


def test_the_departments_forecast_is_scored_beside_its_baseline() -> None:
    recent = pl.DataFrame({
        "property_id": [1, 1, 1],
        "as_of_date": [date(2026, 3, 10), date(2026, 3, 11), date(2026, 3, 12)],
        "nights": [91, 91, 91], "rooms_final": [910, 910, 910], "posted": [5, 5, 0],
        "room_revenue_net": [91000.0, 91000.0, 91000.0],
        "food_beverage_revenue_net": [1820.0, 2275.0, 0.0],
        "other_revenue_net": [455.0, 455.0, 0.0]})
    nights = pl.DataFrame({
        "property_id": [1, 1, 1],
        "stay_date": [date(2026, 3, 11), date(2026, 3, 12), date(2026, 3, 13)],
        "room_revenue_net": [1100.0, 900.0, 950.0],
        "food_beverage_revenue_net": [30.0, 18.0, 40.0],
        "other_revenue_net": [4.0, 6.0, 9.0]})
    scored = accuracy(department_errors(_errors(), recent, nights))
    by_method = {r["method"]: [r[c] for c in REVENUE_COLUMNS]
                 for r in scored.iter_rows(named=True)}
    assert by_method == {"chosen": [7.5, 10.0, 16.67, 35.42, 40.0, 20.0, 7.09, 10.45, 2.5],
                         "additive_pickup": [None] * 9}


def test_without_the_departments_the_columns_are_there_and_empty() -> None:
    scored = accuracy(_errors())
    assert scored.select(REVENUE_COLUMNS).null_count().row(0) == (2,) * 9


def test_the_days_and_nights_the_build_reads_from_the_warehouse(hotel: Path) -> None:
    """The hand-built hotel (tests/forecast/conftest.py). The 91 days before Mar 16 (Dec 15 -
    Mar 15) hold 59 + 14 + 1 = 74 nights: 59 x 3 + 14 x 5 + 8 = 255 rooms (no complimentary
    room, no no-show), 59 x 240 + 14 x 500 + 800 = 21,960.00 room revenue, 3 revenue rows
    posted (the city tax is no revenue), F&B 300.00, other 30.00. Night by night: Mar 1 500.00
    rooms and 100.00 F&B; Mar 15 800.00, 200.00 F&B and 30.00 other; Mar 16 not held."""
    with connect(hotel) as conn:
        recent = recent_days(conn, 1, [date(2026, 3, 16)])
        nights = nights_revenue(conn, 1, [date(2026, 3, 1), date(2026, 3, 15),
                                          date(2026, 3, 16)])
    assert recent.rows() == [(date(2026, 3, 16), 74, 255, 3, Decimal("21960.00"),
                              Decimal("300.00"), Decimal("30.00"))]
    assert nights.rows() == [
        (date(2026, 3, 1), Decimal("500.00"), Decimal("100.00"), Decimal("0.00")),
        (date(2026, 3, 15), Decimal("800.00"), Decimal("200.00"), Decimal("30.00"))]
