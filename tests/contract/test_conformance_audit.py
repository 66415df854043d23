"""Conformance audit of the sandbox against the spec: each test names the rule it checks.

Written from the spec (`pms-api-v1.md`); each one failed on the sandbox before its fix.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from sandbox.http.server import RunningSandbox
from tests.conftest import MakeSandbox, auth, refusal
from tests.contract import reading

sandbox = reading.sandbox  # one sandbox for the tests that book nothing
QUOTE: dict[str, Any] = {"room_type_id": 1, "arrival": "2031-03-03", "departure": "2031-03-06"}


def _post(sandbox: RunningSandbox, path: str, content: bytes,
          headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.post(sandbox.base_url + path, content=content,
                      headers={"Content-Type": "application/json", **(headers or {})})


# --- Authentication comes before reading the body -------------------------------------------

@pytest.mark.parametrize("content", [b"{not json", b'{"rooms": "none"}', b"[]"])
def test_no_key_is_401_whatever_the_body(sandbox: RunningSandbox, content: bytes) -> None:
    """Spec, Authentication 1 and 4: every call carries a key; no key is 401 `unauthenticated`
    (Endpoints: "Every endpoint answers 401 and 403 as in Errors"), so a call without a key
    learns nothing about its body, not even that it is malformed."""
    response = _post(sandbox, "/reservations", content)
    refusal(response, 401, "unauthenticated")


@pytest.mark.parametrize(("key", "status", "code"), [
    ("nope", 401, "invalid_key"),
    ("sbx_test_revoked", 401, "key_revoked"),
    ("sbx_test_expired", 402, "subscription_expired"),
    ("sbx_test_suspended", 403, "account_suspended"),
    ("sbx_test_api_disabled", 403, "api_disabled"),
    ("sbx_test_read_only", 403, "insufficient_scope"),
])
def test_key_refusals_come_before_a_malformed_body(sandbox: RunningSandbox, key: str,
                                                   status: int, code: str) -> None:
    """Spec, Authentication 4-5: the key's refusal (401, 402, 403 `insufficient_scope` for a
    read-only key on POST /reservations, which needs reservations:write) answers before the
    body is judged."""
    response = _post(sandbox, "/reservations", b"{not json", auth(key))
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code


def test_a_malformed_body_with_a_good_key_is_still_400(sandbox: RunningSandbox) -> None:
    """Spec, Errors: 400 `invalid_request`, a parameter is missing or malformed."""
    response = _post(sandbox, "/reservations", b"{not json", auth())
    refusal(response, 400, "invalid_request")


# --- Body types are the spec's types ---------------------------------------------------------

def _invalid(response: httpx.Response, field: str) -> None:
    assert refusal(response, 400, "invalid_request")["field"] == field


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/quotes", {**QUOTE, "adults": "2"}, "adults"),
    ("/quotes", {**QUOTE, "adults": 2.0}, "adults"),
    ("/quotes", {**QUOTE, "room_type_id": "1"}, "room_type_id"),
    ("/quotes", {**QUOTE, "arrival": "2031-03-03T00:00:00"}, "arrival"),
    ("/reservations", {"rooms": [{**QUOTE, "adults": "1"}], "market": "leisure"},
     "rooms[0].adults"),
    ("/reservations", {"rooms": [QUOTE], "market": "leisure", "force": "true"}, "force"),
    ("/reservations", {"rooms": [QUOTE], "market": "leisure", "status": "confirmed",
                       "option_expires_on": 20310303}, "option_expires_on"),
    ("/webhooks", {"url": "https://example.com/hook", "active": "yes"}, "active"),
    ("/webhooks", {"url": "https://example.com/hook", "active": 1}, "active"),
    ("/guests", {"last_name": "Rossi", "birth_date": "1980-01-01T00:00:00"}, "birth_date"),
])
def test_a_value_of_another_json_type_is_400(sandbox: RunningSandbox, path: str,
                                             body: dict[str, Any], field: str) -> None:
    """Spec, Resources: types are `int`, `bool`, `date` (YYYY-MM-DD, convention 2); Errors: 400
    `invalid_request` when a parameter is malformed. A string where an int is due, a float for
    an int, a string or a number for a bool, a date-time for a date are malformed values: a
    strict sandbox refuses them instead of coercing them, so a client's typing slip is seen."""
    with httpx.Client(base_url=sandbox.base_url, headers=auth()) as client:
        _invalid(client.post(path, json=body), field)



# --- Rate headers on every answer ------------------------------------------------------------

def test_maintenance_answer_carries_the_rate_headers(make_sandbox: MakeSandbox) -> None:
    """Spec, Limits: `X-RateLimit-Limit`, `X-RateLimit-Remaining` on answers; the 503 of
    maintenance (Errors) is an answer like any other."""
    sandbox = make_sandbox(admin=True, rate_per_minute=600, burst=120)
    httpx.put(f"{sandbox.root_url}/_sandbox/maintenance", json={"on": True}).raise_for_status()
    response = httpx.get(f"{sandbox.base_url}/property", headers=auth())
    assert response.status_code == 503
    assert response.headers["X-RateLimit-Limit"] == "600"
    assert int(response.headers["X-RateLimit-Remaining"]) >= 0
