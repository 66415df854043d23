"""forecast-accuracy's columns on the forecast in use (issue 46, item 6), on a hand-built
mart.forecast_daily in a real, migrated warehouse: which method each night ahead takes, per
horizon, counted by hand; and the note that says why a figure is empty or weak."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from pipelines.reports.reports import _accuracy_note, _in_use_now
from pipelines.warehouse.connection import connect


def test_in_use_now_counts_the_latest_forecast_by_horizon(tmp_path: Path) -> None:
    conn = connect(tmp_path / "w.duckdb")
    try:
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
        conn.executemany(
            "INSERT INTO mart.forecast_daily (property_id, as_of_date, stay_date, days_before, "
            "rooms_otb, revenue_otb_net, rooms_forecast, rooms_low, rooms_high, "
            "room_revenue_forecast_net, method) VALUES (?, ?, ?, ?, 0, 0, 0, 0, 0, 0, ?)", rows)
        assert _in_use_now(conn, 1) == {1: "additive_pickup 2", 7: "last_year_season 6",
                                        90: "last_year_season 2"}
        assert _in_use_now(conn, 2) == {1: "last_year 1"}
    finally:
        conn.close()


def test_the_note_says_why_a_figure_is_empty_or_weak() -> None:
    assert _accuracy_note("chosen", 91, 12.5, None) == ""
    note = _accuracy_note("additive_pickup", 1, None, None)
    assert "scored on 1 nights, fewer than 28" in note
    assert "no band" in note
    assert "fewer than 4 weeks" in note
    assert _accuracy_note("last_year", 40, None, None) == \
        "no band: only the forecast in use has one"
    assert "in_use_now" in _accuracy_note("chosen", 40, 3, "last_year_season 5")
