"""The reports of periods against budget and last year: the manager's flash of a closed
business date, and the months ahead as they are expected to end (docs/flash.md)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import duckdb

from pipelines.forecast.logic import ON_THE_BOOKS
from pipelines.marts import PER_ROOM_DAYS, revenue_beyond_rooms, revenue_per_room_final
from pipelines.metrics import change, change_unit, ratio, whole_rooms
from pipelines.reports.ahead import ahead, next_8_nights
from pipelines.reports.errors import ReportError
from pipelines.reports.forecast_made import Made, forecast_made, spans
from pipelines.reports.reports import CENT, Query, Table, as_of_date
from pipelines.reports.room_statistics import ROOM_STATISTICS, room_statistics
from pipelines.reports.warehouse import PropertyRow
from pipelines.vocabulary import counted

FLASH_METRICS = ("rooms_sold", "rooms_available", "occupancy_pct", "adr_net", "revpar_net",
                 "room_revenue_net", "food_beverage_revenue_net", "other_revenue_net",
                 "total_revenue_net")
FLASH_COLUMNS = ("metric", "day", "day_budget", "day_vs_budget", "day_last_year",
                 "day_vs_last_year", "day_forecast", "day_vs_forecast", "mtd", "mtd_budget",
                 "mtd_vs_budget", "mtd_last_year", "mtd_vs_last_year", "mtd_forecast",
                 "mtd_vs_forecast", "month_expected", "month_budget", "ytd", "ytd_budget",
                 "ytd_vs_budget", "ytd_last_year", "ytd_vs_last_year", "ytd_forecast",
                 "ytd_vs_forecast", "year_expected", "year_budget", "change_unit")
"""The *_vs_* columns: the change in points for a percentage, in percent of the base for any
other figure (`pipelines.metrics.change`), as `change_unit` says row by row. *_forecast: the
forecast made before the period (`forecast_made`)."""


@dataclass
class _Sums:
    sold: Decimal = Decimal(0)
    available: Decimal = Decimal(0)
    room: Decimal = Decimal(0)
    fnb: Decimal | None = Decimal(0)
    other: Decimal | None = Decimal(0)
    nights: int = 0
    """Nights of the period mart.occupancy_daily holds (actuals only)."""
    room_nights: Decimal | None = None
    """Room revenue of the nights sold, fees apart (ADR's numerator, docs/kpi.md); None: the
    same as `room` (a budget or a forecast has no fees)."""
    on_books: int = 0
    """Rooms on the books of the nights still ahead (an expected period only)."""
    low: Decimal | None = None
    high: Decimal | None = None
    """An expected month's 80 % band of its rooms: the rooms sold of its closed nights + the
    band of its rooms still to come computed for the month (mart.forecast_daily
    month_rooms_low / _high); None without one, and on a sum of months (bands do not add)."""

    def values(self) -> dict[str, Decimal | int | None]:
        total = None if self.fnb is None or self.other is None else self.room + self.fnb \
            + self.other
        sums = {"rooms_sold": self.sold, "rooms_available": self.available,
                "room_revenue_net": self.room, "room_revenue_nights_net":
                    self.room if self.room_nights is None else self.room_nights}
        # whole rooms at display (a forecast's are fractions); the rates of the fractions
        return {"rooms_sold": whole_rooms(self.sold), "rooms_available": int(self.available),
                "occupancy_pct": ratio("occupancy_pct", sums),
                "adr_net": ratio("adr_net", sums),
                "revpar_net": ratio("revpar_net", sums),
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
        "coalesce(sum(room_revenue_net), 0), count(*), "
        "coalesce(sum(room_revenue_nights_net), 0) FROM mart.occupancy_daily "
        "WHERE property_id = ? AND stay_date BETWEEN ? AND ?", [pid, first, last]).fetchone()
    assert room is not None
    if not room[3]:
        return None
    fnb, other = revenue_beyond_rooms(conn, pid, first, last)
    return _Sums(Decimal(room[0]), Decimal(room[1]), Decimal(room[2]), fnb, other,
                 int(room[3]), room_nights=Decimal(room[4]))


def _last_year_shape(conn: duckdb.DuckDBPyConnection, pid: int, month: date,
                     following: date) -> dict[date, Decimal] | None:
    """Each night of the month, its share of the month as last year's same dates sold rooms
    (rooms_sold of mart.occupancy_daily; Feb 29 takes Feb 28's); None unless the warehouse
    holds every night of that month a year earlier with a room sold."""
    nights = [month + timedelta(days=i) for i in range((following - month).days)]
    found = dict(conn.execute(
        "SELECT stay_date, rooms_sold FROM mart.occupancy_daily WHERE property_id = ? AND "
        "stay_date BETWEEN ? AND ?",
        [pid, _last_year(month), _last_year(following - timedelta(days=1))]).fetchall())
    sold = [found.get(_last_year(night)) for night in nights]
    if any(v is None for v in sold) or not sum(Decimal(v) for v in sold if v is not None):
        return None
    whole = sum(Decimal(v) for v in sold if v is not None)
    return {night: Decimal(v) / whole for night, v in zip(nights, sold, strict=True)
            if v is not None}


BUDGET_SHAPES = {"last_year": "spread over the nights as last year's rooms sold",
                 "days": "pro rata of the month's days"}
"""How a month's budget is spread over its nights (the flash's title says which)."""


def _budget(conn: duckdb.DuckDBPyConnection, pid: int, first: date,
            last: date, shapes: set[str] | None = None) -> _Sums | None:
    """The budget of the days first..last: each month's budget spread over its nights as last
    year's same nights sold (when the warehouse holds that whole month), else pro rata of its
    days; the whole-property row, else the sum of its segments. None without a budget.
    `shapes` gathers the spreads used (BUDGET_SHAPES)."""
    rows = conn.execute(
        "SELECT month, sum(budget_rooms_sold), sum(budget_room_revenue_net), "
        "sum(budget_food_beverage_revenue_net), sum(budget_other_revenue_net), count(*), "
        "count(budget_food_beverage_revenue_net), count(budget_other_revenue_net) FROM ("
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
        start, end = max(first, month), min(last, following - timedelta(days=1))
        shape = None if (start, end) == (month, following - timedelta(days=1)) else \
            _last_year_shape(conn, pid, month, following)
        if shape is None:
            share = Decimal((end - start).days + 1) / Decimal((following - month).days)
        else:
            share = sum((w for night, w in shape.items() if start <= night <= end),
                        Decimal(0))
        if shapes is not None and (start, end) != (month, following - timedelta(days=1)):
            shapes.add("days" if shape is None else "last_year")
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
    """The month (or year) first..last as it is expected to end: the nights before the business date
    actual (`sums` of them; changed), the others from mart.forecast_daily: rooms and room
    revenue as forecast, F&B and other revenue the forecast rooms x the revenue per room on
    the books at the night's end of the recent closed days (`revenue_per_room_final`; none
    without it)."""
    found = conn.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'mart' AND "
        "table_name = 'forecast_daily'").fetchone()
    if found is None or not found[0]:
        return None
    ahead_from = max(first, prop.business_date)
    if ahead_from <= last and not_forecast(conn, prop.property_id, ahead_from, last):
        return None
    if ahead_from <= last:
        row = conn.execute(
            "SELECT count(*), coalesce(sum(f.rooms_forecast), 0), "
            "coalesce(sum(f.room_revenue_forecast_net), 0), "
            "coalesce(sum(coalesce(o.rooms_available, f.capacity)), 0), "
            "coalesce(sum(f.rooms_otb), 0), max(f.month_rooms_low), max(f.month_rooms_high), "
            "count(DISTINCT f.month_rooms_low) "
            "FROM mart.forecast_daily f LEFT JOIN mart.occupancy_daily o "
            "ON o.property_id = f.property_id AND o.stay_date = f.stay_date "
            "WHERE f.property_id = ? AND f.stay_date BETWEEN ? AND ? AND f.as_of_date = ("
            "SELECT max(as_of_date) FROM mart.forecast_daily WHERE property_id = ?)",
            [prop.property_id, ahead_from, last, prop.property_id]).fetchone()
        assert row is not None
        rooms_ahead = Decimal(row[1])
        if row[5] is not None and row[7] == 1 and row[0] == (last - ahead_from).days + 1:
            sums.low, sums.high = sums.sold + Decimal(row[5]), sums.sold + Decimal(row[6])
        per_room = revenue_per_room_final(conn, prop.property_id, prop.business_date)
        if per_room is None or sums.fnb is None or sums.other is None:
            sums.fnb = sums.other = None
        else:
            sums.fnb += rooms_ahead * per_room[0]
            sums.other += rooms_ahead * per_room[1]
        sums.sold += rooms_ahead
        sums.room += Decimal(row[2])
        if sums.room_nights is not None:  # the forecast's revenue is of nights, no fee
            sums.room_nights += Decimal(row[2])
        sums.available += Decimal(row[3])
        sums.on_books += int(row[4])
    else:  # every night closed: the month is what it sold
        sums.low = sums.high = sums.sold
    sums.room = sums.room.quantize(CENT, ROUND_HALF_UP)
    if sums.room_nights is not None:
        sums.room_nights = sums.room_nights.quantize(CENT, ROUND_HALF_UP)
    sums.fnb = None if sums.fnb is None else sums.fnb.quantize(CENT, ROUND_HALF_UP)
    sums.other = None if sums.other is None else sums.other.quantize(CENT, ROUND_HALF_UP)
    return sums


UNPRICED = ("method <> ? AND rooms_forecast > rooms_otb AND (room_revenue_forecast_net IS NULL "
            "OR room_revenue_forecast_net <= revenue_otb_net)")
"""A night of mart.forecast_daily whose rooms still to come have no rate: no revenue (NULL,
migration 0036), or none above the books'."""


