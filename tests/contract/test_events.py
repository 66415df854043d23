"""The event log: GET /events (spec, Endpoints, Events; Events, Event log; Resources, Event;
Limits, Events per batch and Event log retention).

Events come from real operations: POST /reservations records `reservation.created` for the
reservation, POST /reservations/{id}/assign-rooms `stay.room_assigned` for each room given a
room (docs/events.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from sandbox.clock import SimulatedClock
from sandbox.http.server import running_sandbox
from tests.conftest import MakeSandbox, answered, auth, refusal
from tests.contract.reading import UNLIMITED

from . import test_reservations_support as support

OTHER_PROPERTY = "sbx_test_other_property"
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
CREATED = "reservation.created"
ASSIGNED = "stay.room_assigned"


def book(api: httpx.Client, rooms: int = 1, assign: bool = False) -> dict[str, Any]:
    """A reservation from the business date (emits events); its detail."""
    reservation = support.book(api, nights=1, room={"quantity": rooms})
    if assign:
        assigned = api.post(f"/reservations/{reservation['id']}/assign-rooms")
        assert assigned.status_code == 200, assigned.text
    return reservation


def events(api: httpx.Client, **params: Any) -> dict[str, Any]:
    response = api.get("/events", params=params)
    body: dict[str, Any] = answered(response)
    return body


def refused(response: httpx.Response, field: str) -> None:
    """Spec, Errors: 400 invalid_request, a parameter malformed; the refusal names it."""
    error = refusal(response, 400, "invalid_request")
    assert field in error["message"]


@pytest.fixture(scope="module")
def shared() -> Iterator[httpx.Client]:
    """One sandbox for the refusal tests, which record nothing."""
    with running_sandbox(UNLIMITED) as sandbox, \
            httpx.Client(base_url=sandbox.base_url, headers=auth(), timeout=30) as client:
        yield client


# --- reading ---------------------------------------------------------------------------------


def test_events_oldest_first_with_their_fields(api: httpx.Client) -> None:
    """Spec, Event log 1: oldest first; Event: `id`, `type`, `entity`, `entity_id`
    (the reservation for `reservation.*`), `created_at` (RFC 3339 UTC), `data` object."""
    made = [book(api)["id"] for _ in range(3)]
    body = events(api)
    assert body["has_more"] is False
    ids = [event["id"] for event in body["data"]]
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)
    assert body["next_after"] == ids[-1]
    created = [event for event in body["data"] if event["type"] == CREATED]
    assert [event["entity_id"] for event in created] == made
    for event in body["data"]:
        assert TIMESTAMP.match(event["created_at"])
        assert isinstance(event["data"], dict)
        assert event["entity"] == event["type"].split(".")[0]
    assert events(api, after=0) == body  # `after` default 0


def test_paging_with_after_next_after_and_has_more(api: httpx.Client) -> None:
    """Spec, GET /events: `after` (only events with a greater id), `limit`; answer
    `has_more` and `next_after`; Event log 1: the client asks again with `next_after`."""
    made = [book(api)["id"] for _ in range(5)]
    seen: list[dict[str, Any]] = []
    after = 0
    pages = []
    while True:
        body = events(api, after=after, limit=2, types=CREATED)
        pages.append((len(body["data"]), body["has_more"]))
        seen.extend(body["data"])
        if body["data"]:
            assert body["next_after"] == body["data"][-1]["id"]
            assert all(event["id"] > after for event in body["data"])
        after = body["next_after"]
        if not body["has_more"]:
            break
    assert pages == [(2, True), (2, True), (1, False)]
    assert [event["entity_id"] for event in seen] == made
    last = events(api, after=after, types=CREATED)
    assert last == {"data": [], "has_more": False, "next_after": after}


def test_after_skips_what_was_read(api: httpx.Client) -> None:
    """Spec, Event log 1: the client keeps the last handled id and asks with `after`."""
    book(api)
    first = events(api)
    newer = book(api)
    body = events(api, after=first["next_after"])
    assert all(event["id"] > first["next_after"] for event in body["data"])
    assert [e["entity_id"] for e in body["data"] if e["type"] == CREATED] == [newer["id"]]


def test_types_filter(api: httpx.Client) -> None:
    """Spec, Event log 3: `types` filters by a comma-separated list; events of entity `stay`
    refer to the room entry (`rooms[].id`)."""
    reservation = book(api, rooms=2, assign=True)
    room_ids = {room["id"] for room in reservation["rooms"]}
    assigned = events(api, types=ASSIGNED)["data"]
    assert {event["type"] for event in assigned} == {ASSIGNED}
    assert {event["entity_id"] for event in assigned} == room_ids
    assert {event["entity"] for event in assigned} == {"stay"}
    created = events(api, types=CREATED)["data"]
    assert [event["entity_id"] for event in created] == [reservation["id"]]
    both = events(api, types=f"{CREATED}, {ASSIGNED}")["data"]
    assert sorted(event["id"] for event in both) == sorted(
        event["id"] for event in assigned + created)
    assert [event["id"] for event in both] == sorted(event["id"] for event in both)
    assert events(api, types="stay.checked_out")["data"] == []


def test_other_property_events_are_not_shown(api: httpx.Client) -> None:
    """Spec, General conventions 8: a key sees only its property."""
    mine = book(api)
    other = auth(OTHER_PROPERTY)
    assert api.get("/events", headers=other).json()["data"] == []
    theirs = api.post("/reservations", headers=other, json={
        "rooms": [{"room_type_id": api.get("/room-types", headers=other).json()["data"][0]["id"],
                   "arrival": mine["arrival"], "departure": mine["departure"]}],
        "new_party": {"last_name": "Neri"}, "market": "leisure",
    })
    assert theirs.status_code == 201, theirs.text
    their_events = api.get("/events", headers=other).json()["data"]
    assert [e["entity_id"] for e in their_events if e["type"] == CREATED] == [
        theirs.json()["reservation"]["id"]]
    my_events = events(api)["data"]
    assert [e["entity_id"] for e in my_events if e["type"] == CREATED] == [mine["id"]]


def test_retention_30_days(make_sandbox: MakeSandbox) -> None:
    """Spec, Event log 2 and Limits: the log holds 30 days (simulated clock)."""
    clock = SimulatedClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    sandbox = make_sandbox(clock=clock)
    with httpx.Client(base_url=sandbox.base_url, headers=auth(), timeout=30) as api:
        old = book(api)
        clock.advance(timedelta(days=29))
        assert [e["entity_id"] for e in events(api, types=CREATED)["data"]] == [old["id"]]
        recent = book(api)
        clock.advance(timedelta(days=1, hours=1))  # the first event is now 30 days 1 hour old
        body = events(api, types=CREATED)
        assert [e["entity_id"] for e in body["data"]] == [recent["id"]]
        assert body["has_more"] is False
        clock.advance(timedelta(days=30))
        assert events(api)["data"] == []
        assert events(api)["next_after"] == 0


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize("limit", ["0", "-1", "501", "10000", "ten", "1.5"])
def test_limit_bounds(shared: httpx.Client, limit: str) -> None:
    """Spec, Limits: events per batch `limit` default 100, maximum 500."""
    refused(shared.get("/events", params={"limit": limit}), "limit")


@pytest.mark.parametrize("limit", [1, 100, 500])
def test_limit_within_bounds(shared: httpx.Client, limit: int) -> None:
    assert shared.get("/events", params={"limit": limit}).status_code == 200


@pytest.mark.parametrize("types", ["reservation.deleted", "stay.updated,nothing", "ping",
                                   "RESERVATION.CREATED"])
def test_unknown_types_are_refused(shared: httpx.Client, types: str) -> None:
    """Spec, Events: the event types are the eight listed (`ping` is only a test delivery);
    a name outside them is a malformed parameter."""
    refused(shared.get("/events", params={"types": types}), "types")


@pytest.mark.parametrize("after", ["abc", "-1", "1e3"])
def test_malformed_after_is_refused(shared: httpx.Client, after: str) -> None:
    """Spec, GET /events: `after` int (an event id, so not negative)."""
    refused(shared.get("/events", params={"after": after}), "after")


def test_every_listed_type_is_accepted(shared: httpx.Client) -> None:
    """Spec, Events: the eight event types."""
    listed = ("reservation.created,reservation.updated,stay.confirmed,stay.room_assigned,"
              "stay.updated,stay.checked_in,stay.checked_out,stay.cancelled")
    assert shared.get("/events", params={"types": listed}).status_code == 200


def test_read_only_key_reads_events(shared: httpx.Client) -> None:
    """Spec, Authentication 3: events:read is a read scope."""
    response = shared.get("/events", headers=auth("sbx_test_read_only"))
    assert response.status_code == 200
