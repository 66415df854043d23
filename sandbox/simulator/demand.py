"""What one booking looks like: plans of individual and group bookings drawn from a generator.

A plan has its lead time (so its booking day), length of stay, channel, rate plan, room and
persons, and its fate decided up front: cancelled on a given day, option confirmed or lapsed,
modified, no-show, early departure. The engine plays each plan on its booking day through the
domain services. How many plans each arrival date gets is the demand book's (demand_book.py).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Literal

from .params import Channel, DemandParams
from .sampling import lognormal_days, normal_cdf, weighted


@dataclass(frozen=True)
class HotelProfile:
    """What demand needs to know of a hotel (read from its data by the engine)."""

    property_id: int
    code: str
    rooms_by_type: dict[str, int]
    """Sellable rooms by room type code (non-virtual types only)."""
    max_pax: dict[str, int]
    city: str = ""
    """The property's city: its occupancy curve, trend and dated events."""

    @property
    def rooms(self) -> int:
        return sum(self.rooms_by_type.values())


@dataclass(frozen=True)
class Person:
    first_name: str
    last_name: str
    country: str


@dataclass(frozen=True)
class RoomAsk:
    type_code: str
    adults: int
    children: tuple[str, ...] = ()
    """Age bracket code of each child."""
    quantity: int = 1


ModKind = Literal["dates", "room_type", "adults", "drop_rooms"]


@dataclass(frozen=True)
class Modification:
    on: date
    kind: ModKind
    arrival: date | None = None
    departure: date | None = None
    type_code: str | None = None
    adults: int | None = None
    drop_rooms: int = 0


@dataclass(frozen=True)
class BookingPlan:
    ref: str
    """The booking's `external_ref` (and `booking_code` on the channel)."""
    booked_on: date
    booked_minute: int
    """Minute of the booking day (hotel local time) the booking is made."""
    arrival: date
    departure: date
    rooms: tuple[RoomAsk, ...]
    channel: str
    source: str
    market: str
    plan_code: str
    booker: Person
    arrival_time: str
    group_name: str = ""
    option_until: date | None = None
    option_confirm_on: date | None = None
    """Day an option is confirmed; None with `option_until` set: it lapses."""
    cancel_on: date | None = None
    no_show: bool = False
    modification: Modification | None = None
    nights_stayed: int | None = None
    """Early departure: the guest leaves after this many nights."""
    discount_pct: int | None = None
    """A wholesale net rate: this much below the public rate, never marked up."""

    @property
    def nights(self) -> int:
        return (self.departure - self.arrival).days

    @property
    def lead_days(self) -> int:
        return (self.arrival - self.booked_on).days

    @property
    def room_count(self) -> int:
        return sum(ask.quantity for ask in self.rooms)


FIRST_NAMES = ("Marco", "Giulia", "Luca", "Sofia", "Anna", "John", "Emma", "Paul", "Marie",
               "Hans", "Laura", "Carlos", "Ana", "Yuki", "Olivia", "James", "Chiara", "Pierre",
               "Ingrid", "Mateo")
LAST_NAMES = ("Rossi", "Bianchi", "Romano", "Colombo", "Smith", "Johnson", "Müller", "Schmidt",
              "Dubois", "Martin", "García", "López", "Tanaka", "Brown", "Ricci", "Greco",
              "Bruno", "Conti", "Novak", "Jensen", "O'Brien", "Weber")
COUNTRIES = (("IT", 0.35), ("US", 0.14), ("DE", 0.09), ("GB", 0.08), ("FR", 0.08),
             ("ES", 0.06), ("NL", 0.04), ("JP", 0.03), ("CH", 0.03), ("AT", 0.03),
             ("BR", 0.03), ("AU", 0.04))
GROUP_NAMES = ("Pilgrimage", "Art Tour", "Congress", "School Trip", "Wedding Party",
               "Incentive", "Choir", "Food Tour")


def expected_los(params: DemandParams) -> float:
    return sum((lo + hi) / 2 * share for (lo, hi), share in params.los_shares)


def _nonref_allowed(channel: Channel) -> bool:
    return channel.channel in ("booking_com", "expedia", "website")