def not_forecast(conn: duckdb.DuckDBPyConnection, pid: int, first: date,
                 last: date) -> str | None:
    """Why mart.forecast_daily (its latest as-of date) does not forecast every night of
    first..last, None when it does. A night is not forecast when the forecast does not reach
    it, when it holds the books alone (method `on_the_books`: no method has the history to
    forecast it, as far out on a young history) or when its rooms still to come have no rate
    (rooms_forecast above rooms_otb, room revenue no more than the books': no ADR priced
    them). A sum of such nights with forecast ones is no expected month (docs/flash.md,
    "The months ahead")."""
    row = conn.execute(
        "SELECT count(*), count(*) FILTER (WHERE method = ?), "
        "min(stay_date) FILTER (WHERE method = ?), "
        f"count(*) FILTER (WHERE {UNPRICED}), min(stay_date) FILTER (WHERE {UNPRICED}) "
        "FROM mart.forecast_daily WHERE property_id = ? AND stay_date BETWEEN ? AND ? "
        "AND as_of_date = (SELECT max(as_of_date) FROM mart.forecast_daily "
        "WHERE property_id = ?)",
        [ON_THE_BOOKS, ON_THE_BOOKS, ON_THE_BOOKS, ON_THE_BOOKS, pid, first, last, pid]
    ).fetchone()
    assert row is not None
    held, books_alone, books_from, unpriced, unpriced_from = row
    if held < (last - first).days + 1:
        return _forecast_end(conn, pid)
    if books_alone:
        return (f"{counted(books_alone, 'night')} on the books alone from {books_from}: no method "
                f"has the history to forecast {'them' if books_alone > 1 else 'it'}")
    if unpriced:
        return f"{counted(unpriced, 'night')} of rooms forecast without a rate from {unpriced_from}"
    return None


