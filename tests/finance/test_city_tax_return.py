"""The city-tax return of a hand-built month (issue 16, item 4), computed by hand, for a
Rome and a Florence hotel with their cities' rules (domain.md, City tax): Rome 4 stars 7.50
per person and night for the first 10 nights, children up to 10 exempt; Florence 4 stars
7.00 for the first 7 nights, under 12 exempt. Pure: hand-made frames, the rules config."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import polars as pl
import pytest

from pipelines.recon.logic import CityTaxRule, RulesConfigError, load_rules
from pipelines.recon.logic.city_tax_return import city_tax_return, city_tax_stays
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


def _rome_month() -> pl.DataFrame:
    """A, B, C and D of the Rome month (test_rome_month_by_hand)."""
    return stays(
        {"reservation_room_id": 1, "arrival": D("2026-06-03"), "departure": D("2026-06-15"),
         "brackets": f'{{"{CHD}": 1, "{TEEN}": 1}}'},
        {"reservation_room_id": 2, "arrival": D("2026-05-28"), "departure": D("2026-06-02"),
         "adults": 1},
        {"reservation_room_id": 3, "arrival": D("2026-06-29"), "departure": D("2026-07-03"),
         "brackets": f'{{"{INF}": 1}}', "status": "checked_in"},
        {"reservation_room_id": 4, "arrival": D("2026-06-10"), "departure": D("2026-06-12"),
         "status": "cancelled"},
    )


def _stay_e() -> pl.DataFrame:
    return stays(
        {"reservation_room_id": 5, "arrival": D("2026-06-01"), "departure": D("2026-06-11"),
         "brackets": f'{{"{CHD}": 1, "{TEEN}": 1}}'})


def _june(rows: pl.DataFrame, child_to: int, rule: CityTaxRule) -> dict[str, int]:
    """The return of June for the stays, children exempt up to child_to (brackets())."""
    return city_tax_return(stays=rows, items=ITEMS, age_brackets=brackets(child_to), rule=rule,
                           first=JUNE[0], last=JUNE[1])


def test_rome_month_by_hand() -> None:
    """A: 2 adults, a child of 8 (CHD 3-10: exempt), a teen (taxable); 3-15 June, 12 nights:
    taxable 3 x 10 = 30, beyond the cap 3 x 2 = 6, exempt by age 1 x 12 = 12.
    B: 1 adult, 28 May - 2 June: June holds its 5th night, taxable 1.
    C: 2 adults and an infant, in house from 29 June: 2 June nights, taxable 4, exempt 2.
    D: cancelled: nothing. Due: 35 x 7.50 = 262.50."""
    got = _june(_rome_month(), 10, RULES.for_property("ROMA01").city_tax)
    assert got == {"persons": 4 + 1 + 3, "person_nights": 48 + 1 + 6, "taxable_nights": 35,
                   "exempt_age_nights": 12 + 2, "exempt_cap_nights": 6,
                   "due_cents": 26250}


def test_florence_month_by_hand() -> None:
    """E: 2 adults, a child of 8 (CHD 3-11: exempt), a teen of 12 (TEEN: taxable);
    1-11 June, 10 nights: taxable 3 x 7 = 21, beyond the cap 3 x 3 = 9, exempt by age
    1 x 10 = 10. Due: 21 x 7.00 = 147.00."""
    got = _june(_stay_e(), 11, RULES.for_property("FIRE01").city_tax)
    assert got == {"persons": 4, "person_nights": 40, "taxable_nights": 21,
                   "exempt_age_nights": 10, "exempt_cap_nights": 9, "due_cents": 14700}


def test_the_return_resolves_each_city_as_the_reconciliation_does() -> None:
    """The shipped rules, resolved from the property's city and stars (GET /property) by the
    reconciliation's own resolver: Florence's E as above (7 nights, under 12, 7.00: 147.00);
    Rome's A alone is domain.md's worked example (3 taxable x 10 nights x 7.50 = 225.00,
    beyond the cap 3 x 2, exempt by age the child of 8 for 12 nights)."""
    shipped = load_rules()
    florence = shipped.city_tax_to_file("FIRE01", "Firenze", "4")
    assert florence == shipped.for_property("FIRE01", "Firenze", "4").city_tax
    got = _june(_stay_e(), 11, florence)
    assert got == {"persons": 4, "person_nights": 40, "taxable_nights": 21,
                   "exempt_age_nights": 10, "exempt_cap_nights": 9, "due_cents": 14700}
    rome_a = stays(
        {"reservation_room_id": 1, "arrival": D("2026-06-03"), "departure": D("2026-06-15"),
         "brackets": f'{{"{CHD}": 1, "{TEEN}": 1}}'})
    got = _june(rome_a, 10, shipped.city_tax_to_file("ROMA01", "ROMA", "4 stelle"))
    assert got == {"persons": 4, "person_nights": 48, "taxable_nights": 30,
                   "exempt_age_nights": 12, "exempt_cap_nights": 6, "due_cents": 22500}
    assert "first 7 nights, exempt below age 12" in florence.describe()
    assert "7.00 per person-night" in florence.describe()


def test_a_stay_across_a_rate_change_pays_each_night_at_its_rate() -> None:
    """Florence raises its 4-star rate from 7.00 to 8.00 on 5 June. One adult, 1-11 June
    (10 nights): the first 7 taxed, 1-4 June at 7.00 (28.00) and 5-7 June at 8.00 (24.00):
    52.00; 8-10 June beyond the cap."""
    rules = load_rules(text="""
