"""mart.alerts: the nights to look at, as of the last snapshot date (docs/alerts.md).

Pure polars over mart.otb_snapshots and mart.pace. Three kinds, each for the nights
S .. S + horizon_days (S the property's last snapshot date):
- pace_below_stly: rooms on the books at least `pace_share` below the same time last year
  (STLY at least `min_stly_rooms` and `min_stly_share` of the sellable rooms, so a quiet
  night is no alert), and behind it by at least
  `min_gap_rooms` rooms and `min_gap_share` of the hotel's sellable rooms: a gap of a few
  rooms far out is a night's own luck, not a pace to act on;
- pickup_spike: the rooms picked up over the last 7 days, as a z-score against the 7-day
  pickups at the same days before of the same weekday's nights of the `spike_weeks` weeks
  before, at least `spike_z` and at least `min_spike_rooms` rooms;
- over_capacity: rooms on the books plus the pickup the forecast expects (additive_pickup's:
  the mean remaining pickup of the same weekday's last nights from the same days before,
  `expected_pickup`; 0 without such nights) above capacity plus the overbooking the hotel
  practises, so a night heading over is flagged before it is full; only `capacity_days`
  ahead. Not the forecast in use:
  it is clipped to that limit, so it never goes above it.
Each alert's `message` says its reason in words: the figures it compares and the rule they
broke.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import polars as pl

from pipelines.forecast.logic.methods import ForecastSettings, expected_pickup, rooms_limit
from pipelines.vocabulary import Frame, counted, counted_expr, lazy

COLUMNS = ("property_id", "as_of_date", "stay_date", "alert", "value", "threshold", "message")


@dataclass(frozen=True)
class AlertSettings:
    horizon_days: int = 90
    pace_share: float = 0.2
    """pace_below_stly: the books at least this share below STLY..."""
    min_stly_rooms: int = 5
    """...STLY at least this many rooms..."""
    min_stly_share: float = 0.4
    """...and at least this share of the sellable rooms: a night last year's books held few
    of the rooms of at that point is no pace to act on (docs/alerts.md; tuned on seeds 13
    and 14: 0.3 changed next to nothing, 0.5 left Rome 0.8 alerts a week)..."""
    min_gap_rooms: int = 5
    """...behind STLY by at least this many rooms..."""
    min_gap_share: float = 0.2
    """...and by at least this share of the sellable rooms (docs/alerts.md; 0.15
    fired 6.5 nights a week at Florence on seed 1, 0.2 4.2)."""
    spike_weeks: int = 8
    spike_z: float = 4.0
    """pickup_spike: the z-score from which it fires (3 fired 3.7 / 4.6 nights a week on
    seed 1, and a z against 8 weeks' pickups is wide: docs/alerts.md)."""
    min_spike_rooms: int = 3
    capacity_days: int = 14
    """over_capacity: the nights up to this many days ahead. Farther out the pickup expected
    is that of the curve nights, from another season (docs/alerts.md, measured)."""


def _pct(share: pl.Expr) -> pl.Expr:
    """A share as a percent of one decimal, for a message."""
    return (share * 100).round(1)


def _pace_below(pace: pl.LazyFrame, as_of: pl.LazyFrame, rooms: pl.LazyFrame,
                s: AlertSettings) -> pl.LazyFrame:
    share = pl.col("rooms_otb") / pl.col("stly_rooms_otb") - 1
    gap = pl.col("stly_rooms_otb") - pl.col("rooms_otb")
    need = pl.max_horizontal(pl.lit(float(s.min_gap_rooms)),
                             pl.col("rooms").fill_null(0) * s.min_gap_share)
    stly_need = pl.max_horizontal(pl.lit(float(s.min_stly_rooms)),
                                  pl.col("rooms").fill_null(0) * s.min_stly_share)
    return (
        pace.join(as_of, on="property_id")
        .join(rooms, on="property_id", how="left")
        .filter(pl.col("stay_date") - pl.duration(days=pl.col("days_before"))
                == pl.col("as_of_date"),
                pl.col("days_before") <= s.horizon_days,
                pl.col("stly_rooms_otb") >= stly_need)
        .with_columns(value=share, gap=gap, need=need)
        .filter(pl.col("value") <= -s.pace_share, pl.col("gap") >= pl.col("need"))
        .select(
            "property_id", "as_of_date", "stay_date", alert=pl.lit("pace_below_stly"),
            value=pl.col("value").round(4), threshold=pl.lit(-s.pace_share),
            message=pl.format(
                "behind last year: {} on the books {} before, {} at the same time last year, "
                "{} ({}%) behind, {}% of the {}; alerts from {}% and {} behind",
                counted_expr("rooms_otb", "room"), counted_expr("days_before", "day"),
                "stly_rooms_otb", counted_expr("gap", "room"), _pct(-pl.col("value")),
                _pct(pl.col("gap") / pl.col("rooms")).fill_null(pl.lit("-")),
                counted_expr("rooms", "room").fill_null(pl.lit("? rooms")),
                round(s.pace_share * 100, 1),
                counted_expr(pl.col("need").ceil().cast(pl.Int64), "room")),
        )
    )


def _pickup_spikes(o: pl.LazyFrame, as_of: pl.LazyFrame, s: AlertSettings) -> pl.LazyFrame:
    earliest = pl.col("as_of_date") - pl.duration(days=7 * (s.spike_weeks + 1))
    recent = (
        o.join(as_of, on="property_id")
        .filter(pl.col("snapshot_date") >= earliest,
                pl.col("snapshot_date") <= pl.col("as_of_date"))
        .select("property_id", "as_of_date", "snapshot_date", "stay_date", "rooms_otb")
    )
    week_before = recent.select(
        "property_id", "stay_date",
        snapshot_date=pl.col("snapshot_date") + pl.duration(days=7), before="rooms_otb")
    picked = (
        recent.join(week_before, on=["property_id", "snapshot_date", "stay_date"], how="inner")
        .with_columns(
            pickup=(pl.col("rooms_otb") - pl.col("before")).cast(pl.Float64),
            days_before=(pl.col("stay_date") - pl.col("snapshot_date")).dt.total_days(),
            weeks_back=(pl.col("as_of_date") - pl.col("snapshot_date")).dt.total_days(),
        )
        .filter(pl.col("days_before") <= s.horizon_days)
    )
    now = picked.filter(pl.col("weeks_back") == 0)
    history = (
        picked.filter(pl.col("weeks_back") > 0, pl.col("weeks_back") % 7 == 0)
        .group_by("property_id", "days_before")
        .agg(mean=pl.col("pickup").mean(), std=pl.col("pickup").std(), weeks=pl.len())
    )
    z = (pl.col("pickup") - pl.col("mean")) / pl.col("std")
    return (
        now.join(history, on=["property_id", "days_before"], how="inner")
        .filter(pl.col("weeks") >= 2, pl.col("std") > 0,
                pl.col("pickup") >= s.min_spike_rooms)
        .with_columns(value=z)
        .filter(pl.col("value") >= s.spike_z)
        .select(
            "property_id", "as_of_date", "stay_date", alert=pl.lit("pickup_spike"),
            value=pl.col("value").round(2), threshold=pl.lit(s.spike_z),
            message=pl.format("pickup spike: {} picked up in the last 7 days, {} before; {} "
                              "a week on average at {} before over the last {}, so {} "
                              "standard deviations above it; alerts from {} and {}",
                              counted_expr(pl.col("pickup").cast(pl.Int64), "room"),
                              counted_expr("days_before", "day"), pl.col("mean").round(1),
                              counted_expr("days_before", "day"), counted_expr("weeks", "week"),
                              pl.col("value").round(1), s.spike_z,
                              pl.lit(counted(s.min_spike_rooms, "room"))),
        )
    )


def _over_capacity(expected: pl.DataFrame, limits: pl.DataFrame, rooms: pl.LazyFrame,
                   s: AlertSettings) -> pl.LazyFrame:
    pickup = pl.col("expected_pickup").fill_null(0.0)
    heading = pl.col("rooms_otb") + pickup
    return (
        expected.lazy()
        .join(limits.lazy(), on=["property_id", "as_of_date"], how="inner")
        .join(rooms, on="property_id", how="left")
        .filter(pl.col("days_before") <= min(s.horizon_days, s.capacity_days),
                heading > pl.col("rooms_limit"))
        .select(
            "property_id", "as_of_date", "stay_date", alert=pl.lit("over_capacity"),
            # rooms on the books, as mart.alerts.value's comment says (a shipped migration);
            # the rooms expected, books plus pickup, are in the message
            value=pl.col("rooms_otb").cast(pl.Float64),
            threshold=pl.col("rooms_limit").cast(pl.Float64),
            message=pl.format("heading over capacity: {} on the books {} before and {} "
                              "more expected ({}), {} rooms, {} above the {} the hotel sells "
                              "({} plus {} overbooked as it has before)",
                              counted_expr("rooms_otb", "room"),
                              counted_expr("days_before", "day"), pickup.round(1),
                              pl.when(pl.col("curve_nights").is_null()).then(
                                  pl.lit("no earlier night of its weekday to read"))
                              .otherwise(pl.format("the mean pickup from {} before of the "
                                                   "last {}",
                                                   counted_expr("days_before", "day"),
                                                   counted_expr("curve_nights",
                                                                "such weekday"))),
                              heading.round(1), (heading - pl.col("rooms_limit")).round(1),
                              "rooms_limit", counted_expr(pl.col("rooms").fill_null(
                                  pl.col("rooms_limit")), "room"),
                              pl.col("rooms_limit") - pl.col("rooms").fill_null(
                                  pl.col("rooms_limit"))),
        )
    )


def alerts(otb_snapshots: Frame, pace: Frame, capacity: Frame,
           settings: AlertSettings | None = None,
           forecast_settings: ForecastSettings | None = None,
           as_of: date | None = None) -> pl.DataFrame:
    """Build mart.alerts as of `as_of` (the marts pass the last closed business date:
    docs/kpi.md, "As of"), else as of each property's last snapshot date; snapshots after it
    are not read."""
    s = settings or AlertSettings()
    o = lazy(otb_snapshots, "otb_snapshots",
             ["property_id", "snapshot_date", "stay_date", "rooms_otb"]).select(
        "property_id", "snapshot_date", "stay_date", pl.col("rooms_otb").cast(pl.Int64))
    if as_of is not None:
        o = o.filter(pl.col("snapshot_date") <= as_of)
        otb_snapshots = lazy(otb_snapshots, "otb_snapshots", ["snapshot_date"]).filter(
            pl.col("snapshot_date") <= as_of).collect()
    dates = o.group_by("property_id").agg(as_of_date=pl.col("snapshot_date").max())
    p = lazy(pace, "pace", ["property_id", "stay_date", "days_before", "rooms_otb",
                            "stly_rooms_otb"])
    limits = rooms_limit(otb_snapshots, capacity, dates.collect(), forecast_settings)
    expected = expected_pickup(otb_snapshots, dates.collect(), s.horizon_days,
                               forecast_settings)
    rooms = lazy(capacity, "capacity", ["property_id", "rooms"]).select(
        "property_id", pl.col("rooms").cast(pl.Int64))
    return (
        pl.concat([_pace_below(p, dates, rooms, s), _pickup_spikes(o, dates, s),
                   _over_capacity(expected, limits, rooms, s)], how="vertical_relaxed")
        .select(COLUMNS)
        .sort("property_id", "stay_date", "alert")
        .collect()
    )
