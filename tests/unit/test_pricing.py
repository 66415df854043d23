"""The rate engine (sandbox/services/pricing.py) on a freshly seeded database.

Expected prices are read from the seed's tables (price_grid, seasons, rate_plans, offers,
age_brackets), so each test checks the engine's arithmetic, not the seed's numbers.
"""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest

from sandbox.errors import ApiError
from sandbox.services.pricing import PricedStay, override_cents, price_stay

MONDAY = date(2026, 3, 2)  # March: a "mid" month of the seed; April is "high".


def id_of(conn: sqlite3.Connection, table: str, code: str, property_id: int = 1) -> int:
    row = conn.execute(f"SELECT id FROM {table} WHERE code = ? AND property_id = ?",
                       (code, property_id)).fetchone()
    return int(row["id"])


def grid(conn: sqlite3.Connection, type_code: str, night: date) -> int:
    row = conn.execute(
        "SELECT g.price_cents FROM price_grid g JOIN seasons s ON s.season = g.season "
        "AND s.property_id = g.property_id WHERE g.room_type_id = ? AND s.month = ? "
        "AND g.weekday = ?", (id_of(conn, "room_types", type_code), night.month,
                              night.weekday())).fetchone()
    return int(row["price_cents"])


def half_up(value: Decimal) -> int:
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def price(conn: sqlite3.Connection, type_code: str = "STD", *, nights: int = 1,
          arrival: date = MONDAY, **overrides: Any) -> PricedStay:
    args: dict[str, Any] = {
        "room_type_id": id_of(conn, "room_types", type_code), "arrival": arrival,
        "departure": arrival + timedelta(days=nights), "adults": 2, "brackets": {},
        "rate_plan_id": None, "offer_id": None, "discount_pct": None,
        "price_override_cents": None,
    }
    args.update(overrides)
    return price_stay(conn, 1, **args)


def refusal(conn: sqlite3.Connection, **overrides: Any) -> ApiError:
    with pytest.raises(ApiError) as caught:
        price(conn, **overrides)
    return caught.value


def test_default_plan_prices_each_night_from_the_grid_by_weekday(conn: sqlite3.Connection) -> None:
    stay = price(conn, nights=7)
    assert stay.rate_plan_id == id_of(conn, "rate_plans", "BAR")
    assert [n.night for n in stay.nights] == [MONDAY + timedelta(days=d) for d in range(7)]
    assert [n.price_cents for n in stay.nights] == [
        grid(conn, "STD", MONDAY + timedelta(days=d)) for d in range(7)]
    assert all(n.discount_pct == 0 and n.list_price_cents == n.price_cents for n in stay.nights)
    assert stay.total_cents == sum(n.price_cents for n in stay.nights)
    # The weekday matters: the seed prices Saturday above Monday.
    assert stay.nights[5].price_cents > stay.nights[0].price_cents


def test_season_of_the_month_changes_the_price(conn: sqlite3.Connection) -> None:
    march = price(conn, arrival=date(2026, 3, 30))  # a Monday in a mid month
    april = price(conn, arrival=date(2026, 4, 6))  # a Monday in a high month
    assert march.total_cents == grid(conn, "STD", date(2026, 3, 30))
    assert april.total_cents == grid(conn, "STD", date(2026, 4, 6))
    assert april.total_cents > march.total_cents


def test_plan_offer_and_request_discounts_stack(conn: sqlite3.Connection) -> None:
    stay = price(conn, rate_plan_id=id_of(conn, "rate_plans", "NREF"),
                 offer_id=id_of(conn, "offers", "EARLY"), discount_pct=Decimal("5"))
    factor = Decimal("0.85") * Decimal("0.90") * Decimal("0.95")
    night = stay.nights[0]
    assert night.list_price_cents == grid(conn, "STD", MONDAY)
    assert night.discount_pct == Decimal("27.325")
    assert night.price_cents == half_up(night.list_price_cents * factor)


def test_nightly_price_rounds_half_up(conn: sqlite3.Connection) -> None:
    list_cents = grid(conn, "STD", MONDAY)
    assert list_cents == 15000  # seed: STD 150 in a mid month on a Monday
    stay = price(conn, discount_pct=Decimal("33.33"))  # 15000 * 0.6667 = 10000.5
    assert stay.nights[0].price_cents == 10001


