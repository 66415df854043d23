"""The snapshot marts computed from a date, and the day their inputs changed (issue 18, item 5;
pipelines/marts/logic/snapshot_inputs.py).

The definition (docs/kpi.md): the books at the end of snapshot date S are the versions valid at
the end of S, so a snapshot depends only on what changed the books on S or before. Hence:
- built from a date, otb_snapshots, pickup and pace hold exactly the whole build's rows of the
  snapshots from that date on;
- after new versions land, the first snapshot that can differ is the local date of the earliest
  change they make, in the property's time zone.
The history is test_otb_pickup_pace's hand-made one (Europe/Rome, 1-7 March 2025).
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import polars as pl
import pytest

from pipelines.marts.logic.otb import otb_snapshots
from pipelines.marts.logic.pace import STLY_DAYS, pace
from pipelines.marts.logic.pickup import pickup
from pipelines.marts.logic.snapshot_inputs import (
    book_days,
    first_changed,
    pace_inputs,
    rebuild_start,
    salted,
)

from .builders import d, ts, version, versions_frame
from .test_otb_pickup_pace import TENTH, VERSIONS

TZ = "Europe/Rome"
VAT = Decimal("10")
RANGES = pl.DataFrame({"property_id": [1], "first_snapshot": [d("2025-03-01")],
                       "last_snapshot": [d("2025-03-07")],
                       "first_observed": [d("2025-03-03")]})
STARTS = [d("2025-03-01") + timedelta(days=n) for n in range(9)]  # up to the day after last


def _from(frame: pl.DataFrame, column: str, start: date) -> pl.DataFrame:
    return frame.filter(pl.col(column) >= start)


@pytest.mark.parametrize("start", STARTS, ids=str)
def test_otb_snapshots_from_a_date_are_the_whole_builds(start: date) -> None:
    whole = otb_snapshots(VERSIONS, RANGES, TZ, VAT, horizon_days=10)

    part = otb_snapshots(VERSIONS, RANGES, TZ, VAT, horizon_days=10, start=start)

    assert part.equals(_from(whole, "snapshot_date", start))
    assert part.height == 11 * max(0, (d("2025-03-07") - start).days + 1)


@pytest.mark.parametrize("start", STARTS, ids=str)
def test_pickup_from_a_date_is_the_whole_builds(start: date) -> None:
    """The windows reach back before the start (and before the first observed date, which
    marks `is_rebuilt`), as in the whole build."""
    whole = pickup(VERSIONS, RANGES, (1, 3), TZ, VAT, horizon_days=10)

    part = pickup(VERSIONS, RANGES, (1, 3), TZ, VAT, horizon_days=10, start=start)

    assert part.equals(_from(whole, "as_of_date", start))
    assert whole["is_rebuilt"].any()
    assert not whole["is_rebuilt"].all()


def _two_years_of_snapshots() -> tuple[pl.DataFrame, pl.DataFrame]:
    """otb_snapshots rows of 2024-03-01 .. 2025-03-10 with stay dates up to 3 days ahead, and
    occupancy_daily's actuals of the nights before 2025-03-05: pace reads no more."""
    days = pl.date_range(d("2024-03-01"), d("2025-03-10"), eager=True)
    otb = (pl.DataFrame({"snapshot_date": days})
           .join(pl.DataFrame({"ahead": [0, 1, 2, 3]}), how="cross")
           .select(property_id=pl.lit(1, dtype=pl.Int64), snapshot_date="snapshot_date",
                   stay_date=pl.col("snapshot_date") + pl.duration(days=pl.col("ahead")),
                   rooms_otb=(pl.col("snapshot_date").dt.day() + pl.col("ahead") * 7)
                   .cast(pl.Int64),
                   revenue_otb_net=(pl.col("ahead") * 100).cast(pl.Decimal(18, 2)),
                   is_rebuilt=pl.col("snapshot_date") < d("2024-03-05")))
    nights = pl.date_range(d("2024-03-01"), d("2025-03-13"), eager=True)
    occupancy = pl.DataFrame({"property_id": 1, "stay_date": nights}).with_columns(
        rooms_sold=pl.col("stay_date").dt.ordinal_day().cast(pl.Int64),
        room_revenue_net=pl.lit(Decimal("1234.50"), dtype=pl.Decimal(18, 2)),
        is_actual=pl.col("stay_date") < d("2025-03-05"))
    return otb, occupancy


