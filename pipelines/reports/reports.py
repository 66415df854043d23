"""The reports: each a SQL reading of the marts (or recon.*) for one property and a date
range, inclusive at both ends. Definitions of the figures: docs/kpi.md and
docs/reconciliation.md; the reports only select and sum them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, Literal

import duckdb

from pipelines.forecast.logic import HORIZONS, ON_THE_BOOKS, REVENUE_COLUMNS, ForecastSettings
from pipelines.metrics import ratio, share_pct, whole_rooms
from pipelines.recon.logic import STATUSES
from pipelines.reports.warehouse import PropertyRow
from pipelines.vocabulary import ACCOMMODATION, DEPARTMENTS, counted

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Table:
    title: str
    columns: Sequence[str]
    rows: list[tuple[Any, ...]]
    total: tuple[Any, ...] | None = None
    as_of: str | None = None
    """The date a report that compares periods stands on, and whether it is closed or the
    open business date (partial): the CLI adds it to the As-of line, JSON carries it."""
    sections: tuple[tuple[str, Table], ...] = ()
    """A pack of tables (the close pack): (name, table) in order, rendered one after the
    other (xlsx: one sheet each); then `columns` and `rows` are empty. A table with columns
    and sections (the flash and its nights ahead) renders its own rows first, the sections
    after them (JSON: under `sections` beside its rows; xlsx: a sheet each after its own)."""


@dataclass(frozen=True)
class Query:
    """What a report is asked: the property, the stay (or business) dates, the options."""

    prop: PropertyRow
    first: date
    last: date
    options: dict[str, Any] = field(default_factory=dict)


RANGE = "range"
"""An option whose dest is RANGE sets the report's dates (a --date D is --from D --to D, a
--month M its first and last day) rather than reaching the builder."""


@dataclass(frozen=True)
class Option:
    """An option of one report, beyond those every report takes (--property, --format...)."""

    flag: str
    """As typed: "--window"."""
    dest: str
    """The key the builder reads in Query.options, or RANGE."""
    help: str
    kind: Literal["choice", "date", "month", "flag", "file"] = "choice"
    choices: tuple[str, ...] = ()
    default: str | None = None
    required: bool = False


@dataclass(frozen=True)
class Report:
    """A report declared once: the CLI command, the xlsx and the web pages are built from it."""

    name: str
    tables: tuple[str, ...]
    default_range: Callable[[date], tuple[date, date]]
    """From the property's business date: the dates shown when --from/--to are omitted."""
    build: Callable[[duckdb.DuckDBPyConnection, Query], Table]
    help: str = ""
    """What it shows (the first sentence is its summary), then, after a blank line, notes
    and examples (`pmsw report NAME --help`)."""
    options: tuple[Option, ...] = ()
    takes_range: bool = True
    """Whether --from/--to mean something to it."""


def _past_30(business_date: date) -> tuple[date, date]:
    return business_date - timedelta(days=30), business_date - timedelta(days=1)


def _next_30(business_date: date) -> tuple[date, date]:
    return business_date, business_date + timedelta(days=29)


def _title(q: Query, what: str) -> str:
    return (f"{what} - {q.prop.name} ({q.prop.code}), {q.first} to {q.last}, "
            f"{q.prop.currency}, business date {q.prop.business_date}")