def _held_in_part(actuals: dict[str, tuple[date, date, _Sums | None]]) -> dict[str, str]:
    """The periods of which the warehouse lacks nights (before its history begins, say),
    each with how many it holds: '195 of 326 nights'."""
    out = {}
    for name, (first, last, sums) in actuals.items():
        days, held = (last - first).days + 1, 0 if sums is None else sums.nights
        if held < days:
            out[name] = f"{held} of {counted(days, 'night')}"
    return out


def flash(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    """The flash of a closed business date (--date, default the last): its rows, then the
    section `ahead`, flash-ahead's table of the nights from the business date on."""
    closed, _ = as_of_date(q.prop, None)
    day = q.options.get("date") or closed
    if day > closed:  # its nights are still on the books, not sold
        raise ReportError(f"--date {day}: the flash is of a closed business date; the last "
                          f"one of {q.prop.code} is {closed} (business date "
                          f"{q.prop.business_date})")
    pid = q.prop.property_id
    month_first, year_first = day.replace(day=1), day.replace(month=1, day=1)
    month_last = (month_first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    year_last = day.replace(month=12, day=31)
    ly = _last_year(day)
    bounds = {"day": (day, day), "day_last_year": (ly, ly), "mtd": (month_first, day),
              "mtd_last_year": (_last_year(month_first), ly), "ytd": (year_first, day),
              "ytd_last_year": (_last_year(year_first), ly),
              # the month's nights lived: actual in its expected end
              "month_expected": (month_first, min(month_last, closed)),
              "year_expected": (year_first, min(year_last, closed))}
    actuals = {name: (first, last, _actuals(conn, pid, first, last))
               for name, (first, last) in bounds.items()}
    # a sum over part of a period is no figure of it (a year to date of last year that began
    # with the history, against the whole of this year's): not shown, the title says why
    in_part = _held_in_part(actuals)
    periods = {name: None if name in in_part else sums for name, (_, _, sums) in actuals.items()}
    lived, lived_year = periods["month_expected"], periods["year_expected"]
    shapes: set[str] = set()
    periods.update(
        month_expected=None if lived is None else _expected_month(
            conn, q.prop, month_first, month_last, lived),
        year_expected=None if lived_year is None else _expected_month(
            conn, q.prop, year_first, year_last, lived_year),
        year_budget=_budget(conn, pid, year_first, year_last),
        day_budget=_budget(conn, pid, day, day, shapes),
        mtd_budget=_budget(conn, pid, month_first, day, shapes),
        month_budget=_budget(conn, pid, month_first, month_last),
        ytd_budget=_budget(conn, pid, year_first, day, shapes))
    made_notes = []
    for name, first in (("day_forecast", day), ("mtd_forecast", month_first),
                        ("ytd_forecast", year_first)):
        made = forecast_made(conn, pid, spans(first, day))
        periods[name] = None if isinstance(made, str) else _Sums(
            made.rooms_sold, Decimal(0), made.room_revenue, made.fnb, made.other)
        made_notes.append(_made_note(name, made))
    values = {k: (None if v is None else v.values()) for k, v in periods.items()}
    supplies = {"day_budget": "day", "mtd_budget": "mtd", "month_budget": "month_expected",
                "ytd_budget": "ytd", "year_budget": "year_expected", "day_forecast": "day",
                "mtd_forecast": "mtd", "ytd_forecast": "ytd"}
    for budget, actual in supplies.items():
        found = values[budget]
        if found is not None:  # a budget has no supply: its rates use the actual supply
            supply = periods[actual]
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
            metric, got["day"], got["day_budget"], change(metric, got["day"], got["day_budget"]),
            got["day_last_year"], change(metric, got["day"], got["day_last_year"]),
            got["day_forecast"], change(metric, got["day"], got["day_forecast"]),
            got["mtd"], got["mtd_budget"],
            change(metric, got["mtd"], got["mtd_budget"]), got["mtd_last_year"],
            change(metric, got["mtd"], got["mtd_last_year"]), got["mtd_forecast"],
            change(metric, got["mtd"], got["mtd_forecast"]), got["month_expected"],
            got["month_budget"], got["ytd"], got["ytd_budget"],
            change(metric, got["ytd"], got["ytd_budget"]), got["ytd_last_year"],
            change(metric, got["ytd"], got["ytd_last_year"]), got["ytd_forecast"],
            change(metric, got["ytd"], got["ytd_forecast"]), got["year_expected"],
            got["year_budget"], change_unit(metric)))
    rows.extend(_room_statistic_rows(conn, pid, bounds, in_part))
    spread = " and ".join(BUDGET_SHAPES[k] for k in sorted(shapes))
    missing = (f"; budget of part of a month {spread}" if spread else "") + (
        "; expected rooms as whole rooms, half-up, their rates of the unrounded forecast"
    ) + "".join(
        _expected_note(name, periods[name], name in in_part)
        for name in ("month_expected", "year_expected")) + "".join(made_notes) + "".join(
        f"; {name} not shown: the warehouse holds {held}" for name, held in in_part.items())
    return Table(f"Manager's flash for {day} ({day:%a}) - {q.prop.name} ({q.prop.code}), "
                 f"{q.prop.currency}, net of VAT; last year = the same dates a year earlier; "
                 f"forecast = made before the period (the day's the day before, each month's "
                 f"on the month's eve; rooms less the complimentary and no-shows; F&B and "
                 f"other the rooms forecast x their revenue per room on the books at the "
                 f"night's end "
                 f"(the rooms forecast's basis) of the {PER_ROOM_DAYS} closed days before it); "
                 f"business date {q.prop.business_date}{missing}", FLASH_COLUMNS, rows,
                 as_of=as_of_date(q.prop, day)[1],
                 sections=(("ahead", ahead(conn, Query(
                     q.prop, *next_8_nights(q.prop.business_date)))),))


