"""The simulator's parameters: an Italian city hotel as described in domain.md.

Figures marked "domain.md" come from its Simulation parameters section; the rest are model
choices of this simulator, documented in docs/sandbox.md (Simulator).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..services.city_tax import CITY_TAX_RULES, CityTaxRule
from .demand_calendar import EVENTS, DatedEvent

MONTHLY_OCCUPANCY: tuple[float, ...] = (
    0.55, 0.60, 0.70, 0.82, 0.85, 0.82, 0.78, 0.70, 0.85, 0.85, 0.68, 0.62,
)
"""Target occupancy by month, January first (domain.md, from STR Rome/Milan): Rome's, and
that of a city without its own curve."""

FLORENCE_OCCUPANCY: tuple[float, ...] = (
    0.50, 0.57, 0.70, 0.83, 0.86, 0.84, 0.80, 0.78, 0.86, 0.88, 0.70, 0.56,
)
"""Florence by month (docs/sandbox.md, Sources): October its strongest month, August fuller
and December and January emptier than Rome's."""

CITY_OCCUPANCY: dict[str, tuple[float, ...]] = {"Roma": MONTHLY_OCCUPANCY,
                                                "Firenze": FLORENCE_OCCUPANCY}
ANNUAL_GROWTH: dict[str, float] = {"Roma": 0.03, "Firenze": 0.015}
"""Year-over-year change of demand by city (docs/sandbox.md, Sources)."""

WEEKDAY_SHAPE: tuple[float, ...] = (0.93, 0.95, 0.98, 1.01, 1.09, 1.12, 0.92)
"""Relative demand by weekday of the night, Monday first; leisure cities peak Fri-Sat."""

LOS_SHARES: tuple[tuple[tuple[int, int], float], ...] = (
    ((1, 1), 0.35), ((2, 2), 0.35), ((3, 3), 0.15), ((4, 4), 0.07), ((5, 7), 0.06),
    ((8, 12), 0.02),
)
"""Length of stay: (nights from, nights to) and share (domain.md; ALOS about 2.3)."""


@dataclass(frozen=True)
class Channel:
    """Where a booking comes from, with the classification values it carries."""

    channel: str
    share: float
    sources: tuple[tuple[str, float], ...]
    markets: tuple[tuple[str, float], ...]
    cancel_rate: float
    """Share of bookings of the channel cancelled before arrival (refundable plans), at the
    lead times of individual bookings (`DemandParams.cancel_lead_exponent` shapes it)."""
    no_show_rate: float
    long_lead: bool = False
    """Books 60-180 days out (wholesale, domain.md)."""
    walk_in: bool = False


CHANNELS: tuple[Channel, ...] = (
    # D-Edge 2018 cancellation figures: Booking.com 50%, Expedia 26%, direct website 18%.
    Channel("booking_com", 0.415, (("channel_manager", 1.0),),
            (("leisure", 0.75), ("business", 0.25)), 0.50, 0.030),
    Channel("expedia", 0.095, (("channel_manager", 1.0),),
            (("leisure", 0.85), ("business", 0.15)), 0.26, 0.030),
    Channel("website", 0.175, (("booking_engine", 1.0),),
            (("leisure", 0.7), ("business", 0.3)), 0.18, 0.012),
    Channel("phone", 0.06, (("direct", 1.0),), (("leisure", 0.6), ("business", 0.4)),
            0.15, 0.010),
    Channel("email", 0.045, (("direct", 0.8), ("travel_agent", 0.2)),
            (("leisure", 0.6), ("business", 0.3), ("other", 0.1)), 0.15, 0.010),
    Channel("walk_in", 0.025, (("walk_in", 1.0),), (("leisure", 0.7), ("business", 0.3)),
            0.0, 0.0, walk_in=True),
    Channel("wholesale", 0.10, (("tour_operator", 1.0),), (("wholesale", 1.0),), 0.20, 0.015,
            long_lead=True),
    Channel("corporate", 0.04, (("corporate", 1.0),), (("corporate", 1.0),), 0.12, 0.010),
    Channel("gds", 0.02, (("travel_agent", 1.0),), (("business", 1.0),), 0.15, 0.015),
)


