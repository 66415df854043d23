"""The rules config of the reconciliation: a YAML file, validated, merged per property.

Shape (pipelines/recon/logic/defaults.yaml is the documented default):

    default:    {city_tax: {...}, breakfast: {...}, room_nights: {...}}
    cities:     {Roma: [{valid_from: 2023-10-01, rate_by_stars: {4: 7.50}, ...}], ...}
    properties: {ROMA01: {city_tax: {nights_cap: 5}}, ...}

A property's rules are `default` with its own entry merged over it field by field; further
documents (a file of the operator, Dagster run config) merge over the shipped defaults the
same way. City tax is the property's city's (GET /property `city`, matched without regard to
case): its dated periods, each with the rate by star rating, the nights cap and the exempt
age, unless the property's own rules give `periods`. Every error names the field:
`properties.ROMA01.city_tax.nights_cap: ...`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipelines.vocabulary import counted

DEFAULTS_FILE = Path(__file__).with_name("defaults.yaml")

ItemCode = Annotated[str, Field(min_length=1, max_length=50)]
Amount = Annotated[Decimal, Field(ge=0, le=100000, decimal_places=2)]


class RulesConfigError(ValueError):
    """The rules config is not valid; the message names the field."""


class _Rule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Age = Annotated[int, Field(ge=0, le=120)]
NightsCap = Annotated[int, Field(ge=1, le=366)]
Stars = Annotated[int, Field(ge=1, le=7)]


class CityTaxPeriod(_Rule):
    """A city's city-tax rule from `valid_from` until the next period's: a rate change in the
    middle of a stay applies from the night it takes effect on (domain.md, City tax)."""

    valid_from: date
    rate_by_stars: dict[Stars, Amount] = Field(default_factory=dict)
    """Per person and night, by the hotel's star rating (GET /property `star_rating`)."""
    amount_per_person_night: Amount | None = None
    """Set by the resolution for the property's stars; given: it wins over `rate_by_stars`.
    None with no rate for the stars: the item's list price."""
    nights_cap: NightsCap
    """Only the first `nights_cap` nights of a stay are taxed (the night's period's cap)."""
    exempt_below_age: Age
    """Children of a bracket whose `age_to` is below this age are exempt (Rome, children up
    to 10: 11)."""


class CityTaxRule(_Rule):
    """City tax: an amount per taxable person and night, outside VAT."""

    enabled: bool = True
    item_code: ItemCode = "CTAX"
    amount_per_person_night: Amount | None = None
    """Without periods: the amount (None: the item's list price (GET /items))."""
    exempt_below_age: Age = 12
    """Without periods: children of a bracket whose `age_to` is below this age are exempt."""
    nights_cap: NightsCap = 10
    """Without periods: only the first `nights_cap` nights of a stay are taxed."""
    periods: tuple[CityTaxPeriod, ...] = ()
    """The dated rules; nights before the first period owe nothing. Empty: the fields above
    hold for every night. Filled from the property's city (`cities`) unless given here."""
    city: str | None = None
    """The city whose periods these are (set by the resolution; for the record)."""
    star_rating: Stars | None = None
    """The property's stars the amounts were resolved for (set by the resolution)."""

    def schedule(self) -> list[tuple[date | None, date | None, CityTaxPeriod | None]]:
        """(first night, first night after, period) in order: the periods with their end,
        or one open span (None, None, None) meaning the flat fields above."""
        if not self.periods:
            return [(None, None, None)]
        ordered = sorted(self.periods, key=lambda p: p.valid_from)
        ends: list[date | None] = [p.valid_from for p in ordered[1:]]
        return [(p.valid_from, end, p) for p, end in zip(ordered, [*ends, None], strict=True)]

    def describe(self) -> str:
        """The rule in words, per period: what a return prints it applied."""
        if not self.periods:
            amount = ("the item's list price" if self.amount_per_person_night is None
                      else f"{self.amount_per_person_night:.2f}")
            return (f"{amount} per person-night, first {counted(self.nights_cap, 'night')}, exempt "
                    f"below age {self.exempt_below_age}")
        parts = []
        for first, end, period in self.schedule():
            assert period is not None
            amount = ("the item's list price" if period.amount_per_person_night is None
                      else f"{period.amount_per_person_night:.2f}")
            until = "" if end is None else f" until {end - timedelta(days=1)}"
            parts.append(f"from {first}{until}: {amount} per person-night, first "
                         f"{counted(period.nights_cap, 'night')}, exempt below age "
                         f"{period.exempt_below_age}")
        where = f"{self.city}, {self.star_rating} stars, " if self.city else ""
        return where + "; ".join(parts)

    def for_place(self, city: str | None, star_rating: int | None,
                  cities: Mapping[str, tuple[CityTaxPeriod, ...]]) -> CityTaxRule:
        """This rule with the city's periods (unless it has its own) and each period's amount
        resolved for the star rating."""
        periods = self.periods
        found = None
        if not periods and city:
            found = next((name for name in cities
                          if name.strip().casefold() == city.strip().casefold()), None)
            periods = cities[found] if found is not None else ()
        resolved = tuple(
            p if p.amount_per_person_night is not None else p.model_copy(update={
                "amount_per_person_night": p.rate_by_stars.get(star_rating)
                if star_rating is not None else None})
            for p in periods)
        return self.model_copy(update={"periods": resolved, "city": found or self.city,
                                       "star_rating": star_rating})


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
    cities: dict[str, tuple[CityTaxPeriod, ...]] = Field(default_factory=dict)
    """City tax by city name (GET /property `city`; matched without regard to case)."""
    properties: dict[str, PropertyRules] = Field(default_factory=dict)

    def for_property(self, code: str, city: str | None = None,
                     star_rating: str | int | None = None) -> PropertyRules:
        """The rules of the property with this PMS code (GET /property `code`), its city tax
        the city's (GET /property `city`) at its star rating (`star_rating`, text in API v1)."""
        rules = self.properties.get(code, self.default)
        stars = _stars(star_rating)
        return rules.model_copy(update={
            "city_tax": rules.city_tax.for_place(city, stars, self.cities)})

    def city_tax_to_file(self, code: str, city: str | None,
                         star_rating: str | int | None) -> CityTaxRule:
        """The city-tax rule of a return filed with the city: the same resolution as the
        reconciliation's (`for_property`), refused when it would fall back on the default's
        flat fields because the rules name neither the property's city nor the property."""
        rule = self.for_property(code, city, star_rating).city_tax
        if not rule.periods and code not in self.properties:
            raise RulesConfigError(
                f"property {code}: the rules name no city tax for its city {city!r} "
                f"(cities: {', '.join(sorted(self.cities)) or 'none'}); add the city under "
                f"`cities`, or the property's own rule under `properties.{code}.city_tax`")
        return rule


