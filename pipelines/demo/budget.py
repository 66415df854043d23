"""The demo's budget (docs/flash.md, "The demo's budget"): the budget a hotel would set
for the year of the business date, written to a budget file and imported through the same
path as `pmsw budget import` (pipelines.forecast's import_budget, under the one writer), so
that the flash's budget columns are filled on `make demo`.

Each month of the year starts from last year's same month when the warehouse holds it
whole; else (the demo's history is a year long at most, a test's 40 days) from the hotel's
run rate, the closed nights held. Then the growth a hotel sets: occupancy +2 points, ADR
+4 %; F&B and other revenue per room sold as in the base. By hand, a base of 31 nights x
10 rooms with 186 rooms sold for 18,600.00 (60.00 %, ADR 100.00): 62.00 % x 310 = 192
rooms (half-up), ADR 104.00, room revenue 19,968.00."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import duckdb

from pipelines.forecast import import_budget
from pipelines.marts import revenue_beyond_rooms
from pipelines.warehouse import writer

OCCUPANCY_POINTS = Decimal(2)
"""Occupancy the budget adds to the base, in points."""
ADR_GROWTH = Decimal("1.04")
"""The budget's ADR over the base's (+4 %)."""
CENT = Decimal("0.01")
COLUMNS = ("property", "month", "rooms_sold", "room_revenue_net", "food_beverage_revenue_net",
           "other_revenue_net")


@dataclass(frozen=True)
class Base:
    """Sums of the nights a month's budget starts from, per night held."""

    nights: int
    available: Decimal
    sold: Decimal
    room: Decimal
    fnb: Decimal
    other: Decimal


def _base(conn: duckdb.DuckDBPyConnection, pid: int, first: date, last: date) -> Base:
    row = conn.execute(
        "SELECT count(*), coalesce(sum(rooms_available), 0), coalesce(sum(rooms_sold), 0), "
        "coalesce(sum(room_revenue_nights_net), 0) FROM mart.occupancy_daily "
        "WHERE property_id = ? AND stay_date BETWEEN ? AND ?", [pid, first, last]).fetchone()
    assert row is not None
    fnb, other = revenue_beyond_rooms(conn, pid, first, last)
    return Base(int(row[0]), Decimal(row[1]), Decimal(row[2]), Decimal(row[3]), fnb, other)


def month_budget(base: Base, days: int) -> tuple[int, Decimal, Decimal, Decimal]:
    """rooms sold, room, F&B and other revenue of a month of `days` nights from its base."""
    supply = base.available / base.nights * days
    occupancy = base.sold / base.available * 100 + OCCUPANCY_POINTS
    rooms = min(supply, supply * occupancy / 100).quantize(Decimal(1), ROUND_HALF_UP)
    adr = (base.room / base.sold * ADR_GROWTH).quantize(CENT, ROUND_HALF_UP)
    return (int(rooms), (rooms * adr).quantize(CENT, ROUND_HALF_UP),
            (base.fnb / base.sold * rooms).quantize(CENT, ROUND_HALF_UP),
            (base.other / base.sold * rooms).quantize(CENT, ROUND_HALF_UP))


def _days(month: date) -> int:
    return ((month + timedelta(days=32)).replace(day=1) - month).days


def budget_file(conn: duckdb.DuckDBPyConnection, folder: Path) -> Path | None:
    """Write the budget of each property's business-date year to `folder`/budget-YYYY.csv;
    None when no property has a closed night sold (nothing to start from)."""
    rows = []
    year = None
    for pid, code, business_date in conn.execute(
            "SELECT property_id, code, business_date FROM core.property ORDER BY 1").fetchall():
        year = business_date.year
        run_rate = _base(conn, pid, business_date - timedelta(days=365),
                         business_date - timedelta(days=1))
        if not run_rate.sold:
            continue
        for m in range(1, 13):
            first, ly_first = date(year, m, 1), date(year - 1, m, 1)
            days, ly_days = _days(first), _days(ly_first)
            last_year = _base(conn, pid, ly_first, ly_first + timedelta(days=ly_days - 1))
            base = last_year if last_year.nights == ly_days and last_year.sold else run_rate
            rows.append((code, f"{first:%Y-%m}", *month_budget(base, days)))
    if not rows or year is None:
        return None
    path = folder / f"budget-{year}.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(COLUMNS)
        out.writerows(rows)
    return path


def import_demo_budget(warehouse: Path, folder: Path) -> tuple[Path, int] | None:
    """Write the demo's budget file and import it as `pmsw budget import` does (the read copy
    published with it); the file and its rows, None when there was nothing to budget."""
    with writer(warehouse) as conn:
        path = budget_file(conn, folder)
        if path is None:
            return None
        return path, import_budget(conn, path).height
