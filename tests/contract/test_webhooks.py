"""Webhooks (spec: Webhooks endpoints, Events / Webhook delivery, Limits), with a real receiver.

The receiver is an HTTP server on a loopback port that records what it is sent and answers the
statuses a test asks for. Events are recorded the way the domain records them
(`sandbox.services.events.record_event`), run on the server's event loop like any operation.
Retry schedules run on a simulated clock that the tests advance.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

import httpx
import pytest

from models.events import EventType
from sandbox.clock import SimulatedClock
from sandbox.db import transaction
from sandbox.http.server import RunningSandbox
from sandbox.services.events import record_event
from tests.conftest import MakeSandbox, answered, auth, refusal

from . import test_reservations_support as support

SPEC_EVENT_TYPES = {
    "reservation.created", "reservation.updated", "stay.confirmed", "stay.room_assigned",
    "stay.updated", "stay.checked_in", "stay.checked_out", "stay.cancelled",
}
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
OTHER_PROPERTY_KEY = "sbx_test_other_property"  # property 2, every scope (seed)
OTHER_PROPERTY_KEY_ID = 4
HANG = -1  # a status meaning: do not answer for a while

T = TypeVar("T")


# --- the receiver ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def payload(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.body)
        return value


class Receiver:
    """Records POSTs per path; answers the statuses queued with `answer` (then 200)."""

    def __init__(self, hang_seconds: float = 2.0) -> None:
        self.requests: list[Received] = []
        self.plans: dict[str, list[int]] = {}
        self.hang_seconds = hang_seconds
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    receiver.requests.append(Received(
                        self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    plan = receiver.plans.get(self.path, [])
                    status = plan.pop(0) if plan else 200
                if status == HANG:
                    time.sleep(receiver.hang_seconds)
                    status = 200
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: Any) -> None:
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, *args: Any) -> None:
                pass  # a sender that gave up waiting closes the socket; nothing to report

        self.server = Server(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def answer(self, path: str, *statuses: int) -> None:
        with self.lock:
            self.plans.setdefault(path, []).extend(statuses)

    def at(self, path: str = "/hook") -> list[Received]:
        with self.lock:
            return [r for r in self.requests if r.path == path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


# --- helpers --------------------------------------------------------------------------------

def on_server(sb: RunningSandbox, work: Callable[[], T]) -> T:
    """Run `work` on the server's event loop, as a request would (one sqlite connection)."""
    dispatcher = sb.state.dispatcher
    assert dispatcher is not None

    async def run() -> T:
        return work()

    return asyncio.run_coroutine_threadsafe(run(), dispatcher.loop).result(timeout=10)


def add_event(sb: RunningSandbox, event_type: str, entity_id: int = 1,
              property_id: int = 1) -> int:
    """Record an event as an operation of the domain does."""
    def work() -> int:
        conn = sb.state.conn
        with transaction(conn):
            return record_event(conn, property_id, EventType(event_type), entity_id,
                                {"status": "confirmed"}, sb.state.clock.now())
    return on_server(sb, work)


def wait_until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the expected delivery did not happen"
        time.sleep(0.02)


def settle() -> None:
    """Give the dispatcher (ticking every 0.2 s) several chances to do what it must not do."""
    time.sleep(0.8)


def subscribe(api: httpx.Client, url: str, **fields: Any) -> tuple[dict[str, Any], str]:
    response = api.post("/webhooks", json={"url": url, **fields})
    body = answered(response, 201)
    return body["webhook"], body["secret"]


def signature_ok(secret: str, header: str, body: bytes, now_unix: float) -> bool:
    """The receiver's check of spec, Webhook delivery 7 (reference tolerance 300 s)."""
    parts = dict(item.split("=", 1) for item in header.split(","))
    timestamp = int(parts["t"])
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body,
                        hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts["v1"]) and abs(now_unix - timestamp) <= 300


@pytest.fixture
def sim(make_sandbox: MakeSandbox) -> RunningSandbox:
    return make_sandbox(clock=SimulatedClock(START), allow_http_webhooks=True, admin=True)


@pytest.fixture
def sim_api(sim: RunningSandbox) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=sim.base_url, headers=auth(), timeout=30) as client:
        yield client


