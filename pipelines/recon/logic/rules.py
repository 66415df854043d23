"""The rules: charges every stay should carry whether or not a POS rang them.

Each rule is a function of the property's room entries (core.reservation_rooms), items and
age brackets, and the business dates reconciled (`first` to `last`, both closed by the night
audit); it returns expected charges (frames.EXPECTED_SCHEMA). Only stays that lived their
nights count: status `checked_in` or `checked_out` (a cancelled stay, no-shows included,
lived none). A night N is the one between business date N and N + 1.

- `city_tax`: per night N, the taxable persons (adults, and children of brackets not
  exempt by age) on business date N, for the first `nights_cap` nights of the stay, under
  the city's rule in force on N (its period: rate by stars, cap, exempt age).
- `breakfast`: for stays on a plan that includes it, the persons (infants free) on the
  morning after each night, business date N + 1; the departure morning only when configured.
- `room_nights`: per night N, one accommodation charge on business date N.
"""

from __future__ import annotations

from datetime import date

import polars as pl

from pipelines.marts.logic import explode_nights, split_evenly, to_cents
from pipelines.recon.logic.config import BreakfastRule, CityTaxRule, RoomNightsRule
from pipelines.recon.logic.frames import (
    BRACKET_COLUMNS,
    IN_HOUSE_OR_DEPARTED,
    ITEM_COLUMNS,
    STAY_COLUMNS,
    Frame,
    amount_cents,
    conform,
    empty_expected,
    lazy,
)

CITY_TAX = "rule:city_tax"
BREAKFAST = "rule:breakfast"
ROOM_NIGHTS = "rule:room_nights"

_PAIR = r'"(\d+)"\s*:\s*(\d+)'


def persons_from_age(stays: pl.LazyFrame, age_brackets: Frame, below_age: int) -> pl.LazyFrame:
    """Add `persons`: adults plus the children of brackets whose `age_to` is `below_age` or
    more (an open bracket, or one unknown to core.age_brackets, counts: the safe side)."""
    brackets = lazy(age_brackets, "age_brackets", BRACKET_COLUMNS).select(
        pl.col("property_id").cast(pl.Int64), pl.col("age_bracket_id").cast(pl.Int64),
        exempt=pl.col("age_to").is_not_null() & (pl.col("age_to") < below_age))
    indexed = stays.with_row_index("_row")
    children = (
        indexed.select("_row", "property_id",
                       pair=pl.col("brackets").cast(pl.String).str.extract_all(_PAIR))
        .explode("pair").drop_nulls("pair")
        .with_columns(age_bracket_id=pl.col("pair").str.extract(_PAIR, 1).cast(pl.Int64),
                      count=pl.col("pair").str.extract(_PAIR, 2).cast(pl.Int64))
        .join(brackets, on=["property_id", "age_bracket_id"], how="left")
        .group_by("_row")
        .agg(counted=pl.col("count").filter(~pl.col("exempt").fill_null(False)).sum())
    )
    return (indexed.join(children, on="_row", how="left")
            .with_columns(persons=(pl.col("adults") + pl.col("counted").fill_null(0))
                          .cast(pl.Int64))
            .drop("_row", "counted"))


def _lived_nights(stays: Frame) -> pl.LazyFrame:
    """One row per night (`stay_date`, `night_index`, `nights`) of stays that lived them."""
    lf = lazy(stays, "stays", STAY_COLUMNS).filter(
        pl.col("status").is_in(IN_HOUSE_OR_DEPARTED))
    return explode_nights(lf)


def _item(items: Frame, code: str) -> pl.LazyFrame:
    """The item of this code (item_id, item_name, list_cents) per property; none when absent."""
    return lazy(items, "items", ITEM_COLUMNS).filter(pl.col("code") == code).select(
        pl.col("property_id").cast(pl.Int64), item_id=pl.col("item_id").cast(pl.Int64),
        item_name=pl.col("name"), list_cents=to_cents(pl.col("price")))


def _priced(nights: pl.LazyFrame, items: Frame, code: str, unit_cents: pl.Expr,
            source: str, description: pl.Expr, *, compare_amount: bool = True,
            repost: bool = True) -> pl.LazyFrame:
    """Attach the item and build expected charges from rows with `business_date`,
    `quantity` (persons or nights) and the stay's columns."""
    return conform(
        nights.join(_item(items, code), on="property_id", how="left")
        .with_columns(unit_cents=unit_cents)
        .with_columns(
            item_code=pl.lit(code), source=pl.lit(source), source_ref=pl.lit(source),
            description=description, quantity_milli=pl.col("quantity") * 1000,
            expected_cents=amount_cents(pl.col("quantity") * 1000, pl.col("unit_cents")),
            compare_amount=pl.lit(compare_amount), repost=pl.lit(repost))
    )