def test_per_person_plan_prices_adults_and_children_and_keeps_infants_free(
    conn: sqlite3.Connection,
) -> None:
    plan = conn.execute("SELECT id, adult_price_pct FROM rate_plans WHERE code = 'PP' "
                        "AND property_id = 1").fetchone()
    child = conn.execute("SELECT id, price_pct FROM age_brackets WHERE code = 'CHD' "
                         "AND property_id = 1").fetchone()
    infant = id_of(conn, "age_brackets", "INF")
    stay = price(conn, "SUP", rate_plan_id=plan["id"], brackets={child["id"]: 1, infant: 2})
    adult = Decimal(grid(conn, "SUP", MONDAY)) * Decimal(plan["adult_price_pct"]) / 100
    expected = half_up(adult * 2 + adult * Decimal(child["price_pct"]) / 100)
    assert stay.nights[0].list_price_cents == expected
    with_infants = price(conn, "SUP", rate_plan_id=plan["id"], brackets={child["id"]: 1})
    assert with_infants.total_cents == stay.total_cents


def test_price_override_replaces_the_grid_without_discounts(conn: sqlite3.Connection) -> None:
    stay = price(conn, nights=3, price_override_cents=9999,
                 rate_plan_id=id_of(conn, "rate_plans", "NREF"), discount_pct=Decimal("10"))
    assert [n.price_cents for n in stay.nights] == [9999] * 3
    assert all(n.discount_pct == 0 for n in stay.nights)
    assert stay.total_cents == 3 * 9999


def test_contract_plan_can_be_priced_by_id(conn: sqlite3.Connection) -> None:
    stay = price(conn, rate_plan_id=id_of(conn, "rate_plans", "CORP"))
    assert stay.nights[0].discount_pct == 12
    assert stay.nights[0].price_cents == half_up(Decimal(grid(conn, "STD", MONDAY)) *
                                                 Decimal("0.88"))


def test_infants_do_not_count_against_max_pax(conn: sqlite3.Connection) -> None:
    """STD holds 2 (max_pax): 2 adults and 2 infants are priced, at the 2 adults' price (an
    infant is free); 2 adults and 1 child (a bracket that counts) are 3 persons, refused."""
    stay = price(conn, "STD", brackets={id_of(conn, "age_brackets", "INF"): 2})
    assert stay.total_cents == price(conn, "STD").total_cents
    error = refusal(conn, brackets={id_of(conn, "age_brackets", "CHD"): 1})
    assert (error.status, error.field) == (422, "adults")


@pytest.mark.parametrize(
    ("overrides", "status", "field"),
    [
        ({"nights": 0}, 400, "departure"),
        ({"adults": 0}, 400, "adults"),
        ({"discount_pct": Decimal("101")}, 400, "discount_pct"),
        ({"price_override_cents": -1}, 400, "price_override"),
        ({"price_override_cents": 10**20}, 400, "price_override"),
        ({"room_type_id": 999}, 422, "room_type_id"),
        ({"rate_plan_id": 999}, 422, "rate_plan_id"),
        ({"offer_id": 999}, 422, "offer_id"),
        ({"brackets": {999: 1}}, 422, "brackets"),
        ({"adults": 3}, 422, "adults"),  # STD holds 2
        ({"nights": 367}, 422, "departure"),
    ],
)
def test_refusals_name_the_field(conn: sqlite3.Connection, overrides: dict[str, Any],
                                 status: int, field: str) -> None:
    error = refusal(conn, **overrides)
    assert (error.status, error.field) == (status, field)


def test_refusals_from_the_property_data(conn: sqlite3.Connection) -> None:
    child = id_of(conn, "age_brackets", "CHD")
    cases: dict[str, tuple[dict[str, Any], str]] = {
        "inactive plan": ({"rate_plan_id": id_of(conn, "rate_plans", "OLD")}, "rate_plan_id"),
        "plan of property 2": ({"rate_plan_id": id_of(conn, "rate_plans", "BAR", 2)},
                               "rate_plan_id"),
        "virtual type": ({"room_type_id": id_of(conn, "room_types", "DUS")}, "room_type_id"),
        "type of property 2": ({"room_type_id": id_of(conn, "room_types", "DBL", 2)},
                               "room_type_id"),
        "children over max_pax": ({"brackets": {child: 1}}, "adults"),
    }
    for name, (overrides, field) in cases.items():
        error = refusal(conn, **overrides)
        assert (error.status, error.code.value, error.field) == (422, "rule_violation", field), name


def test_override_cents_converts_and_bounds_the_amount() -> None:
    assert override_cents(None) is None
    assert override_cents(Decimal("123.455")) == 12346
    assert override_cents(Decimal(1_000_000)) == 100_000_000
    with pytest.raises(ApiError) as caught:
        override_cents(Decimal("1e30"), field="rooms[0].price_override")
    assert (caught.value.status, caught.value.field) == (400, "rooms[0].price_override")
