"""The city-tax return of one property and month (issue 16, item 4), pure polars.

Amounts come from the city-tax rule itself (`rules.city_tax`, configured per property in the
rules config), so the return taxes exactly what the reconciliation expects on folios:
- person-nights: every person (adults and every child) of every night lived in the month;
- taxable nights: the rule's quantity (persons not exempt by age, first `nights_cap` nights);
- exempt beyond the cap: what the same rule without a cap (in any period) adds;
- exempt by age: the rest;
- amount due: the rule's amounts (a charge blocked on a closed folio is still due).
"""

from __future__ import annotations

from datetime import date

import polars as pl

from pipelines.recon.logic.config import CityTaxRule
from pipelines.recon.logic.frames import Frame, lazy
from pipelines.recon.logic.rules import _lived_nights, city_tax, persons_from_age

NO_CAP = 366


def without_cap(rule: CityTaxRule) -> CityTaxRule:
    """The same rule with no nights cap, in its flat fields and in every dated period."""
    return rule.model_copy(update={
        "nights_cap": NO_CAP,
        "periods": tuple(p.model_copy(update={"nights_cap": NO_CAP}) for p in rule.periods)})


def city_tax_return(*, stays: Frame, items: Frame, age_brackets: Frame, rule: CityTaxRule,
                    first: date, last: date) -> dict[str, int]:
    """persons, person_nights, taxable_nights, exempt_age_nights, exempt_cap_nights,
    due_cents for the nights [first, last]."""
    lived = _lived_nights(stays).filter(pl.col("stay_date").is_between(first, last))
    everyone = persons_from_age(lived, age_brackets, 0).collect()
    person_nights = int(everyone["persons"].sum() or 0)
    persons = int(everyone.unique("reservation_room_id")["persons"].sum() or 0)
    taxed = city_tax(stays, items, age_brackets, rule, first, last).collect()
    uncapped = city_tax(stays, items, age_brackets, without_cap(rule), first, last).collect()
    taxable = int(taxed["quantity_milli"].sum() or 0) // 1000
    untaxed_cap = int(uncapped["quantity_milli"].sum() or 0) // 1000
    return {
        "persons": persons, "person_nights": person_nights, "taxable_nights": taxable,
        "exempt_age_nights": person_nights - untaxed_cap,
        "exempt_cap_nights": untaxed_cap - taxable,
        "due_cents": int(taxed["expected_cents"].sum() or 0),
    }


STAY_EXEMPTION_COLUMNS = ("reservation_id", "reservation_room_id", "room_code", "arrival",
                          "departure", "person_nights", "taxable_nights", "exempt_age_nights",
                          "exempt_cap_nights")


def city_tax_stays(*, stays: Frame, items: Frame, age_brackets: Frame, rule: CityTaxRule,
                   first: date, last: date) -> pl.DataFrame:
    """The stays behind the return's exemptions: per room entry with a night lived in
    [first, last] and an exempt person-night (by age, or beyond the nights cap), its
    person-nights, taxable nights and exempt nights by reason, as `city_tax_return` counts
    them (the sums of these rows are its exemptions)."""
    key = "reservation_room_id"
    lived = _lived_nights(stays).filter(pl.col("stay_date").is_between(first, last))
    everyone = persons_from_age(lived, age_brackets, 0).group_by(key).agg(
        person_nights=pl.col("persons").sum())

    def nights(frame: pl.LazyFrame, name: str) -> pl.LazyFrame:
        return frame.group_by(key).agg(**{name: pl.col("quantity_milli").sum() // 1000})

    taxed = nights(city_tax(stays, items, age_brackets, rule, first, last), "taxable_nights")
    uncapped = nights(city_tax(stays, items, age_brackets, without_cap(rule), first, last),
                      "uncapped")
    facts = lazy(stays, "stays", ["reservation_id", key, "room_code", "arrival", "departure"]
                 ).select("reservation_id", pl.col(key).cast(pl.Int64), "room_code", "arrival",
                          "departure")
    return (
        everyone.with_columns(pl.col(key).cast(pl.Int64))
        .join(taxed.with_columns(pl.col(key).cast(pl.Int64)), on=key, how="left")
        .join(uncapped.with_columns(pl.col(key).cast(pl.Int64)), on=key, how="left")
        .join(facts, on=key, how="left")
        .with_columns(pl.col("taxable_nights", "uncapped").fill_null(0).cast(pl.Int64),
                      pl.col("person_nights").cast(pl.Int64))
        .with_columns(exempt_age_nights=pl.col("person_nights") - pl.col("uncapped"),
                      exempt_cap_nights=pl.col("uncapped") - pl.col("taxable_nights"))
        .filter((pl.col("exempt_age_nights") > 0) | (pl.col("exempt_cap_nights") > 0))
        .select(STAY_EXEMPTION_COLUMNS)
        .sort("arrival", key)
        .collect()
    )