def occupancy(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    """ADR on the nights sold (fees apart, docs/kpi.md); room revenue and RevPAR with fees.
    Complimentary rooms (house use included, and house use of them) beside the rooms sold,
    which leave them out.
    The nights' revenue and the fees are shown beside their sum, so room_revenue_nights_net /
    rooms_sold gives the adr_net printed (issue 46, bug 3)."""
    found = conn.execute(
        "SELECT stay_date, rooms_available, rooms_sold, rooms_complimentary, rooms_house_use, "
        "occupancy_pct, room_revenue_nights_net, room_revenue_fees_net, room_revenue_net, "
        "adr_net, revpar_net, CASE WHEN is_actual THEN 'actual' ELSE 'on the books' END "
        "FROM mart.occupancy_daily WHERE property_id = ? AND stay_date BETWEEN ? AND ? "
        "ORDER BY stay_date", [q.prop.property_id, q.first, q.last]).fetchall()
    rows = [tuple(r) for r in found]
    available, sold, comp, house = (sum(int(r[i]) for r in found) for i in range(1, 5))
    nights = sum((Decimal(r[6]) for r in found), Decimal("0.00"))
    fees = sum((Decimal(r[7]) for r in found), Decimal("0.00"))
    revenue = sum((Decimal(r[8]) for r in found), Decimal("0.00"))
    sums = {"rooms_available": available, "rooms_sold": sold, "room_revenue_net": revenue,
            "room_revenue_nights_net": nights}
    total = ("total", available, sold, comp, house, ratio("occupancy_pct", sums), nights, fees,
             revenue, ratio("adr_net", sums), ratio("revpar_net", sums), "") if rows else None
    return Table(_title(q, "Occupancy, ADR and RevPAR (net of VAT)"),
                 ("stay_date", "rooms_available", "rooms_sold", "rooms_complimentary",
                  "rooms_house_use", "occupancy_pct",
                  "room_revenue_nights_net", "room_revenue_fees_net", "room_revenue_net",
                  "adr_net", "revpar_net", "basis"),
                 rows, total)


def as_of_date(prop: PropertyRow, asked: date | None) -> tuple[date, str]:
    """The date a report comparing periods stands on: `asked`, else the last closed business
    date (the day before the property's business date, whose books are still moving); with
    its basis in words, the open day said partial (docs/kpi.md, "As of")."""
    day = asked or prop.business_date - timedelta(days=1)
    if day >= prop.business_date:
        return day, f"{day} (the open business date: partial, still moving)"
    return day, f"{day} (closed)"


def pickup(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    window = int(q.options.get("window", 7))
    as_of, basis = as_of_date(q.prop, q.options.get("as_of"))
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
    return Table(_title(q, f"Pickup over the {counted(window, 'day')} to {basis}, by stay date"),
                 _PICKUP_COLUMNS, rows, total, as_of=basis)


_PICKUP_COLUMNS = ("stay_date", "weekday", "rooms_otb", "rooms_new", "rooms_cancelled",
                   "rooms_net", "revenue_net")


def pace(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    as_of, basis = as_of_date(q.prop, q.options.get("as_of"))
    rows = [(r[0], f"{r[0]:%a}", r[1], r[2], r[3], None if r[3] is None else r[2] - r[3],
             r[4], r[5], r[6], r[7], r[8]) for r in conn.execute(
        "SELECT stay_date, days_before, rooms_otb, stly_rooms_otb, revenue_otb_net, "
        "stly_revenue_otb_net, stly_is_rebuilt, ly_actual_rooms_sold, "
        "ly_actual_room_revenue_net FROM mart.pace WHERE property_id = ? AND stay_date "
        "BETWEEN ? AND ? AND days_before = stay_date - CAST(? AS DATE) ORDER BY stay_date",
        [q.prop.property_id, q.first, q.last, as_of]).fetchall()]
    zero = Decimal("0.00")
    total = ("total", "", "", sum(r[3] for r in rows),
             sum(r[4] or 0 for r in rows), sum(r[5] or 0 for r in rows),
             sum((r[6] for r in rows), zero), sum((r[7] or zero for r in rows), zero),
             sum(1 for r in rows if r[8]), sum(r[9] or 0 for r in rows),
             sum((r[10] or zero for r in rows), zero)) if rows else None
    rebuilt = sum(1 for r in rows if r[8])
    said = (f"; STLY rebuilt from the reservations' history on {rebuilt} of {len(rows)} "
            "nights (no snapshot was taken that day: stly_is_rebuilt)") if rebuilt else ""
    return Table(_title(q, f"Pace as of {basis}: on the books vs same time last year "
                           f"(STLY: 364 days earlier or last year's same holiday or event, "
                           f"same days before arrival) and last "
                           f"year's actual{said}"), PACE_COLUMNS, rows, total, as_of=basis)


PACE_COLUMNS = ("stay_date", "weekday", "days_before", "rooms_otb", "stly_rooms_otb",
                "rooms_vs_stly", "revenue_otb_net", "stly_revenue_otb_net", "stly_is_rebuilt",
                "ly_actual_rooms_sold", "ly_actual_room_revenue_net")


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
    out = [(r[0], int(r[1]), share_pct(r[1], sold), Decimal(r[2]), share_pct(r[2], revenue),
            ratio("adr_net", {"room_revenue_nights_net": r[3], "rooms_sold": r[1]}))
           for r in rows]
    total = ("total", sold, share_pct(sold, sold), revenue, share_pct(revenue, revenue),
             ratio("adr_net", {"room_revenue_nights_net": nights, "rooms_sold": sold})
             ) if rows else None
    return Table(_title(q, f"Segments by {by.replace('_', ' ')} (stay dates)"),
                 (by, "rooms_sold", "rooms_share_pct", "room_revenue_net",
                  "revenue_share_pct", "adr_net"), out, total)


def posted_column(code: str) -> str:
    """The revenue report's column of revenue department `code`, by posting date: F&B and
    other are by posting date wherever they show, so the column is their one name
    (`food_beverage_revenue_net`, `other_revenue_net`, as the flash's rows); rooms by posting
    date are not `room_revenue_net` (by the night they pay), so `accommodation_net`."""
    return "accommodation_net" if code == ACCOMMODATION else f"{code}_revenue_net"


def revenue(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    """One column per department of `DEPARTMENTS` (the one definition the marts use): the net
    of each revenue department (`posted_column`), the totals, then the gross of each
    department that is not revenue (city tax: `city_tax_charged`, the city-tax return's
    charged side). All by posting date: the totals are `total_revenue_posted_*`, not
    `total_revenue_net` (rooms by the night they pay, docs/kpi.md)."""
    earning = [d for d in DEPARTMENTS if d.is_revenue]
    apart = [d for d in DEPARTMENTS if not d.is_revenue]
    sums = [f"sum(department_revenue_net) FILTER (WHERE department = '{d.code}')"
            for d in earning]
    sums += ["sum(department_revenue_net) FILTER (WHERE is_revenue)",
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
                 ("date", *[posted_column(d.code) for d in earning], "total_revenue_posted_net",
                  "total_revenue_posted_gross", *[f"{d.column}_charged" for d in apart]), clean,
                 total)


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


NOT_PRICED = "not priced"
"""A forecast night's revenue and ADR when no rate is known for its rooms still to come
(mart.forecast_daily.room_revenue_forecast_net NULL; docs/forecast.md)."""


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
    # whole rooms at display; occupancy, revenue and ADR are the mart's, of the fractions; a
    # night whose rooms still to come have no rate is not priced (its revenue NULL), not 0.00
    out = [(r[0], f"{r[0]:%a}", r[1], r[2], *(whole_rooms(v) for v in r[3:6]), r[6],
            *((r[7], r[8]) if r[7] is not None else (NOT_PRICED, NOT_PRICED)), r[9])
           for r in rows]
    unpriced = [r[0] for r in rows if r[7] is None]
    # no band on the total: the nights' bands do not add (each holds 80 % of its night; their
    # sum holds more or less of the nights' sum as their errors move together or not); no
    # revenue with a night not priced (a sum leaving it out is no total)
    total = ("total", "", "", sum(int(r[2]) for r in rows),
             whole_rooms(sum((Decimal(r[3]) for r in rows), Decimal("0.00"))), "", "", "",
             NOT_PRICED if unpriced else sum((Decimal(r[7]) for r in rows), Decimal("0.00")),
             "", "") if rows else None
    if unpriced:
        covered += (f"; {len(unpriced)} of the nights not priced from {unpriced[0]} (no rate "
                    "known for their rooms still to come: no revenue, no ADR)")
    what = "none built yet" if as_of is None else f"as of {as_of}"
    return Table(_title(q, f"Forecast {what} (rooms, net room revenue; the band is the "
                           "night's, the total has none; rooms as whole rooms, half-up, the "
                           "total's of the nights' unrounded sum; occupancy, revenue and ADR "
                           "of the unrounded forecast; rooms_forecast is the rooms on the books "
                           "at the night's end, complimentary rooms and no-shows in, not "
                           "rooms_sold; docs/forecast.md, docs/kpi.md)")
                 + covered,
                 ("stay_date", "weekday", "days_before", "rooms_otb", "rooms_forecast",
                  "rooms_low", "rooms_high", "occupancy_forecast_pct",
                  "room_revenue_forecast_net", "adr_forecast_net", "method"), out, total)


ACCURACY_COLUMNS = (
    "horizon_days", "method", "nights_scored", "first_night", "last_night", "mae_rooms",
    "wape_pct", "floor_wape_pct", "bias_rooms", "band_coverage_pct", "band_nominal_pct",
    "better_than_last_year_pct", "better_than_last_year_low_pct",
    "better_than_last_year_high_pct", *REVENUE_COLUMNS, "in_use_now", "note")
"""REVENUE_COLUMNS: the room, F&B, other and total revenue forecasts scored beside their
baseline, and the room revenue's bias (the chosen rows only; docs/forecast.md, "The
departments' forecast, scored")."""
FEW_NIGHTS = 28
"""Fewer nights scored than four weeks: the figure is one month's luck (forecast_skill)."""


def _in_use_counts(conn: duckdb.DuckDBPyConnection, pid: int) -> dict[int, list[tuple[str, int]]]:
    """Per horizon bucket, the methods the nights of the forecast in use take now
    (mart.forecast_daily, latest as-of date) with their nights, most first."""
    bucket = "CASE " + " ".join(f"WHEN days_before <= {h} THEN {h}" for h in HORIZONS) + \
        f" ELSE {HORIZONS[-1]} END"
    found: dict[int, list[tuple[str, int]]] = {}
    for horizon, method, nights in conn.execute(
            f"SELECT {bucket} AS h, method, count(*) FROM mart.forecast_daily WHERE "
            "property_id = ? AND as_of_date = (SELECT max(as_of_date) FROM "
            "mart.forecast_daily WHERE property_id = ?) GROUP BY ALL ORDER BY h, 3 DESC, 2",
            [pid, pid]).fetchall():
        found.setdefault(int(horizon), []).append((str(method), int(nights)))
    return found


def _in_use_now(conn: duckdb.DuckDBPyConnection, pid: int) -> dict[int, str]:
    """Per horizon bucket, the methods the nights of the forecast in use take now
    (mart.forecast_daily, latest as-of date): 'last_year_season 25, additive_pickup 5'."""
    return {h: ", ".join(f"{m} {n}" for m, n in parts)
            for h, parts in _in_use_counts(conn, pid).items()}


def _unscored_note(method: str, nights: int) -> str:
    """The note of a method the nights ahead use that the backtest never scored."""
    empty = ("; no band: only the forecast in use has one; no figure against last year: "
             "nothing scored to set against it")
    if method == ON_THE_BOOKS:
        return (f"in use now for {counted(nights, 'night')} ahead: the books alone, no method "
                f"had the history it needs for them; nothing to score{empty}")
    needs = ("snapshots of past nights taken that many days before them"
             if method.endswith("_pickup") and not method.startswith("last_year")
             else "the nights a year back")
    return (f"in use now for {counted(nights, 'night')} ahead, never scored: it forecast none "
            f"of the nights scored (it needs history the warehouse does not hold for them: {needs})"
            f"{empty}")


def _accuracy_note(method: str, nights: int, skill: object, in_use: str | None,
                   last_year_nights: int | None = None) -> str:
    notes = []
    if nights < FEW_NIGHTS:
        notes.append(f"scored on {counted(nights, 'night')}, fewer than {FEW_NIGHTS}: one "
                     "month's luck")
    if method != "chosen":
        notes.append("no band: only the forecast in use has one")
    if skill is None and method != "last_year":
        notes.append("no figure against last year: fewer than 4 weeks of nights both forecast"
                     + ("" if last_year_nights is None or last_year_nights >= FEW_NIGHTS else
                        f" (last_year forecast {last_year_nights} of the nights scored: it "
                        "needs the night a year back)"))
    if method == "chosen" and in_use:
        notes.append("the backtest's choice per night; the nights ahead now use the methods "
                     "in in_use_now, some possibly never scored (a method needs a year of "
                     "history before it can be)")
    return "; ".join(notes)


def forecast_accuracy(conn: duckdb.DuckDBPyConnection, q: Query) -> Table:
    rows = conn.execute(
        "SELECT horizon_days, method, forecasts, first_night, last_night, mae_rooms, wape_pct, "
        "bias_rooms, band_coverage_pct, better_than_last_year_pct, "
        "better_than_last_year_low_pct, better_than_last_year_high_pct, floor_wape_pct, "
        f"{', '.join(REVENUE_COLUMNS)} FROM mart.forecast_accuracy "
        "WHERE property_id = ? ORDER BY horizon_days, method <> 'chosen', wape_pct",
        [q.prop.property_id]).fetchall()
    low, high = ForecastSettings().interval
    nominal = Decimal(str(round((high - low) * 100, 2)))
    counts = _in_use_counts(conn, q.prop.property_id)
    in_use = _in_use_now(conn, q.prop.property_id)
    last_year = {int(r[0]): int(r[2]) for r in rows if r[1] == "last_year"}
    out: list[tuple[object, ...]] = []
    for r in rows:
        chosen = r[1] == "chosen"
        now = in_use.get(int(r[0])) if chosen else None
        out.append((*r[:7], r[12], *r[7:9], nominal if chosen else None, *r[9:12], *r[13:],
                    now,
                    _accuracy_note(str(r[1]), int(r[2]), r[9], now,
                                   last_year.get(int(r[0]), 0))))
    # a method the nights ahead use that has no row (never scored) gets one saying so
    scored = {(int(r[0]), str(r[1])) for r in rows}
    for horizon, parts in counts.items():
        for method, nights in parts:
            if (horizon, method) not in scored:
                out.append((horizon, method, 0, *[None] * (11 + len(REVENUE_COLUMNS)),
                            f"{method} {nights}",
                            _unscored_note(method, nights)))
    out.sort(key=lambda row: int(str(row[0])))
    return Table(f"Forecast accuracy (rolling-origin backtest, rooms; `chosen` is the method "
                 f"each night used, its band's measured coverage beside the nominal "
                 f"{nominal:.0f} %; better than last year with its 90 % interval; "
                 f"*_revenue_wape_pct: the room, F&B, other and total revenue forecast "
                 f"with `chosen`'s rooms, against the night's room revenue and the revenue "
                 f"posted, beside a baseline of the mean day of the 91 days before each "
                 f"as-of date, room_revenue_bias_pct the room revenue's bias in % of it; "
                 f"{_floor_note(rows)}) - "
                 f"{q.prop.name} ({q.prop.code}), business date {q.prop.business_date}",
                 ACCURACY_COLUMNS, out)


def _floor_note(rows: Sequence[tuple[object, ...]]) -> str:
    """What floor_wape_pct is, or why it is empty (the 13th column of the rows read)."""
    if any(r[12] is not None for r in rows):
        return ("floor_wape_pct: the simulator's floor, the WAPE of its level of each night "
                "(its demand before the night's own noise, which no forecast reads) on the "
                "same nights, the best a forecast of the level can do")
    return ("no floor_wape_pct: the warehouse holds no simulator level of this hotel's nights "
            "scored (core.sandbox_levels: only the sandbox's demo writes it, a real PMS has "
            "none)")


def _days(first: date, last: date) -> list[date]:
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]
