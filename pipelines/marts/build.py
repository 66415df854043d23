"""Each mart of one property: which core.* / mart.* frames it reads and which transform makes it.

MARTS is in build order: a mart reads only core.* and the marts before it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

import duckdb
import polars as pl

from pipelines.transforms.alerts import AlertSettings, alerts
from pipelines.transforms.booking_kpis import booking_kpis
from pipelines.transforms.booking_outcomes import booking_outcomes
from pipelines.transforms.forecast import ForecastSettings, accuracy, backtest, forecast_daily
from pipelines.transforms.history import rebuild_before_first_sync, snapshot_ranges
from pipelines.transforms.line_rooms import with_single_room_entries
from pipelines.transforms.no_shows import cancellations, with_no_show_flag
from pipelines.transforms.occupancy import (
    occupancy_by_room_type,
    occupancy_daily,
    other_revenue_by_room_type,
    other_revenue_daily,
)
from pipelines.transforms.otb import HORIZON_DAYS, otb_snapshots
from pipelines.transforms.pace import pace
from pipelines.transforms.persons import with_persons
from pipelines.transforms.pickup import WINDOWS, pickup
from pipelines.transforms.revenue import revenue_daily
from pipelines.transforms.room_fees import room_fees
from pipelines.transforms.segments import segment_daily
from pipelines.transforms.stay_nights import stay_nights
from pipelines.transforms.tieout import revenue_tieout

from . import read
from .write import Replaced, replace_rows


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


@dataclass(frozen=True)
class Inputs:
    """What a builder works with: the connection, the property and the settings."""

    conn: duckdb.DuckDBPyConnection
    facts: read.PropertyFacts
    settings: MartSettings

    @property
    def pid(self) -> int:
        return self.facts.property_id

    @property
    def vat(self) -> Decimal:
        if self.settings.vat_pct is not None:
            return self.settings.vat_pct
        return read.accommodation_vat(self.conn, self.pid)

    def properties(self) -> pl.DataFrame:
        return pl.DataFrame({"property_id": [self.pid],
                             "business_date": [self.facts.business_date]})

    def rooms(self) -> pl.DataFrame:
        """core.reservation_rooms with persons, is_no_show and is_lapsed_option."""
        entries = with_persons(read.room_entries(self.conn, self.pid),
                               read.age_brackets(self.conn, self.pid))
        return with_no_show_flag(entries, read.room_versions(self.conn, self.pid), self.lines(),
                                 read.items(self.conn, self.pid), self.facts.timezone)

    def lines(self) -> pl.DataFrame:
        return with_single_room_entries(read.folio_lines(self.conn, self.pid),
                                        read.room_entries(self.conn, self.pid))

    def versions(self) -> pl.DataFrame:
        """Room versions with the history before the first sync rebuilt."""
        return rebuild_before_first_sync(read.room_versions(self.conn, self.pid),
                                         cancellations(read.events(self.conn, self.pid)))

    def ranges(self, versions: pl.DataFrame) -> pl.DataFrame:
        return snapshot_ranges(read.business_dates(self.conn, self.pid), versions,
                               self.facts.timezone)


def _stay_nights(i: Inputs) -> pl.DataFrame:
    return stay_nights(i.rooms(), i.properties(), i.lines(), read.items(i.conn, i.pid), i.vat)


def _revenue_daily(i: Inputs) -> pl.DataFrame:
    return revenue_daily(i.lines(), read.items(i.conn, i.pid))


def _room_fees(i: Inputs) -> pl.DataFrame:
    return room_fees(i.lines(), read.items(i.conn, i.pid), i.rooms())


def _occupancy_daily(i: Inputs) -> pl.DataFrame:
    other = other_revenue_daily(read.mart(i.conn, "revenue_daily", i.pid))
    return occupancy_daily(read.mart(i.conn, "stay_nights", i.pid), read.rooms(i.conn, i.pid),
                           read.availability(i.conn, i.pid), i.properties(), other,
                           read.mart(i.conn, "room_fees", i.pid))


def _occupancy_by_room_type(i: Inputs) -> pl.DataFrame:
    nights = read.mart(i.conn, "stay_nights", i.pid)
    rooms = read.rooms(i.conn, i.pid)
    other = other_revenue_by_room_type(i.lines(), read.items(i.conn, i.pid), nights, rooms)
    return occupancy_by_room_type(nights, rooms, read.availability(i.conn, i.pid),
                                  i.properties(), other, read.mart(i.conn, "room_fees", i.pid))


def _segment_daily(i: Inputs) -> pl.DataFrame:
    return segment_daily(read.mart(i.conn, "stay_nights", i.pid),
                         read.mart(i.conn, "room_fees", i.pid))


def _revenue_tieout(i: Inputs) -> pl.DataFrame:
    return revenue_tieout(i.lines(), read.items(i.conn, i.pid), i.rooms(),
                          read.mart(i.conn, "stay_nights", i.pid),
                          read.mart(i.conn, "occupancy_daily", i.pid), i.properties())


def _otb_snapshots(i: Inputs) -> pl.DataFrame:
    versions = i.versions()
    return otb_snapshots(versions, i.ranges(versions), i.facts.timezone, i.vat,
                         i.settings.horizon_days)


def _pickup(i: Inputs) -> pl.DataFrame:
    versions = i.versions()
    return pickup(versions, i.ranges(versions), i.settings.pickup_windows, i.facts.timezone,
                  i.vat, i.settings.horizon_days)


def _pace(i: Inputs) -> pl.DataFrame:
    return pace(read.mart(i.conn, "otb_snapshots", i.pid),
                read.mart(i.conn, "occupancy_daily", i.pid))


def _booking_outcomes(i: Inputs) -> pl.DataFrame:
    return booking_outcomes(i.rooms(), i.facts.timezone)


def _booking_kpis(i: Inputs) -> pl.DataFrame:
    return booking_kpis(read.mart(i.conn, "booking_outcomes", i.pid))


def _capacity(i: Inputs) -> pl.DataFrame:
    """property_id, rooms: the sellable rooms of core.rooms."""
    rooms = read.rooms(i.conn, i.pid)
    sellable = rooms.filter(pl.col("sellable")).height if rooms.height else 0
    return pl.DataFrame({"property_id": [i.pid], "rooms": [sellable]})


def _forecast_daily(i: Inputs) -> pl.DataFrame:
    return forecast_daily(read.mart(i.conn, "otb_snapshots", i.pid), _capacity(i),
                          settings=i.settings.forecast)


def _forecast_accuracy(i: Inputs) -> pl.DataFrame:
    errors = backtest(read.mart(i.conn, "otb_snapshots", i.pid), _capacity(i),
                      i.settings.forecast)
    return accuracy(errors, i.settings.forecast)


def _alerts(i: Inputs) -> pl.DataFrame:
    return alerts(read.mart(i.conn, "otb_snapshots", i.pid), read.mart(i.conn, "pace", i.pid),
                  _capacity(i), i.settings.alerts, i.settings.forecast)


Builder = Callable[[Inputs], pl.DataFrame]

MARTS: dict[str, tuple[Builder, tuple[str, ...]]] = {
    # mart: (builder, marts it reads)
    "stay_nights": (_stay_nights, ()),
    "revenue_daily": (_revenue_daily, ()),
    "room_fees": (_room_fees, ()),
    "occupancy_daily": (_occupancy_daily, ("stay_nights", "revenue_daily", "room_fees")),
    "occupancy_by_room_type": (_occupancy_by_room_type, ("stay_nights", "room_fees")),
    "segment_daily": (_segment_daily, ("stay_nights", "room_fees")),
    "revenue_tieout": (_revenue_tieout, ("stay_nights", "occupancy_daily")),
    "otb_snapshots": (_otb_snapshots, ()),
    "pickup": (_pickup, ()),
    "pace": (_pace, ("otb_snapshots", "occupancy_daily")),
    "booking_outcomes": (_booking_outcomes, ()),
    "booking_kpis": (_booking_kpis, ("booking_outcomes",)),
    "forecast_daily": (_forecast_daily, ("otb_snapshots",)),
    "forecast_accuracy": (_forecast_accuracy, ("otb_snapshots",)),
    "alerts": (_alerts, ("otb_snapshots", "pace")),
}


def build_mart(conn: duckdb.DuckDBPyConnection, name: str, property_id: int,
               settings: MartSettings | None = None,
               run_id: str | None = None) -> tuple[pl.DataFrame, Replaced]:
    """Compute mart `name` of the property from the warehouse and replace its rows (one
    transaction, which also records `run_id` in meta.mart_builds, writing only the rows that
    changed); return the rows built and what was written."""
    builder, _ = MARTS[name]
    rows = builder(Inputs(conn, read.property_facts(conn, property_id),
                          settings or MartSettings()))
    return rows, replace_rows(conn, name, property_id, rows, run_id)


def build_marts(conn: duckdb.DuckDBPyConnection, property_id: int,
                settings: MartSettings | None = None,
                names: Sequence[str] | None = None, run_id: str | None = None) -> dict[str, int]:
    """Build the marts `names` (all by default) in dependency order; the rows of each mart."""
    wanted = list(MARTS) if names is None else [n for n in MARTS if n in names]
    return {name: build_mart(conn, name, property_id, settings, run_id)[0].height
            for name in wanted}
