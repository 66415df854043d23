"""mart.forecast_history: which nights of each forecast build are kept (issue 48, item 3;
pipelines/forecast/logic/history.py), written by the marts' own writer (`keep_forecast`,
which mart.forecast_daily's build calls in its transaction) to a migrated warehouse file.

Each build forecasts its as-of date S and the 365 nights after it. By hand:
- Mar 10, the first as-of kept: Mar 10 to Apr 30 (the end of the month after), 22 + 30 = 52;
- Mar 11: only Mar 12, the night after;
- Mar 31, a month's last day: Mar 31 to Apr 30, 1 + 30 = 31;
- Mar 11 built again (10 rooms): its one row replaced, the others kept: 52 + 1 + 31 = 84."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import polars as pl

from pipelines.marts import keep_forecast
from pipelines.warehouse import connect


def _forecast(as_of: date, rooms: float) -> pl.DataFrame:
    nights = [as_of + timedelta(days=i) for i in range(366)]
    return pl.DataFrame({"property_id": [1] * 366, "as_of_date": [as_of] * 366,
                         "stay_date": nights, "days_before": list(range(366)),
                         "rooms_forecast": [rooms] * 366,
                         "room_revenue_forecast_net": [rooms * 100] * 366,
                         "method": ["additive_pickup"] * 366})


def test_each_build_keeps_the_nights_a_flash_compares_with(warehouse: Path) -> None:
    with connect(warehouse) as conn:
        assert keep_forecast(conn, 1, _forecast(date(2026, 3, 10), 6.5)) == 52
        assert keep_forecast(conn, 1, _forecast(date(2026, 3, 11), 7)) == 1
        assert keep_forecast(conn, 1, _forecast(date(2026, 3, 31), 8)) == 31
        kept = conn.execute(
            "SELECT as_of_date, count(*), min(stay_date), max(stay_date), "
            "min(rooms_forecast), max(room_revenue_forecast_net) FROM mart.forecast_history "
            "GROUP BY 1 ORDER BY 1").fetchall()
        assert [(a, n, f, t, float(r), float(v)) for a, n, f, t, r, v in kept] == [
            (date(2026, 3, 10), 52, date(2026, 3, 10), date(2026, 4, 30), 6.5, 650),
            (date(2026, 3, 11), 1, date(2026, 3, 12), date(2026, 3, 12), 7, 700),
            (date(2026, 3, 31), 31, date(2026, 3, 31), date(2026, 4, 30), 8, 800)]
        assert keep_forecast(conn, 1, _forecast(date(2026, 3, 11), 10)) == 1
        rows = conn.execute("SELECT as_of_date, rooms_forecast FROM mart.forecast_history "
                            "WHERE as_of_date = DATE '2026-03-11'").fetchall()
        assert [(a, float(r)) for a, r in rows] == [(date(2026, 3, 11), 10)]
        total = conn.execute("SELECT count(*) FROM mart.forecast_history").fetchone()
        assert total == (84,)


def test_an_as_of_date_kept_again_writes_only_the_nights_that_changed(warehouse: Path) -> None:
    """Mar 10 kept (52 nights, Mar 10 - Apr 30), then kept again from the same forecast (a
    sync with nothing new builds the marts again): no row is written, each keeps its rowid and
    its kept_at. Kept a third time with Apr 1 at 9 rooms (900.00): that night alone is
    rewritten, the 51 others stay as they were; the as-of date still holds 52 nights."""
    def stored() -> dict[date, tuple[int, object, float]]:
        rows = conn.execute("SELECT stay_date, rowid, kept_at, rooms_forecast "
                            "FROM mart.forecast_history WHERE as_of_date = DATE '2026-03-10'"
                            ).fetchall()
        return {d: (r, k, float(f)) for d, r, k, f in rows}

    with connect(warehouse) as conn:
        assert keep_forecast(conn, 1, _forecast(date(2026, 3, 10), 6.5)) == 52
        first = stored()
        assert keep_forecast(conn, 1, _forecast(date(2026, 3, 10), 6.5)) == 52
        assert stored() == first
        changed = _forecast(date(2026, 3, 10), 6.5).with_columns(
            rooms_forecast=pl.when(pl.col("stay_date") == date(2026, 4, 1)).then(9.0)
            .otherwise(pl.col("rooms_forecast")),
            room_revenue_forecast_net=pl.when(pl.col("stay_date") == date(2026, 4, 1))
            .then(900.0).otherwise(pl.col("room_revenue_forecast_net")))
        assert keep_forecast(conn, 1, changed) == 52
        third = stored()
        assert len(third) == 52
        assert {d for d in third if third[d] != first[d]} == {date(2026, 4, 1)}
        assert third[date(2026, 4, 1)][2] == 9
        assert third[date(2026, 4, 1)][0] != first[date(2026, 4, 1)][0]


def test_each_kept_night_keeps_the_departments_forecast(hotel: Path) -> None:
    """The hand-built hotel (tests/forecast/conftest.py). As of Mar 16 (the first as-of kept:
    Mar 16 to Apr 30, 16 + 30 = 46 nights), the 91 closed days before it (Dec 15 - Mar 15)
    sold 59 x 3 + 14 x 5 + 8 = 255 rooms and posted 300.00 F&B and 30.00 other: a night of
    6.5 rooms keeps 6.5 x 300 / 255 = 7.6471 -> 7.65 F&B and 6.5 x 30 / 255 = 0.7647 -> 0.76
    other, half-up to the cent. As of Dec 31, 2025, the days before (Oct 1 - Dec 30) sold no
    room: its nights keep none (NULL), their rooms kept all the same. As of Feb 28 (a month's
    last day: Feb 28 - Mar 31, 32 nights), the days before (Nov 29 - Feb 27) sold 58 x 3 =
    174 rooms but the warehouse holds no revenue posted in them (their folios not read): none
    either, not a spend of 0.00."""
    with connect(hotel) as conn:
        assert keep_forecast(conn, 1, _forecast(date(2026, 3, 16), 6.5)) == 46
        kept = conn.execute(
            "SELECT DISTINCT food_beverage_revenue_forecast_net, other_revenue_forecast_net "
            "FROM mart.forecast_history WHERE as_of_date = DATE '2026-03-16'").fetchall()
        assert [(float(f), float(o)) for f, o in kept] == [(7.65, 0.76)]
        assert keep_forecast(conn, 1, _forecast(date(2025, 12, 31), 3)) == 32
        kept = conn.execute(
            "SELECT count(*), count(food_beverage_revenue_forecast_net), "
            "count(other_revenue_forecast_net), min(rooms_forecast) FROM mart.forecast_history "
            "WHERE as_of_date = DATE '2025-12-31'").fetchall()
        assert [(n, f, o, float(r)) for n, f, o, r in kept] == [(32, 0, 0, 3)]
        assert keep_forecast(conn, 1, _forecast(date(2026, 2, 28), 3)) == 32
        kept = conn.execute(
            "SELECT count(*), count(food_beverage_revenue_forecast_net), "
            "count(other_revenue_forecast_net) FROM mart.forecast_history "
            "WHERE as_of_date = DATE '2026-02-28'").fetchall()
        assert kept == [(32, 0, 0)]


def test_the_departments_rate_is_per_room_on_the_rooms_forecasts_basis(hotel: Path) -> None:
    """rooms_forecast counts the rooms on the books at the night's end: sold + complimentary +
    no-shows (docs/kpi.md). With 2 complimentary rooms and 3 no-shows on Mar 14, the 91 days
    before Mar 16 held 255 + 2 + 3 = 260 such rooms for the same 300.00 F&B and 30.00 other:
    a night of 6.5 rooms keeps 6.5 x 300 / 260 = 7.50 F&B and 6.5 x 30 / 260 = 0.75 other
    (per room sold it would have kept 7.65 and 0.76: a rate over 255 rooms times a forecast
    that holds the complimentary rooms and no-shows in)."""
    with connect(hotel) as conn:
        conn.execute("UPDATE mart.occupancy_daily SET rooms_complimentary = 2, no_shows = 3 "
                     "WHERE property_id = 1 AND stay_date = DATE '2026-03-14'")
        assert keep_forecast(conn, 1, _forecast(date(2026, 3, 16), 6.5)) == 46
        kept = conn.execute(
            "SELECT DISTINCT food_beverage_revenue_forecast_net, other_revenue_forecast_net "
            "FROM mart.forecast_history WHERE as_of_date = DATE '2026-03-16'").fetchall()
        assert [(float(f), float(o)) for f, o in kept] == [(7.5, 0.75)]
