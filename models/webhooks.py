"""Webhook subscriptions and their delivery attempts."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from .common import Input, Resource, Timestamp


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
    url: Annotated[str, Field(min_length=1, max_length=2000)]
    events: list[str] = Field(default_factory=list)
    description: str = ""
    active: bool = True


class WebhookPatch(Input):
    url: Annotated[str, Field(min_length=1, max_length=2000)] | None = None
    events: list[str] | None = None
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
