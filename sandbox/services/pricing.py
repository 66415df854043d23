"""The rate engine: the price of a stay night by night.

Grid price of the room type for the season of the night's month and its weekday (0 = Monday),
or the client's `price_override`; per-person plans price each adult and child; the plan's,
the offer's and the request's `discount_pct` stack multiplicatively. Nightly prices are rounded
half up to the cent. Choices the spec leaves open are listed in docs/sandbox.md (Rate engine).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from ..db import all_rows, one
from ..errors import invalid_request, rule_violation

HUNDRED = Decimal(100)
MAX_NIGHTS = 366
"""Longest stay the engine prices (a bound of this sandbox; the spec names none)."""
MAX_NIGHTLY_PRICE = Decimal(1_000_000)
"""Highest `price_override` accepted (a bound of this sandbox, like ChargeInput's unit_price)."""


@dataclass(frozen=True)
class NightPrice:
    night: date
    list_price_cents: int
    """Price before discounts: the grid (per-person plans: the sum of the persons) or override."""
    discount_pct: Decimal
    """The combined discount applied to this night, in percent."""
    price_cents: int


@dataclass(frozen=True)
class PricedStay:
    rate_plan_id: int
    nights: list[NightPrice]
    total_cents: int


def override_cents(price_override: Decimal | None, field: str = "price_override") -> int | None:
    """A request's `price_override` in cents; 400 naming `field` when outside 0..1,000,000."""
    if price_override is None:
        return None
    if not Decimal(0) <= price_override <= MAX_NIGHTLY_PRICE:
        raise invalid_request(f"{field} must be between 0 and {MAX_NIGHTLY_PRICE}", field=field)
    return round_cents(price_override * HUNDRED)


def round_cents(value: Decimal) -> int:
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def combined_discount_pct(*percentages: Decimal) -> Decimal:
    """`10` and `15` -> `23.5`: discounts applied one after the other."""
    factor = Decimal(1)
    for pct in percentages:
        factor *= (HUNDRED - pct) / HUNDRED
    return _plain(HUNDRED - factor * HUNDRED)


def _plain(value: Decimal) -> Decimal:
    """Drop trailing zeros without going to exponent notation (23.50 -> 23.5, 20.0 -> 20)."""
    value = value.quantize(Decimal("0.000001"), rounding=ROUND_HALF_UP)
    return value.to_integral_value() if value == value.to_integral_value() else value.normalize()


def price_stay(
    conn: sqlite3.Connection,
    property_id: int,
    *,
    room_type_id: int,
    arrival: date,
    departure: date,
    adults: int,
    brackets: dict[int, int],
    rate_plan_id: int | None,
    offer_id: int | None,
    discount_pct: Decimal | None,
    price_override_cents: int | None,
) -> PricedStay:
    """Price every night of [arrival, departure); refuse what cannot be priced.

    Refusals name the field: 400 `invalid_request` for malformed values (departure not after
    arrival, adults below 1, discount outside 0..100, override outside 0..1,000,000), 422
    `rule_violation` for what the property's data refuses (unknown or virtual room type,
    unknown or inactive rate plan or offer, unknown bracket, more persons than `max_pax`, a stay
    over 366 nights).
    Contract plans are accepted by id although GET /rate-plans hides them.
    """
    if departure <= arrival:
        raise invalid_request("departure must be after arrival", field="departure")
    if (departure - arrival).days > MAX_NIGHTS:
        raise rule_violation(f"a stay lasts at most {MAX_NIGHTS} nights", field="departure")
    if adults < 1:
        raise invalid_request("adults must be at least 1", field="adults")
    if discount_pct is not None and not Decimal(0) <= discount_pct <= HUNDRED:
        raise invalid_request("discount_pct must be between 0 and 100", field="discount_pct")
    if price_override_cents is not None and not (
        0 <= price_override_cents <= MAX_NIGHTLY_PRICE * HUNDRED
    ):
        raise invalid_request(f"price_override must be between 0 and {MAX_NIGHTLY_PRICE}",
                              field="price_override")

    room_type = _by_id(conn, "SELECT id, code, max_pax, is_virtual, base_price_cents "
                       "FROM room_types WHERE id = ? AND property_id = ?", room_type_id,
                       property_id)
    if room_type is None:
        raise rule_violation(f"room type {room_type_id} does not exist", field="room_type_id")
    if room_type["is_virtual"]:
        raise rule_violation(f"room type {room_type['code']} is virtual and not sold directly",
                             field="room_type_id")
    plan = _rate_plan(conn, property_id, rate_plan_id)
    offer_pct = _offer_pct(conn, property_id, offer_id)
    persons, child_share = _persons(conn, property_id, adults, brackets)
    if persons > room_type["max_pax"]:
        raise rule_violation(
            f"{persons} persons exceed max_pax {room_type['max_pax']} of room type "
            f"{room_type['code']}", field="adults")

    if price_override_cents is not None:
        # A fixed nightly price is what the night costs: no plan, offer or request discount.
        nights = [NightPrice(night, price_override_cents, Decimal(0), price_override_cents)
                  for night in _nights(arrival, departure)]
        return PricedStay(plan["id"], nights, sum(n.price_cents for n in nights))

    pct = combined_discount_pct(Decimal(plan["discount_pct"]), offer_pct,
                                discount_pct or Decimal(0))
    factor = (HUNDRED - pct) / HUNDRED
    # Per-person plans: each adult pays adult_price_pct of the grid, each child its bracket's
    # price_pct of an adult's price.
    person_factor = None
    if plan["per_person"]:
        adult_share = Decimal(plan["adult_price_pct"]) / HUNDRED
        person_factor = adult_share * (adults + child_share)
    grid = _grid(conn, property_id, room_type_id, room_type["base_price_cents"])
    nights = []
    for night in _nights(arrival, departure):
        list_cents = grid(night)
        if person_factor is not None:
            list_cents = round_cents(list_cents * person_factor)
        nights.append(NightPrice(night, list_cents, pct, round_cents(list_cents * factor)))
    return PricedStay(plan["id"], nights, sum(n.price_cents for n in nights))


def _by_id(conn: sqlite3.Connection, sql: str, record_id: int,
           property_id: int) -> sqlite3.Row | None:
    """The row of `record_id` in the property, or None."""
    return one(conn, sql, record_id, property_id)


def _nights(arrival: date, departure: date) -> list[date]:
    return [arrival + timedelta(days=n) for n in range((departure - arrival).days)]


def _rate_plan(conn: sqlite3.Connection, property_id: int, rate_plan_id: int | None) -> sqlite3.Row:
    if rate_plan_id is None:
        plan = one(conn, "SELECT * FROM rate_plans WHERE property_id = ? AND is_default = 1 "
                   "AND active = 1 ORDER BY id LIMIT 1", property_id)
        if plan is None:
            raise rule_violation("the property has no default rate plan: send rate_plan_id",
                                 field="rate_plan_id")
        return plan
    plan = _by_id(conn, "SELECT * FROM rate_plans WHERE id = ? AND property_id = ?",
                  rate_plan_id, property_id)
    if plan is None:
        raise rule_violation(f"rate plan {rate_plan_id} does not exist", field="rate_plan_id")
    if not plan["active"]:
        raise rule_violation(f"rate plan {plan['code']} is not active", field="rate_plan_id")
    return plan


def _offer_pct(conn: sqlite3.Connection, property_id: int, offer_id: int | None) -> Decimal:
    if offer_id is None:
        return Decimal(0)
    offer = _by_id(conn, "SELECT code, discount_pct, active FROM offers WHERE id = ? "
                   "AND property_id = ?", offer_id, property_id)
    if offer is None:
        raise rule_violation(f"offer {offer_id} does not exist", field="offer_id")
    if not offer["active"]:
        raise rule_violation(f"offer {offer['code']} is not active", field="offer_id")
    return Decimal(offer["discount_pct"])


def _persons(conn: sqlite3.Connection, property_id: int, adults: int,
             brackets: Mapping[int, int]) -> tuple[int, Decimal]:
    """Persons counted against max_pax, and the children's price in adults' prices."""
    known = {row["id"]: row for row in all_rows(
        conn, "SELECT id, counts_as_person, price_pct FROM age_brackets WHERE property_id = ?",
        property_id)}
    persons = adults
    shares = Decimal(0)
    for bracket_id, count in brackets.items():
        if bracket_id not in known:
            raise rule_violation(f"age bracket {bracket_id} does not exist", field="brackets")
        if count < 0:
            raise invalid_request("a bracket count must not be negative", field="brackets")
        bracket = known[bracket_id]
        if bracket["counts_as_person"]:
            persons += count
            shares += Decimal(bracket["price_pct"]) / HUNDRED * count
        # Brackets that do not count as persons (infants) stay free.
    return persons, shares


def _grid(conn: sqlite3.Connection, property_id: int, room_type_id: int,
          base_price_cents: int) -> _GridPrice:
    seasons = {row["month"]: row["season"] for row in all_rows(
        conn, "SELECT month, season FROM seasons WHERE property_id = ?", property_id)}
    prices = {(row["season"], row["weekday"]): row["price_cents"] for row in all_rows(
        conn, "SELECT season, weekday, price_cents FROM price_grid WHERE room_type_id = ? "
        "AND property_id = ?", room_type_id, property_id)}
    return _GridPrice(seasons, prices, base_price_cents)


@dataclass(frozen=True)
class _GridPrice:
    seasons: dict[int, str]
    prices: dict[tuple[str, int], int]
    base_price_cents: int
    """Used for a night the grid does not cover."""

    def __call__(self, night: date) -> int:
        season = self.seasons.get(night.month)
        return self.prices.get((season or "", night.weekday()), self.base_price_cents)
