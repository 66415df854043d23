"""The forecast a flash period is measured against: the one made before it (docs/flash.md,
"Manager's flash"), read from mart.forecast_history. The day's night as forecast the day
before; each month's nights as forecast on the last day of the month before (MTD: this
month's, YTD: each month's of the year to date). A night not kept as of that date falls
back to the latest kept before it, else the earliest kept after it (the month the history
began in), and the title says so. F&B and other revenue as forecast with the same nights'
rooms (kept since migration 0039; none for a period with a night kept without them)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

import duckdb

CENT = Decimal("0.01")


@dataclass
class Made:
    """The forecast of a period's nights, as made before it."""

    rooms_sold: Decimal
    """rooms_forecast less the nights' complimentary rooms and no-shows as they ended (the
    forecast counts them in, as the books at the night's end do; rooms_sold leaves them
    out)."""
    room_revenue: Decimal
    fnb: Decimal | None = Decimal(0)
    """food_beverage_revenue_forecast_net of the same nights; None when one has none."""
    other: Decimal | None = Decimal(0)
    """other_revenue_forecast_net of the same nights; None when one has none."""
    departments_missing: str | None = None
    """Why `fnb` and `other` are None."""
    fallbacks: dict[date, date] = field(default_factory=dict)
    """Eve of a span (the as-of date stated) -> the earliest as-of date its nights fell
    back to."""


def spans(first: date, last: date) -> list[tuple[date, date]]:
    """The period first..last cut at each month's start: each span's forecast is the one
    made on its eve (the day before it: the day's, or the month's)."""
    out = []
    start = first
    while start <= last:
        following = (start.replace(day=1) + timedelta(days=32)).replace(day=1)
        end = min(last, following - timedelta(days=1))
        out.append((start, end))
        start = following
    return out


def forecast_made(conn: duckdb.DuckDBPyConnection, pid: int, periods: list[tuple[date, date]]
                  ) -> Made | str:
    """The forecast of the nights of `periods` (spans, each forecast as of its eve, else as
    of the latest kept before it, else the earliest kept); why not when a night has none."""
    first, last = periods[0][0], periods[-1][1]
    kept: dict[date, list[tuple[date, Decimal, Decimal | None, Decimal | None,
                                Decimal | None]]] = defaultdict(list)
    for night, as_of, rooms, revenue, fnb, other in conn.execute(
            "SELECT stay_date, as_of_date, rooms_forecast, room_revenue_forecast_net, "
            "food_beverage_revenue_forecast_net, other_revenue_forecast_net "
            "FROM mart.forecast_history WHERE property_id = ? AND stay_date BETWEEN ? AND ? "
            "ORDER BY stay_date, as_of_date", [pid, first, last]).fetchall():
        kept[night].append((as_of, Decimal(rooms), _dec(revenue), _dec(fnb), _dec(other)))
    # the forecast's rooms are the books at the night's end: rooms_sold + these
    unsold = dict(conn.execute(
        "SELECT stay_date, rooms_complimentary + no_shows FROM mart.occupancy_daily WHERE "
        "property_id = ? AND stay_date BETWEEN ? AND ?", [pid, first, last]).fetchall())
    made = Made(Decimal(0), Decimal(0))
    missing: list[date] = []
    unpriced: list[date] = []
    no_departments: list[date] = []
    for start, end in periods:
        eve = start - timedelta(days=1)
        for i in range((end - start).days + 1):
            night = start + timedelta(days=i)
            found = kept.get(night, [])
            if not found:
                missing.append(night)
                continue
            before = [r for r in found if r[0] <= eve]
            as_of, rooms, revenue, fnb, other = before[-1] if before else found[0]
            if as_of != eve:
                made.fallbacks[eve] = min(made.fallbacks.get(eve, as_of), as_of)
            made.rooms_sold += max(rooms - Decimal(unsold.get(night) or 0), Decimal(0))
            if revenue is None:
                unpriced.append(night)
            else:
                made.room_revenue += revenue
            if fnb is None or other is None:
                no_departments.append(night)
                made.fnb = made.other = None
            elif made.fnb is not None and made.other is not None:
                made.fnb, made.other = made.fnb + fnb, made.other + other
    if missing:
        return f"no forecast kept of {len(missing)} of its nights (first {missing[0]})"
    if unpriced:
        return (f"the forecast kept of {len(unpriced)} of its nights has no price "
                f"(first {unpriced[0]}: not priced)")
    made.room_revenue = made.room_revenue.quantize(CENT, ROUND_HALF_UP)
    if no_departments:
        made.departments_missing = (
            f"no F&B nor other forecast kept of {len(no_departments)} of its nights (first "
            f"{no_departments[0]})")
    return made


def _dec(value: object) -> Decimal | None:
    return None if value is None else Decimal(str(value))
