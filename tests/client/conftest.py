"""Fixtures of the client tests: a `PmsClient` on a fresh sandbox served over real HTTP."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date, timedelta
from typing import Any

import pytest

from models.reservations import NewParty, Reservation, ReservationCreate, RoomRequest
from pipelines.api import PmsClient, RetryPolicy, TokenBucket
from sandbox.http.server import RunningSandbox
from tests.conftest import ALL_SCOPES_KEY

MakeClient = Callable[..., PmsClient]


def unlimited_bucket() -> TokenBucket:
    """A bucket that never waits: for sandboxes whose own limit is lifted."""
    return TokenBucket(rate_per_minute=10_000_000, burst=1_000_000, margin=0)


@pytest.fixture
def make_client() -> Iterator[MakeClient]:
    """Clients with their own bucket (not the process-wide one) and quick retries."""
    clients: list[PmsClient] = []

    def make(sandbox: RunningSandbox, key: str = ALL_SCOPES_KEY, **options: Any) -> PmsClient:
        options.setdefault("rate_limiter", unlimited_bucket())
        options.setdefault("retry", RetryPolicy(max_attempts=5, backoff_base=0.05,
                                                backoff_cap=0.2))
        client = PmsClient(sandbox.base_url, key, **options)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def pms(sandbox: RunningSandbox, make_client: MakeClient) -> PmsClient:
    """The all-scopes client on the fresh `sandbox` (rate limit lifted)."""
    return make_client(sandbox)


def first_type_id(pms: PmsClient, code: str = "STD") -> int:
    return next(t.id for t in pms.list_room_types() if t.code == code)


def business_date(pms: PmsClient) -> date:
    return pms.get_property().business_date


def booking(
    pms: PmsClient, *, arrival_in: int = 10, nights: int = 2, type_code: str = "STD",
    **fields: Any,
) -> ReservationCreate:
    """The body of a confirmed reservation of one room (reads the property to build it)."""
    arrival = business_date(pms) + timedelta(days=arrival_in)
    room = RoomRequest(room_type_id=first_type_id(pms, type_code), arrival=arrival,
                       departure=arrival + timedelta(days=nights), adults=2)
    return ReservationCreate(rooms=[room], new_party=NewParty(last_name="Rossi", first_name="Anna"),
                             market="leisure", **fields)


def book(pms: PmsClient, *, idempotency_key: str | None = None, **options: Any) -> Reservation:
    """Create a confirmed reservation of one room through the API."""
    body = booking(pms, **options)
    return pms.create_reservation(body, idempotency_key=idempotency_key).reservation
