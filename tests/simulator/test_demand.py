"""The demand model's distributions against domain.md's simulation parameters (pure, quick).

One year of plans of the Rome hotel (about 12,000 bookings) is drawn once per module.
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from statistics import median

import pytest

from sandbox.seed import CLASSIFICATIONS
from sandbox.simulator.demand import BookingPlan, HotelProfile
from sandbox.simulator.demand_book import plans_for
from sandbox.simulator.params import DemandParams

ROME = HotelProfile(1, "ROMA01", {"STD": 29, "SUP": 25, "DLX": 15, "JSU": 9},
                    {"STD": 2, "SUP": 3, "DLX": 3, "JSU": 4})
PARAMS = DemandParams()


@pytest.fixture(scope="module")
def year() -> list[BookingPlan]:
    return plans_for(PARAMS, ROME, 7, date(2025, 1, 1), date(2026, 1, 1))


def test_same_seed_same_plans_and_other_seed_differs() -> None:
    first, end = date(2025, 5, 1), date(2025, 5, 20)
    assert plans_for(PARAMS, ROME, 1, first, end) == plans_for(PARAMS, ROME, 1, first, end)
    assert plans_for(PARAMS, ROME, 1, first, end) != plans_for(PARAMS, ROME, 2, first, end)


def test_lead_time_median_and_tails(year: list[BookingPlan]) -> None:
    """domain.md: lognormal, median about 15 days, 20-25% within 7 days, 10-15% beyond 90."""
    leads = [plan.lead_days for plan in year]
    assert 12 <= median(leads) <= 19
    assert 0.18 <= sum(lead <= 7 for lead in leads) / len(leads) <= 0.29
    assert 0.08 <= sum(lead > 90 for lead in leads) / len(leads) <= 0.16
    groups = [plan.lead_days for plan in year if plan.group_name]
    assert groups
    assert all(60 <= lead <= 180 for lead in groups)


def test_length_of_stay(year: list[BookingPlan]) -> None:
    """domain.md: ALOS about 2.29; 35% one night, 35% two nights."""
    nights = [plan.nights for plan in year if not plan.group_name]
    assert 2.15 <= sum(nights) / len(nights) <= 2.5
    counts = Counter(nights)
    assert 0.31 <= counts[1] / len(nights) <= 0.39
    assert 0.31 <= counts[2] / len(nights) <= 0.39


def test_channel_mix_and_classifications(year: list[BookingPlan]) -> None:
    """domain.md channel mix; values are those of the seed's classifications."""
    share = Counter(plan.channel for plan in year)
    total = len(year)
    assert 0.37 <= share["booking_com"] / total <= 0.46
    assert 0.07 <= share["expedia"] / total <= 0.12
    assert 0.14 <= share["website"] / total <= 0.21
    for plan in year:
        assert plan.channel in CLASSIFICATIONS["channel"]
        assert plan.source in CLASSIFICATIONS["source"]
        assert plan.market in CLASSIFICATIONS["market"]


def _cancel_rate(plans: list[BookingPlan]) -> float:
    return sum(plan.cancel_on is not None for plan in plans) / len(plans)


def test_cancellations_by_channel_plan_and_lead(year: list[BookingPlan]) -> None:
    """D-Edge: Booking.com 50% > Expedia 26% > website 18%; non-refundable rarely; far leads
    (more than 60 days) 65% more."""
    by_channel = {ch: [p for p in year if p.channel == ch and p.plan_code != "NREF"]
                  for ch in ("booking_com", "expedia", "website")}
    rates = {ch: _cancel_rate(plans) for ch, plans in by_channel.items()}
    assert 0.42 <= rates["booking_com"] <= 0.58
    assert rates["booking_com"] > rates["expedia"] > rates["website"]
    assert _cancel_rate([p for p in year if p.plan_code == "NREF"]) < 0.07
    ota = [p for p in year if p.channel == "booking_com" and p.plan_code != "NREF"]
    far = [p for p in ota if p.lead_days > 60]
    near = [p for p in ota if 1 <= p.lead_days <= 60]
    assert _cancel_rate(far) > 1.3 * _cancel_rate(near)
    # The probability rises with the lead time, bucket by bucket (domain.md: D-Edge, Net
    # Affinity), for a channel and for all bookings together.
    buckets = ((1, 7), (8, 30), (31, 60), (61, 90), (91, 400))
    by_lead = [_cancel_rate([p for p in ota if lo <= p.lead_days <= hi]) for lo, hi in buckets]
    assert by_lead == sorted(by_lead), by_lead
    every = [_cancel_rate([p for p in year if lo <= p.lead_days <= hi])
             for lo, hi in ((1, 7), (8, 30), (31, 400))]
    assert every[0] + 0.04 < every[1] < every[2], every
    for plan in year:
        if plan.cancel_on is not None:
            assert plan.booked_on <= plan.cancel_on < plan.arrival


def test_wholesale_buys_20_to_30_percent_below_the_public_rate(
        year: list[BookingPlan]) -> None:
    """domain.md: bed banks and tour operators buy at net rates 20-30% below the public rate."""
    wholesale = [p for p in year if p.channel == "wholesale"]
    assert len(wholesale) > 500
    assert {p.discount_pct for p in wholesale} == set(range(20, 31))
    assert all(p.discount_pct is None for p in year if p.channel != "wholesale")


def test_no_shows_options_groups_modifications(year: list[BookingPlan]) -> None:
    alive = [p for p in year if p.cancel_on is None and not
             (p.option_until is not None and p.option_confirm_on is None)]
    assert 0.012 <= sum(p.no_show for p in alive) / len(alive) <= 0.03
    options = [p for p in year if p.option_until is not None]
    confirmed = [p for p in options if p.option_confirm_on is not None]
    assert options
    assert 0.4 <= len(confirmed) / len(options) <= 0.85
    for plan in options:
        assert plan.option_until < plan.arrival
        assert plan.option_confirm_on is None or plan.option_confirm_on <= plan.option_until
    groups = [p for p in year if p.group_name]
    assert 12 <= len(groups) <= 60
    assert all(p.room_count >= 2 for p in groups)
    kinds = Counter(p.modification.kind for p in year if p.modification)
    assert {"dates", "room_type", "adults", "drop_rooms"} <= set(kinds)
    assert sum(p.nights_stayed is not None for p in year) > 0


def test_monthly_demand_follows_the_occupancy_table(year: list[BookingPlan]) -> None:
    """More room nights are asked in May and October than in January (domain.md table)."""
    nights = Counter()
    for plan in year:
        nights[plan.arrival.month] += plan.nights * plan.room_count
    assert nights[5] > 1.3 * nights[1]
    assert nights[10] > 1.3 * nights[1]
    assert nights[9] > nights[8]