@lru_cache(maxsize=16)
def _mean_propensity(median: float, sigma: float, cap: int, exponent: float) -> float:
    """The mean of (lead + 1) ** exponent over the leads of one day or more of individual
    bookings (the floored lognormal of `lognormal_days`)."""

    def below(days: float) -> float:
        return normal_cdf((math.log(days) - math.log(median)) / sigma)

    total = weight = 0.0
    for lead in range(1, cap + 1):
        share = (1.0 if lead == cap else below(lead + 1)) - below(lead)
        total += share * math.pow(lead + 1, exponent)
        weight += share
    return total / weight


def _person(rng: random.Random) -> Person:
    return Person(rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES), weighted(rng, COUNTRIES))


def _los(params: DemandParams, rng: random.Random) -> int:
    lo, hi = weighted(rng, params.los_shares)
    return rng.randint(lo, hi)


def _minute(rng: random.Random, earliest: int = 7 * 60, latest: int = 23 * 60 + 30) -> int:
    return int(rng.triangular(earliest, latest, 14 * 60))


def _persons_of(ask: RoomAsk) -> int:
    """Persons a room must hold: infants sleep in a cot."""
    return ask.adults + sum(1 for c in ask.children if c != "INF")


def fitting_types(params: DemandParams, hotel: HotelProfile,
                  ask: RoomAsk) -> list[tuple[str, float]]:
    """The hotel's room types that hold the persons of `ask`, with their request shares."""
    persons = _persons_of(ask)
    return [(code, params.type_shares.get(code, 0.0)) for code in hotel.rooms_by_type
            if hotel.max_pax.get(code, 0) >= persons and params.type_shares.get(code, 0) > 0]


def _persons(params: DemandParams, rng: random.Random, market: str) -> tuple[int, tuple[str, ...]]:
    if market in ("business", "corporate"):
        adults = weighted(rng, ((1, 0.7), (2, 0.3)))
    else:
        adults = weighted(rng, ((1, 0.12), (2, 0.78), (3, 0.07), (4, 0.03)))
    children: tuple[str, ...] = ()
    if market == "leisure" and adults <= 2 and rng.random() < params.child_share:
        count = weighted(rng, ((1, 0.65), (2, 0.35)))
        children = tuple(weighted(rng, (("INF", 0.25), ("CHD", 0.5), ("TEEN", 0.25)))
                         for _ in range(count))
    return adults, children


def _plan_code(params: DemandParams, rng: random.Random, channel: Channel, nights: int) -> str:
    if channel.channel == "corporate":
        return "CORP"
    if channel.channel == "wholesale":
        return weighted(rng, (("BB", 0.6), ("BAR", 0.4)))
    if nights >= 7 and rng.random() < 0.5:
        return "LONG"
    point = rng.random()
    if _nonref_allowed(channel):
        if point < params.nonref_share:
            return "NREF"
        point -= params.nonref_share
    if point < params.bb_share:
        return "BB"
    if point < params.bb_share + params.per_person_share:
        return "PP"
    return "BAR"


def _cancel_probability(params: DemandParams, channel: Channel, plan_code: str,
                        lead: int) -> float:
    if channel.walk_in or lead < 1:
        return 0.0
    if plan_code == "NREF":
        return params.nonref_cancel_rate
    # Rising with the lead time; a channel's rate is its average at the leads of individual
    # bookings, so wholesale, booked 60-180 days out, cancels more than its rate.
    mean = _mean_propensity(params.lead_median_days, params.lead_sigma, params.lead_max_days,
                            params.cancel_lead_exponent)
    return min(0.9, channel.cancel_rate * math.pow(lead + 1, params.cancel_lead_exponent) / mean)


def _fitting_memo(params: DemandParams, hotel: HotelProfile, ask: RoomAsk,
                  memo: dict[int, list[tuple[str, float]]] | None) -> list[tuple[str, float]]:
    """`fitting_types`, remembered in `memo` by the persons of `ask` (a memo serves one
    params and one hotel: its owner's)."""
    if memo is None:
        return fitting_types(params, hotel, ask)
    persons = _persons_of(ask)
    found = memo.get(persons)
    if found is None:
        found = memo[persons] = fitting_types(params, hotel, ask)
    return found


