"""The client's token bucket (spec, Limits: 600 calls per minute per key, burst 120;
`X-RateLimit-Remaining` on answers; 429 `rate_limited` with `Retry-After`)."""

from __future__ import annotations

import logging
import threading
import time

import httpx
import pytest

from pipelines.api import PmsClient, RateLimitedError, RetryPolicy, TokenBucket
from pipelines.api._ratelimit import shared_bucket
from tests.client.conftest import MakeClient
from tests.conftest import ALL_SCOPES_KEY, MakeSandbox, auth


class FakeTime:
    """A clock that moves only when someone sleeps on it."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def fake_bucket(rate: int, burst: int, margin: int = 0) -> tuple[TokenBucket, FakeTime]:
    fake = FakeTime()
    return TokenBucket(rate, burst, margin=margin, clock=fake.clock, sleep=fake.sleep), fake


def test_the_burst_is_free_then_calls_come_at_the_rate() -> None:
    bucket, fake = fake_bucket(rate=60, burst=5)
    for _ in range(5):
        assert bucket.acquire().waited == 0
    assert fake.sleeps == []
    for _ in range(3):
        bucket.acquire()
    assert fake.sleeps == pytest.approx([1.0, 1.0, 1.0])


def test_waiting_callers_queue_in_order() -> None:
    """Tokens taken ahead of the refill are debts: the third caller waits three intervals."""
    fake = FakeTime()
    waits: list[float] = []
    bucket = TokenBucket(600, 1, margin=0, clock=fake.clock, sleep=waits.append)
    bucket.acquire()
    for _ in range(3):
        bucket.acquire()  # the fake clock does not move: each caller queues behind the last
    assert waits == pytest.approx([0.1, 0.2, 0.3])


def test_the_margin_is_left_unspent() -> None:
    bucket, fake = fake_bucket(rate=60, burst=5, margin=2)
    for _ in range(3):
        bucket.acquire()
    assert fake.sleeps == []
    bucket.acquire()
    assert fake.sleeps == pytest.approx([1.0])


def test_the_server_count_corrects_the_estimate_downward_only() -> None:
    bucket, _ = fake_bucket(rate=60, burst=10)
    permit = bucket.acquire()  # estimate 9
    bucket.observe(permit, remaining=2)  # another process spent the rest
    assert bucket.tokens == pytest.approx(2.0)
    permit = bucket.acquire()  # estimate 1
    bucket.observe(permit, remaining=50)  # never upward
    assert bucket.tokens == pytest.approx(1.0)


def test_a_pause_holds_every_caller() -> None:
    bucket, fake = fake_bucket(rate=60, burst=10)
    bucket.pause(2.0)
    bucket.acquire()
    assert fake.sleeps == pytest.approx([2.0])


def test_the_bucket_is_thread_safe() -> None:
    """Many threads taking tokens at one instant: no token is lost or taken twice."""
    fake = FakeTime()
    bucket = TokenBucket(600, 1000, margin=0, clock=fake.clock, sleep=lambda _: None)
    threads = [threading.Thread(target=lambda: [bucket.acquire() for _ in range(100)])
               for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert bucket.tokens == pytest.approx(1000 - 800)


def test_clients_of_one_base_url_and_key_share_one_bucket() -> None:
    a = PmsClient("http://127.0.0.1:9/v1", "key-one")
    b = PmsClient("http://127.0.0.1:9/v1/", "key-one")
    c = PmsClient("http://127.0.0.1:9/v1", "key-two")
    try:
        assert a.rate_limiter is b.rate_limiter
        assert a.rate_limiter is not c.rate_limiter
        assert a.rate_limiter is shared_bucket("http://127.0.0.1:9/v1", "key-one")
        assert (a.rate_limiter.rate_per_minute, a.rate_limiter.burst) == (600, 120)
    finally:
        for client in (a, b, c):
            client.close()


def statuses(caplog: pytest.LogCaptureFixture, status: int) -> int:
    return sum(f"-> {status}" in r.getMessage() for r in caplog.records
               if r.name == "pipelines.api")


def test_a_429_waits_exactly_retry_after_then_succeeds(
    make_sandbox: MakeSandbox, make_client: MakeClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Spec, Limits: 429 with Retry-After. The client's bucket is told nothing of the tight
    server limit here, so only the server's 429 stops it."""
    sandbox = make_sandbox(rate_per_minute=60, burst=1)
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        time.sleep(seconds)

    pms = make_client(sandbox, sleep=sleep, retry=RetryPolicy(max_attempts=4))
    caplog.set_level(logging.DEBUG, logger="pipelines.api")
    for _ in range(3):
        assert pms.me().property.id == 1
    assert statuses(caplog, 429) >= 1
    assert waits
    assert all(wait == 1.0 for wait in waits)

    fresh = make_sandbox(rate_per_minute=60, burst=1)
    impatient = make_client(fresh, retry=RetryPolicy(max_attempts=1))
    impatient.me()  # the server's bucket (burst 1) is emptied by this call ...
    with pytest.raises(RateLimitedError) as caught:  # ... so the next one is refused
        impatient.me()
    assert caught.value.status == 429
    assert caught.value.code == "rate_limited"
    assert caught.value.retry_after is not None
    assert caught.value.retry_after >= 1


