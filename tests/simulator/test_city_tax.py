"""The simulator posts city tax by the rule of the hotel's city (docs/sandbox.md, City tax):
a ten-night stay in Florence is taxed for 7 nights, an 11-year-old in Rome pays, and a rate
change takes effect on the night of its valid_from. Each stay is booked through the domain
services and lived through the simulated days (check-in, nightly postings, check-out)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from models.reservations import NewParty, ReservationCreate, RoomRequest
from sandbox.clock import SimulatedClock
from sandbox.context import SandboxState, system_ctx
from sandbox.db import all_rows, one, open_db
from sandbox.seed import seed_if_empty
from sandbox.services.city_tax import CITY_TAX_RULES, CityTaxRule
from sandbox.services.reservation_create import create_reservation
from sandbox.simulator.engine import Simulation
from sandbox.simulator.params import SimParams

ROME, FLORENCE = 1, 2


def taxed_nights(property_id: int, arrival: date, nights: int, adults: int,
                 children: dict[str, int], rules: tuple[CityTaxRule, ...] = CITY_TAX_RULES,
                 ) -> list[tuple[str, Decimal, int]]:
    """Book one stay, live it, and read its city-tax lines: (night, quantity, unit cents)."""
    conn = open_db(":memory:")
    start = datetime.combine(arrival, time(8), tzinfo=ZoneInfo("Europe/Rome"))
    clock = SimulatedClock(start)
    seed_if_empty(conn, clock)
    state = SandboxState(conn, clock)
    ctx = system_ctx(state, property_id)
    type_id = one(conn, "SELECT id FROM room_types WHERE property_id = ? AND is_virtual = 0 "
                  "AND max_pax >= 4 ORDER BY id LIMIT 1", property_id)["id"]
    brackets = {one(conn, "SELECT id FROM age_brackets WHERE property_id = ? AND code = ?",
                    property_id, code)["id"]: n for code, n in children.items()}
    with conn:
        reservation_id, _ = create_reservation(ctx, ReservationCreate(
            rooms=[RoomRequest(room_type_id=type_id, arrival=arrival,
                               departure=arrival + timedelta(days=nights), adults=adults,
                               brackets=brackets)],
            new_party=NewParty(last_name="Tax"), market="leisure"))
    params = replace(SimParams(), pos=replace(SimParams().pos, drop_share=0.0,
                                              city_tax_rules=rules))
    simulation = Simulation(state, clock, 7, (property_id,), first_arrival=arrival,
                            first_booking_day=arrival, demand_origin=arrival, params=params)
    for offset in range(nights + 1):
        simulation.play_day(arrival + timedelta(days=offset))
    assert simulation.failures == {}
    rows = all_rows(conn, "SELECT l.posted_on, l.quantity, l.unit_price_cents FROM folio_lines l"
                    " JOIN folios f ON f.id = l.folio_id JOIN items i ON i.id = l.service_item_id "
                    "WHERE f.reservation_id = ? AND i.code = 'CTAX' ORDER BY l.posted_on",
                    reservation_id)
    status = one(conn, "SELECT status FROM reservation_rooms WHERE reservation_id = ?",
                 reservation_id)["status"]
    conn.close()
    assert status == "checked_out"
    return [(r["posted_on"], Decimal(r["quantity"]), r["unit_price_cents"]) for r in rows]


def test_a_ten_night_stay_in_florence_is_taxed_for_seven_nights() -> None:
    lines = taxed_nights(FLORENCE, date(2025, 5, 5), 10, 2, {})
    assert [(night, quantity, cents) for night, quantity, cents in lines] == [
        (f"2025-05-{day:02d}", Decimal(2), 700) for day in range(5, 12)]


def test_in_rome_a_child_of_eleven_pays_and_one_of_ten_does_not() -> None:
    """Rome's TEEN bracket is 11-17, its CHD 3-10 (children up to 10 exempt): 2 adults, a
    child of 11 and one of 8 make 3 taxed persons at 7.50 on each of the 3 nights."""
    lines = taxed_nights(ROME, date(2025, 5, 5), 3, 2, {"TEEN": 1, "CHD": 1})
    assert lines == [(f"2025-05-0{day}", Decimal(3), 750) for day in (5, 6, 7)]


def test_a_rate_change_applies_from_the_night_of_its_valid_from() -> None:
    rome = next(rule for rule in CITY_TAX_RULES if rule.city == "Roma")
    change = replace(rome, valid_from=date(2025, 5, 7), rates={**rome.rates, 4: Decimal("9")})
    lines = taxed_nights(ROME, date(2025, 5, 5), 4, 1, {}, (*CITY_TAX_RULES, change))
    assert [(night, cents) for night, _, cents in lines] == [
        ("2025-05-05", 750), ("2025-05-06", 750), ("2025-05-07", 900), ("2025-05-08", 900)]