def draw_individual(params: DemandParams, hotel: HotelProfile, rng: random.Random, arrival: date,
                ref: str, fitting: dict[int, list[tuple[str, float]]] | None = None,
                ) -> BookingPlan | None:
    """One individual booking arriving on `arrival` (None: no room type holds its persons).
    `fitting`: the caller's memo of the room types that hold so many persons."""
    channel = weighted(rng, [(c, c.share) for c in params.channels])
    source = weighted(rng, channel.sources)
    market = weighted(rng, channel.markets)
    if channel.walk_in:
        lead = 0
    elif channel.long_lead:
        lead = rng.randint(*params.long_lead_days)
    else:
        lead = lognormal_days(rng, params.lead_median_days, params.lead_sigma,
                              params.lead_max_days)
    nights = _los(params, rng)
    adults, children = _persons(params, rng, market)
    types = _fitting_memo(params, hotel, RoomAsk("", adults, children), fitting)
    if not types:
        return None
    type_code = weighted(rng, types)
    asks = [RoomAsk(type_code, adults, children)]
    if rng.random() < params.multi_room_share and market == "leisure":
        asks.append(RoomAsk(type_code, 2))
    plan_code = _plan_code(params, rng, channel, nights)
    discount = rng.randint(*params.wholesale_discount_pct) if channel.channel == "wholesale" \
        else None
    booked_on = arrival - timedelta(days=lead)
    if channel.walk_in:
        minute = _minute(rng, 15 * 60, 22 * 60)
        arrival_time = f"{minute // 60:02d}:{minute % 60:02d}"
    else:
        minute = _minute(rng)
        hour = rng.choice((12, 13, 14, 15, 15, 16, 16, 17, 18, 19, 20, 21))
        arrival_time = f"{hour:02d}:{rng.choice((0, 15, 30, 45)):02d}"
        if lead == 0:
            # Same-day bookings are made in the morning, before the guest arrives.
            minute = _minute(rng, 7 * 60, 11 * 60)
    departure = arrival + timedelta(days=nights)

    option_until = option_confirm_on = None
    if (channel.channel in ("phone", "email") and lead >= 3
            and rng.random() < params.option_share):
        option_until = min(booked_on + timedelta(days=params.option_days),
                           arrival - timedelta(days=1))
        if rng.random() < params.option_confirm_share:
            option_confirm_on = booked_on + timedelta(
                days=rng.randint(0, (option_until - booked_on).days))

    cancel_on = None
    active_from = option_confirm_on or booked_on
    if (option_until is None or option_confirm_on is not None) and lead >= 1 \
            and rng.random() < _cancel_probability(params, channel, plan_code, lead):
        span = (arrival - active_from).days - 1
        if span >= 0:
            cancel_on = active_from + timedelta(days=int(span * rng.random() ** 0.8))

    lapses = option_until is not None and option_confirm_on is None
    alive = cancel_on is None and not lapses
    no_show = alive and lead >= 1 and rng.random() < channel.no_show_rate
    modification = None
    if alive and lead >= 2 and rng.random() < params.modification_share:
        modification = _modification(params, hotel, rng, active_from, arrival, departure,
                                     asks[0], len(asks))
    nights_stayed = None
    final_nights = nights
    if modification is not None and modification.arrival is not None:
        assert modification.departure is not None
        final_nights = (modification.departure - modification.arrival).days
    if alive and not no_show and final_nights >= 2 and rng.random() < params.early_departure_share:
        nights_stayed = rng.randint(1, final_nights - 1)

    return BookingPlan(
        ref=ref, booked_on=booked_on, booked_minute=minute, arrival=arrival,
        departure=departure, rooms=tuple(asks), channel=channel.channel, source=source,
        market=market, plan_code=plan_code, booker=_person(rng), arrival_time=arrival_time,
        option_until=option_until, option_confirm_on=option_confirm_on, cancel_on=cancel_on,
        no_show=no_show, modification=modification, nights_stayed=nights_stayed,
        discount_pct=discount,
    )


