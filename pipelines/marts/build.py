"""Each mart of one property: which core.* / mart.* frames it reads and which transform makes it.

MARTS is in build order: a mart reads only core.* and the marts before it. The snapshot marts
(`Snapshots`: otb_snapshots, pickup, pace) are computed from the first snapshot whose inputs
changed since their last build (pipelines/marts/logic/snapshot_inputs.py), the others whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from importlib.metadata import version
from typing import TypeVar, cast

import duckdb
import polars as pl

from pipelines.forecast import Event, events_file, load_events, property_calendars
from pipelines.forecast.logic import (
    AlertSettings,
    ForecastSettings,
    accuracy,
    alerts,
    backtest,
    department_errors,
    forecast_daily,
    scored_forecasts,
)
from pipelines.marts import read
from pipelines.marts.departments import nights_revenue, recent_days
from pipelines.marts.forecast_history import keep_forecast
from pipelines.marts.logic.booking_kpis import booking_kpis
from pipelines.marts.logic.booking_outcomes import booking_outcomes
from pipelines.marts.logic.history import rebuild_before_first_sync, snapshot_ranges
from pipelines.marts.logic.no_shows import cancellations, with_no_show_flag
from pipelines.marts.logic.occupancy import (
    occupancy_by_room_type,
    occupancy_daily,
    other_revenue_by_room_type,
    other_revenue_daily,
)
from pipelines.marts.logic.otb import HORIZON_DAYS, otb_snapshots
from pipelines.marts.logic.pace import ALIGN_REACH, STLY_DAYS, pace
from pipelines.marts.logic.persons import with_persons
from pipelines.marts.logic.pickup import WINDOWS, pickup
from pipelines.marts.logic.revenue import revenue_daily
from pipelines.marts.logic.room_fees import room_fees
from pipelines.marts.logic.segments import segment_daily
from pipelines.marts.logic.snapshot_inputs import book_days, pace_inputs, rebuild_start, salted
from pipelines.marts.logic.stay_nights import stay_nights
from pipelines.marts.logic.tieout import revenue_tieout
from pipelines.marts.write import Replaced, Since, replace_rows
from pipelines.properties import properties_file
from pipelines.vocabulary import with_single_room_entries
from pipelines.warehouse import transaction


@dataclass(frozen=True)
class MartSettings:
    vat_pct: Decimal | None = None
    """Accommodation VAT in percent; None: the VAT of the property's accommodation item
    (core.items), else 10%."""
    horizon_days: int = HORIZON_DAYS
    """Stay dates ahead of each snapshot in otb_snapshots and pickup."""
    pickup_windows: tuple[int, ...] = WINDOWS
    forecast: ForecastSettings = field(default_factory=ForecastSettings)
    """Forecast methods, backtest and overbooking (docs/forecast.md)."""
    alerts: AlertSettings = field(default_factory=AlertSettings)
    events: tuple[Event, ...] | None = None
    """The hotel's events of the calendar (docs/calendar.md); None: those of the events file
    beside the properties file, read when the marts are built."""


T = TypeVar("T")


@dataclass(frozen=True)
class Inputs:
    """What a builder works with: the connection, the property and the settings.

    Each core.* frame (and what is derived from it alone) is read once per Inputs, however many
    marts use it: the marts of a property built in one pass (`built_marts`) share them. core.*
    does not change meanwhile: the pass holds the writer's connection. A stored mart is read
    anew each time (`mart`), since a mart built earlier in the pass rewrites it."""

    conn: duckdb.DuckDBPyConnection
    facts: read.PropertyFacts
    settings: MartSettings
    _read: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    def _once(self, name: str, make: Callable[[], T]) -> T:
        if name not in self._read:
            self._read[name] = make()
        return cast(T, self._read[name])

    @property
    def pid(self) -> int:
        return self.facts.property_id

    @property
    def vat(self) -> Decimal:
        if self.settings.vat_pct is not None:
            return self.settings.vat_pct
        return self._once("vat", lambda: read.accommodation_vat(self.conn, self.pid))

    def mart(self, name: str, since: date | None = None) -> pl.DataFrame:
        """The property's rows of mart.<name> as stored now (of snapshots from `since` on)."""
        if since is None:
            return read.mart(self.conn, name, self.pid)
        return read.mart(self.conn, name, self.pid, f"{SNAPSHOT_MARTS[name].date_sql} >= ?",
                         [since])

    def properties(self) -> pl.DataFrame:
        return pl.DataFrame({"property_id": [self.pid],
                             "business_date": [self.facts.business_date]})

    def items(self) -> pl.DataFrame:
        return self._once("items", lambda: read.items(self.conn, self.pid))

    def room_catalogue(self) -> pl.DataFrame:
        """core.rooms: the property's rooms."""
        return self._once("room_catalogue", lambda: read.rooms(self.conn, self.pid))

    def availability(self) -> pl.DataFrame:
        return self._once("availability", lambda: read.availability(self.conn, self.pid))

    def _entries(self) -> pl.DataFrame:
        return self._once("entries", lambda: read.room_entries(self.conn, self.pid))

    def _room_versions(self) -> pl.DataFrame:
        return self._once("room_versions", lambda: read.room_versions(self.conn, self.pid))

    def rooms(self) -> pl.DataFrame:
        """core.reservation_rooms with persons, is_no_show and is_lapsed_option."""
        return self._once("rooms", lambda: with_no_show_flag(
            with_persons(self._entries(), read.age_brackets(self.conn, self.pid)),
            self._room_versions(), self.lines(), self.items(), self.facts.timezone))

    def lines(self) -> pl.DataFrame:
        return self._once("lines", lambda: with_single_room_entries(
            read.folio_lines(self.conn, self.pid), self._entries()))

    def versions(self) -> pl.DataFrame:
        """Room versions with the history before the first sync rebuilt."""
        return self._once("versions", lambda: rebuild_before_first_sync(
            self._room_versions(), cancellations(read.events(self.conn, self.pid))))

    def ranges(self) -> pl.DataFrame:
        return self._once("ranges", lambda: snapshot_ranges(
            read.business_dates(self.conn, self.pid), self.versions(), self.facts.timezone))

    def book_days(self) -> pl.DataFrame:
        """Unsalted day digests of the versions and snapshot dates (snapshot_inputs)."""
        return self._once("book_days", lambda: book_days(
            self.versions(), self.ranges(), self.facts.timezone))

    def book_salt(self) -> list[object]:
        """What every snapshot of otb_snapshots and pickup depends on beside the versions."""
        bounds = self.ranges().select("first_snapshot", "first_observed").rows()
        return [self.facts.timezone, self.vat, bounds, self.settings.horizon_days]

    def capacity(self) -> pl.DataFrame:
        """property_id, rooms: the sellable rooms of core.rooms (what can be sold);
        rooms_available: every room (the STR supply occupancy divides by, docs/kpi.md)."""
        rooms = self.room_catalogue()
        sellable = rooms.filter(pl.col("sellable")).height if rooms.height else 0
        return pl.DataFrame({"property_id": [self.pid], "rooms": [sellable],
                             "rooms_available": [rooms.height]})

    def scored_forecasts(self) -> pl.DataFrame:
        """The backtest's forecasts (`scored_forecasts`) of the stored mart.otb_snapshots, once
        for forecast_daily and forecast_accuracy: both come after otb_snapshots in MARTS."""
        return self._once("scored", lambda: scored_forecasts(
            self.mart("otb_snapshots"), self.capacity(), self.settings.forecast,
            self.calendar()))

    def events(self) -> tuple[Event, ...]:
        """The settings' events, else the events file's (CalendarError when it is bad)."""
        if self.settings.events is not None:
            return self.settings.events
        return self._once("events", lambda: tuple(load_events(events_file(properties_file()))))

    def calendar(self) -> pl.DataFrame:
        """Each night's same night last year (pipelines.forecast.calendar: the property's holidays
        and events), over every stay date of the snapshots."""
        def make() -> pl.DataFrame:
            ranges = self.ranges()
            first = ranges["first_snapshot"].min() if ranges.height else None
            last = ranges["last_snapshot"].max() if ranges.height else None
            start = first if isinstance(first, date) else self.facts.business_date
            end = (last if isinstance(last, date) else self.facts.business_date) + timedelta(
                days=max(self.settings.horizon_days, self.settings.forecast.horizon_days) + 1)
            return property_calendars(read.place(self.conn, self.pid), start, end,
                                      self.events())
        return self._once("calendar", make)

    def calendar_salt(self) -> list[object]:
        """What the calendar's alignment depends on: the place, the events, the library."""
        return [read.place(self.conn, self.pid).rows(), [e.model_dump_json()
                                                         for e in self.events()],
                version("holidays")]


