"""Routes of API v1: webhook subscriptions (spec, Webhooks).

Every operation needs `webhooks:manage` (the spec leaves the scope of test and deliveries
"not shown"; this sandbox uses the same scope). GET, PATCH and DELETE of /webhooks/{id} are
additions within v1, which the spec allows (Versioning 2).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Response

from models.common import ListOf, Scope
from models.errors import ErrorCode
from models.webhooks import (
    Webhook,
    WebhookCreated,
    WebhookDelivery,
    WebhookInput,
    WebhookList,
    WebhookPatch,
)

from ...context import Ctx
from ...db import one
from ...errors import ApiError
from ...services import webhooks as service
from ..deps import get_state, require
from ..state import ServerState
from .common import ERROR_RESPONSES

router = APIRouter(responses=ERROR_RESPONSES, tags=["webhooks"])
Manage = Annotated[Ctx, Depends(require(Scope.WEBHOOKS_MANAGE))]


@router.get("/webhooks", response_model=WebhookList, status_code=200)
async def list_webhooks(ctx: Manage) -> WebhookList:
    """The subscriptions of the property and the event types one can subscribe to."""
    return WebhookList(data=service.list_webhooks(ctx), event_types=list(service.EVENT_TYPES))


@router.post("/webhooks", response_model=WebhookCreated, status_code=201)
async def create_webhook(ctx: Manage, body: WebhookInput) -> WebhookCreated:
    """Subscribe an https address. The `secret` that signs deliveries is shown only here.

    `events` empty or omitted means every type; an unknown type is refused (422, `events`).
    At most ten subscriptions per property (422). Delivery starts with the events recorded
    after this call.
    """
    webhook, secret = service.create_webhook(ctx, body)
    return WebhookCreated(webhook=webhook, secret=secret)


@router.get("/webhooks/{id}", response_model=Webhook, status_code=200)
async def get_webhook(ctx: Manage, id: int) -> Webhook:
    """One subscription (added within v1). The secret is never shown again."""
    return service.get_webhook(ctx, id)


@router.patch("/webhooks/{id}", response_model=Webhook, status_code=200)
async def patch_webhook(ctx: Manage, id: int, body: WebhookPatch) -> Webhook:
    """Change a subscription (added within v1); only the fields sent change.

    `active: true` on a subscription that was switched off clears its failures, and delivery
    resumes with the first event it has not delivered. A subscription whose key was revoked
    cannot be switched on again (422, `active`).
    """
    return service.patch_webhook(ctx, id, body)


@router.delete("/webhooks/{id}", status_code=204, response_class=Response)
async def delete_webhook(ctx: Manage, id: int) -> Response:
    """Remove a subscription and its delivery history (added within v1)."""
    service.delete_webhook(ctx, id)
    return Response(status_code=204)


@router.post("/webhooks/{id}/test", response_model=WebhookDelivery, status_code=200)
async def test_webhook(ctx: Manage, state: Annotated[ServerState, Depends(get_state)],
                       id: int) -> WebhookDelivery:
    """Send a ping (type `ping`, event id 0) at once and answer the attempt's record.

    The ping is recorded among the deliveries but leaves the subscription's failures,
    schedule and `last_event_id` alone.
    """
    service.get_webhook(ctx, id)  # 404 unless it is a subscription of the property
    dispatcher = state.dispatcher
    if dispatcher is None:
        raise ApiError(503, ErrorCode.MAINTENANCE, "webhook delivery is not running")
    webhook = one(ctx.conn, "SELECT * FROM webhooks WHERE id = ?", id)
    assert webhook is not None
    delivery_id = await dispatcher.send_ping(webhook)
    row = one(ctx.conn, "SELECT * FROM webhook_deliveries WHERE id = ?", delivery_id)
    assert row is not None
    return service.delivery_model(row)


@router.get("/webhooks/{id}/deliveries", response_model=ListOf[WebhookDelivery],
            status_code=200)
async def list_deliveries(ctx: Manage, id: int) -> ListOf[WebhookDelivery]:
    """The latest delivery attempts first (at most 100), pings included."""
    return ListOf[WebhookDelivery](data=service.list_deliveries(ctx, id))
