"""forecast-accuracy beside the simulator's floor (issue 49 item 5; docs/forecast.md, "The
simulator's floor"): the WAPE of each night's level (core.sandbox_levels) against what the
night ended at, on the same nights each row scored; empty, and said why, without levels."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import polars as pl
import pytest

from pipelines.forecast.logic import accuracy
from pipelines.forecast.logic.methods import CHOSEN
from pipelines.reports.reports import Query, forecast_accuracy
from pipelines.reports.warehouse import PropertyRow
from pipelines.warehouse import connect

from .conftest import scored

NIGHTS = [date(2026, 3, 25) + timedelta(days=n) for n in range(4)]
ACTUAL = [10, 20, 30, 40]
LEVEL = [12.0, 18.0, 33.0, 40.0]


def _errors() -> pl.DataFrame:
    """Four nights ending at 10, 20, 30, 40 rooms. `chosen` forecast 11, 22, 27, 44 of them;
    additive_pickup forecast 10, 25, 30 of the first three only (no forecast of the fourth)."""
    chosen = scored(CHOSEN, NIGHTS, [11.0, 22.0, 27.0, 44.0], ACTUAL, 7, [0.0] * 4, [99.0] * 4)
    method = chosen.head(3).with_columns(
        method=pl.lit("additive_pickup"), rooms_forecast=pl.Series([10.0, 25.0, 30.0]),
        rooms_low=pl.lit(None, dtype=pl.Float64), rooms_high=pl.lit(None, dtype=pl.Float64))
    return pl.concat([chosen, method])


def _levels(nights: list[date], rooms: list[float]) -> pl.DataFrame:
    return pl.DataFrame({"property_id": [1] * len(nights), "stay_date": nights,
                         "rooms_level": rooms})


def test_the_floor_is_the_wape_of_the_level_on_the_same_nights() -> None:
    """Levels 12, 18, 33, 40. `chosen` scores the four nights: its WAPE (1 + 2 + 3 + 4) / 100
    = 10.00 %, the floor (2 + 2 + 3 + 0) / 100 = 7.00 %. additive_pickup scores the first
    three: WAPE (0 + 5 + 0) / 60 = 8.33 %, its floor on those three (2 + 2 + 3) / 60 =
    11.67 % (a method can beat the level on a few nights)."""
    table = accuracy(_errors(), levels=_levels(NIGHTS, LEVEL)).sort("method")
    assert table.select("method", "forecasts", "wape_pct", "floor_wape_pct").rows() == [
        ("additive_pickup", 3, pytest.approx(8.33), pytest.approx(11.67)),
        (CHOSEN, 4, pytest.approx(10.0), pytest.approx(7.0)),
    ]


def test_no_floor_without_a_level_for_every_night_scored() -> None:
    """No levels at all (a real PMS): no floor. The fourth night's level missing: `chosen`,
    which scored it, has none; additive_pickup, which did not, keeps its 11.67 %."""
    assert accuracy(_errors())["floor_wape_pct"].null_count() == 2
    table = accuracy(_errors(), levels=_levels(NIGHTS[:3], LEVEL[:3])).sort("method")
    assert table.select("method", "floor_wape_pct").rows() == [
        ("additive_pickup", pytest.approx(11.67)), (CHOSEN, None)]


def _report(tmp_path: Path, floor: float | None) -> tuple[list[tuple[object, ...]], str, int]:
    with connect(tmp_path / f"w{floor}.duckdb") as conn:
        conn.execute(
            "INSERT INTO mart.forecast_accuracy (property_id, horizon_days, method, "
            "first_night, last_night, forecasts, rooms_final, mae_rooms, wape_pct, "
            "bias_rooms, floor_wape_pct) VALUES (1, 7, 'chosen', DATE '2026-03-25', "
            "DATE '2026-03-28', 4, 100, 2.5, 10.0, 0.0, ?)", [floor])
        prop = PropertyRow(1, "ROMA01", "Hotel Aurelia Roma", "EUR", date(2026, 3, 29))
        table = forecast_accuracy(conn, Query(prop, NIGHTS[0], NIGHTS[-1]))
    return table.rows, table.title, list(table.columns).index("floor_wape_pct")


def test_the_report_shows_the_floor_beside_the_wape_or_says_why_not(tmp_path: Path) -> None:
    rows, title, at = _report(tmp_path, 7.0)
    assert at == 7  # right after wape_pct
    assert (rows[0][at - 1], rows[0][at]) == (10.0, 7.0)
    assert "floor_wape_pct: the simulator's floor" in title
    rows, title, at = _report(tmp_path, None)
    assert rows[0][at] is None
    assert "no floor_wape_pct: the warehouse holds no simulator level" in title
    assert "a real PMS has none" in title