cities:
  Firenze:
    - {valid_from: 2023-04-01, rate_by_stars: {4: 7.00}, nights_cap: 7, exempt_below_age: 12}
    - {valid_from: 2026-06-05, rate_by_stars: {4: 8.00}, nights_cap: 7, exempt_below_age: 12}
""")
    rule = rules.city_tax_to_file("FIRE01", "Firenze", "4")
    one = stays({"reservation_room_id": 6, "arrival": D("2026-06-01"),
                 "departure": D("2026-06-11"), "adults": 1})
    got = _june(one, 11, rule)
    assert got == {"persons": 1, "person_nights": 10, "taxable_nights": 7,
                   "exempt_age_nights": 0, "exempt_cap_nights": 3, "due_cents": 5200}
    assert "until 2026-06-04: 7.00" in rule.describe()
    assert "from 2026-06-05: 8.00" in rule.describe()


def test_a_city_the_rules_do_not_name_is_refused_not_taxed_by_the_default() -> None:
    """A return is filed with the city: a property in Milan, which the shipped rules do not
    name, gets an error naming the city, not the default's flat rule; its own rule under
    `properties` is taken."""
    with pytest.raises(RulesConfigError, match=r"MIL01.*'Milano'.*cities"):
        load_rules().city_tax_to_file("MIL01", "Milano", "4")
    own = load_rules(text="properties:\n  MIL01: {city_tax: {amount_per_person_night: 6.30, "
                          "nights_cap: 14, exempt_below_age: 18}}\n")
    assert own.city_tax_to_file("MIL01", "Milano", "4").amount_per_person_night == Decimal(
        "6.30")


def test_the_stays_behind_the_exemptions_add_up_to_the_return() -> None:
    """The Rome month above: A holds 12 exempt-by-age nights (the child) and 6 beyond the
    cap, C 2 by age (the infant); B has no exemption and D was cancelled."""
    rule = load_rules().city_tax_to_file("ROMA01", "Roma", "4")
    found = city_tax_stays(stays=_rome_month(), items=ITEMS, age_brackets=brackets(10), rule=rule,
                           first=JUNE[0], last=JUNE[1])
    assert [(r["reservation_room_id"], r["exempt_age_nights"], r["exempt_cap_nights"])
            for r in found.iter_rows(named=True)] == [(1, 12, 6), (3, 2, 0)]
