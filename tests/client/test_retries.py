"""Retries through the sandbox's fault injection (sandbox/http/faults.py), and writes that land
exactly once: every write carries one Idempotency-Key for all its attempts, and the sandbox
replays the first answer instead of running the write again (spec, Limits: Idempotency-Key).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from decimal import Decimal

import httpx
import pytest

from models import ChargeInput
from pipelines.api import ApiConnectionError, ApiTimeoutError, PmsClient, RetryPolicy, ServerError
from sandbox.http.faults import FaultConfig
from sandbox.http.server import RunningSandbox
from tests.client.conftest import MakeClient, book, booking

NO_FAULTS = FaultConfig()


def faults_off_after_first_wait(sandbox: RunningSandbox, waits: list[float]
                                ) -> Callable[[float], None]:
    """A `sleep` for the client: records each wait, switches the faults off at the first."""

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        sandbox.state.faults = NO_FAULTS
        time.sleep(seconds)

    return sleep


def injected(sandbox: RunningSandbox, *kinds: str) -> int:
    return sum(sandbox.state.fault_counts[kind] for kind in kinds)


def count_reservations(pms: PmsClient) -> int:
    return pms.list_reservations(page_size=1).total


def test_reads_come_through_5xx_drops_and_cut_bodies(
    sandbox: RunningSandbox, make_client: MakeClient
) -> None:
    pms = make_client(sandbox, retry=RetryPolicy(max_attempts=10, backoff_base=0.01,
                                                 backoff_cap=0.05))
    sandbox.state.faults = FaultConfig(error_rate=0.25, drop_before_rate=0.15,
                                       truncate_rate=0.15, seed=11)
    for _ in range(15):
        assert pms.get_property().id == 1
        assert len(pms.list_room_types()) == 4
    assert injected(sandbox, "error_500", "error_502") > 0
    assert injected(sandbox, "drop_before") > 0
    assert injected(sandbox, "truncate") > 0


def test_a_create_whose_answer_is_lost_lands_once(
    sandbox: RunningSandbox, make_client: MakeClient, caplog: pytest.LogCaptureFixture
) -> None:
    """The connection drops after the server booked: the retry, with the same key, gets the
    first answer replayed (`Idempotent-Replayed: true`) and nothing is booked twice."""
    waits: list[float] = []
    pms = make_client(sandbox, sleep=faults_off_after_first_wait(sandbox, waits))
    before = count_reservations(pms)
    caplog.set_level(logging.DEBUG, logger="pipelines.api")
    body = booking(pms)
    sandbox.state.faults = FaultConfig(drop_after_rate=1.0)
    reservation = pms.create_reservation(body, idempotency_key="create-once-1").reservation
    assert sandbox.state.fault_counts["drop_after"] >= 1
    assert len(waits) == 1
    assert count_reservations(pms) == before + 1
    assert pms.get_reservation(reservation.id).id == reservation.id
    assert any("POST /reservations -> 201 replayed (attempt 2" in r.getMessage()
               for r in caplog.records)


def test_a_charge_through_cut_answers_and_5xx_is_posted_once(
    sandbox: RunningSandbox, make_client: MakeClient
) -> None:
    waits: list[float] = []
    pms = make_client(sandbox, sleep=faults_off_after_first_wait(sandbox, waits))
    reservation = book(pms, arrival_in=0)
    folio = pms.list_folios(reservation.id)[0]
    minibar = pms.list_items(q="Minibar")[0]
    sandbox.state.faults = FaultConfig(truncate_rate=1.0)  # the charge is posted, the answer cut
    pms.post_charge(folio.id, ChargeInput(item_id=minibar.id, quantity=Decimal(3)))
    assert sandbox.state.fault_counts["truncate"] == 1
    sandbox.state.faults = FaultConfig(error_rate=1.0)  # refused before any work is done
    pms.post_charge(folio.id, ChargeInput(item_id=minibar.id, quantity=Decimal(1)))
    lines = [line for line in pms.get_folio(folio.id).lines if line.service_item_id == minibar.id]
    assert sorted(line.quantity for line in lines) == [1, 3]
    assert len(waits) == 2


def test_writes_under_random_faults_land_exactly_once(
    sandbox: RunningSandbox, make_client: MakeClient
) -> None:
    """A soak in small: every kind of fault at once; each write lands once and only once."""
    pms = make_client(sandbox, retry=RetryPolicy(max_attempts=12, backoff_base=0.01,
                                                 backoff_cap=0.05))
    reservation = book(pms, arrival_in=0)
    folio = pms.list_folios(reservation.id)[0]
    bar = pms.list_items(q="Bar")[0]
    before = count_reservations(pms)
    sandbox.state.faults = FaultConfig(error_rate=0.15, unavailable_rate=0.1,
                                       retry_after_seconds=0, drop_before_rate=0.1,
                                       drop_after_rate=0.2, truncate_rate=0.15, seed=5)
    for n in range(8):
        book(pms)
        pms.post_charge(folio.id, ChargeInput(item_id=bar.id, description=f"round {n}"))
    counts = dict(sandbox.state.fault_counts)
    sandbox.state.faults = NO_FAULTS
    assert counts.get("drop_after", 0) > 0
    assert counts.get("truncate", 0) > 0
    assert count_reservations(pms) == before + 8
    posted = [line.description for line in pms.get_folio(folio.id).lines
              if line.service_item_id == bar.id]
    assert sorted(posted) == [f"round {n}" for n in range(8)]


def test_503_waits_exactly_retry_after(sandbox: RunningSandbox, make_client: MakeClient) -> None:
    """Spec, Errors and Limits: a 503 or 429 is retried after `Retry-After`, not a backoff."""
    waits: list[float] = []
    pms = make_client(sandbox, sleep=faults_off_after_first_wait(sandbox, waits))
    sandbox.state.faults = FaultConfig(unavailable_rate=1.0, retry_after_seconds=1)
    assert pms.me().property.id == 1
    assert waits == [1.0]
    waits.clear()
    sandbox.state.faults = FaultConfig(rate_limit_rate=1.0, rate_limit_burst=1,
                                       retry_after_seconds=1)
    assert pms.me().property.id == 1
    assert waits == [1.0]


def test_retries_stop_at_max_attempts(sandbox: RunningSandbox, make_client: MakeClient) -> None:
    pms = make_client(sandbox, retry=RetryPolicy(max_attempts=3, backoff_base=0.01))
    sandbox.state.faults = FaultConfig(error_rate=1.0)
    with pytest.raises(ServerError) as caught:
        pms.get_property()
    assert caught.value.status in (500, 502)
    assert injected(sandbox, "error_500", "error_502") == 3
    sandbox.state.faults = FaultConfig(drop_before_rate=1.0)
    with pytest.raises(ApiConnectionError) as dropped:
        pms.get_property()
    assert dropped.value.attempts == 3


def test_a_write_that_timed_out_is_retried_with_its_key_and_lands_once(
    sandbox: RunningSandbox, make_client: MakeClient
) -> None:
    """The first attempt is slow and the client gives up on it; the retry (same key) books;
    when the slow first attempt reaches the server it finds the key used and replays."""
    waits: list[float] = []
    pms = make_client(sandbox, timeout=httpx.Timeout(5.0, read=0.3),
                      sleep=faults_off_after_first_wait(sandbox, waits))
    before = count_reservations(pms)
    body = booking(pms)
    sandbox.state.faults = FaultConfig(latency_ms=800)
    reservation = pms.create_reservation(body, idempotency_key="slow-create-1").reservation
    assert waits
    assert sandbox.state.fault_counts["latency"] == 1
    time.sleep(1.0)  # let the first, slow attempt reach the server and find its key used
    assert count_reservations(pms) == before + 1
    assert pms.get_reservation(reservation.id).id == reservation.id


def test_timeouts_end_in_a_timeout_error(sandbox: RunningSandbox, make_client: MakeClient
                                         ) -> None:
    pms = make_client(sandbox, timeout=httpx.Timeout(5.0, read=0.2),
                      retry=RetryPolicy(max_attempts=2, backoff_base=0.01))
    sandbox.state.faults = FaultConfig(latency_ms=500)
    with pytest.raises(ApiTimeoutError) as caught:
        pms.me()
    assert caught.value.attempts == 2
