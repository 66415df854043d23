"""forecast-accuracy's columns on the forecast in use (issue 46, item 6), on a hand-built
mart.forecast_daily in a real, migrated warehouse: which method each night ahead takes, per
horizon, counted by hand; and the note that says why a figure is empty or weak."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from pipelines.reports.reports import Query, _accuracy_note, _in_use_now, forecast_accuracy
from pipelines.reports.warehouse import PropertyRow
from pipelines.warehouse.connection import connect

FORECAST = ("INSERT INTO mart.forecast_daily (property_id, as_of_date, stay_date, days_before, "
            "rooms_otb, revenue_otb_net, rooms_forecast, rooms_low, rooms_high, "
            "room_revenue_forecast_net, method) VALUES ({}, ?, ?, ?, 0, 0, 0, 0, 0, 0, ?)")


def test_in_use_now_counts_the_latest_forecast_by_horizon(tmp_path: Path) -> None:
    with connect(tmp_path / "w.duckdb") as conn:
        rows = []
        latest, older = date(2026, 11, 28), date(2026, 11, 27)
        # latest as-of: nights 0..1 additive_pickup (horizon 1), 2..7 last_year_season
        # (horizon 7), 100 and 200 last_year_season (beyond 90: counted in 90)
        for days, method in [(0, "additive_pickup"), (1, "additive_pickup"),
                             *[(d, "last_year_season") for d in range(2, 8)],
                             (100, "last_year_season"), (200, "last_year_season")]:
            rows.append((1, latest, latest + timedelta(days), days, method))
        # an older as-of and another property: never counted
        rows.append((1, older, older + timedelta(5), 5, "multiplicative_pickup"))
        rows.append((2, latest, latest + timedelta(1), 1, "last_year"))
        conn.executemany(FORECAST.format("?"), rows)
        assert _in_use_now(conn, 1) == {1: "additive_pickup 2", 7: "last_year_season 6",
                                        90: "last_year_season 2"}
        assert _in_use_now(conn, 2) == {1: "last_year 1"}


def test_the_note_says_why_a_figure_is_empty_or_weak() -> None:
    assert _accuracy_note("chosen", 91, 12.5, None) == ""
    note = _accuracy_note("additive_pickup", 1, None, None)
    assert "scored on 1 night, fewer than 28" in note
    assert "no band" in note
    assert "fewer than 4 weeks" in note
    assert _accuracy_note("last_year", 40, None, None) == \
        "no band: only the forecast in use has one"
    assert "in_use_now" in _accuracy_note("chosen", 40, 3, "last_year_season 5")


def test_a_method_in_use_never_scored_gets_its_row(tmp_path: Path) -> None:
    """forecast-accuracy on a hand-built warehouse: at 30 days `chosen` and additive_pickup
    were scored on 91 nights, last_year on 10 of them; the 16 nights ahead in the 30-day bucket
    (days 15..30 before) take last_year_season (days 15..28: 14 nights) and the books alone
    (29, 30: 2), neither scored. Each gets a row of 0 nights that says so, after the scored
    rows of its horizon; the empty figure against last year says last_year forecast 10 of the
    nights."""
    with connect(tmp_path / "w.duckdb") as conn:
        latest = date(2026, 11, 28)
        first, last = date(2026, 8, 29), date(2026, 11, 27)
        conn.executemany(
            "INSERT INTO mart.forecast_accuracy (property_id, horizon_days, method, "
            "first_night, last_night, forecasts, rooms_final, mae_rooms, wape_pct, "
            "bias_rooms) VALUES (1, 30, ?, ?, ?, ?, 4550, 3.00, 6.00, 0.50)",
            [("chosen", first, last, 91), ("additive_pickup", first, last, 91),
             ("last_year", date(2026, 11, 18), last, 10)])
        conn.executemany(FORECAST.format(1), [
            (latest, latest + timedelta(days), days,
             "last_year_season" if days <= 28 else "on_the_books") for days in range(15, 31)])
        prop = PropertyRow(1, "ROMA01", "Rome", "EUR", latest)
        table = forecast_accuracy(conn, Query(prop, latest, latest))
        rows = [dict(zip(table.columns, row, strict=True)) for row in table.rows]
    at_30 = [(r["method"], r["nights_scored"]) for r in rows if r["horizon_days"] == 30]
    assert at_30[:3] == [("chosen", 91), ("additive_pickup", 91), ("last_year", 10)]
    assert at_30[3:] == [("last_year_season", 0), ("on_the_books", 0)]
    unscored = {r["method"]: r for r in rows if r["nights_scored"] == 0}
    assert unscored["last_year_season"]["in_use_now"] == "last_year_season 14"
    assert "in use now for 14 nights ahead, never scored" in unscored["last_year_season"]["note"]
    assert "it needs history the warehouse does not hold for them: the nights a year back" \
        in unscored["last_year_season"]["note"]
    assert unscored["last_year_season"]["wape_pct"] is None
    assert "no band" in unscored["last_year_season"]["note"]
    assert "no figure against last year" in unscored["last_year_season"]["note"]
    assert "in use now for 2 nights ahead: the books alone" in unscored["on_the_books"]["note"]
    chosen = next(r for r in rows if r["method"] == "chosen")
    assert "last_year forecast 10 of the nights scored" in chosen["note"]
    assert chosen["in_use_now"] == "last_year_season 14, on_the_books 2"