def _stay_nights(i: Inputs) -> pl.DataFrame:
    return stay_nights(i.rooms(), i.properties(), i.lines(), i.items(), i.vat)


def _revenue_daily(i: Inputs) -> pl.DataFrame:
    return revenue_daily(i.lines(), i.items())


def _room_fees(i: Inputs) -> pl.DataFrame:
    return room_fees(i.lines(), i.items(), i.rooms())


def _occupancy_daily(i: Inputs) -> pl.DataFrame:
    other = other_revenue_daily(i.mart("revenue_daily"))
    return occupancy_daily(i.mart("stay_nights"), i.room_catalogue(),
                           i.availability(), i.properties(), other,
                           i.mart("room_fees"))


def _occupancy_by_room_type(i: Inputs) -> pl.DataFrame:
    nights = i.mart("stay_nights")
    rooms = i.room_catalogue()
    other = other_revenue_by_room_type(i.lines(), i.items(), nights, rooms)
    return occupancy_by_room_type(nights, rooms, i.availability(),
                                  i.properties(), other, i.mart("room_fees"))


def _segment_daily(i: Inputs) -> pl.DataFrame:
    return segment_daily(i.mart("stay_nights"), i.mart("room_fees"))


def _revenue_tieout(i: Inputs) -> pl.DataFrame:
    return revenue_tieout(i.lines(), i.items(), i.rooms(), i.mart("stay_nights"),
                          i.mart("occupancy_daily"), i.properties())