def advance(sb: RunningSandbox, delta: timedelta) -> None:
    clock = sb.state.clock
    assert isinstance(clock, SimulatedClock)
    clock.advance(delta)


def webhook(api: httpx.Client, webhook_id: int) -> dict[str, Any]:
    response = api.get(f"/webhooks/{webhook_id}")
    value: dict[str, Any] = answered(response)
    return value


# --- subscriptions --------------------------------------------------------------------------

def test_list_names_event_types_and_never_the_secret(sim_api: httpx.Client,
                                                      receiver: Receiver) -> None:
    """Spec, Webhooks: GET answers {data, event_types}; the secret is returned only on POST."""
    listed = sim_api.get("/webhooks")
    assert answered(listed)["data"] == []
    assert set(listed.json()["event_types"]) == SPEC_EVENT_TYPES

    created, secret = subscribe(sim_api, receiver.url(), description="bookings")
    assert secret
    assert created["active"] is True
    assert created["failures"] == 0
    assert created["description"] == "bookings"
    assert created["events"] == []
    assert created["api_key_id"] == 1  # the key that created it (seed key 1)
    for response in (sim_api.get("/webhooks"), sim_api.get(f"/webhooks/{created['id']}")):
        assert response.status_code == 200
        assert secret not in response.text
        assert "secret" not in response.text


def test_https_is_required(make_sandbox: MakeSandbox) -> None:
    """Spec, WebhookInput: `url` is an https address (plain http refused without the flag)."""
    sb = make_sandbox()
    with httpx.Client(base_url=sb.base_url, headers=auth()) as api:
        for url in ("http://127.0.0.1:9/hook", "ftp://hooks.example.com/x", "not an address",
                    "https://"):
            response = api.post("/webhooks", json={"url": url})
            assert response.status_code == 400, url
            assert response.json()["error"]["code"] == "invalid_request"
            assert response.json()["error"]["field"] == "url"
        assert api.post("/webhooks", json={"url": "https://hooks.example.com/pms"}
                        ).status_code == 201


def test_plain_http_only_to_loopback_and_only_with_the_flag(make_sandbox: MakeSandbox) -> None:
    """Issue 3: http is accepted for loopback addresses when started with the flag."""
    sb = make_sandbox(allow_http_webhooks=True)
    with httpx.Client(base_url=sb.base_url, headers=auth()) as api:
        for url in ("http://127.0.0.1:9/hook", "http://localhost:9/hook", "http://[::1]:9/h"):
            assert api.post("/webhooks", json={"url": url}).status_code == 201, url
        refused = api.post("/webhooks", json={"url": "http://hooks.example.com/pms"})
        assert answered(refused, 400)["error"]["field"] == "url"


def test_unknown_event_type_is_refused(sim_api: httpx.Client, receiver: Receiver) -> None:
    """Spec, WebhookInput: `events` holds event type names."""
    response = sim_api.post("/webhooks", json={"url": receiver.url(),
                                                "events": ["stay.checked_in", "room.sold"]})
    assert refusal(response, 422, "rule_violation")["field"] == "events"


def test_at_most_ten_subscriptions_per_property(sim: RunningSandbox, sim_api: httpx.Client,
                                                 receiver: Receiver) -> None:
    """Spec, Webhooks notes and Limits: at most ten subscriptions per property."""
    for n in range(10):
        subscribe(sim_api, receiver.url(f"/h{n}"))
    eleventh = sim_api.post("/webhooks", json={"url": receiver.url("/h10")})
    refusal(eleventh, 422, "rule_violation")
    assert "10" in eleventh.json()["error"]["message"]  # the message names the rule
    # The limit is per property: another property still has its ten.
    other = httpx.post(f"{sim.base_url}/webhooks", json={"url": receiver.url("/other")},
                       headers=auth(OTHER_PROPERTY_KEY))
    assert other.status_code == 201


