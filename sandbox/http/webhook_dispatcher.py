"""The webhook dispatcher: a background task of the running server that posts events.

Every `TICK_SECONDS` (or at once when poked) it looks for active subscriptions that are due on
the sandbox clock and, for each, posts the events of its property after `last_event_id` that
match its filter, in order and one at a time: a failed event blocks the later ones of that
subscription until it is delivered (spec, Webhook delivery 1 and 4). Subscriptions are served
concurrently, so one slow receiver never delays another.

Database work is synchronous on the event loop and never spans an `await`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from datetime import datetime

import httpx

from models.events import WebhookPayload

from ..context import SandboxState
from ..services import webhooks as service

LOG = logging.getLogger("sandbox.webhooks")
TICK_SECONDS = 0.2
USER_AGENT = "pms-sandbox-webhooks/1.0"


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """`t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (spec, Webhook delivery 7)."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def event_payload(webhook: sqlite3.Row, event: sqlite3.Row, attempt: int) -> WebhookPayload:
    return WebhookPayload.model_validate({
        "id": event["id"], "type": event["type"], "entity": event["entity"],
        "entity_id": event["entity_id"], "property_id": webhook["property_id"],
        "subscription_id": webhook["id"], "attempt": attempt, "created_at": event["created_at"],
        "data": json.loads(event["data"]),
    })


def ping_payload(webhook: sqlite3.Row, attempt: int, now: datetime) -> WebhookPayload:
    return WebhookPayload(
        id=service.PING_EVENT_ID, type=service.PING_TYPE, entity=None, entity_id=None,
        property_id=webhook["property_id"], subscription_id=webhook["id"], attempt=attempt,
        created_at=now, data={"message": "ping from the sandbox"},
    )


class WebhookDispatcher:
    def __init__(self, state: SandboxState) -> None:
        self.state = state
        self.client = httpx.AsyncClient(
            timeout=state.settings.webhook_timeout_seconds, follow_redirects=False,
            trust_env=False, headers={"User-Agent": USER_AGENT})
        self.loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._draining: dict[int, asyncio.Task[None]] = {}
        self._task: asyncio.Task[None] | None = None

    def poke(self) -> None:
        """Look for work now rather than at the next tick (e.g. after events were recorded)."""
        self._wake.set()

    def start(self) -> None:
        self._task = self.loop.create_task(self._run(), name="webhook-dispatcher")

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._draining.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with suppress(asyncio.CancelledError):
                await task
        await self.client.aclose()

    async def _run(self) -> None:
        while True:
            try:
                self.tick()
            except Exception:
                LOG.exception("webhook dispatcher tick failed")
            with suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), TICK_SECONDS)
            self._wake.clear()

    def tick(self) -> None:
        """Start draining every due subscription not already being drained."""
        for webhook_id in service.due_webhook_ids(self.state.conn, self.state.clock.now()):
            if webhook_id not in self._draining:
                task = self.loop.create_task(self._drain(webhook_id))
                self._draining[webhook_id] = task
                task.add_done_callback(self._drained)

    def _drained(self, task: asyncio.Task[None]) -> None:
        for webhook_id, running in list(self._draining.items()):
            if running is task:
                del self._draining[webhook_id]
        if not task.cancelled() and task.exception() is not None:
            LOG.error("webhook delivery failed", exc_info=task.exception())

    async def _drain(self, webhook_id: int) -> None:
        conn = self.state.conn
        while True:
            webhook = service.deliverable(conn, webhook_id, self.state.clock.now())
            if webhook is None:
                return
            event = service.next_event(conn, webhook)
            if event is None:
                return
            payload = event_payload(webhook, event, attempt=webhook["failures"] + 1)
            if not await self._attempt(webhook, payload):
                return

    async def send_ping(self, webhook: sqlite3.Row) -> int:
        """POST /webhooks/{id}/test: one ping now; returns the id of the delivery recorded."""
        attempt = service.ping_attempt(self.state.conn, webhook["id"])
        await self._attempt(webhook, ping_payload(webhook, attempt, self.state.clock.now()))
        row = self.state.conn.execute(
            "SELECT max(id) FROM webhook_deliveries WHERE webhook_id = ? AND event_id = ?",
            (webhook["id"], service.PING_EVENT_ID)).fetchone()
        return int(row[0])

    async def _attempt(self, webhook: sqlite3.Row, payload: WebhookPayload) -> bool:
        """Post one payload and record the attempt; True when the receiver answered 2xx."""
        now = self.state.clock.now()
        body = payload.model_dump_json().encode()
        headers = {
            "Content-Type": "application/json",
            "X-Service-Event": payload.type,
            "X-Service-Delivery": f"{payload.id}-{payload.attempt}",
            "X-Service-Signature": sign(webhook["secret"], int(now.timestamp()), body),
        }
        status: int | None = None
        error: str | None = None
        started = time.monotonic()
        try:
            response = await self.client.post(webhook["url"], content=body, headers=headers)
            status = response.status_code
            if not 200 <= status < 300:
                error = f"the receiver answered HTTP {status}"
        except httpx.TimeoutException:
            error = (f"no answer within {self.state.settings.webhook_timeout_seconds:g} "
                     "seconds")
        except httpx.HTTPError as exc:
            error = f"delivery failed: {type(exc).__name__}: {exc}"[:500]
        duration_ms = round((time.monotonic() - started) * 1000)
        service.record_attempt(self.state.conn, webhook["id"], payload.id, payload.type,
                               payload.attempt, status, error, duration_ms, now)
        return error is None


@asynccontextmanager
async def running_dispatcher(state: SandboxState) -> AsyncIterator[WebhookDispatcher]:
    """Run the dispatcher for the life of the block (the server's lifespan)."""
    dispatcher = WebhookDispatcher(state)
    dispatcher.start()
    try:
        yield dispatcher
    finally:
        await dispatcher.stop()
