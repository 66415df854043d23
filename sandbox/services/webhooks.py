"""Webhook subscriptions: their rules (spec, Webhooks and Events) and delivery bookkeeping.

The HTTP side of delivery (signing, posting, the background task) is in
`sandbox/http/webhook_dispatcher.py`; this module holds what is stored and decided.
"""

from __future__ import annotations

import ipaddress
import json
import secrets
import sqlite3
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from models.events import EventType
from models.webhooks import Webhook, WebhookDelivery, WebhookInput, WebhookPatch

from ..context import Ctx
from ..db import all_rows, insert, one, transaction, ts, update
from ..errors import invalid_request, not_found, rule_violation

EVENT_TYPES: tuple[str, ...] = tuple(t.value for t in EventType)
MAX_PER_PROPERTY = 10
RETRY_WAITS: tuple[timedelta, ...] = (
    timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=15),
    timedelta(hours=1), timedelta(hours=3), timedelta(hours=6),
)
SWITCH_OFF_AFTER = timedelta(days=3)
DELIVERIES_SHOWN = 100
PING_EVENT_ID = 0
PING_TYPE = "ping"
KEY_REVOKED_REASON = "the API key that created the subscription was revoked"


def _parse_ts(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_url(url: str, allow_http: bool) -> str:
    """An absolute https address; http only for a loopback host when the server allows it."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise invalid_request("url must be an absolute https address", field="url")
    if parts.scheme == "http" and not (allow_http and _is_loopback(parts.hostname)):
        raise invalid_request("url must use https", field="url")
    return url.strip()


def check_events(events: list[str]) -> list[str]:
    unknown = [name for name in events if name not in EVENT_TYPES]
    if unknown:
        raise rule_violation(
            f"unknown event types {unknown}; known: {', '.join(EVENT_TYPES)}", field="events")
    return sorted(set(events), key=EVENT_TYPES.index)


def to_model(row: sqlite3.Row) -> Webhook:
    values: dict[str, Any] = dict(row)
    del values["secret"]
    values["events"] = json.loads(row["events"])
    values["active"] = bool(row["active"])
    return Webhook.model_validate(values)


def _row(ctx: Ctx, webhook_id: int) -> sqlite3.Row:
    row = one(ctx.conn, "SELECT * FROM webhooks WHERE id = ? AND property_id = ?",
              webhook_id, ctx.property_id)
    if row is None:
        raise not_found("webhook")
    return row


def list_webhooks(ctx: Ctx) -> list[Webhook]:
    rows = all_rows(ctx.conn, "SELECT * FROM webhooks WHERE property_id = ? ORDER BY id",
                    ctx.property_id)
    return [to_model(row) for row in rows]


def get_webhook(ctx: Ctx, webhook_id: int) -> Webhook:
    return to_model(_row(ctx, webhook_id))


def create_webhook(ctx: Ctx, body: WebhookInput) -> tuple[Webhook, str]:
    """Spec: at most ten per property; delivery starts after the events already recorded."""
    url = check_url(body.url, ctx.state.settings.allow_http_webhooks)
    events = check_events(body.events)
    with transaction(ctx.conn):
        count = one(ctx.conn, "SELECT count(*) AS n FROM webhooks WHERE property_id = ?",
                    ctx.property_id)
        assert count is not None
        if count["n"] >= MAX_PER_PROPERTY:
            raise rule_violation(
                f"at most {MAX_PER_PROPERTY} webhook subscriptions per property")
        last = one(ctx.conn, "SELECT coalesce(max(id), 0) AS id FROM events WHERE property_id = ?",
                   ctx.property_id)
        assert last is not None
        secret = "whsec_" + secrets.token_hex(24)
        now = ts(ctx.now())
        webhook_id = insert(ctx.conn, "webhooks", {
            "property_id": ctx.property_id, "url": url, "description": body.description,
            "events": json.dumps(events), "active": int(body.active), "api_key_id": ctx.key_id,
            "secret": secret, "last_event_id": last["id"], "created_at": now, "updated_at": now,
        })
    return get_webhook(ctx, webhook_id), secret


def patch_webhook(ctx: Ctx, webhook_id: int, patch: WebhookPatch) -> Webhook:
    """Only the fields sent change. Switching a subscription on again clears its failures."""
    row = _row(ctx, webhook_id)
    values: dict[str, Any] = {}
    if patch.url is not None:
        values["url"] = check_url(patch.url, ctx.state.settings.allow_http_webhooks)
    if patch.events is not None:
        values["events"] = json.dumps(check_events(patch.events))
    if patch.description is not None:
        values["description"] = patch.description
    if patch.active is True and not row["active"]:
        if row["api_key_id"] is not None and _key_revoked(ctx.conn, row["api_key_id"]):
            raise rule_violation(KEY_REVOKED_REASON + ": it cannot be switched on",
                                 field="active")
        values.update(active=1, failures=0, first_failure_at=None, disabled_reason=None,
                      next_attempt_at=None)
    elif patch.active is False and row["active"]:
        values.update(active=0, next_attempt_at=None)
    if values:
        values["updated_at"] = ts(ctx.now())
        with transaction(ctx.conn):
            update(ctx.conn, "webhooks", webhook_id, values)
    return get_webhook(ctx, webhook_id)


def delete_webhook(ctx: Ctx, webhook_id: int) -> None:
    _row(ctx, webhook_id)
    with transaction(ctx.conn):
        ctx.conn.execute("DELETE FROM webhook_deliveries WHERE webhook_id = ?", (webhook_id,))
        ctx.conn.execute("DELETE FROM webhooks WHERE id = ?", (webhook_id,))


def list_deliveries(ctx: Ctx, webhook_id: int) -> list[WebhookDelivery]:
    """The latest attempts first (at most DELIVERIES_SHOWN)."""
    _row(ctx, webhook_id)
    rows = all_rows(ctx.conn, "SELECT * FROM webhook_deliveries WHERE webhook_id = ? "
                    "ORDER BY id DESC LIMIT ?", webhook_id, DELIVERIES_SHOWN)
    return [delivery_model(row) for row in rows]


def delivery_model(row: sqlite3.Row) -> WebhookDelivery:
    return WebhookDelivery.model_validate(dict(row))


def _key_revoked(conn: sqlite3.Connection, key_id: int) -> bool:
    key = one(conn, "SELECT revoked_at FROM api_keys WHERE id = ?", key_id)
    return key is None or key["revoked_at"] is not None


# --- Delivery bookkeeping (called by the dispatcher, outside any request) -------------------

def due_webhook_ids(conn: sqlite3.Connection, now: datetime) -> list[int]:
    """Active subscriptions whose key still stands and whose next attempt is due."""
    rows = all_rows(
        conn,
        "SELECT w.id FROM webhooks w LEFT JOIN api_keys k ON k.id = w.api_key_id "
        "WHERE w.active = 1 AND (w.api_key_id IS NULL OR k.revoked_at IS NULL) "
        "AND (w.next_attempt_at IS NULL OR w.next_attempt_at <= ?) ORDER BY w.id",
        ts(now),
    )
    return [row["id"] for row in rows]


def deliverable(conn: sqlite3.Connection, webhook_id: int, now: datetime) -> sqlite3.Row | None:
    """The subscription, when it may be delivered now (it may have changed since it was due)."""
    ids = due_webhook_ids(conn, now)
    if webhook_id not in ids:
        return None
    return one(conn, "SELECT * FROM webhooks WHERE id = ?", webhook_id)


def next_event(conn: sqlite3.Connection, webhook: sqlite3.Row) -> sqlite3.Row | None:
    """The first event of the property after `last_event_id` matching the filter."""
    types: list[str] = json.loads(webhook["events"])
    sql = "SELECT * FROM events WHERE property_id = ? AND id > ?"
    params: list[Any] = [webhook["property_id"], webhook["last_event_id"]]
    if types:
        sql += f" AND type IN ({', '.join('?' for _ in types)})"
        params += types
    return one(conn, sql + " ORDER BY id LIMIT 1", *params)


def record_attempt(
    conn: sqlite3.Connection,
    webhook_id: int,
    event_id: int,
    event_type: str,
    attempt: int,
    status: int | None,
    error: str | None,
    duration_ms: int,
    now: datetime,
) -> None:
    """Store one attempt and its effect on the subscription (spec, Webhook delivery 4-5).

    A ping (event id 0) is recorded but changes nothing else of the subscription.
    """
    with transaction(conn):
        webhook = one(conn, "SELECT * FROM webhooks WHERE id = ?", webhook_id)
        if webhook is None:
            return  # deleted while the attempt was on the wire
        insert(conn, "webhook_deliveries", {
            "webhook_id": webhook_id, "event_id": event_id, "event_type": event_type,
            "attempt": attempt, "status": status, "error": error, "duration_ms": duration_ms,
            "created_at": ts(now),
        })
        if event_id == PING_EVENT_ID:
            return
        values: dict[str, Any] = {"last_status": status, "last_error": error,
                                  "updated_at": ts(now)}
        if error is None:
            values.update(failures=0, first_failure_at=None, next_attempt_at=None,
                          last_event_id=event_id, last_delivered_at=ts(now))
        else:
            failures = webhook["failures"] + 1
            first = webhook["first_failure_at"] or ts(now)
            values.update(failures=failures, first_failure_at=first)
            if _parse_ts(first) + SWITCH_OFF_AFTER <= now:
                values.update(active=0, next_attempt_at=None, disabled_reason=(
                    f"switched off: deliveries failed for three days since {first} "
                    f"({failures} failed attempts in a row; last: {error})"))
            else:
                wait = RETRY_WAITS[min(failures - 1, len(RETRY_WAITS) - 1)]
                values["next_attempt_at"] = ts(now + wait)
        update(conn, "webhooks", webhook_id, values)


def ping_attempt(conn: sqlite3.Connection, webhook_id: int) -> int:
    row = one(conn, "SELECT count(*) AS n FROM webhook_deliveries "
              "WHERE webhook_id = ? AND event_id = ?", webhook_id, PING_EVENT_ID)
    assert row is not None
    return int(row["n"]) + 1


def stop_webhooks_of_key(conn: sqlite3.Connection, key_id: int, now: datetime) -> int:
    """Spec, Authentication 6: revoking a key stops the webhooks it created."""
    with transaction(conn):
        cur = conn.execute(
            "UPDATE webhooks SET active = 0, next_attempt_at = NULL, disabled_reason = ?, "
            "updated_at = ? WHERE api_key_id = ? AND active = 1",
            (KEY_REVOKED_REASON, ts(now), key_id))
    return cur.rowcount
