"""Fault injection (issue 3, Fault injection), proven over real HTTP.

Each kind is set through the admin endpoint PUT /_sandbox/faults and observed as a client sees
it; the counts come back from GET /_sandbox/faults. The faults stand for what the spec's
clients must survive: 5xx answers, 503 and 429 with `Retry-After` (spec, Errors and Limits),
slow answers, connections lost before or after the work, bodies cut short.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from sandbox.http.server import RunningSandbox
from tests.conftest import MakeSandbox, answered, auth

HOOK = "https://hooks.example.com/pms"  # a subscription is a cheap, visible write


@pytest.fixture
def client(sandbox: RunningSandbox) -> Iterator[httpx.Client]:
    # No retries and a fresh connection per call: each call meets the dice on its own.
    with httpx.Client(base_url=sandbox.base_url, headers=auth(), timeout=30,
                      transport=httpx.HTTPTransport(retries=0)) as c:
        yield c


def set_faults(sb: RunningSandbox, **faults: Any) -> dict[str, Any]:
    response = httpx.put(f"{sb.root_url}/_sandbox/faults", json=faults)
    value: dict[str, Any] = answered(response)
    return value


def counts(sb: RunningSandbox) -> dict[str, int]:
    value: dict[str, int] = httpx.get(f"{sb.root_url}/_sandbox/faults").json()["counts"]
    return value


def subscriptions(sb: RunningSandbox) -> list[dict[str, Any]]:
    value: list[dict[str, Any]] = httpx.get(f"{sb.base_url}/webhooks", headers=auth()
                                            ).json()["data"]
    return value


def test_off_by_default(sandbox: RunningSandbox, client: httpx.Client) -> None:
    """Issue 3: fault injection is off by default."""
    view = httpx.get(f"{sandbox.root_url}/_sandbox/faults").json()
    assert view["active"] is False
    assert view["counts"] == {}
    assert all(client.get("/webhooks").status_code == 200 for _ in range(20))
    assert counts(sandbox) == {}


def test_errors_500_and_502(sandbox: RunningSandbox, client: httpx.Client) -> None:
    """A share of answers replaced by 500 or 502 (502 as a gateway sends it: not JSON)."""
    set_faults(sandbox, error_rate=1.0, seed=11)
    answers = [client.get("/webhooks") for _ in range(30)]
    statuses = {r.status_code for r in answers}
    assert statuses == {500, 502}
    for response in answers:
        if response.status_code == 500:
            assert response.json()["error"]["code"] == "internal_error"
        else:
            assert response.headers["content-type"].startswith("text/html")
    seen = counts(sandbox)
    assert seen["error_500"] + seen["error_502"] == 30
    assert seen["error_500"] == sum(r.status_code == 500 for r in answers)


def test_503_with_retry_after(sandbox: RunningSandbox, client: httpx.Client) -> None:
    """Spec, Errors: 503; issue 3: with `Retry-After`."""
    set_faults(sandbox, unavailable_rate=1.0, retry_after_seconds=7)
    response = client.post("/webhooks", json={"url": HOOK})
    assert response.status_code == 503
    assert response.headers["retry-after"] == "7"
    assert counts(sandbox) == {"unavailable": 1}
    set_faults(sandbox)
    assert subscriptions(sandbox) == []  # answered instead of served: nothing was done


def test_429_comes_in_bursts(sandbox: RunningSandbox, client: httpx.Client) -> None:
    """Spec, Limits: 429 `rate_limited` with `Retry-After`; issue 3: in bursts."""
    set_faults(sandbox, rate_limit_rate=0.15, rate_limit_burst=4, retry_after_seconds=2,
               seed=5)
    answers = [client.get("/webhooks") for _ in range(80)]
    limited = [r for r in answers if r.status_code == 429]
    assert limited
    assert {r.status_code for r in answers} == {200, 429}
    for response in limited:
        assert response.json()["error"]["code"] == "rate_limited"
        assert response.headers["retry-after"] == "2"
    runs: list[int] = []
    run = 0
    for status in [*(r.status_code for r in answers), 0]:
        if status == 429:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    # A burst is 4 calls long and a new one may start right after: runs are whole bursts
    # (but the last one may be cut off by the end of the loop).
    assert all(length % 4 == 0 for length in runs[:-1])
    assert runs[0] >= 4
    assert counts(sandbox)["rate_limited"] == len(limited)


def test_latency_fixed_and_random(sandbox: RunningSandbox, client: httpx.Client) -> None:
    """Issue 3: added latency, fixed and random."""
    set_faults(sandbox, latency_ms=150, latency_jitter_ms=100, seed=1)
    started = time.monotonic()
    for _ in range(3):
        assert client.get("/webhooks").status_code == 200
    # A lower bound only: a slow machine can never make it fail.
    assert time.monotonic() - started >= 3 * 0.15
    assert counts(sandbox) == {"latency": 3}


NO_ANSWER = (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)
"""A dropped connection: closed with nothing sent, or reset while the request is still being
written (which of the two the client sees depends on timing)."""


def test_connection_dropped_before_the_work(sandbox: RunningSandbox,
                                           client: httpx.Client) -> None:
    """Issue 3: the connection is dropped before the server did the work: no answer at all,
    and nothing done."""
    set_faults(sandbox, drop_before_rate=1.0)
    with pytest.raises(NO_ANSWER):
        client.post("/webhooks", json={"url": HOOK})
    set_faults(sandbox)
    assert subscriptions(sandbox) == []


def test_connection_dropped_after_the_work(sandbox: RunningSandbox,
                                          client: httpx.Client) -> None:
    """Issue 3: the connection is dropped after the work: the answer is lost, the change is
    made (the case Idempotency-Key exists for)."""
    set_faults(sandbox, drop_after_rate=1.0)
    with pytest.raises(NO_ANSWER):
        client.post("/webhooks", json={"url": HOOK})
    assert counts(sandbox) == {"drop_after": 1}
    set_faults(sandbox)
    assert [w["url"] for w in subscriptions(sandbox)] == [HOOK]


def test_truncated_body(sandbox: RunningSandbox, client: httpx.Client) -> None:
    """Issue 3: truncated bodies: the full Content-Length is announced, fewer bytes arrive."""
    set_faults(sandbox, truncate_rate=1.0)
    with pytest.raises(httpx.RemoteProtocolError, match="complete message body"):
        client.get("/webhooks")

    with socket.create_connection((sandbox.host, sandbox.port), timeout=10) as raw:
        raw.sendall(b"GET /v1/webhooks HTTP/1.1\r\nHost: sandbox\r\n"
                    b"Authorization: Bearer sbx_test_all_scopes\r\n\r\n")
        received = b""
        while chunk := raw.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    assert 0 < len(body) < length
    assert counts(sandbox) == {"truncate": 2}


def test_admin_and_openapi_are_never_faulted(sandbox: RunningSandbox) -> None:
    """Faults apply to API calls only: the admin endpoints and the OpenAPI document answer."""
    set_faults(sandbox, error_rate=1.0, drop_before_rate=1.0)
    for _ in range(5):
        assert httpx.get(f"{sandbox.root_url}/_sandbox/faults").status_code == 200
        assert httpx.get(f"{sandbox.base_url}/openapi.json").status_code == 200
    assert counts(sandbox) == {}


def test_same_seed_same_faults(make_sandbox: MakeSandbox) -> None:
    """Faults are drawn from dice seeded by `seed`: a seeded run repeats exactly."""
    def run() -> list[str]:
        sb = make_sandbox(admin=True)
        set_faults(sb, error_rate=0.2, unavailable_rate=0.1, rate_limit_rate=0.05, seed=42)
        outcome: list[str] = []
        with httpx.Client(base_url=sb.base_url, headers=auth()) as c:
            for _ in range(40):
                outcome.append(str(c.get("/webhooks").status_code))
        return outcome

    first, second = run(), run()
    assert first == second
    assert len(set(first)) > 2  # the run met several kinds of answers


def test_faults_config_is_validated(sandbox: RunningSandbox) -> None:
    """A share is a probability: outside [0, 1] is refused naming the field."""
    response = httpx.put(f"{sandbox.root_url}/_sandbox/faults", json={"error_rate": 1.5})
    assert answered(response, 400)["error"]["field"] == "error_rate"
    unknown = httpx.put(f"{sandbox.root_url}/_sandbox/faults", json={"eror_rate": 0.1})
    assert answered(unknown, 400)["error"]["field"] == "eror_rate"
