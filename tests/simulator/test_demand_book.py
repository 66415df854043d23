"""The demand book: every night filled to its target, no night sold beyond the hotel (pure).

Targets are domain.md's monthly occupancy (Simulation parameters): Jan 55%, Feb 60, Mar 70,
Apr 82, May 85, Jun 82, Jul 78, Aug 70, Sep 85, Oct 85, Nov 68, Dec 62.
"""

from __future__ import annotations

import calendar
from collections import Counter
from dataclasses import replace
from datetime import date, timedelta

import pytest

from sandbox.simulator.demand import BookingPlan, HotelProfile, Modification, Person, RoomAsk
from sandbox.simulator.demand_book import (
    DemandBook,
    FinalStay,
    final_stays,
    night_targets,
    plans_for,
)
from sandbox.simulator.params import DemandParams

ROME = HotelProfile(1, "ROMA01", {"STD": 29, "SUP": 25, "DLX": 15, "JSU": 9},
                    {"STD": 2, "SUP": 3, "DLX": 3, "JSU": 4})
PARAMS = DemandParams()
DOMAIN_MD = (0.55, 0.60, 0.70, 0.82, 0.85, 0.82, 0.78, 0.70, 0.85, 0.85, 0.68, 0.62)


def _plan(**changes: object) -> BookingPlan:
    base = BookingPlan(
        ref="R", booked_on=date(2025, 3, 1), booked_minute=600, arrival=date(2025, 3, 10),
        departure=date(2025, 3, 14), rooms=(RoomAsk("STD", 2),), channel="website",
        source="booking_engine", market="leisure", plan_code="BAR",
        booker=Person("Anna", "Rossi", "IT"), arrival_time="15:00")
    return replace(base, **changes)  # type: ignore[arg-type]


def test_the_monthly_occupancy_table_is_domain_md() -> None:
    assert PARAMS.monthly_occupancy == DOMAIN_MD


@pytest.mark.parametrize("month", range(1, 13))
def test_night_targets_average_the_month_and_stay_under_the_ceiling(month: int) -> None:
    targets = night_targets(PARAMS, ROME, 3, 2025, month)
    assert len(targets) == calendar.monthrange(2025, month)[1]
    mean = sum(targets.values()) / len(targets) / ROME.rooms
    assert mean == pytest.approx(DOMAIN_MD[month - 1], abs=1e-6)
    assert max(targets.values()) <= PARAMS.max_occupancy * ROME.rooms + 1e-9


def test_weekends_are_the_fullest_nights() -> None:
    """domain.md: leisure cities peak Fri-Sat."""
    by_weekday = dict.fromkeys(range(7), 0.0)
    for month in range(1, 13):
        for night, rooms in night_targets(PARAMS, ROME, 3, 2025, month).items():
            by_weekday[night.weekday()] += rooms
    friday_saturday = by_weekday[4] + by_weekday[5]
    assert friday_saturday / 2 > max(by_weekday[d] for d in (0, 1, 2, 3, 6))


def _sold(plans: list[BookingPlan]) -> tuple[Counter[date], Counter[tuple[date, str]]]:
    nights: Counter[date] = Counter()
    by_type: Counter[tuple[date, str]] = Counter()
    for plan in plans:
        for stay in final_stays(plan):
            for night in stay.nights():
                nights[night] += stay.rooms
                by_type[night, stay.type_code] += stay.rooms
    return nights, by_type


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_year_of_plans_fills_every_month_to_its_target(seed: int) -> None:
    plans = plans_for(PARAMS, ROME, seed, date(2025, 1, 1), date(2026, 1, 1))
    nights, by_type = _sold(plans)
    for month in range(1, 13):
        days = calendar.monthrange(2025, month)[1]
        sold = sum(rooms for night, rooms in nights.items()
                   if night.year == 2025 and night.month == month)
        # January starts from an empty hotel: its first nights ramp up.
        assert sold / (ROME.rooms * days) == pytest.approx(DOMAIN_MD[month - 1], abs=0.02), \
            month
    assert max(nights.values()) <= PARAMS.max_occupancy * ROME.rooms
    for (night, type_code), rooms in by_type.items():
        assert rooms <= ROME.rooms_by_type[type_code], (night, type_code)


def test_the_book_is_drawn_in_date_order() -> None:
    book = DemandBook(PARAMS, ROME, 1, date(2025, 6, 1))
    book.arrivals(date(2025, 6, 1))
    with pytest.raises(ValueError, match="2025-06-02 comes next"):
        book.arrivals(date(2025, 6, 5))


def test_a_longer_horizon_leaves_earlier_dates_alone() -> None:
    short = plans_for(PARAMS, ROME, 4, date(2025, 2, 1), date(2025, 2, 15))
    long = plans_for(PARAMS, ROME, 4, date(2025, 2, 1), date(2025, 3, 15))
    assert long[:len(short)] == short


def test_the_first_days_ramp_up_instead_of_filling_at_once() -> None:
    plans = plans_for(PARAMS, ROME, 5, date(2025, 10, 1), date(2025, 10, 2))
    usual = PARAMS.monthly_occupancy[9] * ROME.rooms / 2.35
    assert sum(s.rooms for p in plans for s in final_stays(p)) <= 2 * usual + 4


def test_final_stays_follow_the_fate_of_the_plan() -> None:
    four_nights = FinalStay(date(2025, 3, 10), date(2025, 3, 14), "STD", 1)
    assert final_stays(_plan()) == [four_nights]
    assert four_nights.nights() == [date(2025, 3, 10) + timedelta(days=n) for n in range(4)]
    assert final_stays(_plan(cancel_on=date(2025, 3, 5))) == []
    assert final_stays(_plan(no_show=True)) == []
    lapsing = _plan(option_until=date(2025, 3, 8))
    assert final_stays(lapsing) == []
    confirmed = _plan(option_until=date(2025, 3, 8), option_confirm_on=date(2025, 3, 2))
    assert final_stays(confirmed) == [four_nights]
    moved = _plan(modification=Modification(date(2025, 3, 3), "dates", date(2025, 3, 12),
                                            date(2025, 3, 16)))
    assert final_stays(moved) == [FinalStay(date(2025, 3, 12), date(2025, 3, 16), "STD", 1)]
    early = _plan(nights_stayed=1)
    assert final_stays(early) == [FinalStay(date(2025, 3, 10), date(2025, 3, 11), "STD", 1)]
    retyped = _plan(rooms=(RoomAsk("STD", 2), RoomAsk("STD", 2)),
                    modification=Modification(date(2025, 3, 3), "room_type", type_code="SUP"))
    assert [s.type_code for s in final_stays(retyped)] == ["SUP", "STD"]
    group = _plan(rooms=(RoomAsk("SUP", 2, (), 12),),
                  modification=Modification(date(2025, 3, 3), "drop_rooms", drop_rooms=3))
    assert final_stays(group) == [FinalStay(date(2025, 3, 10), date(2025, 3, 14), "SUP", 9)]
