"""Many calls at once: one token bucket for the whole pool, several calls in flight while
the server is slow (issue: keep the rate limit busy when the server is slow)."""

from __future__ import annotations

import threading

import pytest

from models import Folio
from pipelines.api import NotFoundError, PmsClient, TokenBucket
from sandbox.http.faults import FaultConfig
from sandbox.http.server import RunningSandbox
from tests.client.conftest import MakeClient, booking


def test_folios_of_many_reservations_at_once(sandbox: RunningSandbox,
                                             make_client: MakeClient) -> None:
    pms = make_client(sandbox)
    body = booking(pms, arrival_in=0)
    ids = [pms.create_reservation(body).reservation.id for _ in range(12)]
    sandbox.state.faults = FaultConfig(latency_ms=100)  # a slow server

    in_flight = 0
    most = 0
    lock = threading.Lock()

    def folios(reservation_id: int) -> list[Folio]:
        nonlocal in_flight, most
        with lock:
            in_flight += 1
            most = max(most, in_flight)
        try:
            return pms.list_folios(reservation_id)
        finally:
            with lock:
                in_flight -= 1

    results = list(pms.fetch_many(folios, ids, concurrency=6))
    assert [rid for rid, _ in results] == ids  # input order
    assert all(f.reservation_id == rid for rid, fs in results for f in fs)
    assert most > 1
    by_id = pms.folios_for_reservations(ids, concurrency=4)
    assert sorted(by_id) == sorted(ids)
    assert all(by_id[rid] for rid in ids)


def test_the_pool_draws_on_one_bucket(sandbox: RunningSandbox, make_client: MakeClient) -> None:
    """At one instant (a clock that stands still) twelve calls from six threads: the burst of
    three goes at once, the other nine queue behind it one interval apart."""
    waits: list[float] = []
    bucket = TokenBucket(600, 3, margin=0, clock=lambda: 0.0, sleep=waits.append)
    pms = make_client(sandbox, rate_limiter=bucket)
    results = dict(pms.fetch_many(lambda _: pms.me().key.id, range(12), concurrency=6))
    assert set(results.values()) == {1}
    assert sorted(waits) == pytest.approx([0.1 * n for n in range(1, 10)])


def test_the_first_error_stops_the_rest(pms: PmsClient) -> None:
    with pytest.raises(NotFoundError):
        pms.folios_for_reservations([999_001, 999_002, 999_003], concurrency=2)
