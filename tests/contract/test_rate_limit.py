"""Rate limiting per key (spec, Limits: call rate, rate headers; Errors: 429 rate_limited).

The sandbox's limits are configurable; these tests use a burst of 3 and one call per minute,
so no token comes back while they run.
"""

from __future__ import annotations

import httpx

from tests.conftest import MakeSandbox, auth


def test_burst_exhausted_answers_429_with_retry_after(make_sandbox: MakeSandbox) -> None:
    """Spec: 429 rate_limited, wait and retry after `Retry-After`."""
    sandbox = make_sandbox(rate_per_minute=1, burst=3)
    with httpx.Client(base_url=sandbox.base_url, headers=auth()) as client:
        answers = [client.get("/property") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    limited = answers[3]
    assert limited.json()["error"]["code"] == "rate_limited"
    assert int(limited.headers["Retry-After"]) >= 1
    assert limited.headers["X-RateLimit-Limit"] == "1"
    assert limited.headers["X-RateLimit-Remaining"] == "0"


def test_rate_headers_on_normal_answers(make_sandbox: MakeSandbox) -> None:
    """Spec, Limits: `X-RateLimit-Limit`, `X-RateLimit-Remaining` on answers."""
    sandbox = make_sandbox(rate_per_minute=1, burst=3)
    with httpx.Client(base_url=sandbox.base_url, headers=auth()) as client:
        answers = [client.get("/room-types") for _ in range(3)]
    assert [a.headers["X-RateLimit-Limit"] for a in answers] == ["1"] * 3
    assert [int(a.headers["X-RateLimit-Remaining"]) for a in answers] == [2, 1, 0]
    assert all("Retry-After" not in a.headers for a in answers)


def test_default_limit_is_the_spec_600_per_minute(make_sandbox: MakeSandbox) -> None:
    """Spec, Limits: 600 calls per minute for each key, burst of 120."""
    sandbox = make_sandbox(rate_per_minute=600, burst=120)
    with httpx.Client(base_url=sandbox.base_url, headers=auth()) as client:
        response = client.get("/me")
    assert response.headers["X-RateLimit-Limit"] == "600"
    assert int(response.headers["X-RateLimit-Remaining"]) == 119


def test_limits_are_per_key(make_sandbox: MakeSandbox) -> None:
    """Spec, Limits: the call rate is for each key."""
    sandbox = make_sandbox(rate_per_minute=1, burst=3)
    with httpx.Client(base_url=sandbox.base_url) as client:
        for _ in range(3):
            assert client.get("/me", headers=auth()).status_code == 200
        assert client.get("/me", headers=auth()).status_code == 429
        other = client.get("/me", headers=auth("sbx_test_read_only"))
        assert other.status_code == 200
        assert other.headers["X-RateLimit-Remaining"] == "2"
        # The same key sent as X-API-Key is the same key: still limited.
        same = client.get("/me", headers={"X-API-Key": "sbx_test_all_scopes"})
        assert same.status_code == 429
