"""The city-tax return of one property and month (issue 16, item 4), pure polars.

Amounts come from the city-tax rule itself (`rules.city_tax`, configured per property in the
rules config), so the return taxes exactly what the reconciliation expects on folios:
- person-nights: every person (adults and every child) of every night lived in the month;
- taxable nights: the rule's quantity (persons not exempt by age, first `nights_cap` nights);
- exempt beyond the cap: what the same rule without a cap adds;
- exempt by age: the rest;
- amount due: the rule's amounts (a charge blocked on a closed folio is still due).
"""

from __future__ import annotations

from datetime import date

import polars as pl

from .config import CityTaxRule
from .frames import Frame
from .rules import _lived_nights, city_tax, persons_from_age

NO_CAP = 366


def city_tax_return(*, stays: Frame, items: Frame, age_brackets: Frame, rule: CityTaxRule,
                    first: date, last: date) -> dict[str, int]:
    """persons, person_nights, taxable_nights, exempt_age_nights, exempt_cap_nights,
    due_cents for the nights [first, last]."""
    lived = _lived_nights(stays).filter(pl.col("stay_date").is_between(first, last))
    everyone = persons_from_age(lived, age_brackets, 0).collect()
    person_nights = int(everyone["persons"].sum() or 0)
    persons = int(everyone.unique("reservation_room_id")["persons"].sum() or 0)
    taxed = city_tax(stays, items, age_brackets, rule, first, last).collect()
    uncapped = city_tax(stays, items, age_brackets,
                        rule.model_copy(update={"nights_cap": NO_CAP}), first, last).collect()
    taxable = int(taxed["quantity_milli"].sum() or 0) // 1000
    without_cap = int(uncapped["quantity_milli"].sum() or 0) // 1000
    return {
        "persons": persons, "person_nights": person_nights, "taxable_nights": taxable,
        "exempt_age_nights": person_nights - without_cap,
        "exempt_cap_nights": without_cap - taxable,
        "due_cents": int(taxed["expected_cents"].sum() or 0),
    }
