"""The reports: each a SQL reading of the marts (or recon.*) for one property and a date
range, inclusive at both ends. Definitions of the figures: docs/kpi.md and
docs/reconciliation.md; the reports only select and sum them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import duckdb

from pipelines.transforms.departments import DEPARTMENTS
from pipelines.transforms.reconcile import STATUSES

from .errors import ReportError
from .warehouse import PropertyRow, require_tables

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Table:
    title: str
    columns: Sequence[str]
    rows: list[tuple[Any, ...]]
    total: tuple[Any, ...] | None = None


@dataclass(frozen=True)
class Query:
    """What a report is asked: the property, the stay (or business) dates, the options."""

    prop: PropertyRow
    first: date
    last: date
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Report:
    name: str
    tables: tuple[str, ...]
    default_range: Callable[[date], tuple[date, date]]
    """From the property's business date: the dates shown when --from/--to are omitted."""
    build: Callable[[duckdb.DuckDBPyConnection, Query], Table]


def _past_30(business_date: date) -> tuple[date, date]:
    return business_date - timedelta(days=30), business_date - timedelta(days=1)


def _next_30(business_date: date) -> tuple[date, date]:
    return business_date, business_date + timedelta(days=29)


def _ratio(num: Decimal | int, den: Decimal | int, scale: int = 1) -> Decimal | None:
    if not den:
        return None
    return (Decimal(num) * scale / Decimal(den)).quantize(CENT, ROUND_HALF_UP)


def _title(q: Query, what: str) -> str:
    return (f"{what} - {q.prop.name} ({q.prop.code}), {q.first} to {q.last}, "
            f"{q.prop.currency}, business date {q.prop.business_date}")


