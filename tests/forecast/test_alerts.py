"""mart.alerts (pipelines/forecast/logic/alerts.py) on hand-made snapshots and pace.

Snapshots 2026-01-01 .. 2026-03-11 (S = the last), nights up to 20 days ahead: a night D's
books at h days before are round(c(D) x (20 - h)), c(D) = 0.8, 1.0 or 1.2 by D's ordinal
mod 3, so a week's pickup at the same days before is 5.6 to 8.4 rooms. On S two nights move:
S + 2 gains 10 rooms (a spike) and S + 4 stands at 41 rooms (above the 40 the hotel sells with
the 3 to 5 rooms its weekday picks up from 4 days out still to come, and a spike too). Pace,
by hand, as of S, in a hotel of 40 sellable rooms: S + 5 has 8 rooms against
16 a year earlier (-50 %, 8 rooms behind: 20 % of the rooms; STLY 16 = 40 % of the rooms), S + 6
has 9 against 10 (-10 %), S + 7 has 0 against 15 (-100 %, but STLY under the 40 % = 16 rooms
a pace alert needs: too quiet to count), S + 8 has 9 against 16 (-43.8 %, but 7 rooms behind:
17.5 % of the rooms, under the 20 % = 8 rooms a pace alert needs)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from datetime import date, timedelta

import polars as pl
import pytest

from pipelines.forecast.logic.alerts import AlertSettings, alerts
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


def _books(rooms: Callable[[date, int], int], ahead: int) -> pl.DataFrame:
    """Snapshots FIRST .. LAST of the nights up to `ahead` days out, `rooms(snapshot, h)` on
    the books of the night h days after the snapshot, at 100.00 a room."""
    rows = [(1, FIRST + timedelta(days=d), FIRST + timedelta(days=d + h),
             rooms(FIRST + timedelta(days=d), h))
            for d in range((LAST - FIRST).days + 1) for h in range(ahead + 1)]
    return pl.DataFrame(rows, orient="row", schema=[
        "property_id", "snapshot_date", "stay_date", "rooms_otb"]).with_columns(
        revenue_otb_net=pl.col("rooms_otb") * 100.0)


def snapshots() -> pl.DataFrame:
    return _books(lambda snap, h: _rooms(snap, snap + timedelta(days=h)), 20)


PACE = pl.DataFrame({
    "property_id": [1, 1, 1, 1], "stay_date": [LAST + timedelta(days=d) for d in (5, 6, 7, 8)],
    "days_before": [5, 6, 7, 8], "rooms_otb": [8, 9, 0, 9], "stly_rooms_otb": [16, 10, 15, 16]})


def _pickups(stay: date) -> tuple[int, list[int]]:
    """The 7-day pickup of `stay` up to S, and those at the same days before of the nights of
    its weekday of the 8 weeks before."""
    week = [_rooms(LAST - timedelta(days=7 * k), stay - timedelta(days=7 * k))
            - _rooms(LAST - timedelta(days=7 * k + 7), stay - timedelta(days=7 * k))
            for k in range(1, 9)]
    assert len(week) == 8
    assert (stay - LAST).days <= 20
    return _rooms(LAST, stay) - _rooms(LAST - timedelta(days=7), stay), week


def _z(stay: date) -> float:
    now, week = _pickups(stay)
    return (now - statistics.mean(week)) / statistics.stdev(week)


def _heading(stay: date) -> float:
    """The books of `stay` on S plus the mean pickup from the same days before of the 8 nights
    of its weekday ending a week before it (they are over by S: h < 7)."""
    h = (stay - LAST).days
    curve = [stay - timedelta(days=7 * k) for k in range(1, 9)]
    assert h < 7
    assert all(night < LAST for night in curve)
    return _rooms(LAST, stay) + statistics.mean(
        _rooms(night, night) - _rooms(night - timedelta(days=h), night) for night in curve)


def test_each_kind_of_alert() -> None:
    got = alerts(snapshots(), PACE, CAPACITY,
                 forecast_settings=ForecastSettings(overbooking_rooms=0))
    assert set(got["as_of_date"]) == {LAST}
    found = {(row["stay_date"], row["alert"]): row for row in got.to_dicts()}
    spike, full, slow = (LAST + timedelta(days=d) for d in (2, 4, 5))
    assert set(found) == {(spike, "pickup_spike"), (full, "pickup_spike"),
                          (full, "over_capacity"), (slow, "pace_below_stly")}
    assert found[(slow, "pace_below_stly")]["value"] == pytest.approx(-0.5)
    assert found[(full, "over_capacity")]["value"] == 41
    assert _heading(full) > 41
    assert found[(full, "over_capacity")]["threshold"] == 40
    assert found[(spike, "pickup_spike")]["value"] == pytest.approx(_z(spike), abs=0.01)
    assert _z(spike) >= 4


def test_the_overbooking_practised_raises_the_limit() -> None:
    """S + 4 heads to 41 rooms plus its expected pickup: overbooking the rooms above 40
    (rounded up) lifts the limit to it, one fewer does not."""
    above = math.ceil(_heading(LAST + timedelta(days=4))) - 40

    def fired(overbooking: int) -> bool:
        got = alerts(snapshots(), PACE, CAPACITY,
                     forecast_settings=ForecastSettings(overbooking_rooms=overbooking))
        return "over_capacity" in set(got["alert"])

    assert not fired(above)
    assert fired(above - 1)


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


def _pace_alerts(rooms: int, pace_rows: list[tuple[int, int, int]],
                 settings: AlertSettings | None = None) -> dict[int, str]:
    """days_before -> message of the pace alerts as of S in a hotel of `rooms` sellable rooms,
    pace_rows (days_before, rooms on the books, STLY) of the nights S + days_before."""
    pace = pl.DataFrame([(1, LAST + timedelta(days=k), k, otb, stly) for k, otb, stly
                         in pace_rows], orient="row", schema=[
        "property_id", "stay_date", "days_before", "rooms_otb", "stly_rooms_otb"])
    got = alerts(snapshots(), pace, pl.DataFrame({"property_id": [1], "rooms": [rooms]}),
                 settings, forecast_settings=ForecastSettings(overbooking_rooms=99))
    return {(row["stay_date"] - LAST).days: row["message"]
            for row in got.filter(pl.col("alert") == "pace_below_stly").to_dicts()}


def test_a_few_rooms_behind_far_out_is_no_pace_alert() -> None:
    """Issue 49: at Rome (78 sellable rooms) 73 days out, 2 rooms on the books against 11 a
    year earlier (-81.8 %) fired; 9 rooms behind is 11.5 % of the rooms, under the 20 %
    (15.6 rooms) a pace alert needs (and STLY 11 is under the 40 % = 31.2 rooms), and so is
    17 against 32 (15 behind, 19.2 %). 16 against 32 (16 behind, 20.5 %) fires."""
    fired = _pace_alerts(78, [(73, 2, 11), (74, 17, 32), (75, 16, 32)])

    assert set(fired) == {75}


def test_in_a_small_hotel_five_rooms_behind_are_needed() -> None:
    """20 rooms: 20 % is 4 rooms, so the minimum of 5 rooms decides. 6 against 10 (-40 %, 4
    behind) is no alert, 5 against 10 (5 behind) is."""
    fired = _pace_alerts(20, [(10, 6, 10), (11, 5, 10)])

    assert set(fired) == {11}


def test_the_stly_a_pace_alert_needs_scales_with_the_hotel() -> None:
    """STLY at least min_stly_share of the sellable rooms: 0.4 by default, at 40 rooms 16. 2
    against 15 (13 behind, above the 8 = 20 % of the rooms a gap needs) is no alert (with no
    share it is), 3 against 16 is; at 10 rooms 0.4 is 4 rooms, under min_stly_rooms' 5: 0
    against 5 (5 behind, -100 %) fires, 0 against 4 does not."""
    assert set(_pace_alerts(40, [(20, 2, 15), (21, 3, 16)])) == {21}
    assert set(_pace_alerts(40, [(20, 2, 15)], AlertSettings(min_stly_share=0.0))) == {20}
    assert set(_pace_alerts(10, [(20, 0, 4), (21, 0, 5)])) == {21}


def test_each_alert_says_its_reason_in_words() -> None:
    got = alerts(snapshots(), PACE, CAPACITY,
                 forecast_settings=ForecastSettings(overbooking_rooms=0))
    said = {(row["stay_date"], row["alert"]): row["message"] for row in got.to_dicts()}
    spike, full, slow = (LAST + timedelta(days=d) for d in (2, 4, 5))

    assert said[(slow, "pace_below_stly")] == (
        "behind last year: 8 rooms on the books 5 days before, 16 at the same time last year, "
        "8 rooms (50.0%) behind, 20.0% of the 40 rooms; alerts from 20.0% and 8 rooms behind")
    heading = _heading(full)
    assert said[(full, "over_capacity")] == (
        f"heading over capacity: 41 rooms on the books 4 days before and "
        f"{heading - 41:.1f} more expected (the mean pickup from 4 days before of the "
        f"last 8 such weekdays), {heading:.1f} rooms, {heading - 40:.1f} above the "
        "40 the hotel sells (40 rooms plus 0 overbooked as it has before)")
    now, week = _pickups(spike)
    assert said[(spike, "pickup_spike")] == (
        f"pickup spike: {now} rooms picked up in the last 7 days, 2 days before; "
        f"{round(statistics.mean(week), 1)} a week on average at 2 days before over the last 8 "
        f"weeks, so {round(_z(spike), 1)} standard deviations above it; alerts from 4.0 and 3 "
        "rooms")


def _filling(rooms_on_s: dict[int, int]) -> pl.DataFrame:
    """Snapshots of a hotel whose every night ends with 8 rooms, booked one a day over its
    last 8 days (h days before: max(0, 8 - h) rooms), 2026-01-01 .. S; on S the nights
    S + h of `rooms_on_s` hold other books."""
    return _books(lambda snap, h: rooms_on_s.get(h, max(0, 8 - h)) if snap == LAST
                  else max(0, 8 - h), 10)


NO_PACE = pl.DataFrame(schema={"property_id": pl.Int64, "stay_date": pl.Date,
                               "days_before": pl.Int64, "rooms_otb": pl.Int64,
                               "stly_rooms_otb": pl.Int64})


def test_a_night_heading_over_capacity_is_flagged_before_it_is_full() -> None:
    """Issue 49: books plus expected pickup above rooms plus the overbooking practised. A
    hotel of 10 rooms whose nights end at 8 (so no overbooking practised: the limit is 10);
    every night picked up h rooms from h <= 8 days out, so the pickup expected from h days out
    is h. On S: S + 3 holds 9 rooms (9 + 3 = 12, 2 above 10), S + 5 holds 6 (6 + 5 = 11:
    flagged with 4 rooms still free), S + 6 holds 4 (4 + 6 = 10: at the limit, no alert),
    S + 1 holds 11 (above the 10 rooms already: 11 + 1 = 12)."""
    got = alerts(_filling({1: 11, 3: 9, 5: 6, 6: 4}), NO_PACE,
                 pl.DataFrame({"property_id": [1], "rooms": [10]}))
    over = {(row["stay_date"] - LAST).days: row for row in got.to_dicts()
            if row["alert"] == "over_capacity"}

    assert sorted(over) == [1, 3, 5]
    assert [over[h]["value"] for h in (1, 3, 5)] == [11, 9, 6]  # the books, as of S
    assert {over[h]["threshold"] for h in over} == {10}
    assert over[3]["message"].startswith(
        "heading over capacity: 9 rooms on the books 3 days before and 3.0 more expected")
    assert over[5]["message"] == (
        "heading over capacity: 6 rooms on the books 5 days before and 5.0 more expected (the "
        "mean pickup from 5 days before of the last 8 such weekdays), 11.0 rooms, 1.0 above "
        "the 10 the hotel sells (10 rooms plus 0 overbooked as it has before)")


def test_over_capacity_looks_only_capacity_days_ahead() -> None:
    """Farther out the pickup expected is the curve nights', of another season: with
    capacity_days 4, S + 5 (6 + 5 = 11 of 10) is no alert, S + 3 (9 + 3 = 12) still is."""
    got = alerts(_filling({3: 9, 5: 6}), NO_PACE, pl.DataFrame({"property_id": [1], "rooms": [10]}),
                 AlertSettings(capacity_days=4))

    assert [(r["stay_date"] - LAST).days for r in got.to_dicts()
            if r["alert"] == "over_capacity"] == [3]


def test_a_count_of_one_is_said_in_the_singular() -> None:
    """1 room on the books 1 day before, against 12 a year earlier (11 behind, -91.7 % of a
    20-room hotel): "1 room", "1 day before", never "1 rooms" nor "1 days"; the plural
    stays for the others."""
    fired = _pace_alerts(20, [(1, 1, 12)])

    assert fired[1].startswith(
        "behind last year: 1 room on the books 1 day before, 12 at the same time last year, "
        "11 rooms (91.7%) behind, 55.0% of the 20 rooms; alerts from 20.0% and 5 rooms "
        "behind")