@pytest.mark.parametrize("start", [d("2024-03-01"), d("2025-03-01"), d("2025-03-04"),
                                   d("2025-03-11")], ids=str)
def test_pace_from_a_date_is_the_whole_builds(start: date) -> None:
    """Given the snapshots from start - 364 on (its same time last year), pace from a date
    holds the whole build's rows of the snapshots from that date on."""
    otb, occupancy = _two_years_of_snapshots()
    whole = pace(otb, occupancy)
    snapshot = pl.col("stay_date") - pl.duration(days=pl.col("days_before"))

    part = pace(_from(otb, "snapshot_date", start - timedelta(days=STLY_DAYS)), occupancy,
                start)

    assert part.equals(whole.filter(snapshot >= start))
    assert whole["stly_rooms_otb"].is_not_null().any()
    assert whole["ly_actual_rooms_sold"].is_not_null().any()


def _days(versions: pl.DataFrame, last: str = "2025-03-07") -> pl.DataFrame:
    ranges = RANGES.with_columns(last_snapshot=pl.lit(d(last)))
    return salted(book_days(versions, ranges, TZ), ["otb_snapshots", TZ, VAT])


def _with(*rows: dict[str, object]) -> pl.DataFrame:
    return pl.concat([VERSIONS, versions_frame(*rows)], how="vertical_relaxed")


def test_a_new_booking_changes_the_books_from_the_local_date_it_lands() -> None:
    """Booked 2025-03-05 22:30Z, which is 23:30 in Rome: first on the books at the end of the
    5th. At 23:30Z it is the 6th in Rome."""
    before = _days(VERSIONS)

    late_evening = _with(version(reservation_room_id=5, arrival=TENTH, departure=d("2025-03-11"),
                                 valid_from=ts("2025-03-05T22:30")))
    after_midnight = _with(version(reservation_room_id=5, arrival=TENTH,
                                   departure=d("2025-03-11"), valid_from=ts("2025-03-05T23:30")))

    assert first_changed(before, _days(late_evening)) == d("2025-03-05")
    assert first_changed(before, _days(after_midnight)) == d("2025-03-06")
    assert rebuild_start(before, _days(after_midnight)) == d("2025-03-06")


def test_a_version_landed_late_changes_the_books_from_its_own_date() -> None:
    """A full resync after an event gap can land a version far back: the start comes from the
    version's date, not from when it was synced."""
    entry_4_repriced = VERSIONS.with_columns(
        valid_to=pl.when(pl.col("reservation_room_id") == 4).then(ts("2025-03-02T09:00"))
        .otherwise(pl.col("valid_to")))
    landed = pl.concat([entry_4_repriced, versions_frame(version(
        reservation_room_id=4, arrival=TENTH, departure=d("2025-03-11"), total="99.00",
        valid_from=ts("2025-03-02T09:00")))])

    assert rebuild_start(_days(VERSIONS), _days(landed)) == d("2025-03-02")


def test_a_version_replaced_in_place_changes_the_books_from_its_start() -> None:
    """The sync replaces the current version when the PMS's state changed at the same instant
    (reservations.py, action 'replace'): same valid_from, other content. Entry 2's current
    version started 03-04 08:00Z."""
    repriced = VERSIONS.with_columns(
        total=pl.when((pl.col("reservation_room_id") == 2) & pl.col("valid_to").is_null())
        .then(Decimal("60.00")).otherwise(pl.col("total")).cast(VERSIONS["total"].dtype))

    assert rebuild_start(_days(VERSIONS), _days(repriced)) == d("2025-03-04")


