"""Idempotency-Key on writes (spec, Limits: Idempotency; Errors: idempotency_mismatch).

POST /quotes is used where the answer alone shows the behaviour; POST /guests shows that a
repeat does not run the operation twice.
"""

from __future__ import annotations

from typing import Any

import httpx

from sandbox.http.server import RunningSandbox
from tests.conftest import auth, refusal

QUOTE: dict[str, Any] = {"room_type_id": 1, "arrival": "2031-03-03", "departure": "2031-03-06"}


def test_repeat_returns_the_same_answer_marked_replayed(api: httpx.Client) -> None:
    """Spec: the answer already given is returned with `Idempotent-Replayed: true`."""
    headers = {"Idempotency-Key": "quote-1"}
    first = api.post("/quotes", json=QUOTE, headers=headers)
    again = api.post("/quotes", json=QUOTE, headers=headers)
    assert first.status_code == again.status_code == 200
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.content == first.content


def test_same_key_with_a_different_body_is_422_mismatch(api: httpx.Client) -> None:
    """Spec: the same key with a different body answers 422 idempotency_mismatch."""
    headers = {"Idempotency-Key": "quote-2"}
    assert api.post("/quotes", json=QUOTE, headers=headers).status_code == 200
    other = api.post("/quotes", json={**QUOTE, "adults": 1}, headers=headers)
    refusal(other, 422, "idempotency_mismatch")


def test_key_of_more_than_200_characters_is_400(api: httpx.Client) -> None:
    """Spec, Limits: Idempotency-Key is a string of at most 200 characters."""
    longest = api.post("/quotes", json=QUOTE, headers={"Idempotency-Key": "k" * 200})
    assert longest.status_code == 200
    too_long = api.post("/quotes", json=QUOTE, headers={"Idempotency-Key": "k" * 201})
    refusal(too_long, 400, "invalid_request")


def test_keys_are_per_api_key(sandbox: RunningSandbox, api: httpx.Client) -> None:
    """The same Idempotency-Key under another API key is another request (docs/sandbox.md)."""
    headers = {"Idempotency-Key": "shared-name"}
    assert api.post("/quotes", json=QUOTE, headers=headers).status_code == 200
    with httpx.Client(base_url=sandbox.base_url, headers=auth("sbx_test_read_only")) as other:
        response = other.post("/quotes", json={**QUOTE, "adults": 1}, headers=headers)
    assert response.status_code == 200
    assert "Idempotent-Replayed" not in response.headers


def test_a_repeated_write_does_not_run_twice(api: httpx.Client) -> None:
    """Spec: the operation does not run twice (a guest created once)."""
    headers = {"Idempotency-Key": "guest-once"}
    guest = {"first_name": "Ida", "last_name": "Empotent"}
    first = api.post("/guests", json=guest, headers=headers)
    again = api.post("/guests", json=guest, headers=headers)
    assert first.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first.json()["id"]
    found = api.get("/guests", params={"q": "Empotent"}).json()["data"]
    assert [g["id"] for g in found] == [first.json()["id"]]


def test_without_the_header_each_write_runs(api: httpx.Client) -> None:
    """Spec: the header is optional; without it nothing is remembered."""
    guest = {"first_name": "Twice", "last_name": "Unkeyed"}
    first = api.post("/guests", json=guest)
    second = api.post("/guests", json=guest)
    assert first.json()["id"] != second.json()["id"]