def test_every_operation_needs_webhooks_manage(sim_api: httpx.Client, sim: RunningSandbox,
                                               receiver: Receiver) -> None:
    """Spec, Authentication 3 and Webhooks (scope webhooks:manage; chosen for test/deliveries)."""
    created, _ = subscribe(sim_api, receiver.url())
    wid = created["id"]
    reader = auth("sbx_test_read_only")
    with httpx.Client(base_url=sim.base_url, headers=reader) as api:
        for method, path in (("GET", "/webhooks"), ("POST", "/webhooks"),
                             ("GET", f"/webhooks/{wid}"), ("PATCH", f"/webhooks/{wid}"),
                             ("DELETE", f"/webhooks/{wid}"), ("POST", f"/webhooks/{wid}/test"),
                             ("GET", f"/webhooks/{wid}/deliveries")):
            body = {"url": receiver.url()} if method in ("POST", "PATCH") else None
            response = api.request(method, path, json=body)
            assert response.status_code == 403, (method, path)
            assert response.json()["error"]["code"] == "insufficient_scope"


def test_subscription_of_another_property_does_not_exist(sim: RunningSandbox,
                                                         sim_api: httpx.Client,
                                                         receiver: Receiver) -> None:
    """Spec, conventions 8: a record of another property answers 404 not_found."""
    created, _ = subscribe(sim_api, receiver.url())
    wid = created["id"]
    with httpx.Client(base_url=sim.base_url, headers=auth(OTHER_PROPERTY_KEY)) as other:
        assert other.get("/webhooks").json()["data"] == []
        for method, path in (("GET", f"/webhooks/{wid}"), ("PATCH", f"/webhooks/{wid}"),
                             ("DELETE", f"/webhooks/{wid}"), ("POST", f"/webhooks/{wid}/test"),
                             ("GET", f"/webhooks/{wid}/deliveries")):
            response = other.request(method, path, json={} if method == "PATCH" else None)
            assert response.status_code == 404, (method, path)
            assert response.json()["error"]["code"] == "not_found"
    assert receiver.at() == []


def test_read_change_and_delete(sim_api: httpx.Client, receiver: Receiver) -> None:
    """GET, PATCH and DELETE /webhooks/{id}: added within v1 (spec, Versioning 2)."""
    created, _ = subscribe(sim_api, receiver.url())
    wid = created["id"]
    changed = sim_api.patch(f"/webhooks/{wid}",
                            json={"events": ["stay.checked_in"], "description": "door locks"})
    assert answered(changed)["events"] == ["stay.checked_in"]
    assert changed.json()["description"] == "door locks"
    assert changed.json()["url"] == receiver.url()  # not sent, not changed
    refused = sim_api.patch(f"/webhooks/{wid}", json={"url": "http://hooks.example.com/x"})
    assert answered(refused, 400)["error"]["field"] == "url"
    assert sim_api.delete(f"/webhooks/{wid}").status_code == 204
    assert sim_api.get(f"/webhooks/{wid}").status_code == 404
    assert sim_api.get("/webhooks").json()["data"] == []


# --- delivery -------------------------------------------------------------------------------

def test_delivery_is_signed_and_carries_the_payload(make_sandbox: MakeSandbox,
                                                    receiver: Receiver) -> None:
    """Spec, Webhook delivery 2, 3 and 7: headers, WebhookPayload body, HMAC-SHA256 signature."""
    sb = make_sandbox(allow_http_webhooks=True)  # wall clock: checked as a real receiver would
    with httpx.Client(base_url=sb.base_url, headers=auth()) as api:
        created, secret = subscribe(api, receiver.url())
        event_id = add_event(sb, "stay.checked_in", entity_id=42)
        wait_until(lambda: len(receiver.at()) == 1)
        got = receiver.at()[0]
        assert got.headers["content-type"].startswith("application/json")
        assert got.headers["x-service-event"] == "stay.checked_in"
        assert got.headers["x-service-delivery"] == f"{event_id}-1"
        assert signature_ok(secret, got.headers["x-service-signature"], got.body, time.time())
        assert not signature_ok("whsec_wrong", got.headers["x-service-signature"], got.body,
                                time.time())
        assert not signature_ok(secret, got.headers["x-service-signature"], got.body + b" ",
                                time.time())
        payload = got.payload
        assert payload["id"] == event_id
        assert payload["type"] == "stay.checked_in"
        assert payload["entity"] == "stay"
        assert payload["entity_id"] == 42
        assert payload["property_id"] == 1
        assert payload["subscription_id"] == created["id"]
        assert payload["attempt"] == 1
        assert payload["data"] == {"status": "confirmed"}
        log = api.get("/events")
        if log.status_code == 200:  # once the event log is served: it tells the same event
            assert [e["created_at"] for e in log.json()["data"] if e["id"] == event_id] == \
                [payload["created_at"]]
        wait_until(lambda: webhook(api, created["id"])["last_event_id"] == event_id)
        state = webhook(api, created["id"])
        assert state["last_status"] == 200
        assert state["failures"] == 0
        assert state["last_delivered_at"] is not None


