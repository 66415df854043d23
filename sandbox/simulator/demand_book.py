"""How many bookings each arrival date gets: the hotel's nights filled to their targets.

Every night has a target: the month's occupancy (the city's curve and its year-over-year
trend) shaped by weekday, the dated events of the city (demand_calendar.py) and a little noise
of its own, capped below a full house, with the month's nights scaled together so that their
mean is the month's target whatever the cap took off the peaks (`night_targets`).

The book draws plans arrival date by arrival date, in order, from an origin: groups first
(Poisson, accepted when they fit), then individual bookings one by one until the night of the
arrival date holds its target. Each plan's fate is known up front (demand.py), so the book
counts the rooms each plan will really occupy, night by night and by room type - after its
modification, early departure, dropped group rooms; nothing for a plan that will be cancelled,
lapse or not show - and offers a guest only the room types that still have room on every
night of the stay, as a channel manager shows what is on sale. Nights later than the arrival
date are filled by the stays already counted on them, so a month holds its target without a
calibration factor and no seed's luck moves it by more than a point or two.

The plans of a date depend on the dates before it back to the origin, so a hotel's demand is
always generated from the same origin (the simulator stores it as the setting `sim_origin`).
"""

from __future__ import annotations

import calendar
import math
import random
from collections import Counter
from dataclasses import dataclass, replace
from datetime import date, timedelta

from .demand import (
    BookingPlan,
    HotelProfile,
    draw_group,
    draw_individual,
    expected_group_room_nights,
    expected_los,
    fitting_types,
)
from .demand_calendar import event_factor
from .params import DemandParams
from .sampling import poisson, rng_for, weighted


@dataclass(frozen=True)
class FinalStay:
    """Rooms a plan occupies in the end: its nights after every change it will go through."""

    arrival: date
    departure: date
    type_code: str
    rooms: int

    def nights(self) -> list[date]:
        return [self.arrival + timedelta(days=n)
                for n in range((self.departure - self.arrival).days)]


def final_stays(plan: BookingPlan) -> list[FinalStay]:
    """The rooms the plan will occupy, as the engine plays it (none when it never stays)."""
    lapses = plan.option_until is not None and plan.option_confirm_on is None
    if plan.cancel_on is not None or lapses or plan.no_show:
        return []
    change = plan.modification
    stays = []
    for index, ask in enumerate(plan.rooms):
        arrival, departure, type_code, rooms = plan.arrival, plan.departure, ask.type_code, \
            ask.quantity
        if change is not None and index == 0:
            # The engine changes the reservation's first room entry.
            if change.kind == "dates" and change.arrival and change.departure:
                arrival, departure = change.arrival, change.departure
            elif change.kind == "room_type" and change.type_code:
                type_code = change.type_code
            elif change.kind == "drop_rooms" and rooms > change.drop_rooms:
                rooms -= change.drop_rooms
        if plan.nights_stayed is not None:
            departure = min(departure, arrival + timedelta(days=plan.nights_stayed))
        stays.append(FinalStay(arrival, departure, type_code, rooms))
    return stays


def asked_stays(plan: BookingPlan) -> list[FinalStay]:
    """The rooms the plan asks for when it is made."""
    return [FinalStay(plan.arrival, plan.departure, ask.type_code, ask.quantity)
            for ask in plan.rooms]


def night_targets(params: DemandParams, hotel: HotelProfile, seed: int, year: int,
                  month: int) -> dict[date, float]:
    """Rooms to sell on each night of the month: weekday shape x noise x the night's dated
    events, capped at `max_occupancy`, scaled so that the month's mean is the city's target
    occupancy of that month and year."""
    days = [date(year, month, day) for day in range(1, calendar.monthrange(year, month)[1] + 1)]
    shape = {}
    sigma = params.night_noise
    for night in days:
        rng = rng_for(seed, hotel.property_id, "night", night.isoformat())
        noise = math.exp(rng.gauss(0.0, sigma) - sigma * sigma / 2)
        shape[night] = (params.weekday_shape[night.weekday()] * noise
                        * event_factor(params.events, hotel.city, night))
    target = params.occupancy(hotel.city, year, month)
    low, high = 0.0, 2.0 * params.max_occupancy / min(shape.values())
    for _ in range(50):
        scale = (low + high) / 2
        mean = sum(min(params.max_occupancy, scale * s) for s in shape.values()) / len(days)
        low, high = (scale, high) if mean < target else (low, scale)
    return {night: min(params.max_occupancy, low * s) * hotel.rooms
            for night, s in shape.items()}


