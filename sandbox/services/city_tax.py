"""City tax (imposta di soggiorno): each city's rule, dated, and what one night of a stay owes.

A rule holds from its `valid_from` until the next rule of the same city; a rate change in the
middle of a stay applies from the night it takes effect on. Children are exempt by age bracket:
a bracket whose `age_to` is the exemption age or below is exempt, so a hotel's brackets follow
its city's rule (Rome's children bracket ends at 10, Florence's at 11: sandbox/seed.py). The
figures and their sources: docs/sandbox.md, City tax.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal


@dataclass(frozen=True)
class CityTaxRule:
    city: str
    """As the property's `city` (Italian name)."""
    valid_from: date
    rates: Mapping[int, Decimal]
    """Per person and night, by the hotel's star rating."""
    nights_cap: int
    """Only the first nights of a stay are taxed."""
    exempt_up_to_age: int
    """Children of this age or younger pay nothing."""

    def rate_cents(self, stars: int) -> int:
        return int(self.rates[stars] * 100)

    def taxed_persons(self, adults: int, children: Mapping[int, int]) -> int:
        """`children`: count by the `age_to` of their bracket."""
        return adults + sum(n for age_to, n in children.items() if age_to > self.exempt_up_to_age)


def _rates(*figures: str) -> dict[int, Decimal]:
    return {stars: Decimal(figure) for stars, figure in enumerate(figures, start=1)}


CITY_TAX_RULES = (
    CityTaxRule("Roma", date(2023, 10, 1), _rates("4.00", "5.00", "6.00", "7.50", "10.00"),
                nights_cap=10, exempt_up_to_age=10),
    CityTaxRule("Firenze", date(2023, 4, 1), _rates("3.50", "4.50", "6.00", "7.00", "8.00"),
                nights_cap=7, exempt_up_to_age=11),
)


def rule_on(city: str, night: date,
            rules: tuple[CityTaxRule, ...] = CITY_TAX_RULES) -> CityTaxRule | None:
    """The rule of `city` in force on `night` (None: the city levies none known here)."""
    return max((r for r in rules if r.city == city and r.valid_from <= night),
               key=lambda r: r.valid_from, default=None)


def night_tax(rule: CityTaxRule | None, stars: int, night_index: int, adults: int,
              children: Mapping[int, int]) -> tuple[int, int] | None:
    """(taxed persons, cents per person) owed for the night `night_index` of a stay (0: the
    arrival night); None when nothing is owed (no rule, past the cap, nobody taxed)."""
    if rule is None or night_index >= rule.nights_cap:
        return None
    persons = rule.taxed_persons(adults, children)
    return (persons, rule.rate_cents(stars)) if persons > 0 else None