def _made_note(name: str, made: Made | str) -> str:
    """What the title says of a period's forecast: why there is none, the as-of dates it
    fell back to (nothing when each span's is of its eve), why its F&B and other have none."""
    if isinstance(made, str):
        return f"; {name}: none, {made}"
    return "".join(f"; {name} as of {back} where none was kept as of {eve}"
                   for eve, back in sorted(made.fallbacks.items())) + (
        "" if made.departments_missing is None else
        f"; {name} of F&B, other and total: none, {made.departments_missing}")


def _expected_note(name: str, expected: _Sums | None, in_part: bool) -> str:
    """What the title says of the month's or the year's expected end (`name`) when a figure
    of it is missing (nothing when it is whole): F&B and other ahead need the recent days'
    revenue per room on the books."""
    if in_part:
        return ""  # the title's "not shown" names it
    if expected is None:
        return (f"; {name}: none, mart.forecast_daily does not hold the "
                f"{name.split('_')[0]}'s nights ahead")
    if expected.fnb is None or expected.other is None:
        return (f"; {name} of F&B, other and total: none, no room on the books or no revenue "
                f"posted in the {PER_ROOM_DAYS} closed days before the business date")
    return ""


def _room_statistic_rows(conn: duckdb.DuckDBPyConnection, pid: int,
                         bounds: dict[str, tuple[date, date]],
                         in_part: dict[str, str]) -> list[tuple[Any, ...]]:
    """The room statistics (`room_statistics`) of the day, MTD and YTD and the same dates last
    year, each against last year; no budget nor forecast is made of them."""
    names = ("day", "day_last_year", "mtd", "mtd_last_year", "ytd", "ytd_last_year")
    got = {name: None if name in in_part else room_statistics(conn, pid, *bounds[name])
           for name in names}
    rows = []
    for stat in ROOM_STATISTICS:
        v = {k: (None if sums is None else sums[stat]) for k, sums in got.items()}
        rows.append((stat, v["day"], None, None, v["day_last_year"],
                     change(stat, v["day"], v["day_last_year"]), None, None, v["mtd"], None,
                     None, v["mtd_last_year"], change(stat, v["mtd"], v["mtd_last_year"]),
                     None, None, None, None, v["ytd"], None, None, v["ytd_last_year"],
                     change(stat, v["ytd"], v["ytd_last_year"]), None, None, None, None,
                     change_unit(stat)))
    return rows


