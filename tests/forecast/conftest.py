"""A migrated warehouse with two properties and their market segments (no PMS needed), and
the hand-built hotel of the period reports (`hotel`: ROMA01, 10 rooms, business date
2026-03-16). Its marts, written by hand:

- 2026 nights: Jan 1 - Feb 28, 3 rooms sold a night at 80.00; Mar 1-14, 5 rooms at 100.00;
  Mar 15, 8 rooms at 100.00. F&B posted Mar 1: 100.00, Mar 15: 200.00; other Mar 15: 30.00.
- 2025 nights: Mar 1-14, 4 rooms at 90.00; Mar 15, 6 rooms at 90.00.
- Budget March 2026: 186 rooms, 18,600.00 rooms, 3,100.00 F&B, 310.00 other.
- Forecast as of Mar 16: 7 rooms and 700.00 for each of the nights Mar 16-31, with 4 rooms
  and 400.00 on the books.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from pipelines.warehouse import connect, publish
from tests.report_json import report_json

PROPERTIES = ((1, "ROMA01", "Hotel Aurelia Roma"), (2, "FIRE01", "Hotel Firenze"))
MARKETS = ("leisure", "business", "groups")


def add_properties(path: Path) -> None:
    with connect(path) as conn:
        for pid, code, name in PROPERTIES:
            conn.execute(
                "INSERT INTO core.property (property_id, code, name, currency, timezone, "
                "business_date, last_seen_run, fetched_at) VALUES (?, ?, ?, 'EUR', "
                "'Europe/Rome', DATE '2026-03-16', 'test', now())", [pid, code, name])
            for market in MARKETS:
                conn.execute(
                    "INSERT INTO core.classifications VALUES (?, 'market', ?, false, 'test', "
                    "now())", [pid, market])


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("budget") / "warehouse.duckdb"
    add_properties(path)
    return path


@pytest.fixture
def warehouse(tmp_path: Path, template: Path) -> Path:
    path = tmp_path / "warehouse.duckdb"
    shutil.copyfile(template, path)
    return path


OCCUPANCY = """
INSERT INTO mart.occupancy_daily
SELECT 1, CAST(d AS DATE), 10, 10, 10, 0, 10, {sold}, 0, 0, NULL, NULL, {sold} * {rate}, 0,
       {sold} * {rate}, {sold} * {rate}, NULL, NULL, NULL, {sold} * {rate}, NULL, 0, 0, 0, true,
       0, {sold}, 0, 0
FROM range(DATE '{first}', DATE '{last}' + 1, INTERVAL 1 DAY) t(d)
"""


@pytest.fixture
def hotel(warehouse: Path) -> Path:
    with connect(warehouse) as conn:
        for first, last, sold, rate in (
                ("2026-01-01", "2026-02-28", 3, 80), ("2026-03-01", "2026-03-14", 5, 100),
                ("2026-03-15", "2026-03-15", 8, 100), ("2025-03-01", "2025-03-14", 4, 90),
                ("2025-03-15", "2025-03-15", 6, 90)):
            conn.execute(OCCUPANCY.format(first=first, last=last, sold=sold, rate=rate))
        conn.execute("""INSERT INTO mart.revenue_daily VALUES
            (1, DATE '2026-03-01', 'food_beverage', true, 100, 110, 10),
            (1, DATE '2026-03-15', 'food_beverage', true, 200, 220, 20),
            (1, DATE '2026-03-15', 'other', true, 30, 36.6, 6.6),
            (1, DATE '2026-03-15', 'city_tax', false, 0, 40, 0)""")
        conn.execute("INSERT INTO mart.budget_monthly VALUES (1, DATE '2026-03-01', NULL, 186, "
                     "18600, 3100, 310, 'budget.csv', now())")
        conn.execute("""
            INSERT INTO mart.forecast_daily
            SELECT 1, DATE '2026-03-16', CAST(d AS DATE), 0, 4, 400, 7, 6, 8, 700, 100, 70, 10,
                   10, 'additive_pickup', NULL, NULL
            FROM range(DATE '2026-03-16', DATE '2026-04-01', INTERVAL 1 DAY) t(d)""")
        publish(conn, warehouse)  # the reports read the read copy
    return warehouse


def write_and_publish(warehouse: Path, sql: str) -> None:
    """Run `sql` on the hand-built hotel's warehouse and publish its read copy (the reports
    read the copy)."""
    with connect(warehouse) as conn:
        conn.execute(sql)
        publish(conn, warehouse)


def roma_report(warehouse: Path, name: str, *args: str) -> dict[str, Any]:
    """`pmsw report NAME --property ROMA01 ARGS --format json` of the hand-built hotel."""
    return report_json(warehouse, name, "--property", "ROMA01", *args)


def otb(rows: Iterable[tuple[object, ...]]) -> pl.DataFrame:
    """mart.otb_snapshots' columns the forecast reads, of rows (property_id, snapshot_date,
    stay_date, rooms_otb, revenue_otb_net)."""
    return pl.DataFrame(list(rows), orient="row", schema={
        "property_id": pl.Int64, "snapshot_date": pl.Date, "stay_date": pl.Date,
        "rooms_otb": pl.Int64, "revenue_otb_net": pl.Float64})


def as_of_dates(*dates: date) -> pl.DataFrame:
    """The as-of dates of property 1."""
    return pl.DataFrame({"property_id": [1] * len(dates), "as_of_date": list(dates)})


def hotel_of(rooms: int) -> pl.DataFrame:
    """The capacity frame of property 1 with `rooms` rooms, all of them for sale."""
    return pl.DataFrame({"property_id": [1], "rooms": [rooms], "rooms_available": [rooms]})


def scored(method: str, nights: list[date], forecasts: list[float], actual: int | list[int],
           horizon: int, low: list[float] | None = None,
           high: list[float] | None = None) -> pl.DataFrame:
    """The backtest's rows (`methods.backtest`) of `method`'s forecasts at `horizon` days of
    `nights`, made as of each night - horizon, of nights that ended with `actual` rooms; the
    band `low` / `high` (None: no band)."""
    n = len(nights)
    return pl.DataFrame({
        "property_id": [1] * n, "as_of_date": [d - timedelta(days=horizon) for d in nights],
        "stay_date": nights, "horizon_days": [horizon] * n, "method": [method] * n,
        "rooms_forecast": forecasts, "rooms_low": low or [None] * n,
        "rooms_high": high or [None] * n,
        "rooms_actual": actual if isinstance(actual, list) else [actual] * n,
    }, schema_overrides={"as_of_date": pl.Date, "stay_date": pl.Date, "rooms_low": pl.Float64,
                         "rooms_forecast": pl.Float64, "rooms_high": pl.Float64,
                         "rooms_actual": pl.Int64})


def night_of(frame: pl.DataFrame, night: date) -> dict[str, object]:
    """The one row of `frame` of `night`."""
    rows = frame.filter(pl.col("stay_date") == night).to_dicts()
    assert len(rows) == 1
    return rows[0]
