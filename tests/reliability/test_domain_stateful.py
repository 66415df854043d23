"""Hypothesis stateful tests of the domain over HTTP (issue 9): random sequences of bookings,
cancellations, charges (each replayed with its Idempotency-Key), payments and folio closings,
with the spec's invariants checked after every step:

- a folio's balance = charges - payments (spec, Folio);
- event ids strictly increase, oldest first, and none is lost or repeated (spec, Event log 1);
- a repeated write with the same Idempotency-Key returns the same bytes and
  `Idempotent-Replayed: true`, and runs once (spec, Limits: Idempotency);
- availability is never negative when nobody forced an overbooking (spec, Creation rules 5).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from sandbox.http.server import RunningSandbox, running_sandbox
from sandbox.settings import SandboxSettings
from tests.conftest import UNLIMITED, answered, auth

TYPES = ("STD", "SUP", "DLX", "JSU")
WINDOW = 6  # nights from the business date the walks book into (a small, contended window)


@pytest.fixture(scope="module")
def live() -> Iterator[RunningSandbox]:
    with running_sandbox(SandboxSettings(**UNLIMITED, admin=True)) as running:
        yield running


def _money(value: Any) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"))


class Hotel(RuleBasedStateMachine):
    server: RunningSandbox
    reservations = Bundle("reservations")

    def __init__(self) -> None:
        super().__init__()
        self.api = httpx.Client(base_url=self.server.base_url, headers=auth(), timeout=30)
        self.admin = httpx.Client(base_url=f"{self.server.root_url}/_sandbox", timeout=30)
        self.last_event = 0
        self.keys = 0
        self.forced = False

    def teardown(self) -> None:
        self.api.close()
        self.admin.close()

    @initialize()
    def read_the_hotel(self) -> None:
        self.today = date.fromisoformat(self.api.get("/property").json()["business_date"])
        self.type_ids = {t["code"]: t["id"] for t in self.api.get("/room-types").json()["data"]}
        self.items = [i["id"] for i in self.api.get("/items").json()["data"]]
        events = self.api.get("/events", params={"after": 0, "limit": 500}).json()
        while events["has_more"]:
            events = self.api.get("/events", params={"after": events["next_after"],
                                                     "limit": 500}).json()
        self.last_event = events["next_after"]

    def _key(self) -> str:
        self.keys += 1
        return f"hypothesis-{id(self)}-{self.keys}"

    @rule(target=reservations, room_type=st.sampled_from(TYPES),
          start=st.integers(0, WINDOW - 1), nights=st.integers(1, 3),
          quantity=st.integers(1, 12))
    def book(self, room_type: str, start: int, nights: int, quantity: int) -> int:
        arrival = self.today + timedelta(days=start)
        body = {"rooms": [{"room_type_id": self.type_ids[room_type],
                           "arrival": arrival.isoformat(),
                           "departure": (arrival + timedelta(days=nights)).isoformat(),
                           "quantity": quantity}],
                "new_party": {"last_name": "Walk", "first_name": "Hypo"}}
        response = self.api.post("/reservations", json=body)
        if response.status_code == 422:  # the type is full on one of the nights: refused
            assert response.json()["error"]["code"] == "rule_violation"
            return -1
        reservation_id: int = answered(response, 201)["reservation"]["id"]
        return reservation_id

    @rule(reservation=consumes(reservations))
    def cancel(self, reservation: int) -> None:
        if reservation < 0:
            return
        response = self.api.post(f"/reservations/{reservation}/cancel")
        assert response.status_code == 200, response.text

    def _open_folio(self, reservation: int) -> dict[str, Any] | None:
        folios = self.api.get(f"/reservations/{reservation}/folios").json()["data"]
        return next((f for f in folios if f["status"] == "open"), None)

    @rule(reservation=reservations, quantity=st.integers(1, 3), data=st.data())
    def charge_then_replay(self, reservation: int, quantity: int, data: st.DataObject) -> None:
        if reservation < 0:
            return
        folio = self._open_folio(reservation)
        if folio is None:
            return
        item = data.draw(st.sampled_from(self.items))
        key = self._key()
        body = {"item_id": item, "quantity": quantity}
        first = self.api.post(f"/folios/{folio['id']}/charges", json=body,
                              headers={"Idempotency-Key": key})
        assert first.status_code == 201, first.text
        again = self.api.post(f"/folios/{folio['id']}/charges", json=body,
                              headers={"Idempotency-Key": key})
        assert again.status_code == 201
        assert again.content == first.content
        assert again.headers.get("Idempotent-Replayed") == "true"
        lines_after = self.api.get(f"/folios/{folio['id']}").json()["lines"]
        assert len(lines_after) == len(first.json()["lines"]), "the replay posted again"

    @rule(reservation=reservations, cents=st.integers(1, 50_000))
    def pay(self, reservation: int, cents: int) -> None:
        if reservation < 0:
            return
        folio = self._open_folio(reservation)
        if folio is None:
            return
        response = self.admin.post(f"/folios/{folio['id']}/payments",
                                   json={"amount": cents / 100})
        assert response.status_code == 200, response.text

    @invariant()
    def balances_are_charges_minus_payments(self) -> None:
        for folio in self._recent_folios():
            assert _money(folio["balance"]) == _money(folio["charges"]) - _money(
                folio["payments"]), folio
            lines = folio["lines"]
            charges = sum((_money(ln["total"]) for ln in lines if ln["type"] != "payment"),
                          Decimal(0))
            payments = sum((_money(ln["total"]) for ln in lines if ln["type"] == "payment"),
                           Decimal(0))
            assert _money(folio["charges"]) == charges
            assert _money(folio["payments"]) == payments

    def _recent_folios(self) -> list[dict[str, Any]]:
        page = self.api.get("/reservations", params={"sort": "updated_desc",
                                                     "page_size": 5}).json()["data"]
        return [f for r in page
                for f in self.api.get(f"/reservations/{r['id']}/folios").json()["data"]]

    @invariant()
    def event_ids_strictly_increase(self) -> None:
        after = self.last_event
        while True:
            body = self.api.get("/events", params={"after": after, "limit": 500}).json()
            ids = [e["id"] for e in body["data"]]
            assert ids == sorted(set(ids)), "events out of order or repeated"
            assert all(i > after for i in ids)
            if ids:
                assert body["next_after"] == ids[-1]
                after = ids[-1]
            if not body["has_more"]:
                break
        self.last_event = after

    @invariant()
    def availability_never_negative(self) -> None:
        if self.forced:
            return
        days = self.api.get("/availability", params={
            "from": self.today.isoformat(),
            "to": (self.today + timedelta(days=WINDOW + 3)).isoformat()}).json()["data"]
        for room_type in days:
            for day in room_type["days"]:
                assert day["available"] >= 0, (room_type["code"], day)


def test_the_domain_keeps_its_invariants_under_random_operations(live: RunningSandbox) -> None:
    Hotel.server = live
    run_state_machine_as_test(Hotel, settings=settings(
        max_examples=15, stateful_step_count=20, deadline=None, database=None,
        derandomize=True, suppress_health_check=list(HealthCheck)))