def occupancy(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    """ADR on the nights sold (fees apart, docs/kpi.md); room revenue and RevPAR with fees."""
    found = conn.execute(
        "SELECT stay_date, rooms_available, rooms_sold, occupancy_pct, room_revenue_net, "
        "adr_net, revpar_net, CASE WHEN is_actual THEN 'actual' ELSE 'on the books' END, "
        "room_revenue_nights_net "
        "FROM mart.occupancy_daily WHERE property_id = ? AND stay_date BETWEEN ? AND ? "
        "ORDER BY stay_date", [q.prop.property_id, q.first, q.last]).fetchall()
    rows = [tuple(r[:8]) for r in found]
    available = sum(int(r[1]) for r in found)
    sold = sum(int(r[2]) for r in found)
    revenue = sum((Decimal(r[4]) for r in found), Decimal("0.00"))
    nights = sum((Decimal(r[8]) for r in found), Decimal("0.00"))
    total = ("total", available, sold, _ratio(sold, available, 100), revenue,
             _ratio(nights, sold), _ratio(revenue, available), "") if rows else None
    return Table(_title(q, "Occupancy, ADR and RevPAR (net of VAT)"),
                 ("stay_date", "rooms_available", "rooms_sold", "occupancy_pct",
                  "room_revenue_net", "adr_net", "revpar_net", "basis"),
                 rows, total)


def pickup(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    window = int(q.options.get("window", 7))
    as_of = q.options.get("as_of") or _latest(conn, "mart.pickup", "as_of_date", q.prop)
    if as_of is None:
        return Table(_title(q, f"Pickup over {window} days"), _PICKUP_COLUMNS, [])
    found = {r[0]: r[1:] for r in conn.execute(
        "SELECT stay_date, rooms_new, rooms_cancelled, rooms_net, revenue_net FROM mart.pickup "
        "WHERE property_id = ? AND as_of_date = ? AND window_days = ? AND stay_date BETWEEN ? "
        "AND ?", [q.prop.property_id, as_of, window, q.first, q.last]).fetchall()}
    otb = dict(conn.execute(
        "SELECT stay_date, rooms_otb FROM mart.otb_snapshots WHERE property_id = ? AND "
        "snapshot_date = ? AND stay_date BETWEEN ? AND ?",
        [q.prop.property_id, as_of, q.first, q.last]).fetchall())
    rows = []
    for day in _days(max(q.first, as_of), q.last):
        new, cancelled, net, revenue = found.get(day, (0, 0, 0, Decimal("0.00")))
        rows.append((day, f"{day:%a}", otb.get(day, 0), new, cancelled, net, revenue))
    total = ("total", "", sum(r[2] for r in rows), sum(r[3] for r in rows),
             sum(r[4] for r in rows), sum(r[5] for r in rows),
             sum((r[6] for r in rows), Decimal("0.00"))) if rows else None
    return Table(_title(q, f"Pickup over the {window} days to {as_of}, by stay date"),
                 _PICKUP_COLUMNS, rows, total)


_PICKUP_COLUMNS = ("stay_date", "weekday", "rooms_otb", "rooms_new", "rooms_cancelled",
                   "rooms_net", "revenue_net")


def pace(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    as_of = q.options.get("as_of") or _latest(conn, "mart.otb_snapshots", "snapshot_date",
                                              q.prop)
    columns = ("stay_date", "weekday", "days_before", "rooms_otb", "stly_rooms_otb",
               "rooms_vs_stly", "revenue_otb_net", "stly_revenue_otb_net")
    if as_of is None:
        return Table(_title(q, "Pace"), columns, [])
    rows = [(r[0], f"{r[0]:%a}", r[1], r[2], r[3], None if r[3] is None else r[2] - r[3],
             r[4], r[5]) for r in conn.execute(
        "SELECT stay_date, days_before, rooms_otb, stly_rooms_otb, revenue_otb_net, "
        "stly_revenue_otb_net FROM mart.pace WHERE property_id = ? AND stay_date BETWEEN ? "
        "AND ? AND days_before = stay_date - CAST(? AS DATE) ORDER BY stay_date",
        [q.prop.property_id, q.first, q.last, as_of]).fetchall()]
    total = ("total", "", "", sum(r[3] for r in rows),
             sum(r[4] or 0 for r in rows), sum(r[5] or 0 for r in rows),
             sum((r[6] for r in rows), Decimal("0.00")),
             sum((r[7] or Decimal("0.00") for r in rows), Decimal("0.00"))) if rows else None
    return Table(_title(q, f"Pace as of {as_of}: on the books vs same time last year"),
                 columns, rows, total)


SEGMENT_DIMENSIONS = ("channel", "source", "market", "rate_plan", "room_type")


def segments(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    by = str(q.options.get("by", "channel"))
    label = {
        "channel": "coalesce(s.channel, '(none)')",
        "source": "coalesce(s.source, '(none)')",
        "market": "coalesce(s.market, '(none)')",
        "rate_plan": "coalesce(s.rate_plan_code, rp.code, '(none)')",
        "room_type": "coalesce(rt.code, CAST(s.room_type_id AS VARCHAR))",
    }[by]
    rows = conn.execute(
        f"SELECT {label} AS segment, sum(s.rooms_sold) AS rooms_sold, "
        "sum(s.room_revenue_net) AS room_revenue_net, "
        "sum(s.room_revenue_nights_net) AS nights_net FROM mart.segment_daily s "
        "LEFT JOIN core.rate_plans rp ON rp.property_id = s.property_id AND "
        "rp.rate_plan_id = s.rate_plan_id "
        "LEFT JOIN core.room_types rt ON rt.property_id = s.property_id AND "
        "rt.room_type_id = s.room_type_id "
        "WHERE s.property_id = ? AND s.stay_date BETWEEN ? AND ? GROUP BY ALL "
        "ORDER BY room_revenue_net DESC, segment", [q.prop.property_id, q.first, q.last],
    ).fetchall()
    sold = sum(int(r[1]) for r in rows)
    revenue = sum((Decimal(r[2]) for r in rows), Decimal("0.00"))
    nights = sum((Decimal(r[3]) for r in rows), Decimal("0.00"))
    out = [(r[0], int(r[1]), _ratio(int(r[1]), sold, 100), Decimal(r[2]),
            _ratio(Decimal(r[2]), revenue, 100), _ratio(Decimal(r[3]), int(r[1])))
           for r in rows]
    total = ("total", sold, _ratio(sold, sold, 100), revenue, _ratio(revenue, revenue, 100),
             _ratio(nights, sold)) if rows else None
    return Table(_title(q, f"Segments by {by.replace('_', ' ')} (stay dates)"),
                 (by, "rooms_sold", "rooms_share_pct", "room_revenue_net",
                  "revenue_share_pct", "adr_net"), out, total)


def revenue(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    """One column per department of `DEPARTMENTS` (the one definition the marts use): the net
    of each revenue department, the totals, then the gross of each department that is not
    revenue (city tax)."""
    earning = [d for d in DEPARTMENTS if d.is_revenue]
    apart = [d for d in DEPARTMENTS if not d.is_revenue]
    sums = [f"sum(revenue_net) FILTER (WHERE department = '{d.code}')" for d in earning]
    sums += ["sum(revenue_net) FILTER (WHERE is_revenue)",
             "sum(revenue_gross) FILTER (WHERE is_revenue)"]
    sums += [f"sum(revenue_gross) FILTER (WHERE department = '{d.code}')" for d in apart]
    rows = conn.execute(
        f"SELECT date, {', '.join(sums)} FROM mart.revenue_daily WHERE property_id = ? AND "
        "date BETWEEN ? AND ? GROUP BY date ORDER BY date",
        [q.prop.property_id, q.first, q.last]).fetchall()
    zero = Decimal("0.00")
    clean = [(r[0], *[zero if v is None else Decimal(v) for v in r[1:]]) for r in rows]
    total = ("total", *[sum((r[i] for r in clean), zero) for i in range(1, len(sums) + 1)]) \
        if clean else None
    return Table(_title(q, "Revenue by posting date and department (city tax apart, not "
                           "revenue)"),
                 ("date", *[f"{d.column}_net" for d in earning], "total_revenue_net",
                  "total_revenue_gross", *[d.column for d in apart]), clean, total)


def reconciliation(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    statuses = STATUSES
    rows = conn.execute(
        "SELECT run_id, mode, first_date, last_date, expected_count, "
        + ", ".join(f"{s}_count, {s}_amount" for s in statuses)
        + " FROM recon.runs WHERE property_id = ? AND last_date >= ? AND first_date <= ? "
        "ORDER BY run_id", [q.prop.property_id, q.first, q.last]).fetchall()
    columns = ("run_id", "mode", "first_date", "last_date", "expected",
               *[f"{s}{suffix}" for s in statuses for suffix in ("", "_amount")])
    return Table(_title(q, "Reconciliation runs covering these business dates (counts and "
                           "expected amounts per status)"), columns,
                 [tuple(r) for r in rows])


def _next_90(business_date: date) -> tuple[date, date]:
    return business_date, business_date + timedelta(days=89)


def forecast(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    rows = conn.execute(
        "SELECT stay_date, days_before, rooms_otb, rooms_forecast, rooms_low, rooms_high, "
        "occupancy_forecast_pct, room_revenue_forecast_net, adr_forecast_net, method, "
        "as_of_date FROM mart.forecast_daily WHERE property_id = ? AND stay_date BETWEEN ? "
        "AND ? ORDER BY stay_date", [q.prop.property_id, q.first, q.last]).fetchall()
    span = conn.execute("SELECT max(as_of_date), min(stay_date), max(stay_date) FROM "
                        "mart.forecast_daily WHERE property_id = ?",
                        [q.prop.property_id]).fetchone()
    assert span is not None
    as_of, first_night, last_night = span
    covered = (f"; it covers the nights {first_night} to {last_night}"
               if not rows and as_of is not None else "")
    out = [(r[0], f"{r[0]:%a}", *r[1:10]) for r in rows]
    total = ("total", "", "", sum(int(r[2]) for r in rows),
             sum((Decimal(r[3]) for r in rows), Decimal("0.00")),
             sum((Decimal(r[4]) for r in rows), Decimal("0.00")),
             sum((Decimal(r[5]) for r in rows), Decimal("0.00")), "",
             sum((Decimal(r[7]) for r in rows), Decimal("0.00")), "", "") if rows else None
    what = "none built yet" if as_of is None else f"as of {as_of}"
    return Table(_title(q, f"Forecast {what} (rooms, net room revenue; docs/forecast.md)")
                 + covered,
                 ("stay_date", "weekday", "days_before", "rooms_otb", "rooms_forecast",
                  "rooms_low", "rooms_high", "occupancy_pct", "room_revenue_net", "adr_net",
                  "method"), out, total)


def forecast_accuracy(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    rows = conn.execute(
        "SELECT horizon_days, method, forecasts, first_night, last_night, mae_rooms, wape_pct, "
        "bias_rooms, better_than_last_year_pct, better_than_last_year_low_pct, "
        "better_than_last_year_high_pct FROM mart.forecast_accuracy "
        "WHERE property_id = ? ORDER BY horizon_days, method <> 'chosen', wape_pct",
        [q.prop.property_id]).fetchall()
    return Table(f"Forecast accuracy (rolling-origin backtest, rooms; better than last year "
                 f"with its 90 % interval) - {q.prop.name} ({q.prop.code}), business date "
                 f"{q.prop.business_date}",
                 ("horizon_days", "method", "nights", "first_night", "last_night", "mae_rooms",
                  "wape_pct", "bias_rooms", "better_than_last_year_pct",
                  "better_than_last_year_low_pct", "better_than_last_year_high_pct"),
                 [tuple(r) for r in rows])


def alerts(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    rows = conn.execute(
        "SELECT stay_date, alert, value, threshold, message, as_of_date FROM mart.alerts "
        "WHERE property_id = ? AND stay_date BETWEEN ? AND ? ORDER BY stay_date, alert",
        [q.prop.property_id, q.first, q.last]).fetchall()
    return Table(_title(q, "Alerts (pace below last year, pickup spikes, over capacity)"),
                 ("stay_date", "weekday", "alert", "value", "threshold", "message"),
                 [(r[0], f"{r[0]:%a}", r[1], round(float(r[2]), 4), round(float(r[3]), 4),
                   r[4]) for r in rows])


FLASH_METRICS = ("rooms_sold", "rooms_available", "occupancy_pct", "adr_net", "revpar_net",
                 "room_revenue_net", "food_beverage_revenue_net", "other_revenue_net",
                 "total_revenue_net")
FLASH_COLUMNS = ("metric", "day", "day_last_year", "mtd", "mtd_budget", "mtd_vs_budget_pct",
                 "mtd_last_year", "mtd_vs_last_year_pct", "month_expected",
                 "month_budget", "ytd", "ytd_budget", "ytd_vs_budget_pct", "ytd_last_year",
                 "ytd_vs_last_year_pct")


@dataclass
class _Sums:
    sold: Decimal = Decimal(0)
    available: Decimal = Decimal(0)
    room: Decimal = Decimal(0)
    fnb: Decimal | None = Decimal(0)
    other: Decimal | None = Decimal(0)
    nights: int = 0
    """Nights of the period mart.occupancy_daily holds (actuals only)."""

    def values(self) -> dict[str, Decimal | int | None]:
        total = None if self.fnb is None or self.other is None else self.room + self.fnb \
            + self.other
        return {"rooms_sold": int(self.sold), "rooms_available": int(self.available),
                "occupancy_pct": _ratio(self.sold, self.available, 100),
                "adr_net": _ratio(self.room, self.sold),
                "revpar_net": _ratio(self.room, self.available),
                "room_revenue_net": self.room, "food_beverage_revenue_net": self.fnb,
                "other_revenue_net": self.other, "total_revenue_net": total}


def _last_year(day: date) -> date:
    return day.replace(year=day.year - 1, day=28) if (day.month, day.day) == (2, 29) \
        else day.replace(year=day.year - 1)


def _actuals(conn: duckdb.DuckDBPyConnection, pid: int, first: date,
             last: date) -> _Sums | None:
    """Sums of the nights first..last; None when the warehouse holds none of them."""
    room = conn.execute(
        "SELECT coalesce(sum(rooms_sold), 0), coalesce(sum(rooms_available), 0), "
        "coalesce(sum(room_revenue_net), 0), count(*) FROM mart.occupancy_daily "
        "WHERE property_id = ? AND stay_date BETWEEN ? AND ?", [pid, first, last]).fetchone()
    other = conn.execute(
        "SELECT coalesce(sum(revenue_net) FILTER (WHERE department = 'food_beverage'), 0), "
        "coalesce(sum(revenue_net) FILTER (WHERE is_revenue AND department NOT IN "
        "('accommodation', 'food_beverage')), 0) FROM mart.revenue_daily "
        "WHERE property_id = ? AND date BETWEEN ? AND ?", [pid, first, last]).fetchone()
    assert room is not None
    assert other is not None
    if not room[3]:
        return None
    return _Sums(Decimal(room[0]), Decimal(room[1]), Decimal(room[2]), Decimal(other[0]),
                 Decimal(other[1]), int(room[3]))


def _budget(conn: duckdb.DuckDBPyConnection, pid: int, first: date,
            last: date) -> _Sums | None:
    """The budget of the days first..last: each month's budget pro rata of its days covered
    (the whole-property row, else the sum of its segments). None without a budget."""
    rows = conn.execute(
        "SELECT month, sum(rooms_sold), sum(room_revenue_net), "
        "sum(food_beverage_revenue_net), sum(other_revenue_net), count(*), "
        "count(food_beverage_revenue_net), count(other_revenue_net) FROM ("
        "  SELECT *, bool_or(segment IS NULL) OVER (PARTITION BY month) AS has_total"
        "  FROM mart.budget_monthly WHERE property_id = ? AND month BETWEEN ? AND ?)"
        " WHERE segment IS NULL OR NOT has_total GROUP BY month",
        [pid, first.replace(day=1), last]).fetchall()
    budgets = {r[0]: r[1:] for r in rows}
    out = _Sums()
    month = first.replace(day=1)
    while month <= last:
        following = (month + timedelta(days=32)).replace(day=1)
        if month not in budgets:
            return None
        sold, room, fnb, other, n, n_fnb, n_other = budgets[month]
        days = Decimal((following - month).days)
        covered = Decimal((min(last, following - timedelta(days=1)) - max(first, month)).days
                          + 1)
        share = covered / days
        out.sold += Decimal(sold) * share
        out.room += Decimal(room) * share
        out.fnb = None if out.fnb is None or n_fnb < n else out.fnb + Decimal(fnb) * share
        out.other = None if out.other is None or n_other < n else \
            out.other + Decimal(other) * share
        month = following
    out.sold = out.sold.quantize(Decimal(1), ROUND_HALF_UP)
    out.room = out.room.quantize(CENT, ROUND_HALF_UP)
    out.fnb = None if out.fnb is None else out.fnb.quantize(CENT, ROUND_HALF_UP)
    out.other = None if out.other is None else out.other.quantize(CENT, ROUND_HALF_UP)
    out.available = Decimal(0)
    return out


def _expected_month(conn: duckdb.DuckDBPyConnection, prop: PropertyRow, first: date,
                    last: date, sums: _Sums) -> _Sums | None:
    """The month first..last as it is expected to end: the nights before the business date
    actual (`sums` of them, rooms and room revenue; changed), the others from
    mart.forecast_daily."""
    found = conn.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'mart' AND "
        "table_name = 'forecast_daily'").fetchone()
    if found is None or not found[0]:
        return None
    ahead_from = max(first, prop.business_date)
    if ahead_from <= last:
        row = conn.execute(
            "SELECT count(*), coalesce(sum(f.rooms_forecast), 0), "
            "coalesce(sum(f.room_revenue_forecast_net), 0), "
            "coalesce(sum(coalesce(o.rooms_available, f.capacity)), 0) "
            "FROM mart.forecast_daily f LEFT JOIN mart.occupancy_daily o "
            "ON o.property_id = f.property_id AND o.stay_date = f.stay_date "
            "WHERE f.property_id = ? AND f.stay_date BETWEEN ? AND ? AND f.as_of_date = ("
            "SELECT max(as_of_date) FROM mart.forecast_daily WHERE property_id = ?)",
            [prop.property_id, ahead_from, last, prop.property_id]).fetchone()
        assert row is not None
        if row[0] < (last - ahead_from).days + 1:
            return None
        sums.sold += Decimal(row[1])
        sums.room += Decimal(row[2])
        sums.available += Decimal(row[3])
    sums.sold = sums.sold.quantize(Decimal(1), ROUND_HALF_UP)
    sums.room = sums.room.quantize(CENT, ROUND_HALF_UP)
    sums.fnb = sums.other = None  # no forecast of F&B and other revenue
    return sums


def _change(actual: Any, base: Any) -> Decimal | None:
    if actual is None or base is None or not base:
        return None
    return ((Decimal(actual) - Decimal(base)) * 100 / Decimal(base)).quantize(CENT,
                                                                             ROUND_HALF_UP)


def _held_in_part(actuals: dict[str, tuple[date, date, _Sums | None]]) -> dict[str, str]:
    """The periods of which the warehouse lacks nights (before its history begins, say),
    each with how many it holds: '195 of 326 nights'."""
    out = {}
    for name, (first, last, sums) in actuals.items():
        days, held = (last - first).days + 1, 0 if sums is None else sums.nights
        if held < days:
            out[name] = f"{held} of {days} night{'s' if days > 1 else ''}"
    return out


def flash(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    closed = q.prop.business_date - timedelta(days=1)
    day = q.options.get("date") or closed
    if day > closed:  # its nights are still on the books, not sold
        raise ReportError(f"--date {day}: the flash is of a closed business date; the last "
                          f"one of {q.prop.code} is {closed} (business date "
                          f"{q.prop.business_date})")
    pid = q.prop.property_id
    month_first, year_first = day.replace(day=1), day.replace(month=1, day=1)
    month_last = (month_first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    ly = _last_year(day)
    bounds = {"day": (day, day), "day_last_year": (ly, ly), "mtd": (month_first, day),
              "mtd_last_year": (_last_year(month_first), ly), "ytd": (year_first, day),
              "ytd_last_year": (_last_year(year_first), ly),
              # the month's nights lived: actual in its expected end
              "month_expected": (month_first, min(month_last, closed))}
    actuals = {name: (first, last, _actuals(conn, pid, first, last))
               for name, (first, last) in bounds.items()}
    # a sum over part of a period is no figure of it (a year to date of last year that began
    # with the history, against the whole of this year's): not shown, the title says why
    in_part = _held_in_part(actuals)
    periods = {name: None if name in in_part else sums for name, (_, _, sums) in actuals.items()}
    lived = periods["month_expected"]
    periods.update(
        month_expected=None if lived is None else _expected_month(
            conn, q.prop, month_first, month_last, lived),
        mtd_budget=_budget(conn, pid, month_first, day),
        month_budget=_budget(conn, pid, month_first, month_last),
        ytd_budget=_budget(conn, pid, year_first, day))
    values = {k: (None if v is None else v.values()) for k, v in periods.items()}
    for budget in ("mtd_budget", "month_budget", "ytd_budget"):
        found = values[budget]
        if found is not None:  # a budget has no supply: its rates use the actual supply
            supply = periods["mtd" if budget == "mtd_budget" else
                             "month_expected" if budget == "month_budget" else "ytd"]
            if supply is not None and supply.available:
                sums = periods[budget]
                assert sums is not None
                sums.available = supply.available
                values[budget] = sums.values()
            else:
                found.update(rooms_available=None, occupancy_pct=None, revpar_net=None)
    rows = []
    for metric in FLASH_METRICS:
        got = {k: (None if v is None else v[metric]) for k, v in values.items()}
        rows.append((
            metric, got["day"], got["day_last_year"], got["mtd"], got["mtd_budget"],
            _change(got["mtd"], got["mtd_budget"]), got["mtd_last_year"],
            _change(got["mtd"], got["mtd_last_year"]), got["month_expected"],
            got["month_budget"], got["ytd"], got["ytd_budget"],
            _change(got["ytd"], got["ytd_budget"]), got["ytd_last_year"],
            _change(got["ytd"], got["ytd_last_year"])))
    missing = "".join(f"; {name} not shown: the warehouse holds {held}"
                      for name, held in in_part.items())
    return Table(f"Manager's flash for {day} ({day:%a}) - {q.prop.name} ({q.prop.code}), "
                 f"{q.prop.currency}, net of VAT; last year = the same dates a year earlier; "
                 f"business date {q.prop.business_date}{missing}", FLASH_COLUMNS, rows)


def _latest(conn: duckdb.DuckDBPyConnection, table: str, column: str,
            prop: PropertyRow) -> date | None:
    row = conn.execute(f"SELECT max({column}) FROM {table} WHERE property_id = ? AND "
                       f"{column} <= ?", [prop.property_id, prop.business_date]).fetchone()
    return None if row is None else row[0]


def _days(first: date, last: date) -> list[date]:
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


REPORTS: dict[str, Report] = {
    "occupancy": Report("occupancy", ("mart.occupancy_daily",), _past_30, occupancy),
    "pickup": Report("pickup", ("mart.pickup", "mart.otb_snapshots"), _next_30, pickup),
    "pace": Report("pace", ("mart.pace", "mart.otb_snapshots"), _next_30, pace),
    "segments": Report("segments", ("mart.segment_daily", "core.rate_plans",
                                    "core.room_types"), _past_30, segments),
    "revenue": Report("revenue", ("mart.revenue_daily",), _past_30, revenue),
    "reconciliation": Report("reconciliation", ("recon.runs",), _past_30, reconciliation),
    "forecast": Report("forecast", ("mart.forecast_daily",), _next_30, forecast),
    "forecast-accuracy": Report("forecast-accuracy", ("mart.forecast_accuracy",), _past_30,
                                forecast_accuracy),
    "alerts": Report("alerts", ("mart.alerts",), _next_90, alerts),
    "flash": Report("flash", ("mart.occupancy_daily", "mart.revenue_daily",
                              "mart.budget_monthly"), _past_30, flash),
}


def _register_finance() -> None:
    """The finance reports (pipelines/reports/finance.py) join REPORTS."""
    from . import finance

    REPORTS["worklist"] = Report("worklist", ("recon.v_worklist",), finance.all_closed,
                                 finance.worklist)
    REPORTS["ledger"] = Report("ledger", ("mart.v_guest_ledger",), finance.all_closed,
                               finance.ledger)
    REPORTS["city-tax"] = Report("city-tax", ("core.reservation_rooms", "core.folio_lines",
                                              "recon.v_current"), finance.all_closed,
                                 finance.city_tax)
    REPORTS["interface-loss"] = Report("interface-loss", ("recon.v_interface_loss",),
                                       _past_30, finance.interface_loss)


_register_finance()


def run_report(conn: duckdb.DuckDBPyConnection, path: Path, name: str, prop: PropertyRow,
               first: date | None, last: date | None, **options: Any) -> Table:
    """Check the tables and the range, then build report `name`."""
    report = REPORTS[name]
    require_tables(conn, path, *report.tables)
    default_first, default_last = report.default_range(prop.business_date)
    span = default_last - default_first
    if first is None and last is None:
        first, last = default_first, default_last
    elif first is None:
        assert last is not None
        first = last - span
    elif last is None:
        last = first + span
    if first > last:
        raise ReportError(f"--from {first} is after --to {last}")
    if (last - first).days > 3660:
        raise ReportError(f"--from {first} to --to {last} spans more than ten years")
    return report.build(conn, Query(prop, first, last, options))
