"""The city-tax return of a hand-built month (issue 16, item 4), computed by hand, for a
Rome and a Florence hotel with their cities' rules (domain.md, City tax): Rome 4 stars 7.50
per person and night for the first 10 nights, children up to 10 exempt; Florence 4 stars
7.00 for the first 7 nights, under 12 exempt. Pure: hand-made frames, the rules config."""

from __future__ import annotations

from datetime import date

import polars as pl

from pipelines.transforms.reconcile import load_rules
from pipelines.transforms.reconcile.city_tax_return import city_tax_return
from tests.reconcile.builders import CHD, INF, ITEMS, TEEN, stays

D = date.fromisoformat
JUNE = (D("2026-06-01"), D("2026-06-30"))
RULES = load_rules(text="""
properties:
  ROMA01: {city_tax: {amount_per_person_night: 7.50, nights_cap: 10, exempt_below_age: 11}}
  FIRE01: {city_tax: {amount_per_person_night: 7.00, nights_cap: 7, exempt_below_age: 12}}
""")


def brackets(child_to: int) -> pl.DataFrame:
    """INF 0-2, CHD 3-child_to, TEEN up to 17."""
    return pl.DataFrame({"property_id": [1, 1, 1], "age_bracket_id": [INF, CHD, TEEN],
                         "age_to": [2, child_to, 17]})


def test_rome_month_by_hand() -> None:
    """A: 2 adults, a child of 8 (CHD 3-10: exempt), a teen (taxable); 3-15 June, 12 nights:
    taxable 3 x 10 = 30, beyond the cap 3 x 2 = 6, exempt by age 1 x 12 = 12.
    B: 1 adult, 28 May - 2 June: June holds its 5th night, taxable 1.
    C: 2 adults and an infant, in house from 29 June: 2 June nights, taxable 4, exempt 2.
    D: cancelled: nothing. Due: 35 x 7.50 = 262.50."""
    rome = stays(
        {"reservation_room_id": 1, "arrival": D("2026-06-03"), "departure": D("2026-06-15"),
         "brackets": f'{{"{CHD}": 1, "{TEEN}": 1}}'},
        {"reservation_room_id": 2, "arrival": D("2026-05-28"), "departure": D("2026-06-02"),
         "adults": 1},
        {"reservation_room_id": 3, "arrival": D("2026-06-29"), "departure": D("2026-07-03"),
         "brackets": f'{{"{INF}": 1}}', "status": "checked_in"},
        {"reservation_room_id": 4, "arrival": D("2026-06-10"), "departure": D("2026-06-12"),
         "status": "cancelled"},
    )
    got = city_tax_return(stays=rome, items=ITEMS, age_brackets=brackets(10),
                          rule=RULES.for_property("ROMA01").city_tax, first=JUNE[0],
                          last=JUNE[1])
    assert got == {"persons": 4 + 1 + 3, "person_nights": 48 + 1 + 6, "taxable_nights": 35,
                   "exempt_age_nights": 12 + 2, "exempt_cap_nights": 6,
                   "due_cents": 26250}


def test_florence_month_by_hand() -> None:
    """E: 2 adults, a child of 8 (CHD 3-11: exempt), a teen of 12 (TEEN: taxable);
    1-11 June, 10 nights: taxable 3 x 7 = 21, beyond the cap 3 x 3 = 9, exempt by age
    1 x 10 = 10. Due: 21 x 7.00 = 147.00."""
    florence = stays(
        {"reservation_room_id": 5, "arrival": D("2026-06-01"), "departure": D("2026-06-11"),
         "brackets": f'{{"{CHD}": 1, "{TEEN}": 1}}'})
    got = city_tax_return(stays=florence, items=ITEMS, age_brackets=brackets(11),
                          rule=RULES.for_property("FIRE01").city_tax, first=JUNE[0],
                          last=JUNE[1])
    assert got == {"persons": 4, "person_nights": 40, "taxable_nights": 21,
                   "exempt_age_nights": 10, "exempt_cap_nights": 9, "due_cents": 14700}