def _otb_snapshots(i: Inputs, start: date | None) -> pl.DataFrame:
    return otb_snapshots(i.versions(), i.ranges(), i.facts.timezone, i.vat,
                         i.settings.horizon_days, start)


def _otb_inputs(i: Inputs) -> pl.DataFrame:
    return salted(i.book_days(), ["otb_snapshots", *i.book_salt()])


def _pickup(i: Inputs, start: date | None) -> pl.DataFrame:
    return pickup(i.versions(), i.ranges(), i.settings.pickup_windows, i.facts.timezone,
                  i.vat, i.settings.horizon_days, start)


def _pickup_inputs(i: Inputs) -> pl.DataFrame:
    return salted(i.book_days(), ["pickup", *i.book_salt(), i.settings.pickup_windows])


def _pace(i: Inputs, start: date | None) -> pl.DataFrame:
    stly_from = None if start is None else start - timedelta(days=STLY_DAYS + ALIGN_REACH)
    return pace(i.mart("otb_snapshots", stly_from), i.mart("occupancy_daily"), start,
                i.calendar())


def _pace_inputs(i: Inputs) -> pl.DataFrame:
    """otb_snapshots' inputs as stored with the rows pace reads, and the actuals it reads;
    none (pace built whole) when those of otb_snapshots are not known."""
    otb_inputs = read.kept_inputs(i.conn, "otb_snapshots", i.pid)
    if otb_inputs is None:
        return pl.DataFrame(schema={"day": pl.Date, "digest": pl.UInt64})
    return salted(pace_inputs(otb_inputs, i.mart("occupancy_daily"), i.settings.horizon_days,
                              STLY_DAYS, i.calendar()), i.calendar_salt())


def _booking_outcomes(i: Inputs) -> pl.DataFrame:
    return booking_outcomes(i.rooms(), i.facts.timezone)


def _booking_kpis(i: Inputs) -> pl.DataFrame:
    return booking_kpis(i.mart("booking_outcomes"))


def _forecast_daily(i: Inputs) -> pl.DataFrame:
    return forecast_daily(i.mart("otb_snapshots"), i.capacity(), settings=i.settings.forecast,
                          scored=i.scored_forecasts(), calendar=i.calendar())


def _forecast_accuracy(i: Inputs) -> pl.DataFrame:
    errors = backtest(i.mart("otb_snapshots"), i.capacity(), i.settings.forecast,
                      scored=i.scored_forecasts())
    if errors.height:  # the departments' forecast of the same nights, scored beside
        pid = pl.lit(i.pid, dtype=pl.Int64)
        recent = recent_days(i.conn, i.pid, errors["as_of_date"].unique().to_list())
        nights = nights_revenue(i.conn, i.pid, errors["stay_date"].unique().to_list())
        errors = department_errors(errors, recent.with_columns(property_id=pid),
                                   nights.with_columns(property_id=pid))
    return accuracy(errors, i.settings.forecast, read.sandbox_levels(i.conn, i.pid))


def _alerts(i: Inputs) -> pl.DataFrame:
    # as of the last closed business date: the open day's books are still moving
    return alerts(i.mart("otb_snapshots"), i.mart("pace"), i.capacity(), i.settings.alerts,
                  i.settings.forecast, as_of=i.facts.business_date - timedelta(days=1))


Builder = Callable[[Inputs], pl.DataFrame]


@dataclass(frozen=True)
class Snapshots:
    """A mart whose rows are snapshots: those of snapshot date S depend only on inputs dated S
    or before (`inputs`: day, digest), so it is built (`build`) from the first day whose inputs
    differ from those its stored rows were computed from (None: whole)."""

    build: Callable[[Inputs, date | None], pl.DataFrame]
    inputs: Callable[[Inputs], pl.DataFrame]
    date_sql: str
    """SQL over the mart's columns: the snapshot date of a row."""
    date_expr: pl.Expr
    """The same in polars."""

    def since(self, start: date) -> Since:
        """The mart's rows from snapshot date `start` on."""
        return Since(self.date_sql, self.date_expr, start)