def _in_range(column: str, first: date, last: date) -> pl.Expr:
    return pl.col(column).is_between(pl.lit(first), pl.lit(last))


def _name(code: str) -> pl.Expr:
    return pl.col("item_name").fill_null(pl.lit(code))


def city_tax(stays: Frame, items: Frame, age_brackets: Frame, rule: CityTaxRule,
             first: date, last: date) -> pl.LazyFrame:
    """City tax of each night lived in [first, last] under the rule in force that night
    (`rule.periods`, else the flat fields): persons not exempt by the period's age, nights
    of the stay before the period's `nights_cap`, at its amount (else the item's list price).
    Nights before the first period owe nothing."""
    if not rule.enabled:
        return empty_expected()
    lived = _lived_nights(stays).filter(_in_range("stay_date", first, last))
    parts = []
    for start, end, period in rule.schedule():
        cap = rule.nights_cap if period is None else period.nights_cap
        age = rule.exempt_below_age if period is None else period.exempt_below_age
        amount = rule.amount_per_person_night if period is None \
            else period.amount_per_person_night
        within = pl.col("night_index") < cap
        if start is not None:
            within = within & (pl.col("stay_date") >= pl.lit(start))
        if end is not None:
            within = within & (pl.col("stay_date") < pl.lit(end))
        unit = (pl.lit(int(amount * 100), dtype=pl.Int64) if amount is not None
                else pl.col("list_cents"))
        nights = persons_from_age(lived.filter(within), age_brackets, age).filter(
            pl.col("persons") > 0).with_columns(
            business_date=pl.col("stay_date"), quantity=pl.col("persons"))
        description = pl.format("{} night {} [{}]", _name(rule.item_code),
                                pl.col("business_date").dt.to_string("%Y-%m-%d"),
                                pl.lit(CITY_TAX))
        parts.append(_priced(nights, items, rule.item_code, unit, CITY_TAX, description))
    return pl.concat(parts, how="vertical") if len(parts) > 1 else parts[0]


def breakfast(stays: Frame, items: Frame, age_brackets: Frame, rule: BreakfastRule,
              first: date, last: date) -> pl.LazyFrame:
    """Breakfast of stays on a plan of `rate_plans`: the persons (children below
    `free_below_age` free) on each morning after a night, dated that morning."""
    if not rule.enabled or not rule.rate_plans:
        return empty_expected()
    mornings = (
        _lived_nights(stays)
        .filter(pl.col("rate_plan_code").is_in(list(rule.rate_plans)))
        .with_columns(business_date=pl.col("stay_date") + pl.duration(days=1))
        .filter(_in_range("business_date", first, last))
    )
    if not rule.departure_morning:
        mornings = mornings.filter(pl.col("business_date") < pl.col("departure"))
    with_persons = persons_from_age(mornings, age_brackets, rule.free_below_age).filter(
        pl.col("persons") > 0).with_columns(quantity=pl.col("persons"))
    unit = (pl.lit(int(rule.unit_price * 100), dtype=pl.Int64)
            if rule.unit_price is not None else pl.col("list_cents"))
    description = pl.format("{} {} [{}]", _name(rule.item_code),
                            pl.col("business_date").dt.to_string("%Y-%m-%d"), pl.lit(BREAKFAST))
    return _priced(with_persons, items, rule.item_code, unit, BREAKFAST, description)


def room_nights(stays: Frame, items: Frame, rule: RoomNightsRule,
                first: date, last: date) -> pl.LazyFrame:
    """One accommodation charge per night lived in [first, last]. The nightly price is the
    PMS's (API v1 does not give it): the amount shown is the stay total split evenly (the
    rounding on the last night) and is not compared; a repost uses it."""
    if not rule.enabled:
        return empty_expected()
    nights = (
        _lived_nights(stays).filter(_in_range("stay_date", first, last))
        .with_columns(business_date=pl.col("stay_date"), quantity=pl.lit(1, dtype=pl.Int64),
                      night_cents=split_evenly(to_cents(pl.col("total")), pl.col("nights"),
                                               pl.col("night_index")))
    )
    description = pl.format("Room {} night {} [{}]", pl.col("room_code").fill_null(""),
                            pl.col("business_date").dt.to_string("%Y-%m-%d"), pl.lit(ROOM_NIGHTS))
    return _priced(nights, items, rule.item_code, pl.col("night_cents"), ROOM_NIGHTS,
                   description, compare_amount=False, repost=rule.repost)
