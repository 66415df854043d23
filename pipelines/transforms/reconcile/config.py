"""The rules config of the reconciliation: a YAML file, validated, merged per property.

Shape (pipelines/transforms/reconcile/defaults.yaml is the documented default):

    default:    {city_tax: {...}, breakfast: {...}, room_nights: {...}}
    properties: {ROMA01: {city_tax: {amount_per_person_night: 7.50}}, ...}

A property's rules are `default` with its own entry merged over it field by field; further
documents (a file of the operator, Dagster run config) merge over the shipped defaults the
same way. Every error names the field: `properties.ROMA01.city_tax.nights_cap: ...`.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

DEFAULTS_FILE = Path(__file__).with_name("defaults.yaml")

ItemCode = Annotated[str, Field(min_length=1, max_length=50)]
Amount = Annotated[Decimal, Field(ge=0, le=100000, decimal_places=2)]


class RulesConfigError(ValueError):
    """The rules config is not valid; the message names the field."""


class _Rule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CityTaxRule(_Rule):
    """City tax: an amount per taxable person and night, outside VAT."""

    enabled: bool = True
    item_code: ItemCode = "CTAX"
    amount_per_person_night: Amount | None = None
    """None: the item's list price (GET /items)."""
    exempt_below_age: Annotated[int, Field(ge=0, le=120)] = 12
    """Children of a bracket whose `age_to` is below this age are exempt."""
    nights_cap: Annotated[int, Field(ge=1, le=366)] = 10
    """Only the first `nights_cap` nights of a stay are taxed."""


class BreakfastRule(_Rule):
    """Package breakfast: per person and night for the rate plans that include it."""

    enabled: bool = True
    item_code: ItemCode = "BRK"
    rate_plans: tuple[Annotated[str, Field(min_length=1)], ...] = ("BB",)
    """Rate plan codes whose price includes breakfast (API v1's RatePlan has no such field)."""
    unit_price: Amount | None = None
    """None: the item's list price (GET /items)."""
    free_below_age: Annotated[int, Field(ge=0, le=120)] = 3
    """Children of a bracket whose `age_to` is below this age eat free."""
    departure_morning: bool = False
    """Expect breakfast on the morning of departure too (a guest may leave before it)."""


class RoomNightsRule(_Rule):
    """Every night lived by an in-house or departed stay has its accommodation charge."""

    enabled: bool = True
    item_code: ItemCode = "ROOM"
    repost: bool = False
    """Post a missing room night in apply mode (room charges are the PMS's own: off)."""


class PropertyRules(_Rule):
    """The rules of one property."""

    city_tax: CityTaxRule = CityTaxRule()
    breakfast: BreakfastRule = BreakfastRule()
    room_nights: RoomNightsRule = RoomNightsRule()


class RulesConfig(_Rule):
    """The whole config: defaults and per-property overrides (kept as merged documents)."""

    default: PropertyRules = PropertyRules()
    properties: dict[str, PropertyRules] = Field(default_factory=dict)

    def for_property(self, code: str) -> PropertyRules:
        """The rules of the property with this PMS code (GET /property `code`)."""
        return self.properties.get(code, self.default)


def _merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        current = merged.get(key)
        if isinstance(current, Mapping) and isinstance(value, Mapping):
            merged[key] = _merge(current, value)
        else:
            merged[key] = value
    return merged


def _describe(error: ValidationError, source: str, prefix: str) -> str:
    problems = []
    for item in error.errors():
        where = ".".join([prefix, *(str(part) for part in item["loc"])])
        problems.append(f"{where}: {item['msg']}")
    return f"{source}: " + "; ".join(problems)


def _validate(document: Mapping[str, Any], source: str, prefix: str) -> PropertyRules:
    try:
        return PropertyRules.model_validate(document)
    except ValidationError as error:
        raise RulesConfigError(_describe(error, source, prefix)) from None


def _document(text: str, source: str) -> dict[str, Any]:
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise RulesConfigError(f"{source}: not valid YAML: {exc}") from None
    if document is None:
        return {}
    if not isinstance(document, dict):
        raise RulesConfigError(f"{source}: expected a mapping with 'default' and 'properties'")
    unknown = sorted(set(document) - {"default", "properties"})
    if unknown:
        raise RulesConfigError(f"{source}: unknown field {unknown[0]} "
                               "(expected 'default' and 'properties')")
    properties = document.get("properties")
    if properties is not None and not isinstance(properties, dict):
        raise RulesConfigError(f"{source}: properties: expected a mapping of property codes")
    return document


def build_rules(*documents: tuple[Mapping[str, Any], str]) -> RulesConfig:
    """Merge (document, source name) pairs in order, then validate each property's rules."""
    default: dict[str, Any] = {}
    properties: dict[str, dict[str, Any]] = {}
    sources = []
    for document, source in documents:
        sources.append(source)
        default = _merge(default, document.get("default") or {})
        for code, rules in (document.get("properties") or {}).items():
            properties[str(code)] = _merge(properties.get(str(code), {}), rules or {})
    where = " + ".join(sources) or "rules"
    base = _validate(default, where, "default")
    merged = {code: _validate(_merge(default, rules), where, f"properties.{code}")
              for code, rules in properties.items()}
    return RulesConfig(default=base, properties=merged)


def load_rules(path: str | Path | None = None, *, text: str | None = None) -> RulesConfig:
    """The shipped defaults, with the file at `path` and then the YAML `text` merged over."""
    documents = [(_document(DEFAULTS_FILE.read_text(encoding="utf-8"), DEFAULTS_FILE.name),
                  DEFAULTS_FILE.name)]
    if path is not None:
        file = Path(path)
        if not file.is_file():
            raise RulesConfigError(f"rules file {file}: no such file")
        documents.append((_document(file.read_text(encoding="utf-8"), str(file)), str(file)))
    if text is not None:
        documents.append((_document(text, "run config rules_yaml"), "run config rules_yaml"))
    return build_rules(*documents)
