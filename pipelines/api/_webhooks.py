"""Receiving webhooks: check the signature (spec, Webhook delivery 7), then parse the payload.

The header reads `t=<unix timestamp>,v1=<hex>[,v1=<hex>...]`; `<hex>` is the lowercase hex
HMAC-SHA256 of `<timestamp>.<raw body>` keyed with the subscription's secret. Several `v1`
values may come (a secret being rotated): one matching is enough. Values of other schemes
are ignored. The timestamp must lie within `tolerance` seconds of now, either way: an old
one is a replay, one from the future is a forgery or a clock gone wrong.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Mapping

from models.events import WebhookPayload
from pipelines.api._exceptions import ResponseValidationError, WebhookSignatureError
from pipelines.api._parsing import parse_as

SIGNATURE_HEADER = "X-Service-Signature"
DEFAULT_TOLERANCE = 300


def sign(raw_body: bytes, secret: str, timestamp: int) -> str:
    """The header value the server sends for this body at this time (for tests and tools)."""
    return f"t={timestamp},v1={_digest(raw_body, secret, timestamp)}"


def _digest(raw_body: bytes, secret: str, timestamp: int) -> str:
    message = str(timestamp).encode("ascii") + b"." + raw_body
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def verify_signature(
    raw_body: bytes,
    header: str,
    secret: str,
    tolerance: int = DEFAULT_TOLERANCE,
    now: int | None = None,
) -> None:
    """Return if `header` signs `raw_body` with `secret` within `tolerance` seconds of `now`;
    raise WebhookSignatureError saying why otherwise."""
    if not secret:
        raise WebhookSignatureError("no webhook secret given to verify with")
    timestamps: list[str] = []
    signatures: list[str] = []
    for part in (header or "").split(","):
        name, sep, value = part.strip().partition("=")
        if not sep:
            continue
        if name == "t":
            timestamps.append(value.strip())
        elif name == "v1":
            signatures.append(value.strip())
    if len(timestamps) != 1 or not timestamps[0].isdigit():
        raise WebhookSignatureError("signature header has no single t=<unix timestamp>")
    if not signatures:
        raise WebhookSignatureError("signature header has no v1=<signature>")
    timestamp = int(timestamps[0])
    current = int(time.time()) if now is None else now
    if timestamp < current - tolerance:
        raise WebhookSignatureError(
            f"signature timestamp is {current - timestamp} s old (tolerance {tolerance} s)")
    if timestamp > current + tolerance:
        raise WebhookSignatureError(
            f"signature timestamp is {timestamp - current} s in the future "
            f"(tolerance {tolerance} s)")
    expected = _digest(raw_body, secret, timestamp)
    # Compare against every value, without stopping early, in constant time each.
    matches = [hmac.compare_digest(expected, candidate) for candidate in signatures]
    if not any(matches):
        raise WebhookSignatureError("no v1 signature matches the body and the secret")


def parse_webhook(
    raw_body: bytes,
    headers: Mapping[str, str],
    secret: str,
    *,
    tolerance: int = DEFAULT_TOLERANCE,
    now: int | None = None,
) -> WebhookPayload:
    """Verify a delivery's signature, then return its typed payload.

    `headers` is the request's header mapping (any case of the names). Keep `payload.id`
    to ignore repeats: delivery is at least once (spec, Webhook delivery 6).
    """
    header = _header(headers, SIGNATURE_HEADER)
    if header is None:
        raise WebhookSignatureError(f"the delivery has no {SIGNATURE_HEADER} header")
    verify_signature(raw_body, header, secret, tolerance=tolerance, now=now)
    try:
        data = json.loads(raw_body)
    except ValueError:
        raise ResponseValidationError(
            "webhook delivery: the body is not valid JSON",
            method="POST", path="(webhook)", field="body") from None
    return parse_as(WebhookPayload, data, method="POST", path="(webhook)")


def _header(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is not None:
        return value
    wanted = name.lower()
    for key, candidate in headers.items():
        if key.lower() == wanted:
            return candidate
    return None