def _modification(params: DemandParams, hotel: HotelProfile, rng: random.Random, first: date,
                  arrival: date, departure: date, ask: RoomAsk,
                  room_count: int) -> Modification | None:
    span = (arrival - first).days - 1
    if span < 0:
        return None
    on = first + timedelta(days=rng.randint(0, span))
    kind: ModKind = weighted(rng, (("dates", 0.45), ("room_type", 0.25), ("adults", 0.30)))
    persons = _persons_of(ask)
    if kind == "dates":
        nights = (departure - arrival).days
        change = weighted(rng, (("shift", 0.5), ("longer", 0.3), ("shorter", 0.2)))
        if change == "shift":
            shift = rng.choice((-3, -2, -1, 1, 2, 3, 7))
            new_arrival = arrival + timedelta(days=shift)
            if new_arrival <= on:
                new_arrival = arrival + timedelta(days=abs(shift))
            return Modification(on, "dates", new_arrival, new_arrival + timedelta(days=nights))
        if change == "shorter" and nights >= 2:
            return Modification(on, "dates", arrival, departure - timedelta(days=1))
        return Modification(on, "dates", arrival, departure + timedelta(days=1))
    if kind == "room_type":
        others = [(code, params.type_shares.get(code, 0.0)) for code in hotel.rooms_by_type
                  if code != ask.type_code and hotel.max_pax.get(code, 0) >= persons
                  and params.type_shares.get(code, 0) > 0]
        if not others:
            return None
        return Modification(on, "room_type", type_code=weighted(rng, others))
    options = [n for n in (ask.adults - 1, ask.adults + 1)
               if n >= 1 and n + persons - ask.adults <= hotel.max_pax.get(ask.type_code, 0)]
    if not options:
        return None
    return Modification(on, "adults", adults=rng.choice(options))


def _group_types(hotel: HotelProfile) -> list[tuple[str, float]]:
    """Room types a group can book (two persons a room), weighted by their rooms."""
    return [(code, float(count)) for code, count in hotel.rooms_by_type.items()
            if hotel.max_pax.get(code, 0) >= 2]


def _group_cap(hotel: HotelProfile, type_code: str) -> int:
    """A group takes at most two thirds of a type's rooms."""
    return max(1, hotel.rooms_by_type[type_code] * 2 // 3)


def expected_group_room_nights(params: DemandParams, hotel: HotelProfile) -> float:
    """Mean room nights a group asks for in this hotel (its types cap the group's size)."""
    choices = _group_types(hotel)
    total = sum(weight for _, weight in choices)
    low, high = params.group_rooms
    rooms = sum(weight / total * sum(min(n, _group_cap(hotel, code))
                                     for n in range(low, high + 1)) / (high - low + 1)
                for code, weight in choices)
    return rooms * sum(params.group_nights) / 2


def draw_group(params: DemandParams, hotel: HotelProfile, rng: random.Random, arrival: date,
           ref: str) -> BookingPlan | None:
    choices = _group_types(hotel)
    if not choices:
        return None
    type_code = weighted(rng, choices)
    quantity = min(rng.randint(*params.group_rooms), _group_cap(hotel, type_code))
    nights = rng.randint(*params.group_nights)
    lead = rng.randint(*params.long_lead_days)
    booked_on = arrival - timedelta(days=lead)
    market = weighted(rng, (("groups", 0.8), ("mice", 0.2)))
    source = weighted(rng, (("tour_operator", 0.6), ("travel_agent", 0.4)))
    option_until = option_confirm_on = None
    if rng.random() < params.group_option_share:
        option_until = booked_on + timedelta(days=params.group_option_days)
        if rng.random() < params.group_option_confirm_share:
            option_confirm_on = booked_on + timedelta(
                days=rng.randint(0, params.group_option_days))
    lapses = option_until is not None and option_confirm_on is None
    cancel_on = None
    active_from = option_confirm_on or booked_on
    if not lapses and rng.random() < params.group_cancel_rate:
        cancel_on = active_from + timedelta(days=rng.randint(0, (arrival - active_from).days - 1))
    modification = None
    if not lapses and cancel_on is None and quantity > 4 \
            and rng.random() < params.group_drop_share:
        on = active_from + timedelta(days=rng.randint(0, (arrival - active_from).days - 1))
        modification = Modification(on, "drop_rooms", drop_rooms=rng.randint(1, 3))
    leader = _person(rng)
    return BookingPlan(
        ref=ref, booked_on=booked_on, booked_minute=_minute(rng, 9 * 60, 18 * 60),
        arrival=arrival, departure=arrival + timedelta(days=nights),
        rooms=(RoomAsk(type_code, 2, (), quantity),), channel="email", source=source,
        market=market, plan_code="BB", booker=leader,
        arrival_time=f"{rng.choice((11, 13, 15, 17)):02d}:00",
        group_name=f"{rng.choice(GROUP_NAMES)} {leader.last_name}",
        option_until=option_until, option_confirm_on=option_confirm_on, cancel_on=cancel_on,
        modification=modification,
    )