def test_delivery_starts_after_the_subscription(sim: RunningSandbox, sim_api: httpx.Client,
                                                receiver: Receiver) -> None:
    """Spec, Webhooks notes: delivery starts from the events after the subscription is made."""
    add_event(sim, "reservation.created")
    subscribe(sim_api, receiver.url())
    later = add_event(sim, "reservation.updated")
    wait_until(lambda: len(receiver.at()) == 1)
    settle()
    assert [r.payload["id"] for r in receiver.at()] == [later]


def test_events_in_order_and_filtered(sim: RunningSandbox, sim_api: httpx.Client,
                                      receiver: Receiver) -> None:
    """Spec, Webhook delivery 1: every matching event (all when `events` is empty), in order."""
    subscribe(sim_api, receiver.url("/all"))
    subscribe(sim_api, receiver.url("/checkins"), events=["stay.checked_in"])
    types = ["reservation.created", "stay.checked_in", "stay.cancelled", "stay.room_assigned",
             "stay.checked_in", "reservation.updated"]
    ids = [add_event(sim, t, entity_id=n) for n, t in enumerate(types)]
    add_event(sim, "stay.checked_in", property_id=2)  # another property: never delivered here
    wait_until(lambda: len(receiver.at("/all")) == len(types))
    wait_until(lambda: len(receiver.at("/checkins")) == 2)
    settle()
    assert [r.payload["id"] for r in receiver.at("/all")] == ids
    assert [r.headers["x-service-event"] for r in receiver.at("/all")] == types
    assert [r.payload["id"] for r in receiver.at("/checkins")] == [ids[1], ids[4]]


def test_failed_event_is_retried_after_1_then_5_minutes_and_blocks_later_ones(
        sim: RunningSandbox, sim_api: httpx.Client, receiver: Receiver) -> None:
    """Spec, Webhook delivery 1 and 4: non-2xx is a failed attempt, retried after 1 min, 5 min;
    delivery is in order, so the events after a failed one wait for it."""
    created, _ = subscribe(sim_api, receiver.url())
    wid = created["id"]
    receiver.answer("/hook", 500, 503)
    first = add_event(sim, "reservation.created")
    second = add_event(sim, "stay.confirmed")

    wait_until(lambda: webhook(sim_api, wid)["failures"] == 1)
    settle()
    assert len(receiver.at()) == 1  # the second event waits behind the first
    state = webhook(sim_api, wid)
    assert state["failures"] == 1
    assert state["last_status"] == 500
    assert state["last_error"]
    assert state["last_event_id"] == created["last_event_id"]
    assert state["next_attempt_at"] == "2026-03-02T09:01:00Z"

    advance(sim, timedelta(seconds=59))
    settle()
    assert len(receiver.at()) == 1  # not before the minute has passed
    advance(sim, timedelta(seconds=1))
    wait_until(lambda: webhook(sim_api, wid)["failures"] == 2)
    assert len(receiver.at()) == 2
    state = webhook(sim_api, wid)
    assert state["failures"] == 2
    assert state["last_status"] == 503
    assert state["next_attempt_at"] == "2026-03-02T09:06:00Z"  # then five minutes

    advance(sim, timedelta(minutes=5))
    wait_until(lambda: len(receiver.at()) == 4)
    got = receiver.at()
    assert [(r.payload["id"], r.payload["attempt"]) for r in got] == \
        [(first, 1), (first, 2), (first, 3), (second, 1)]
    assert [r.headers["x-service-delivery"] for r in got] == \
        [f"{first}-1", f"{first}-2", f"{first}-3", f"{second}-1"]
    wait_until(lambda: webhook(sim_api, wid)["last_event_id"] == second)
    state = webhook(sim_api, wid)
    assert state["failures"] == 0
    assert state["next_attempt_at"] is None
    assert state["last_error"] is None
    assert state["last_status"] == 200

    # Spec, Webhook delivery 8: the deliveries list shows the latest attempts first.
    deliveries = sim_api.get(f"/webhooks/{wid}/deliveries")
    rows = answered(deliveries)["data"]
    assert [(d["event_id"], d["attempt"], d["status"]) for d in rows] == \
        [(second, 1, 200), (first, 3, 200), (first, 2, 503), (first, 1, 500)]
    assert rows[0]["event_type"] == "stay.confirmed"
    assert rows[-1]["error"]
    assert rows[0]["error"] is None
    assert all(d["duration_ms"] >= 0 for d in rows)
    assert [d["created_at"] for d in rows] == ["2026-03-02T09:06:00Z", "2026-03-02T09:06:00Z",
                                               "2026-03-02T09:01:00Z", "2026-03-02T09:00:00Z"]