def test_a_bucket_matching_the_server_never_trips_it(
    make_sandbox: MakeSandbox, make_client: MakeClient, caplog: pytest.LogCaptureFixture
) -> None:
    sandbox = make_sandbox(rate_per_minute=240, burst=3)
    pms = make_client(sandbox, rate_limiter=TokenBucket(240, 3, margin=1))
    caplog.set_level(logging.DEBUG, logger="pipelines.api")
    for _ in range(8):
        pms.me()
    assert statuses(caplog, 200) == 8
    assert statuses(caplog, 429) == 0


def test_the_server_count_keeps_a_fresh_bucket_from_tripping_the_limit(
    make_sandbox: MakeSandbox, make_client: MakeClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Another user of the same key spent most of the burst; the first answer's
    X-RateLimit-Remaining brings this client's estimate down, so no call is refused."""
    sandbox = make_sandbox(rate_per_minute=120, burst=6)
    with httpx.Client(base_url=sandbox.base_url, headers=auth(ALL_SCOPES_KEY)) as other:
        for _ in range(5):
            assert other.get("/me").status_code == 200
    bucket = TokenBucket(120, 6, margin=0)
    pms = make_client(sandbox, rate_limiter=bucket, retry=RetryPolicy(max_attempts=1))
    caplog.set_level(logging.DEBUG, logger="pipelines.api")
    for _ in range(4):
        pms.me()  # max_attempts=1: a 429 would raise
    assert statuses(caplog, 429) == 0  # without the correction the second or third is refused


def test_the_retry_policy_table() -> None:
    """Spec, Errors and Limits: 429/503 wait Retry-After; 5xx back off; answers never retry."""
    policy = RetryPolicy(max_attempts=3, backoff_base=1.0, backoff_cap=3.0, jitter=0.0)
    assert policy.wait_for_status(429, 7.0, attempt=1) == 7.0
    assert policy.wait_for_status(503, 2.0, attempt=2) == 2.0
    assert policy.wait_for_status(503, None, attempt=1) == 1.0
    assert policy.wait_for_status(429, None, attempt=2) == 2.0
    assert policy.wait_for_status(500, 9.0, attempt=2) == 2.0  # Retry-After only for 429/503
    assert policy.wait_for_status(502, None, attempt=3) is None  # attempts spent
    assert policy.wait_for_status(429, 301.0, attempt=1) is None  # longer than max_retry_after
    for status in (400, 401, 402, 403, 404, 409, 422, 423):
        assert policy.wait_for_status(status, 1.0, attempt=1) is None
    assert [policy.backoff(n) for n in (1, 2, 3, 4)] == [1.0, 2.0, 3.0, 3.0]
    jittered = RetryPolicy(backoff_base=1.0, jitter=0.25)
    assert all(0.75 <= jittered.backoff(1) <= 1.0 for _ in range(100))


def test_retry_after_as_seconds_or_http_date() -> None:
    from datetime import UTC, datetime

    from pipelines.api._retry import parse_retry_after

    now = datetime(2027, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("3", now) == 3.0
    assert parse_retry_after("Fri, 01 Jan 2027 12:00:05 GMT", now) == 5.0
    assert parse_retry_after("soon", now) is None
    assert parse_retry_after(None, now) is None


def test_the_margin_never_eats_a_small_burst() -> None:
    assert TokenBucket(600, 120).margin == 3
    assert TokenBucket(60, 2).margin == 0
    client = PmsClient("http://127.0.0.1:9/v1", "k", rate_per_minute=60, burst=2)
    assert client.rate_limiter.burst == 2
    client.close()
