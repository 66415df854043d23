"""City tax rules per city (docs/sandbox.md, City tax; figures from domain.md's table: Rome
from 1 Oct 2023, 4 stars 7.50 a person and night, 10 nights, children up to 10 exempt;
Florence from 1 Apr 2023, 4 stars 7.00, 7 nights, under 12 exempt). Expected figures are
worked by hand."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

from sandbox.services.city_tax import CITY_TAX_RULES, CityTaxRule, night_tax, rule_on

ROME_CHILD, ROME_TEEN = 10, 17  # age_to of Rome's brackets CHD 3-10, TEEN 11-17
FLORENCE_CHILD = 11  # Florence's CHD 3-11


def stay_tax(city: str, arrival: date, nights: int, adults: int, children: dict[int, int],
             rules: tuple[CityTaxRule, ...] = CITY_TAX_RULES) -> list[tuple[date, int, int]]:
    """(night, persons, cents per person) of every night of the stay that owes something."""
    owed = []
    for index in range(nights):
        night = arrival + timedelta(days=index)
        tax = night_tax(rule_on(city, night, rules), 4, index, adults, children)
        if tax is not None:
            owed.append((night, *tax))
    return owed


def test_florence_taxes_seven_nights_of_a_ten_night_stay() -> None:
    owed = stay_tax("Firenze", date(2025, 5, 1), 10, 2, {})
    assert [night.day for night, _, _ in owed] == [1, 2, 3, 4, 5, 6, 7]
    assert sum(persons * cents for _, persons, cents in owed) == 7 * 2 * 700  # 98.00


def test_rome_taxes_ten_nights_and_the_domain_md_worked_example() -> None:
    """2 adults + children aged 8 and 12, 12 nights: 3 x 10 x 7.50 = 225.00."""
    owed = stay_tax("Roma", date(2025, 5, 1), 12, 2, {ROME_CHILD: 1, ROME_TEEN: 1})
    assert len(owed) == 10
    assert sum(persons * cents for _, persons, cents in owed) == 22_500


def test_a_rome_child_of_eleven_is_taxed_in_florence_not() -> None:
    rome = rule_on("Roma", date(2025, 5, 1))
    florence = rule_on("Firenze", date(2025, 5, 1))
    assert rome is not None
    assert florence is not None
    # An 11-year-old is in Rome's TEEN bracket (11-17) and in Florence's CHD bracket (3-11).
    assert rome.taxed_persons(1, {ROME_TEEN: 1}) == 2
    assert rome.taxed_persons(1, {ROME_CHILD: 1}) == 1
    assert florence.taxed_persons(1, {FLORENCE_CHILD: 1}) == 1


def test_a_rate_change_applies_from_its_valid_from_night() -> None:
    old = rule_on("Roma", date(2025, 12, 31))
    assert old is not None
    new = replace(old, valid_from=date(2026, 1, 1),
                  rates={**old.rates, 4: Decimal("8.50")})
    owed = stay_tax("Roma", date(2025, 12, 30), 4, 1, {}, (*CITY_TAX_RULES, new))
    assert [(night.isoformat(), cents) for night, _, cents in owed] == [
        ("2025-12-30", 750), ("2025-12-31", 750), ("2026-01-01", 850), ("2026-01-02", 850)]


def test_no_rule_before_the_first_valid_from_or_in_an_unknown_city() -> None:
    assert rule_on("Roma", date(2023, 9, 30)) is None
    assert rule_on("Milano", date(2025, 5, 1)) is None
    assert night_tax(None, 4, 0, 2, {}) is None
    assert stay_tax("Roma", date(2025, 5, 1), 2, 0, {ROME_CHILD: 2}) == []