def test_no_answer_within_the_timeout_is_a_failed_attempt(make_sandbox: MakeSandbox) -> None:
    """Spec, Webhook delivery 4: no 2xx answer within the time-out (10 s; shortened here)."""
    sb = make_sandbox(clock=SimulatedClock(START), allow_http_webhooks=True,
                      webhook_timeout_seconds=0.3)
    with closing(Receiver(hang_seconds=1.5)) as slow:
        slow.answer("/hook", HANG)
        with httpx.Client(base_url=sb.base_url, headers=auth()) as api:
            created, _ = subscribe(api, slow.url())
            add_event(sb, "reservation.created")
            wait_until(lambda: webhook(api, created["id"])["failures"] == 1)
            state = webhook(api, created["id"])
            assert state["last_status"] is None
            assert "no answer" in state["last_error"]
            assert state["next_attempt_at"] == "2026-03-02T09:01:00Z"
            delivery = api.get(f"/webhooks/{created['id']}/deliveries").json()["data"][0]
            assert delivery["status"] is None
            assert delivery["error"]


def test_switched_off_after_three_days_of_failures(sim: RunningSandbox, sim_api: httpx.Client,
                                                   receiver: Receiver) -> None:
    """Spec, Webhook delivery 5: after three days of failures the subscription is switched
    off, the reason in `disabled_reason`; switching it on again resumes delivery."""
    created, _ = subscribe(sim_api, receiver.url())
    wid = created["id"]
    receiver.answer("/hook", *([500] * 20))
    event = add_event(sim, "reservation.created")
    wait_until(lambda: webhook(sim_api, wid)["failures"] == 1)
    advance(sim, timedelta(days=2, hours=23, minutes=59))
    wait_until(lambda: webhook(sim_api, wid)["failures"] == 2)
    assert webhook(sim_api, wid)["active"] is True  # not yet three days
    advance(sim, timedelta(hours=6))
    wait_until(lambda: webhook(sim_api, wid)["failures"] == 3)
    state = webhook(sim_api, wid)
    assert state["active"] is False
    assert "three days" in state["disabled_reason"]
    assert state["next_attempt_at"] is None

    add_event(sim, "reservation.updated")
    advance(sim, timedelta(days=1))
    settle()
    assert len(receiver.at()) == 3  # switched off: nothing more is sent

    with receiver.lock:
        receiver.plans.clear()
    resumed = sim_api.patch(f"/webhooks/{wid}", json={"active": True})
    assert answered(resumed)["failures"] == 0
    assert resumed.json()["disabled_reason"] is None
    wait_until(lambda: len(receiver.at()) == 5)
    assert receiver.at()[3].payload["id"] == event


