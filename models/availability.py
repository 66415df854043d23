"""Availability by room type and night, and quotes from the rate engine."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from pydantic import Field

from .common import Input, Num, Resource

Brackets = Annotated[dict[int, Annotated[int, Field(ge=0)]],
                     Field(json_schema_extra={"propertyNames": {"pattern": "^[0-9]{1,18}$"}})]
"""Children by age bracket id (spec, convention 9). JSON keys are strings: the document says
they are the digits of an id (pydantic does not), so generated requests send ids."""

NightlyPrice = Annotated[Num, Field(ge=0, le=1_000_000)]
"""`price_override`: a fixed nightly price; the sandbox bounds it to a million a night."""


class AvailabilityDay(Resource):
    date: date
    total: int
    occupied: int
    out_of_order: int
    available: int


class TypeAvailability(Resource):
    room_type_id: int
    code: str
    name: str
    days: list[AvailabilityDay]


class Availability(Resource):
    data: list[TypeAvailability]
    from_: date = Field(alias="from")
    to: date


class QuoteRequest(Input):
    room_type_id: int
    arrival: date
    departure: date
    adults: Annotated[int, Field(ge=1)] = 2
    brackets: Brackets = Field(default_factory=dict)
    rate_plan_id: int | None = None
    offer_id: int | None = None
    discount_pct: Annotated[Num, Field(ge=0, le=100)] | None = None
    price_override: NightlyPrice | None = None


class QuoteNight(Resource):
    """One night priced by the rate engine (fields not shown by the spec: docs/sandbox.md)."""

    date: date
    list_price: Num
    discount_pct: Num
    price: Num


class Quote(Resource):
    total: Num
    nights: list[QuoteNight]