MONTHS_COLUMNS = ("month", "nights_closed", "rooms_actual", "rooms_otb", "rooms_expected",
                  "rooms_expected_low", "rooms_expected_high", "occupancy_expected_pct",
                  "adr_expected_net", "revpar_expected_net", "room_revenue_expected_net",
                  "food_beverage_revenue_expected_net", "other_revenue_expected_net",
                  "total_revenue_expected_net",
                  "budget_rooms_sold", "budget_room_revenue_net", "vs_budget_pct",
                  "last_year_rooms_sold", "last_year_room_revenue_net", "vs_last_year_pct")


def _month_end(first: date) -> date:
    return (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)


def next_12_months(business_date: date) -> tuple[date, date]:
    """The business date's month and the 11 after it."""
    first = business_date.replace(day=1)
    return first, first.replace(year=first.year + 1) - timedelta(days=1)


def _whole(conn: duckdb.DuckDBPyConnection, pid: int, first: date, last: date
           ) -> tuple[_Sums | None, str | None]:
    """The actuals of first..last, or None and why when the warehouse lacks some night."""
    sums = _actuals(conn, pid, first, last)
    held = _held_in_part({"": (first, last, sums)})
    return (None, f"the warehouse holds {held['']}") if held else (sums, None)


def _forecast_end(conn: duckdb.DuckDBPyConnection, pid: int) -> str:
    row = conn.execute("SELECT max(stay_date) FROM mart.forecast_daily WHERE property_id = ? "
                       "AND as_of_date = (SELECT max(as_of_date) FROM mart.forecast_daily "
                       "WHERE property_id = ?)", [pid, pid]).fetchone()
    last = None if row is None else row[0]
    return "no forecast built yet" if last is None else f"the forecast ends with {last}"