def test_ping(sim_api: httpx.Client, receiver: Receiver) -> None:
    """Spec, Webhook delivery 8 and Events: POST /webhooks/{id}/test sends a ping at once
    (type `ping`, event id 0); answered with the attempt (a choice of this sandbox)."""
    created, secret = subscribe(sim_api, receiver.url())
    wid = created["id"]
    response = sim_api.post(f"/webhooks/{wid}/test")
    delivery = answered(response)
    assert delivery["event_id"] == 0
    assert delivery["event_type"] == "ping"
    assert delivery["status"] == 200
    assert delivery["error"] is None
    assert delivery["attempt"] == 1
    assert len(receiver.at()) == 1  # sent before the answer
    got = receiver.at()[0]
    assert got.headers["x-service-event"] == "ping"
    assert got.payload["id"] == 0
    assert got.payload["type"] == "ping"
    assert got.payload["subscription_id"] == wid
    t = int(dict(p.split("=", 1) for p in got.headers["x-service-signature"].split(","))["t"])
    assert signature_ok(secret, got.headers["x-service-signature"], got.body, t)

    receiver.answer("/hook", 500)
    failed = sim_api.post(f"/webhooks/{wid}/test").json()
    assert failed["status"] == 500
    assert failed["error"]
    assert failed["attempt"] == 2
    assert webhook(sim_api, wid)["failures"] == 0  # a ping leaves the subscription alone
    listed = sim_api.get(f"/webhooks/{wid}/deliveries").json()["data"]
    assert [d["id"] for d in listed] == [failed["id"], delivery["id"]]


def test_revoking_the_key_stops_its_webhooks(sim: RunningSandbox, receiver: Receiver) -> None:
    """Spec, Authentication 6 and Webhook subscription: a revoked key stops the webhook."""
    with httpx.Client(base_url=sim.base_url, headers=auth(OTHER_PROPERTY_KEY)) as other:
        created, _ = subscribe(other, receiver.url())
        assert created["api_key_id"] == OTHER_PROPERTY_KEY_ID
        first = add_event(sim, "reservation.created", property_id=2)
        wait_until(lambda: len(receiver.at()) == 1)
        assert receiver.at()[0].payload["id"] == first

        revoked = httpx.post(f"{sim.root_url}/_sandbox/keys/{OTHER_PROPERTY_KEY_ID}/revoke")
        assert answered(revoked)["webhooks_stopped"] == 1
        assert other.get("/webhooks").json()["error"]["code"] == "key_revoked"
        add_event(sim, "reservation.updated", property_id=2)
        settle()
        assert len(receiver.at()) == 1

    def stored() -> tuple[int, str]:
        row = sim.state.conn.execute("SELECT active, disabled_reason FROM webhooks WHERE id = ?",
                                     (created["id"],)).fetchone()
        return row[0], row[1]

    active, reason = on_server(sim, stored)
    assert active == 0
    assert "revoked" in reason


def test_a_key_revoked_elsewhere_also_stops_delivery(sim: RunningSandbox,
                                                     receiver: Receiver) -> None:
    """Spec, Authentication 6: however the key was revoked, its webhooks get nothing more."""
    with httpx.Client(base_url=sim.base_url, headers=auth(OTHER_PROPERTY_KEY)) as other:
        subscribe(other, receiver.url())

    def revoke() -> None:
        with transaction(sim.state.conn):
            sim.state.conn.execute("UPDATE api_keys SET revoked_at = '2026-03-02T09:00:00Z' "
                                   "WHERE id = ?", (OTHER_PROPERTY_KEY_ID,))

    on_server(sim, revoke)
    add_event(sim, "reservation.created", property_id=2)
    settle()
    assert receiver.at() == []


def test_real_operations_are_delivered_as_the_event_log_tells_them(
        sim: RunningSandbox, sim_api: httpx.Client, receiver: Receiver) -> None:
    """Spec, Events: the webhook carries the same events as GET /events, in the same order."""
    subscribe(sim_api, receiver.url())
    arrival = support.business_date(sim_api) + timedelta(days=10)
    reservation = support.book(sim_api, arrival=arrival, nights=2)["id"]
    assert sim_api.post(f"/reservations/{reservation}/cancel").status_code == 200
    log = sim_api.get("/events").json()["data"]
    assert len(log) >= 2
    wait_until(lambda: len(receiver.at()) == len(log))
    delivered = [r.payload for r in receiver.at()]
    assert [(p["id"], p["type"], p["entity"], p["entity_id"], p["created_at"], p["data"])
            for p in delivered] == \
        [(e["id"], e["type"], e["entity"], e["entity_id"], e["created_at"], e["data"])
         for e in log]
