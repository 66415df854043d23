"""mart.alerts (pipelines/forecast/logic/alerts.py) on hand-made snapshots and pace.

Snapshots 2026-01-01 .. 2026-03-11 (S = the last), nights up to 20 days ahead: a night D's
books at h days before are round(c(D) x (20 - h)), c(D) = 0.8, 1.0 or 1.2 by D's ordinal
mod 3, so a week's pickup at the same days before is 5.6 to 8.4 rooms. On S two nights move:
S + 2 gains 10 rooms (a spike) and S + 4 stands at 41 rooms (above the 40 the hotel sells, and
a spike too). Pace, by hand, as of S: S + 5 has 6 rooms against 10 a year earlier (-40 %),
S + 6 has 9 against 10 (-10 %), S + 7 has 0 against 3 (too quiet to count)."""

from __future__ import annotations

import statistics
from datetime import date, timedelta

import polars as pl
import pytest

from pipelines.forecast.logic.alerts import alerts
from pipelines.forecast.logic.methods import ForecastSettings

FIRST, LAST = date(2026, 1, 1), date(2026, 3, 11)
CAPACITY = pl.DataFrame({"property_id": [1], "rooms": [40]})


def _c(stay: date) -> float:
    return (0.8, 1.0, 1.2)[stay.toordinal() % 3]


def _rooms(snap: date, stay: date) -> int:
    rooms = round(_c(stay) * (20 - (stay - snap).days))
    if snap == LAST and stay == LAST + timedelta(days=2):
        rooms += 10
    if snap == LAST and stay == LAST + timedelta(days=4):
        rooms = 41
    return rooms


def snapshots() -> pl.DataFrame:
    rows = []
    snap = FIRST
    while snap <= LAST:
        rows += [(1, snap, snap + timedelta(days=h), _rooms(snap, snap + timedelta(days=h)))
                 for h in range(21)]
        snap += timedelta(days=1)
    return pl.DataFrame(rows, orient="row", schema=[
        "property_id", "snapshot_date", "stay_date", "rooms_otb"]).with_columns(
        revenue_otb_net=pl.col("rooms_otb") * 100.0)


PACE = pl.DataFrame({
    "property_id": [1, 1, 1], "stay_date": [LAST + timedelta(days=d) for d in (5, 6, 7)],
    "days_before": [5, 6, 7], "rooms_otb": [6, 9, 0], "stly_rooms_otb": [10, 10, 3]})


def _z(stay: date) -> float:
    h = (stay - LAST).days
    week = [_rooms(LAST - timedelta(days=7 * k), stay - timedelta(days=7 * k))
            - _rooms(LAST - timedelta(days=7 * k + 7), stay - timedelta(days=7 * k))
            for k in range(1, 9)]
    now = _rooms(LAST, stay) - _rooms(LAST - timedelta(days=7), stay)
    assert len(week) == 8
    assert h <= 20
    return (now - statistics.mean(week)) / statistics.stdev(week)


def test_each_kind_of_alert() -> None:
    got = alerts(snapshots(), PACE, CAPACITY,
                 forecast_settings=ForecastSettings(overbooking_rooms=0))
    assert set(got["as_of_date"]) == {LAST}
    found = {(row["stay_date"], row["alert"]): row for row in got.to_dicts()}
    spike, full, slow = (LAST + timedelta(days=d) for d in (2, 4, 5))
    assert set(found) == {(spike, "pickup_spike"), (full, "pickup_spike"),
                          (full, "over_capacity"), (slow, "pace_below_stly")}
    assert found[(slow, "pace_below_stly")]["value"] == pytest.approx(-0.4)
    assert found[(full, "over_capacity")]["value"] == 41
    assert found[(full, "over_capacity")]["threshold"] == 40
    assert found[(spike, "pickup_spike")]["value"] == pytest.approx(_z(spike), abs=0.01)
    assert _z(spike) >= 3


def test_the_overbooking_practised_raises_the_limit() -> None:
    got = alerts(snapshots(), PACE, CAPACITY,
                 forecast_settings=ForecastSettings(overbooking_rooms=1))
    assert "over_capacity" not in set(got["alert"])


def test_alerts_as_of_the_last_closed_day_read_nothing_after_it() -> None:
    """As of the day before S (the marts pass the last closed business date; S is the open
    day): S's spike on S + 2 and its 41 rooms on S + 4 are not yet known, so neither the
    spike nor the over-capacity fires; every alert is as of S - 1."""
    closed = LAST - timedelta(days=1)
    got = alerts(snapshots(), PACE, CAPACITY,
                 forecast_settings=ForecastSettings(overbooking_rooms=0), as_of=closed)
    assert set(got["as_of_date"]) <= {closed}
    assert not {(r["stay_date"], r["alert"]) for r in got.to_dicts()} & {
        (LAST + timedelta(days=2), "pickup_spike"), (LAST + timedelta(days=4), "over_capacity")}