def _month_row(label: str, nights: int, actual: int, expected: _Sums, budget: _Sums | None,
               last_year: _Sums | None) -> tuple[Any, ...]:
    values = expected.values()
    return (label, nights, actual, expected.on_books, values["rooms_sold"],
            whole_rooms(expected.low), whole_rooms(expected.high), values["occupancy_pct"],
            values["adr_net"], values["revpar_net"], expected.room,
            values["food_beverage_revenue_net"], values["other_revenue_net"],
            values["total_revenue_net"],
            None if budget is None else int(budget.sold),
            None if budget is None else budget.room,
            None if budget is None else change("room_revenue_net", expected.room,
                                               budget.room),
            None if last_year is None else int(last_year.sold),
            None if last_year is None else last_year.room,
            None if last_year is None else change("room_revenue_net", expected.room,
                                                  last_year.room))


def _add(total: _Sums | None, sums: _Sums | None) -> _Sums | None:
    """The total of the months so far; None once a month has none."""
    if total is None or sums is None:
        return None
    nights_revenue = None if total.room_nights is None and sums.room_nights is None else (
        (total.room if total.room_nights is None else total.room_nights)
        + (sums.room if sums.room_nights is None else sums.room_nights))
    fnb = None if total.fnb is None or sums.fnb is None else total.fnb + sums.fnb
    other = None if total.other is None or sums.other is None else total.other + sums.other
    return _Sums(total.sold + sums.sold, total.available + sums.available,
                 total.room + sums.room, fnb, other, total.nights + sums.nights,
                 on_books=total.on_books + sums.on_books, room_nights=nights_revenue)


def forecast_months(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    """Each month of q.first..q.last as it is expected to end (its closed nights actual, the
    others forecast), beside its budget and the same month last year (room revenue)."""
    pid, (closed, basis) = q.prop.property_id, as_of_date(q.prop, None)
    rows: list[tuple[Any, ...]] = []
    left_out: list[str] = []
    last_year_out: list[str] = []
    expected_total: _Sums | None = _Sums()
    budget_total: _Sums | None = _Sums()
    last_year_total: _Sums | None = _Sums()
    nights_total = actual_total = 0
    month = q.first.replace(day=1)
    while month <= q.last:
        end = _month_end(month)
        lived, why = (_Sums(), None) if month > closed else _whole(
            conn, pid, month, min(end, closed))
        nights, actual = (0, 0) if lived is None else (lived.nights, int(lived.sold))
        expected = None if lived is None else _expected_month(conn, q.prop, month, end, lived)
        if expected is None:
            why = why or not_forecast(conn, pid, max(month, q.prop.business_date), end)
            left_out.append(f"{month:%Y-%m} ({why or _forecast_end(conn, pid)})")
        else:
            budget = _budget(conn, pid, month, end)
            last_year, why_not = _whole(conn, pid, _last_year(month), _last_year(end))
            if why_not:
                last_year_out.append(f"{month:%Y-%m} ({why_not})")
            rows.append(_month_row(f"{month:%Y-%m}", nights, actual, expected, budget,
                                   last_year))
            nights_total, actual_total = nights_total + nights, actual_total + actual
            expected_total = _add(expected_total, expected)
            budget_total = _add(budget_total, budget)
            last_year_total = _add(last_year_total, last_year)
        month = end + timedelta(days=1)
    total = None if not rows or expected_total is None else _month_row(
        "total", nights_total, actual_total, expected_total, budget_total, last_year_total)
    notes = "".join([
        f"; not shown: {', '.join(left_out)}" if left_out else "",
        f"; last year not shown for {', '.join(last_year_out)}" if last_year_out else ""])
    return Table(
        f"Months as they are expected to end (closed nights actual, the rest forecast; "
        f"revenue net of VAT, F&B and other ahead per room on the books at the night's end (the "
        f"rooms forecast's basis) of the last {PER_ROOM_DAYS} "
        f"closed days; vs = room revenue; rooms as whole rooms, half-up, the total's of the "
        f"months' unrounded sum, occupancy, ADR and RevPAR of the unrounded forecast; "
        f"rooms_expected_low-_high: the month's 80 % band, computed for the month (a closed "
        f"month: what it sold), none on the total, on the months after this one nor on a "
        f"month with too few past errors to calibrate it; docs/flash.md) - "
        f"{q.prop.name} ({q.prop.code}), "
        f"{q.first:%Y-%m} to {q.last:%Y-%m}, {q.prop.currency}, business date "
        f"{q.prop.business_date}{notes}", MONTHS_COLUMNS, rows, total, as_of=basis)
