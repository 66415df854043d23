"""Property-based tests (hypothesis) of the transforms' invariants."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines.marts.logic.money import to_cents
from pipelines.marts.logic.occupancy import occupancy_daily
from pipelines.marts.logic.otb import otb_snapshots
from pipelines.marts.logic.pickup import pickup
from pipelines.marts.logic.stay_nights import stay_nights

from .builders import (
    ITEMS,
    NO_LINES,
    d,
    properties,
    ranges,
    room,
    rooms_frame,
    ts,
    version,
    versions_frame,
)

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FIRST_DAY = d("2025-03-01")
STATUSES = ["confirmed", "checked_in", "option", "cancelled"]

totals = st.integers(min_value=0, max_value=10_000_000).map(lambda c: Decimal(c) / 100)


@FAST
@given(st.lists(st.tuples(totals, st.integers(1, 40)), min_size=1, max_size=8))
def test_nights_sum_to_the_stay_total(stays: list[tuple[Decimal, int]]) -> None:
    rows = [
        room(reservation_room_id=i, total=total, arrival=FIRST_DAY,
             departure=FIRST_DAY + timedelta(days=nights))
        for i, (total, nights) in enumerate(stays)
    ]
    out = stay_nights(rooms_frame(*rows), properties("2025-01-01"), NO_LINES, ITEMS)
    sums = out.group_by("reservation_room_id").agg(
        gross=to_cents(pl.col("room_revenue_gross")).sum(), n=pl.len()
    )
    for rid, gross, n in sums.iter_rows():
        total, nights = stays[rid]
        assert gross == int(total * 100)
        assert n == nights


@st.composite
def histories(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Room entries, each a chain of versions with increasing UTC timestamps in 03-01..03-20."""
    rows: list[dict[str, Any]] = []
    for rid in range(draw(st.integers(1, 6))):
        hours = sorted(draw(st.lists(st.integers(0, 19 * 24), min_size=1, max_size=5, unique=True)))
        starts = [ts("2025-03-01T00:00") + timedelta(hours=h, minutes=7) for h in hours]
        for k, start in enumerate(starts):
            arrival = d("2025-03-21") + timedelta(days=draw(st.integers(0, 20)))
            rows.append(
                version(reservation_room_id=rid, status=draw(st.sampled_from(STATUSES)),
                        arrival=arrival,
                        departure=arrival + timedelta(days=draw(st.integers(1, 5))),
                        total=draw(totals), valid_from=start,
                        valid_to=starts[k + 1] if k + 1 < len(starts) else None)
            )
    return rows


@FAST
@given(histories())
def test_otb_at_the_last_snapshot_equals_the_current_stays(rows: list[dict[str, Any]]) -> None:
    versions = versions_frame(*rows)
    otb = otb_snapshots(versions, ranges("2025-03-01", "2025-03-20"), horizon_days=60)
    last = otb.filter(pl.col("snapshot_date") == d("2025-03-20"))
    current = [
        r for r in rows if r["valid_to"] is None and r["status"] in ("confirmed", "checked_in")
    ]
    expected: dict[date, int] = {}
    for r in current:
        for k in range((r["departure"] - r["arrival"]).days):
            night = r["arrival"] + timedelta(days=k)
            expected[night] = expected.get(night, 0) + 1
    got = {s: n for s, n in last.select("stay_date", "rooms_otb").iter_rows() if n}
    assert got == expected
    # and the revenue is that of the current stays' nights, as stay_nights splits them
    stays = [
        room(reservation_room_id=i, status=r["status"], arrival=r["arrival"],
             departure=r["departure"], total=r["total"])
        for i, r in enumerate(current)
    ]
    if stays:
        nights = stay_nights(rooms_frame(*stays), properties("2025-03-20"), NO_LINES, ITEMS)
        want = to_cents(pl.col("room_revenue_net")).sum()
        assert (
            last.select(to_cents(pl.col("revenue_otb_net")).sum()).item()
            == nights.select(want).item()
        )


@FAST
@given(histories())
def test_pickup_over_seven_days_is_the_sum_of_seven_one_day_pickups(
    rows: list[dict[str, Any]],
) -> None:
    pu = pickup(versions_frame(*rows), ranges("2025-03-01", "2025-03-20"), windows=[1, 7],
                horizon_days=60)
    measures = ["rooms_new", "rooms_cancelled", "rooms_net"]
    seven = pu.filter(pl.col("window_days") == 7, pl.col("as_of_date") == d("2025-03-15"))
    ones = pu.filter(pl.col("window_days") == 1,
                     pl.col("as_of_date").is_between(d("2025-03-09"), d("2025-03-15")),
                     pl.col("stay_date") >= d("2025-03-15"))
    summed = ones.group_by("stay_date").agg(*[pl.col(m).sum() for m in measures],
                                            rev=to_cents(pl.col("revenue_net")).sum())
    as_dict = {r[0]: r[1:] for r in summed.iter_rows() if any(r[1:])}
    got = {
        r[0]: r[1:]
        for r in seven.select("stay_date", *measures, to_cents(pl.col("revenue_net"))).iter_rows()
    }
    assert got == as_dict


@st.composite
def room_plans(draw: st.DrawFn) -> tuple[int, list[dict[str, Any]]]:
    """Stays laid end to end in each room, never two in one room on the same night."""
    n_rooms = draw(st.integers(1, 5))
    stays: list[dict[str, Any]] = []
    for room_id in range(1, n_rooms + 1):
        day = FIRST_DAY + timedelta(days=draw(st.integers(0, 3)))
        for _ in range(draw(st.integers(0, 4))):
            nights = draw(st.integers(1, 4))
            stays.append(
                room(reservation_room_id=len(stays), room_id=room_id, arrival=day,
                     departure=day + timedelta(days=nights), total=draw(totals),
                     status=draw(st.sampled_from(STATUSES)))
            )
            day += timedelta(days=nights + draw(st.integers(0, 2)))
    return n_rooms, stays


@FAST
@given(room_plans())
def test_occupancy_never_exceeds_rooms_available(plan: tuple[int, list[dict[str, Any]]]) -> None:
    n_rooms, stays = plan
    if not stays:
        return
    rooms = pl.DataFrame(
        {"property_id": [1] * n_rooms, "room_id": list(range(1, n_rooms + 1)),
         "room_type_id": [1] * n_rooms, "sellable": [True] * n_rooms}
    )
    no_availability = pl.DataFrame(
        schema={"property_id": pl.Int64, "snapshot_date": pl.Date, "stay_date": pl.Date,
                "room_type_id": pl.Int64, "total": pl.Int64, "out_of_order": pl.Int64}
    )
    no_other = pl.DataFrame(
        schema={"property_id": pl.Int64, "date": pl.Date, "revenue_net": pl.Decimal(18, 2)}
    )
    nights = stay_nights(rooms_frame(*stays), properties("2025-03-05"), NO_LINES, ITEMS)
    occ = occupancy_daily(nights, rooms, no_availability, properties("2025-03-05"), no_other)
    assert (occ["rooms_available"] == n_rooms).all()
    in_house = occ["rooms_sold"] + occ["rooms_complimentary"]
    assert (in_house <= occ["rooms_available"]).all()
    assert (occ["occupancy_pct"].fill_null(0) <= 100).all()