def night_levels(params: DemandParams, hotel: HotelProfile, seed: int, first: date,
                 last: date) -> dict[date, float]:
    """The level of each night from `first` to `last`: the rooms `night_targets` plans without
    the night's own noise (weekday shape x dated events x the month's occupancy with its
    trend, capped), what the hotel expects to sell before its luck. No forecast can read it:
    the best a forecast of the level can do is to score as it does (docs/forecast.md, "The
    simulator's floor")."""
    level = replace(params, night_noise=0.0)
    found: dict[date, float] = {}
    year, month = first.year, first.month
    while (year, month) <= (last.year, last.month):
        found.update(night_targets(level, hotel, seed, year, month))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return {night: rooms for night, rooms in sorted(found.items()) if first <= night <= last}


class DemandBook:
    """The plans of one hotel, drawn arrival date by arrival date from `origin`."""

    def __init__(self, params: DemandParams, hotel: HotelProfile, seed: int,
                 origin: date) -> None:
        self.params = params
        self.hotel = hotel
        self.seed = seed
        self.next_arrival = origin
        self.rooms_on: Counter[date] = Counter()
        self.type_on: Counter[tuple[date, str]] = Counter()
        self._targets: dict[date, float] = {}
        self._ceiling = params.max_occupancy * hotel.rooms
        self._fitting: dict[int, list[tuple[str, float]]] = {}
        """The room types that hold so many persons (draw_individual's memo)."""

    def target(self, night: date) -> float:
        if night not in self._targets:
            self._targets.update(night_targets(self.params, self.hotel, self.seed,
                                               night.year, night.month))
        return self._targets[night]

    def arrivals(self, arrival: date) -> list[BookingPlan]:
        """Every plan whose arrival is this date, in a fixed order; dates come in order."""
        if arrival != self.next_arrival:
            raise ValueError(f"demand is drawn in date order: {self.next_arrival} comes next, "
                             f"not {arrival}")
        self.next_arrival += timedelta(days=1)
        rng = rng_for(self.seed, self.hotel.property_id, "arrivals", arrival.isoformat())
        target = self.target(arrival)
        plans = self._groups(rng, arrival, target)
        # Arrivals stay between 40% and twice the usual number of a day: the nights after a
        # day of many long stays still see guests arrive, and the first nights after the
        # origin (nobody stays over from before it) ramp up instead of filling at once.
        usual = target / expected_los(self.params)
        least, most = 0.4 * usual, 2 * usual + 2
        arrived = sum(s.rooms for plan in plans for s in final_stays(plan)
                      if s.arrival == arrival)
        draws = 0
        while (self.rooms_on[arrival] < target - 0.75 or arrived < least) and arrived < most \
                and draws < 20 * most:
            draws += 1
            ref = f"{self.hotel.code}-{arrival:%Y%m%d}-{len(plans):03d}"
            plan = draw_individual(self.params, self.hotel, rng, arrival, ref, self._fitting)
            if plan is None:
                continue
            plan = self._on_sale(plan, rng)
            if plan is None:
                continue  # sold out on a night of the stay: the guest goes elsewhere
            self._count(plan)
            arrived += sum(s.rooms for s in final_stays(plan) if s.arrival == arrival)
            plans.append(plan)
        return plans

    def _groups(self, rng: random.Random, arrival: date, target: float) -> list[BookingPlan]:
        params = self.params
        room_nights = expected_group_room_nights(params, self.hotel)
        if room_nights <= 0:
            return []
        mean = params.group_room_night_share * target / room_nights / params.group_survival
        plans = []
        for index in range(poisson(rng, mean)):
            plan = draw_group(params, self.hotel, rng, arrival,
                              f"{self.hotel.code}-{arrival:%Y%m%d}-G{index:02d}")
            if plan is None:
                continue
            plan = self._group_that_fits(plan)
            if plan is not None:
                self._count(plan)
                plans.append(plan)
        return plans

    def _group_that_fits(self, plan: BookingPlan) -> BookingPlan | None:
        """The group with as many rooms as the nights have left (None below four rooms); a
        group that will never stay is measured by the rooms it asks for."""
        stays = final_stays(plan) or asked_stays(plan)
        ask = plan.rooms[0]
        spare = min(self._spare(night, ask.type_code) for night in stays[0].nights())
        dropped = ask.quantity - stays[0].rooms
        quantity = min(ask.quantity, spare + dropped)
        if quantity - dropped < 4:
            return None
        return replace(plan, rooms=(replace(ask, quantity=quantity),))

    def _spare(self, night: date, type_code: str) -> int:
        """Rooms a group may take on the night: within the type and the night's target (a
        group is sold only where it displaces no other demand)."""
        by_type = self.hotel.rooms_by_type.get(type_code, 0) - self.type_on[night, type_code]
        by_target = math.floor(self.target(night) - self.rooms_on[night])
        return max(0, min(by_type, by_target))

    def _hotel_has_room(self, stays: list[FinalStay]) -> bool:
        by_night: Counter[date] = Counter()
        for stay in stays:
            for night in stay.nights():
                by_night[night] += stay.rooms
        return all(self.rooms_on[night] + rooms <= self._ceiling
                   for night, rooms in by_night.items())

    def _types_have_room(self, stays: list[FinalStay]) -> bool:
        need: Counter[tuple[date, str]] = Counter()
        for stay in stays:
            for night in stay.nights():
                need[night, stay.type_code] += stay.rooms
        return all(self.type_on[key] + rooms <= self.hotel.rooms_by_type.get(key[1], 0)
                   for key, rooms in need.items())

    def _on_sale(self, plan: BookingPlan, rng: random.Random) -> BookingPlan | None:
        """The plan if the rooms it will occupy (or, when it will never stay, the rooms it
        asks for) are free on every night in the book's count; else the plan in another
        type that holds the persons and has room (by the types' shares); else None."""
        stays = final_stays(plan) or asked_stays(plan)
        if not self._hotel_has_room(stays):
            return None
        if self._types_have_room(stays):
            return plan
        first = plan.rooms[0].type_code
        others = [(code, share) for code, share
                  in fitting_types(self.params, self.hotel, plan.rooms[0]) if code != first]
        while others:
            code = weighted(rng, others)
            others = [(c, s) for c, s in others if c != code]
            moved = [replace(stay, type_code=code) if stay.type_code == first else stay
                     for stay in stays]
            if self._types_have_room(moved):
                return _retyped(plan, first, code)
        return None

    def _count(self, plan: BookingPlan) -> None:
        for stay in final_stays(plan):
            for night in stay.nights():
                self.rooms_on[night] += stay.rooms
                self.type_on[night, stay.type_code] += stay.rooms


def _retyped(plan: BookingPlan, old: str, new: str) -> BookingPlan:
    rooms = tuple(replace(ask, type_code=new) if ask.type_code == old else ask
                  for ask in plan.rooms)
    change = plan.modification
    if change is not None and change.kind == "room_type" and change.type_code == new:
        change = None  # the change asked for is the type booked now
    return replace(plan, rooms=rooms, modification=change)


def plans_for(params: DemandParams, hotel: HotelProfile, seed: int, first_arrival: date,
              end_arrival: date) -> list[BookingPlan]:
    """Plans of every arrival in [first_arrival, end_arrival), drawn from `first_arrival`."""
    book = DemandBook(params, hotel, seed, first_arrival)
    plans: list[BookingPlan] = []
    day = first_arrival
    while day < end_arrival:
        plans.extend(book.arrivals(day))
        day += timedelta(days=1)
    return plans
