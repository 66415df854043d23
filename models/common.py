"""Shared types of API v1: money, timestamps, enums, small shapes and list envelopes."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, PlainValidator


def _money_to_json(value: Decimal) -> float | int:
    # JSON numbers, not strings: the spec says amounts are decimal numbers.
    return int(value) if value == value.to_integral_value() else float(value)


def _number_only(schema: dict[str, Any]) -> None:
    # Pydantic documents a Decimal input as "number or string" and drops the string's pattern
    # under ge/le: the spec's `num` is a JSON number, so the document says number only.
    branches = schema.pop("anyOf", None)
    if branches:
        schema.update(next(b for b in branches if b.get("type") == "number"))


Num = Annotated[Decimal, PlainSerializer(_money_to_json, when_used="json"),
                Field(json_schema_extra=_number_only)]
"""A decimal number of the spec (`num`): exact in Python, a JSON number on the wire."""


def _parse_timestamp(value: object) -> datetime:
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, str):
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    else:
        raise ValueError("must be an RFC 3339 timestamp")
    if parsed.tzinfo is None:
        raise ValueError("timestamp must carry a time zone")
    return parsed.astimezone(UTC)


def format_timestamp(value: datetime) -> str:
    """RFC 3339 UTC with a `Z`, to the second, as the sandbox writes every timestamp."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


Timestamp = Annotated[
    datetime,
    PlainValidator(_parse_timestamp),
    PlainSerializer(format_timestamp, when_used="json"),
]
"""An RFC 3339 timestamp (`ts`), always normalised to UTC."""


class Resource(BaseModel):
    """Base of every response shape: unknown fields are ignored (spec, Versioning rule 3)."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class Input(BaseModel):
    """Base of request bodies: an unknown field is refused so that a typo never goes unseen."""

    model_config = ConfigDict(extra="forbid")


class ReservationStatus(StrEnum):
    OPTION = "option"
    CONFIRMED = "confirmed"
    CHECKED_IN = "checked_in"
    CHECKED_OUT = "checked_out"
    CANCELLED = "cancelled"


STATUS_ORDER: tuple[ReservationStatus, ...] = (
    ReservationStatus.OPTION,
    ReservationStatus.CONFIRMED,
    ReservationStatus.CHECKED_IN,
    ReservationStatus.CHECKED_OUT,
)
"""Statuses of a room from least to most advanced (cancelled stands apart)."""


class ReservationType(StrEnum):
    INDIVIDUAL = "individual"
    GROUP = "group"
    ALLOTMENT = "allotment"


class PartyKind(StrEnum):
    PRIVATE = "private"
    COMPANY = "company"
    AGENCY = "agency"


class CancelledBy(StrEnum):
    GUEST = "guest"
    HOTEL = "hotel"


class FolioStatus(StrEnum):
    OPEN = "open"
    SUSPENDED = "suspended"
    CLOSED = "closed"


class Housekeeping(StrEnum):
    CLEAN = "clean"
    DIRTY = "dirty"
    INSPECTED = "inspected"


class Cadence(StrEnum):
    DAILY = "daily"
    WEEKLY = "weekly"
    MONTHLY = "monthly"
    MONTH_START = "month_start"


class Scope(StrEnum):
    PROPERTY_READ = "property:read"
    AVAILABILITY_READ = "availability:read"
    RESERVATIONS_READ = "reservations:read"
    RESERVATIONS_WRITE = "reservations:write"
    GUESTS_READ = "guests:read"
    GUESTS_WRITE = "guests:write"
    FOLIOS_READ = "folios:read"
    FOLIOS_WRITE = "folios:write"
    EVENTS_READ = "events:read"
    WEBHOOKS_MANAGE = "webhooks:manage"


class RoomRef(Resource):
    id: int
    code: str


class RatePlanRef(Resource):
    id: int
    code: str
    name: str


class Party(Resource):
    id: int
    kind: PartyKind
    name: str
    email: str
    phone: str


T = TypeVar("T")


class ListOf(Resource, Generic[T]):
    """`{ data: [...] }`: every unpaged list of the API."""

    data: list[T]


class Page(Resource):
    page: int
    page_size: int
    total: int
    pages: int