MARTS: dict[str, tuple[Builder | Snapshots, tuple[str, ...]]] = {
    # mart: (builder, marts it reads)
    "stay_nights": (_stay_nights, ()),
    "revenue_daily": (_revenue_daily, ()),
    "room_fees": (_room_fees, ()),
    "occupancy_daily": (_occupancy_daily, ("stay_nights", "revenue_daily", "room_fees")),
    "occupancy_by_room_type": (_occupancy_by_room_type, ("stay_nights", "room_fees")),
    "segment_daily": (_segment_daily, ("stay_nights", "room_fees")),
    "revenue_tieout": (_revenue_tieout, ("stay_nights", "occupancy_daily")),
    "otb_snapshots": (Snapshots(_otb_snapshots, _otb_inputs, "snapshot_date",
                                pl.col("snapshot_date")), ()),
    "pickup": (Snapshots(_pickup, _pickup_inputs, "as_of_date", pl.col("as_of_date")), ()),
    "pace": (Snapshots(_pace, _pace_inputs, "stay_date - days_before",
                       pl.col("stay_date") - pl.duration(days=pl.col("days_before"))),
             ("otb_snapshots", "occupancy_daily")),
    "booking_outcomes": (_booking_outcomes, ()),
    "booking_kpis": (_booking_kpis, ("booking_outcomes",)),
    "forecast_daily": (_forecast_daily, ("otb_snapshots",)),
    "forecast_accuracy": (_forecast_accuracy, ("otb_snapshots", "occupancy_daily",
                                               "revenue_daily")),
    "alerts": (_alerts, ("otb_snapshots", "pace")),
}
CALENDAR_MARTS = {"pace", "forecast_daily", "forecast_accuracy", "alerts"}
"""The marts that read the calendar (pace's STLY, the forecast's last year)."""
SNAPSHOT_MARTS = {name: b for name, (b, _) in MARTS.items() if isinstance(b, Snapshots)}


def build_mart(conn: duckdb.DuckDBPyConnection, name: str, property_id: int,
               settings: MartSettings | None = None,
               run_id: str | None = None) -> tuple[pl.DataFrame, Replaced]:
    """Compute mart `name` of the property from the warehouse and replace its rows (one
    transaction, which also records `run_id` in meta.mart_builds, writing only the rows that
    changed); return the rows built and what was written."""
    return next(built_marts(conn, property_id, settings, [name], run_id))[1:]


def built_marts(conn: duckdb.DuckDBPyConnection, property_id: int,
                settings: MartSettings | None = None, names: Sequence[str] | None = None,
                run_id: str | None = None) -> Iterator[tuple[str, pl.DataFrame, Replaced]]:
    """Build the marts `names` (all by default) of the property in dependency order, each
    replacing its rows in its own transaction as `build_mart` does, reading core.* once for
    all of them (`Inputs`): (mart, rows built, what was written) as each is done."""
    inputs = Inputs(conn, read.property_facts(conn, property_id), settings or MartSettings())
    if names is None or CALENDAR_MARTS & set(names):
        inputs.events()  # a bad events file stops the build before any mart is written
    for name in MARTS if names is None else [n for n in MARTS if n in names]:
        builder = MARTS[name][0]
        if isinstance(builder, Snapshots):
            yield name, *_snapshots(inputs, name, builder, run_id)
        elif name == "forecast_daily":  # with the nights the flash compares with, or neither
            rows = builder(inputs)
            with transaction(conn):
                written = replace_rows(conn, name, property_id, rows, run_id)
                keep_forecast(conn, property_id, rows)
            yield name, rows, written
        else:
            rows = builder(inputs)
            yield name, rows, replace_rows(conn, name, property_id, rows, run_id)


def _snapshots(i: Inputs, name: str, mart: Snapshots,
               run_id: str | None) -> tuple[pl.DataFrame, Replaced]:
    """Build a snapshot mart from the first day whose inputs changed (whole when the stored
    rows' inputs are not known: `read.kept_inputs`)."""
    now = mart.inputs(i)
    start = rebuild_start(read.kept_inputs(i.conn, name, i.pid), now)
    rows = mart.build(i, start)
    since = None if start is None else mart.since(start)
    return rows, replace_rows(i.conn, name, i.pid, rows, run_id, since, now)


def build_marts(conn: duckdb.DuckDBPyConnection, property_id: int,
                settings: MartSettings | None = None,
                names: Sequence[str] | None = None, run_id: str | None = None) -> dict[str, int]:
    """Build the marts `names` (all by default) in dependency order; the property's rows of
    each mart after its build."""
    return {name: written.rows
            for name, _, written in built_marts(conn, property_id, settings, names, run_id)}