def test_a_new_business_date_is_the_first_snapshot_to_compute() -> None:
    before = _days(VERSIONS)

    assert rebuild_start(before, _days(VERSIONS, last="2025-03-08")) == d("2025-03-08")
    assert rebuild_start(before, _days(VERSIONS)) == d("2025-03-08")  # none, nothing changed


def test_a_change_of_setting_or_of_the_first_day_computes_everything() -> None:
    before = _days(VERSIONS)
    vat_22 = salted(book_days(VERSIONS, RANGES, TZ), ["otb_snapshots", TZ, Decimal("22")])
    booked_first_day = _with(version(reservation_room_id=6, valid_from=ts("2025-03-01T12:00")))

    assert rebuild_start(before, vat_22) is None
    assert rebuild_start(before, _days(booked_first_day)) is None
    assert rebuild_start(None, before) is None  # nothing stored: whole


def test_pace_takes_a_changed_actual_from_the_first_snapshot_that_shows_it() -> None:
    """A pace row (stay date D, k days before) shows the actual of D - 364 and is the
    snapshot D - k, k at most the horizon: an actual of night X changes the snapshots from
    X + 364 - horizon. With a 365-night horizon, the night of 2025-03-03 from 2025-03-02."""
    otb_days = _days(VERSIONS)
    _, occupancy = _two_years_of_snapshots()
    corrected = occupancy.with_columns(
        rooms_sold=pl.when(pl.col("stay_date") == d("2025-03-03")).then(0)
        .otherwise(pl.col("rooms_sold")))
    newly_lived = occupancy.with_columns(is_actual=pl.col("stay_date") < d("2025-03-06"))

    before = pace_inputs(otb_days, occupancy, 365, STLY_DAYS)

    assert first_changed(before, pace_inputs(otb_days, corrected, 365, STLY_DAYS)) == d(
        "2025-03-02")
    assert first_changed(before, pace_inputs(otb_days, newly_lived, 365, STLY_DAYS)) == d(
        "2025-03-04")
    booked = _days(_with(version(reservation_room_id=5, valid_from=ts("2025-03-06T08:00"))))
    assert first_changed(before, pace_inputs(booked, occupancy, 365, STLY_DAYS)) == d(
        "2025-03-06")


def test_pace_dates_an_actual_by_the_first_night_that_has_it_as_last_years() -> None:
    """With a calendar, last year's night of Easter Sunday 2026 (5 April) is Easter Sunday 2025
    (20 April), not 6 April 2025: the actual of 20 April 2025 is read by the pace rows of 5
    April 2026, the first night whose last year's night it is (19 April 2026, 364 days on,
    reads it too), so from the snapshot 5 April 2026 - 365 = 5 April 2025; 22 April 2025 only
    by 21 April 2026: from 21 April 2025, as without a calendar."""
    nights = pl.date_range(d("2026-03-01"), d("2026-05-31"), eager=True)
    calendar = pl.DataFrame({"property_id": 1, "stay_date": nights}).with_columns(
        ly_date=pl.when(pl.col("stay_date") == d("2026-04-05")).then(pl.lit(d("2025-04-20")))
        .otherwise(pl.col("stay_date") - pl.duration(days=364)))
    lived = pl.date_range(d("2025-04-01"), d("2025-04-30"), eager=True)
    occupancy = pl.DataFrame({"stay_date": lived, "rooms_sold": 10,
                              "room_revenue_net": Decimal("1000.00"), "is_actual": True})

    def changed(night: str) -> date | None:
        corrected = occupancy.with_columns(
            rooms_sold=pl.when(pl.col("stay_date") == d(night)).then(0)
            .otherwise(pl.col("rooms_sold")))
        otb_days = _days(VERSIONS)
        return first_changed(pace_inputs(otb_days, occupancy, 365, STLY_DAYS, calendar),
                             pace_inputs(otb_days, corrected, 365, STLY_DAYS, calendar))

    assert changed("2025-04-20") == d("2025-04-05")
    assert changed("2025-04-22") == d("2025-04-21")
