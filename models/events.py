"""The event log and the webhook payload."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from .common import Resource, Timestamp


class EventType(StrEnum):
    RESERVATION_CREATED = "reservation.created"
    RESERVATION_UPDATED = "reservation.updated"
    STAY_CONFIRMED = "stay.confirmed"
    STAY_ROOM_ASSIGNED = "stay.room_assigned"
    STAY_UPDATED = "stay.updated"
    STAY_CHECKED_IN = "stay.checked_in"
    STAY_CHECKED_OUT = "stay.checked_out"
    STAY_CANCELLED = "stay.cancelled"


class Event(Resource):
    id: int
    type: str  # an EventType value; kept open so that a type added within v1 never breaks a reader
    entity: Literal["reservation", "stay"]
    entity_id: int
    created_at: Timestamp
    data: dict[str, Any]


class EventBatch(Resource):
    data: list[Event]
    has_more: bool
    next_after: int


class WebhookPayload(Resource):
    id: int
    type: str
    entity: str | None
    entity_id: int | None
    property_id: int
    subscription_id: int
    attempt: int
    created_at: Timestamp
    data: dict[str, Any]