def _stars(value: str | int | None) -> int | None:
    """The star rating as a number ('4', '4S', 4 -> 4); None when it has no leading digit."""
    if value is None:
        return None
    if isinstance(value, int):
        return value
    match = re.match(r"\s*(\d+)", value)
    return int(match.group(1)) if match else None


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
    unknown = sorted(set(document) - {"default", "cities", "properties"})
    if unknown:
        raise RulesConfigError(f"{source}: unknown field {unknown[0]} "
                               "(expected 'default', 'cities' and 'properties')")
    properties = document.get("properties")
    if properties is not None and not isinstance(properties, dict):
        raise RulesConfigError(f"{source}: properties: expected a mapping of property codes")
    cities = document.get("cities")
    if cities is not None and not isinstance(cities, dict):
        raise RulesConfigError(f"{source}: cities: expected a mapping of city names")
    return document


def build_rules(*documents: tuple[Mapping[str, Any], str]) -> RulesConfig:
    """Merge (document, source name) pairs in order, then validate each property's rules."""
    default: dict[str, Any] = {}
    cities: dict[str, Any] = {}
    properties: dict[str, dict[str, Any]] = {}
    sources = []
    for document, source in documents:
        sources.append(source)
        default = _merge(default, document.get("default") or {})
        cities.update({str(name): periods for name, periods
                       in (document.get("cities") or {}).items()})  # a city's list is replaced
        for code, rules in (document.get("properties") or {}).items():
            properties[str(code)] = _merge(properties.get(str(code), {}), rules or {})
    where = " + ".join(sources) or "rules"
    base = _validate(default, where, "default")
    merged = {code: _validate(_merge(default, rules), where, f"properties.{code}")
              for code, rules in properties.items()}
    return RulesConfig(default=base, cities=_validate_cities(cities, where),
                       properties=merged)


class _Cities(_Rule):
    cities: dict[str, tuple[CityTaxPeriod, ...]]


def _validate_cities(cities: Mapping[str, Any],
                     source: str) -> dict[str, tuple[CityTaxPeriod, ...]]:
    try:
        return _Cities.model_validate({"cities": cities}).cities
    except ValidationError as error:
        problems = [".".join(str(part) for part in item["loc"]) + f": {item['msg']}"
                    for item in error.errors()]
        raise RulesConfigError(f"{source}: " + "; ".join(problems)) from None


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
