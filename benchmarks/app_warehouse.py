"""A warehouse the app can serve, of `hotels` x `years` of bench_marts' synthetic history, built
the fastest way the benchmarks know: the reservation rooms' versions of
benchmarks/bench_marts.py (no simulator, no sync), the marts the morning page reads computed
by the same transforms the marts' build runs (pipelines.marts.logic, pipelines.forecast.logic),
landed by the writer (`pipelines.warehouse.writer`, which publishes the read copy when it ends).

The page's reports read core.property and mart.otb_snapshots, pickup, pace, occupancy_daily,
forecast_daily, alerts, revenue_daily and budget_monthly. The synthetic history has no folio:
mart.revenue_daily is empty and the closed nights have rooms sold but no revenue (actuals come
from folios); the nights ahead have their books' revenue. The budget is the same month last
year's rooms sold + 5 % at 150 a room, for the business date's month and the 11 after it."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import polars as pl

from benchmarks import bench_marts as bm
from pipelines.forecast.logic import alerts, forecast_daily, scored_forecasts
from pipelines.marts.logic.otb import otb_snapshots
from pipelines.marts.logic.pace import pace
from pipelines.marts.logic.pickup import pickup
from pipelines.warehouse import connect, insert_frame, writer

BUDGET_UPLIFT = 105
"""The budget: last year's same month's rooms sold + 5 %, at BUDGET_ADR."""
BUDGET_ADR = 150


def business_date(years: int) -> date:
    """The day after the synthetic history's last snapshot."""
    return bm.START + timedelta(days=365 * years)


def code(property_id: int) -> str:
    return f"SYN{property_id:02d}"


def _properties(hotels: int, today: date) -> pl.DataFrame:
    now = datetime.now(UTC)
    return pl.DataFrame({
        "property_id": list(range(1, hotels + 1)),
        "code": [code(p) for p in range(1, hotels + 1)],
        "name": [f"Synthetic hotel {p}" for p in range(1, hotels + 1)],
        "currency": ["EUR"] * hotels, "timezone": [bm.TZ] * hotels,
        "business_date": [today] * hotels, "last_seen_run": ["bench-app"] * hotels,
        "fetched_at": [now] * hotels})


def _budget(occupancy: pl.DataFrame, today: date) -> pl.DataFrame:
    """Each property's next 12 months: last year's same month's rooms sold + 5 %."""
    first = today.replace(day=1)
    months = [date(first.year + (first.month - 1 + i) // 12, (first.month - 1 + i) % 12 + 1, 1)
              for i in range(12)]
    last_year = occupancy.with_columns(month=pl.col("stay_date").dt.truncate("1mo")).group_by(
        "property_id", "month").agg(pl.col("rooms_sold").sum())
    wanted = pl.DataFrame({"month": months}).with_columns(
        last_year=pl.col("month").dt.offset_by("-1y"))
    rooms = (pl.col("rooms_sold") * BUDGET_UPLIFT // 100).cast(pl.Int64)
    return wanted.join(last_year, left_on="last_year", right_on="month").select(
        "property_id", "month", budget_rooms_sold=rooms,
        budget_room_revenue_net=(rooms * BUDGET_ADR).cast(pl.Decimal(18, 2)),
        source_file=pl.lit("benchmarks/app_warehouse.py"),
        imported_at=pl.lit(datetime.now(UTC)))


def build(path: Path, hotels: int, years: int) -> dict[str, int]:
    """The warehouse at `path` (a new file) and its read copy: rows written per table."""
    started = time.perf_counter()
    today = business_date(years)
    versions = bm.synthetic_versions(hotels, years)
    ids = list(range(1, hotels + 1))
    given = bm.inputs(hotels, 365 * years, today)
    otb = otb_snapshots(versions, given.ranges, bm.TZ)
    occupied = bm.occupancy(bm.current_rooms(versions), given)
    paced = pace(otb, occupied)
    scored = scored_forecasts(otb, given.capacity)
    tables = {
        "core.property": _properties(hotels, today),
        "mart.otb_snapshots": otb,
        "mart.pickup": pickup(versions, given.ranges, bm.WINDOWS, bm.TZ),
        "mart.occupancy_daily": occupied,
        "mart.pace": paced,
        "mart.forecast_daily": forecast_daily(otb, given.capacity, scored=scored),
        "mart.alerts": alerts(otb, paced, given.capacity, as_of=today - timedelta(days=1)),
        "mart.budget_monthly": _budget(occupied, today),
    }
    connect(path).close()  # a new warehouse, migrated
    with writer(path) as conn:  # a property at a time, as the marts' build writes them: a
        # commit of every hotel's rows at once outgrows the writer's capped memory
        written = {name: sum(insert_frame(conn, name, frame.filter(pl.col("property_id") == p))
                             for p in ids) for name, frame in tables.items()}
    print(f"synthetic warehouse: {hotels} hotel(s) x {years} year(s), business date {today}, "
          f"{versions.height:,} versions of reservation rooms, "
          f"{path.stat().st_size / 2**20:,.0f} MiB, "
          f"built in {time.perf_counter() - started:.1f} s", flush=True)
    return written
