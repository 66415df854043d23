"""The rules config: shipped defaults, merging, and errors that name the field."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from pipelines.recon.logic import RulesConfigError, load_rules
from pipelines.recon.logic.config import DEFAULTS_FILE


def test_shipped_city_tax_is_the_citys_at_the_hotels_stars() -> None:
    """domain.md, City tax: Rome 4 stars 7.50 for at most 10 nights, children up to 10
    exempt (from 2023-10-01); Florence 4 stars 7.00 for at most 7 nights, under 12 exempt
    (from 2023-04-01). The property's city (GET /property `city`, Italian or English, any
    case) and star rating select the rule."""
    rules = load_rules()
    (rome,) = rules.for_property("ROMA01", "Roma", "4").city_tax.periods
    assert (rome.valid_from, rome.amount_per_person_night, rome.nights_cap,
            rome.exempt_below_age) == (date(2023, 10, 1), Decimal("7.50"), 10, 11)
    (florence,) = rules.for_property("FIRE01", "FIRENZE", "4").city_tax.periods
    assert (florence.valid_from, florence.amount_per_person_night, florence.nights_cap,
            florence.exempt_below_age) == (date(2023, 4, 1), Decimal("7.00"), 7, 12)
    assert rules.for_property("X", "Rome", "5").city_tax.periods[0].amount_per_person_night \
        == Decimal("10.00")
    assert rules.for_property("X", "Florence", "3").city_tax.periods[0] \
        .amount_per_person_night == Decimal("6.00")
    other = rules.for_property("ELSEWHERE", "Milano", "3")
    assert other.city_tax.periods == ()  # no city rule known: the flat fields
    assert other.city_tax.amount_per_person_night is None  # the item's list price
    assert other.breakfast.rate_plans == ("BB",)
    assert other.room_nights.repost is False
    assert DEFAULTS_FILE.name == "defaults.yaml"


def test_a_file_and_run_config_merge_field_by_field(tmp_path: Path) -> None:
    file = tmp_path / "rules.yaml"
    file.write_text("default:\n  breakfast:\n    rate_plans: [BB, HB]\n"
                    "properties:\n  ROMA01:\n    city_tax:\n      nights_cap: 5\n"
                    "cities:\n  Roma:\n    - {valid_from: 2023-10-01, nights_cap: 10,"
                    " exempt_below_age: 11, rate_by_stars: {4: 7.50}}\n"
                    "    - {valid_from: 2026-07-01, nights_cap: 10, exempt_below_age: 11,"
                    " rate_by_stars: {4: 8.00}}\n")
    rules = load_rules(file, text="properties: {ROMA01: {room_nights: {repost: true}}}")
    rome = rules.for_property("ROMA01", "Roma", "4")
    assert rome.city_tax.nights_cap == 5
    # The file's Roma replaces the shipped periods: a rate change from 2026-07-01.
    assert [(p.valid_from, p.amount_per_person_night) for p in rome.city_tax.periods] == [
        (date(2023, 10, 1), Decimal("7.50")), (date(2026, 7, 1), Decimal("8.00"))]
    assert rome.breakfast.rate_plans == ("BB", "HB")  # the file's default reaches ROMA01
    assert rome.room_nights.repost is True
    assert rules.for_property("FIRE01", "Firenze", "4").city_tax.periods[0].nights_cap == 7


@pytest.mark.parametrize(("text", "message"), [
    ("properties: {ROMA01: {city_tax: {nights_cap: 0}}}",
     "properties.ROMA01.city_tax.nights_cap: Input should be greater than or equal to 1"),
    ("default: {breakfast: {rate_plan: [BB]}}",
     "default.breakfast.rate_plan: Extra inputs are not permitted"),
    ("default: {city_tax: {amount_per_person_night: 7.555}}",
     "default.city_tax.amount_per_person_night: Decimal input should have no more than 2 "
     "decimal places"),
    ("rules: {}", "unknown field rules"),
    ("cities: {Roma: [{valid_from: 2023-10-01, nights_cap: 10}]}",
     "cities.Roma.0.exempt_below_age: Field required"),
    ("properties: [ROMA01]", "properties: expected a mapping of property codes"),
    ("default: [", "not valid YAML"),
])
def test_errors_name_the_field(text: str, message: str) -> None:
    with pytest.raises(RulesConfigError) as caught:
        load_rules(text=text)
    assert message in str(caught.value)


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(RulesConfigError, match="no such file"):
        load_rules(tmp_path / "nope.yaml")
