"""The rules config: shipped defaults, merging, and errors that name the field."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from pipelines.transforms.reconcile import RulesConfigError, load_rules
from pipelines.transforms.reconcile.config import DEFAULTS_FILE


def test_shipped_defaults_follow_the_sandbox_hotels() -> None:
    rules = load_rules()
    rome = rules.for_property("ROMA01")
    assert rome.city_tax.amount_per_person_night == Decimal("7.50")
    assert rome.city_tax.nights_cap == 10
    assert rome.city_tax.exempt_below_age == 12
    assert rules.for_property("FIRE01").city_tax.amount_per_person_night == Decimal("7.00")
    other = rules.for_property("ELSEWHERE")
    assert other.city_tax.amount_per_person_night is None  # the item's list price
    assert other.breakfast.rate_plans == ("BB",)
    assert other.room_nights.repost is False
    assert DEFAULTS_FILE.name == "defaults.yaml"


def test_a_file_and_run_config_merge_field_by_field(tmp_path: Path) -> None:
    file = tmp_path / "rules.yaml"
    file.write_text("default:\n  breakfast:\n    rate_plans: [BB, HB]\n"
                    "properties:\n  ROMA01:\n    city_tax:\n      nights_cap: 5\n")
    rules = load_rules(file, text="properties: {ROMA01: {room_nights: {repost: true}}}")
    rome = rules.for_property("ROMA01")
    assert rome.city_tax.nights_cap == 5
    assert rome.city_tax.amount_per_person_night == Decimal("7.50")  # shipped, kept
    assert rome.breakfast.rate_plans == ("BB", "HB")  # the file's default reaches ROMA01
    assert rome.room_nights.repost is True
    assert rules.for_property("FIRE01").city_tax.nights_cap == 10


@pytest.mark.parametrize(("text", "message"), [
    ("properties: {ROMA01: {city_tax: {nights_cap: 0}}}",
     "properties.ROMA01.city_tax.nights_cap: Input should be greater than or equal to 1"),
    ("default: {breakfast: {rate_plan: [BB]}}",
     "default.breakfast.rate_plan: Extra inputs are not permitted"),
    ("default: {city_tax: {amount_per_person_night: 7.555}}",
     "default.city_tax.amount_per_person_night: Decimal input should have no more than 2 "
     "decimal places"),
    ("rules: {}", "unknown field rules"),
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
