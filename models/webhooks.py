"""Webhook subscriptions and their delivery attempts."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from .common import Input, Resource, Timestamp
from .events import EventType

# Spec, WebhookInput: an https address (format uri) and event type names. Said in the document,
# so that a client (or a generator of requests) knows what the server accepts.
WebhookUrl = Annotated[str, Field(min_length=1, max_length=2000, json_schema_extra={
    "format": "uri", "pattern": "^[hH][tT][tT][pP][sS]://[^/?#@:]+"})]
EventTypeName = Annotated[str, Field(json_schema_extra={"enum": [t.value for t in EventType]})]


class Webhook(Resource):
    id: int
    property_id: int
    url: str
    description: str
    events: list[str]
    active: bool
    api_key_id: int | None
    failures: int
    disabled_reason: str | None
    last_delivered_at: Timestamp | None
    last_event_id: int
    last_status: int | None
    last_error: str | None
    next_attempt_at: Timestamp | None
    created_at: Timestamp
    updated_at: Timestamp


class WebhookInput(Input):
    url: WebhookUrl
    events: list[EventTypeName] = Field(default_factory=list)
    description: str = ""
    active: bool = True


class WebhookPatch(Input):
    url: WebhookUrl | None = None
    events: list[EventTypeName] | None = None
    description: str | None = None
    active: bool | None = None


class WebhookCreated(Resource):
    webhook: Webhook
    secret: str


class WebhookList(Resource):
    data: list[Webhook]
    event_types: list[str]


class WebhookDelivery(Resource):
    id: int
    event_id: int
    event_type: str
    attempt: int
    status: int | None
    error: str | None
    duration_ms: int
    created_at: Timestamp
