"""Webhook signatures (spec, Webhook delivery 7): `t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`,
checked in constant time, refused when older than the tolerance (reference 300 s) and, by
the client's rule, when as far in the future."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from pipelines.api import (
    ResponseValidationError,
    WebhookSignatureError,
    parse_webhook,
    sign,
    verify_signature,
)

SECRET = "whsec_test_secret"
NOW = 1_800_000_000
BODY = json.dumps({
    "id": 7, "type": "stay.checked_in", "entity": "stay", "entity_id": 12, "property_id": 1,
    "subscription_id": 3, "attempt": 1, "created_at": "2027-01-15T08:00:00Z",
    "data": {"status": "checked_in"},
}).encode()


def reference_signature(body: bytes, secret: str, timestamp: int) -> str:
    """Computed here from the spec's words, not with the client's own helper."""
    message = f"{timestamp}.".encode() + body
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def header(timestamp: int = NOW, *signatures: str) -> str:
    values = signatures or (reference_signature(BODY, SECRET, timestamp),)
    return ",".join([f"t={timestamp}", *(f"v1={value}" for value in values)])


def test_a_good_signature_verifies() -> None:
    verify_signature(BODY, header(), SECRET, now=NOW)
    verify_signature(BODY, header(NOW - 299), SECRET, tolerance=300, now=NOW)
    assert sign(BODY, SECRET, NOW) == header()


def test_a_tampered_body_is_refused() -> None:
    tampered = BODY.replace(b'"entity_id": 12', b'"entity_id": 13')
    with pytest.raises(WebhookSignatureError, match="no v1 signature matches"):
        verify_signature(tampered, header(), SECRET, now=NOW)


def test_a_wrong_secret_or_tampered_signature_is_refused() -> None:
    with pytest.raises(WebhookSignatureError, match="matches"):
        verify_signature(BODY, header(), "another_secret", now=NOW)
    good = reference_signature(BODY, SECRET, NOW)
    flipped = ("0" if good[0] != "0" else "1") + good[1:]
    with pytest.raises(WebhookSignatureError, match="matches"):
        verify_signature(BODY, header(NOW, flipped), SECRET, now=NOW)


def test_the_timestamp_is_part_of_what_is_signed() -> None:
    """A signature copied onto another timestamp does not verify (spec: HMAC of `t.body`)."""
    stolen = reference_signature(BODY, SECRET, NOW - 1000)
    with pytest.raises(WebhookSignatureError, match="matches"):
        verify_signature(BODY, header(NOW, stolen), SECRET, now=NOW)


def test_a_stale_signature_is_refused() -> None:
    with pytest.raises(WebhookSignatureError, match="301 s old"):
        verify_signature(BODY, header(NOW - 301), SECRET, tolerance=300, now=NOW)
    with pytest.raises(WebhookSignatureError, match="old"):
        verify_signature(BODY, header(NOW - 61), SECRET, tolerance=60, now=NOW)


def test_a_signature_from_the_future_is_refused() -> None:
    with pytest.raises(WebhookSignatureError, match="in the future"):
        verify_signature(BODY, header(NOW + 301), SECRET, tolerance=300, now=NOW)
    verify_signature(BODY, header(NOW + 30), SECRET, tolerance=300, now=NOW)


def test_any_of_several_v1_values_may_match() -> None:
    """Several v1 values (a secret being rotated): one match is enough."""
    old = reference_signature(BODY, "old_secret", NOW)
    new = reference_signature(BODY, SECRET, NOW)
    verify_signature(BODY, header(NOW, old, new), SECRET, now=NOW)
    verify_signature(BODY, header(NOW, new, old), SECRET, now=NOW)
    verify_signature(BODY, f"t={NOW},v0=ignored,v1={new}", SECRET, now=NOW)


@pytest.mark.parametrize("value", [
    "", "garbage", f"v1={'0' * 64}", f"t={NOW}", f"t=abc,v1={'0' * 64}",
    f"t={NOW},t={NOW},v1={'0' * 64}",
])
def test_malformed_headers_are_refused(value: str) -> None:
    with pytest.raises(WebhookSignatureError):
        verify_signature(BODY, value, SECRET, now=NOW)


def test_parse_webhook_verifies_then_types_the_payload() -> None:
    payload = parse_webhook(BODY, {"x-service-signature": header()}, SECRET, now=NOW)
    assert (payload.id, payload.type, payload.entity_id) == (7, "stay.checked_in", 12)
    with pytest.raises(WebhookSignatureError, match="no X-Service-Signature"):
        parse_webhook(BODY, {}, SECRET, now=NOW)
    with pytest.raises(WebhookSignatureError):
        parse_webhook(BODY + b" ", {"X-Service-Signature": header()}, SECRET, now=NOW)


def test_parse_webhook_names_the_field_of_a_bad_payload() -> None:
    body = json.dumps({**json.loads(BODY), "entity_id": "twelve"}).encode()
    signed = {"X-Service-Signature": f"t={NOW},v1={reference_signature(body, SECRET, NOW)}"}
    with pytest.raises(ResponseValidationError) as caught:
        parse_webhook(body, signed, SECRET, now=NOW)
    assert caught.value.field == "entity_id"
    assert "entity_id" in str(caught.value)