@dataclass(frozen=True)
class DemandParams:
    monthly_occupancy: tuple[float, ...] = MONTHLY_OCCUPANCY
    """The curve of a city without its own in `city_occupancy`."""
    city_occupancy: Mapping[str, tuple[float, ...]] = field(
        default_factory=lambda: dict(CITY_OCCUPANCY))
    annual_growth: Mapping[str, float] = field(default_factory=lambda: dict(ANNUAL_GROWTH))
    base_year: int = 2025
    """The year whose months average the curves exactly; demand grows (or shrinks) by the
    city's `annual_growth` a year from the middle of it, month by month."""
    events: tuple[DatedEvent, ...] = EVENTS
    weekday_shape: tuple[float, ...] = WEEKDAY_SHAPE
    night_noise: float = 0.10
    """Standard deviation of each night's own demand around the weekday shape (lognormal)."""
    max_occupancy: float = 0.96
    """No night is planned fuller than this: rooms held by bookings that will still cancel,
    and rooms out of order, need the rest."""
    lead_median_days: float = 14.0
    """Median lead time of individual bookings; with the long-lead segments (wholesale, groups)
    the median of all bookings is 15-16 days, 20-25% within 7 days, 10-15% beyond 90
    (domain.md)."""
    lead_sigma: float = 0.95
    lead_max_days: int = 270
    long_lead_days: tuple[int, int] = (60, 180)
    los_shares: tuple[tuple[tuple[int, int], float], ...] = LOS_SHARES
    channels: tuple[Channel, ...] = CHANNELS
    cancel_lead_exponent: float = 0.3
    """A refundable booking's cancellation probability grows as (lead days + 1) to this
    power, each channel keeping its average: bookings made more than 60 days out cancel
    about 65% more than the others (domain.md)."""
    wholesale_discount_pct: tuple[int, int] = (20, 30)
    """Wholesale buys at net rates this much below the public rate (domain.md)."""
    nonref_share: float = 0.18
    nonref_cancel_rate: float = 0.03
    bb_share: float = 0.28
    per_person_share: float = 0.05
    multi_room_share: float = 0.04
    """Individual bookings of two rooms (families, friends)."""
    child_share: float = 0.12
    option_share: float = 0.30
    """Share of phone, e-mail and group bookings made as options."""
    option_days: int = 7
    option_confirm_share: float = 0.6
    modification_share: float = 0.10
    early_departure_share: float = 0.03
    group_room_night_share: float = 0.05
    group_rooms: tuple[int, int] = (8, 20)
    group_nights: tuple[int, int] = (2, 4)
    group_cancel_rate: float = 0.15
    group_option_share: float = 0.6
    group_option_days: int = 14
    group_option_confirm_share: float = 0.8
    group_drop_share: float = 0.3
    """Groups that drop 1-3 rooms before arrival."""

    def occupancy(self, city: str, year: int, month: int) -> float:
        """The month's target occupancy: the city's curve with its trend, under the cap."""
        curve = self.city_occupancy.get(city, self.monthly_occupancy)
        years = year - self.base_year + (month - 6.5) / 12
        trend = math.pow(1 + self.annual_growth.get(city, 0.0), years)
        return min(curve[month - 1] * trend, self.max_occupancy)

    @property
    def group_survival(self) -> float:
        """Share of a group's rooms drawn that stay: options confirmed, not cancelled, rooms
        not dropped."""
        lapse = self.group_option_share * (1 - self.group_option_confirm_share)
        mean_rooms = sum(self.group_rooms) / 2
        return (1 - lapse) * (1 - self.group_cancel_rate) * (1 - self.group_drop_share * 2
                                                             / mean_rooms)
    type_shares: dict[str, float] = field(default_factory=lambda: {
        "STD": 0.38, "SUP": 0.31, "DLX": 0.19, "JSU": 0.12,
        "DBL": 0.5, "TRP": 0.3, "STE": 0.2,
    })
    """Requested room type by code (types of the hotel only; others are ignored)."""


@dataclass(frozen=True)
class PosParams:
    """Extras the guests consume, and the share of postings that never reach the folio."""

    drop_share: float = 0.02
    restaurant_share: float = 0.12
    """Per occupied room and night."""
    bar_share: float = 0.25
    minibar_share: float = 0.20
    """Per stay, at check-out."""
    parking_share: float = 0.12
    """Per stay; then charged every night."""
    city_tax_rules: tuple[CityTaxRule, ...] = CITY_TAX_RULES
    """The city tax posted each night (services/city_tax.py)."""


@dataclass(frozen=True)
class MoneyParams:
    """How stays pay (docs/sandbox.md, "Money"; sandbox/simulator/terms.py)."""

    comp_share: float = 0.10
    """Of single-room phone and e-mail bookings (the GM's guests): complimentary (plan COMP)."""
    house_share: float = 0.03
    """Of single-room phone and e-mail bookings: house use (plan HOUSE), no city tax."""
    ota_collect: tuple[tuple[str, float], ...] = (("expedia", 0.5), ("booking_com", 0.2))
    """Refundable OTA bookings the OTA collects: its virtual card is charged at check-in."""
    group_deposit_pct: tuple[int, int] = (20, 30)
    """A confirmed group's deposit, % of each room's stay, by bank transfer."""
    account_share: tuple[tuple[str, float], ...] = (
        ("corporate", 0.75), ("wholesale", 1.0), ("gds", 0.30), ("group", 1.0),
        ("travel_agent", 0.5))
    """Bookings whose room and breakfast go to the booker's city ledger account, by channel
    (`group` any group, `travel_agent` the e-mail bookings of agencies)."""
    guest_methods: tuple[tuple[str, float], ...] = (
        ("card", 0.86), ("cash", 0.11), ("bank transfer", 0.03))
    walk_in_methods: tuple[tuple[str, float], ...] = (("card", 0.6), ("cash", 0.4))
    skip_share: float = 0.006
    """Of stays paying themselves: the guest leaves with the balance (card declined,
    disputed, left early): it goes to a folio held by the guest."""
    skip_collected: float = 0.5
    """Of those balances: collected at last (5-40 days); the others stay open."""
    account_days: tuple[float, float, int] = (35.0, 0.35, 120)
    """Days from the transfer to the account's bank transfer: lognormal median, sigma, cap."""
    rebate_share: float = 0.015
    """Of check-outs: a goodwill rebate (10-20% of a night), a negative line."""
    laundry_share: float = 0.04
    """Per in-house room of a stay of 3+ nights, per day: laundry, posted by the desk."""
    laundry_error_share: float = 0.08
    """Of laundry postings: a wrong quantity, reversed (`reversal_of`) and posted again."""


@dataclass(frozen=True)
class SimParams:
    demand: DemandParams = field(default_factory=DemandParams)
    pos: PosParams = field(default_factory=PosParams)
    money: MoneyParams = field(default_factory=MoneyParams)
    out_of_order_per_month: float = 1.5
    """Rooms taken out of order for a few nights, per month, per hotel."""
    warmup_days: int = 180
    """Booking-only days played before the first simulated day (see docs/sandbox.md)."""
    horizon_days: int = 365
    """Arrivals generated up to this many days after the last simulated day."""
