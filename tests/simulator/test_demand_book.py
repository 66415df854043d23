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


FLORENCE = HotelProfile(2, "FIRE01", {"DBL": 19, "TRP": 12, "STE": 8},
                        {"DBL": 2, "TRP": 3, "STE": 4}, city="Firenze")
ROMA = replace(ROME, city="Roma")
FLORENCE_CURVE = (0.50, 0.57, 0.70, 0.83, 0.86, 0.84, 0.80, 0.78, 0.86, 0.88, 0.70, 0.56)


def test_each_city_has_its_own_curve_and_trend() -> None:
    """Florence's curve is its own (docs/sandbox.md, Sources); demand grows by the city's
    trend from the middle of 2025: Rome 3% a year, Florence 1.5%."""
    assert PARAMS.city_occupancy["Firenze"] == FLORENCE_CURVE
    assert PARAMS.city_occupancy["Roma"] == DOMAIN_MD
    assert PARAMS.occupancy("Firenze", 2025, 8) == pytest.approx(0.78 * 1.015 ** (1.5 / 12))
    assert PARAMS.occupancy("Roma", 2026, 1) == pytest.approx(0.55 * 1.03 ** (6.5 / 12))
    assert PARAMS.occupancy("Milano", 2026, 1) == 0.55  # no curve, no trend: the default
    for month in range(1, 13):
        targets = night_targets(PARAMS, FLORENCE, 3, 2026, month)
        mean = sum(targets.values()) / len(targets) / FLORENCE.rooms
        assert mean == pytest.approx(PARAMS.occupancy("Firenze", 2026, month), abs=1e-6)


def _mean_ratio(hotel: HotelProfile, nights: list[date], days_back: int) -> float:
    """This year's targets of `nights` over those `days_back` earlier, summed over seeds."""
    now = then = 0.0
    for seed in range(1, 6):
        for night in nights:
            earlier = night - timedelta(days=days_back)
            now += night_targets(PARAMS, hotel, seed, night.year, night.month)[night]
            then += night_targets(PARAMS, hotel, seed, earlier.year, earlier.month)[earlier]
    return now / then


def test_movable_and_dated_events_lift_their_nights_where_they_fall_that_year() -> None:
    """Easter 2026 is on 5 April, Easter 2025 on 20 April: the same weekdays a year apart
    (364 days) are fuller in the year of the feast. Pitti Uomo fills Florence, not Rome."""
    easter_2026 = [date(2026, 4, 2) + timedelta(days=n) for n in range(4)]
    easter_2025 = [date(2025, 4, 17) + timedelta(days=n) for n in range(4)]
    assert _mean_ratio(ROMA, easter_2026, 364) > 1.1
    assert _mean_ratio(ROMA, [d + timedelta(days=364) for d in easter_2025], 364) < 0.92
    pitti = [date(2025, 1, 13) + timedelta(days=n) for n in range(4)]  # Mon-Thu, fair Tue-Fri
    assert _mean_ratio(FLORENCE, pitti, -14) > 1.25  # against the same nights 2 weeks later
    assert 0.9 < _mean_ratio(ROMA, pitti, -14) < 1.1


def test_the_same_night_last_year_is_a_guide_not_the_answer() -> None:
    """Rooms the plans finally occupy, 2026 against the same weekday of 2025 (364 days
    earlier), as WAPE over 30-night windows: close on average (the curve, the weekdays), never
    exact (noise, trend, events that move)."""
    nights, _ = _sold(plans_for(PARAMS, ROMA, 11, date(2024, 12, 1), date(2026, 12, 31)))
    wapes = []
    for window in range(12):
        days = [date(2026, 1, 1) + timedelta(days=30 * window + n) for n in range(30)]
        error = sum(abs(nights[d] - nights[d - timedelta(days=364)]) for d in days)
        wapes.append(error / sum(nights[d] for d in days))
    assert 0.07 < sum(wapes) / len(wapes) < 0.2, wapes
    assert max(wapes) > 0.1, wapes
