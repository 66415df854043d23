"""GET /reservations: every filter, every sort, paging bounds and totals (spec, Reservations
endpoints and "Filters of GET /reservations"; Limits, reservations list page size)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import httpx
import pytest

from sandbox.clock import SimulatedClock
from sandbox.http.server import running_sandbox
from sandbox.settings import SandboxSettings
from tests.conftest import UNLIMITED, auth, refusal

from .test_reservations_support import book, business_date, room_request, rooms_of

START = datetime(2030, 3, 4, 9, 0, tzinfo=UTC)


@dataclass
class World:
    api: httpx.Client
    clock: SimulatedClock
    today: date
    ids: dict[str, int]
    created: dict[str, str]
    x_room: dict[str, Any]
    patched_at: datetime


def _stamp(instant: datetime) -> str:
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    """Five reservations made an hour apart on a simulated clock (so that created_at and
    updated_at differ), then a change to the first one."""
    clock = SimulatedClock(START)
    with running_sandbox(SandboxSettings(**UNLIMITED), clock) as sandbox, httpx.Client(
            base_url=sandbox.base_url, headers=auth(), timeout=30) as api:
        today = business_date(api)
        d = lambda n: today + timedelta(days=n)  # noqa: E731
        ids: dict[str, int] = {}
        created: dict[str, str] = {}

        def make(name: str, **kwargs: Any) -> dict[str, Any]:
            reservation = book(api, **kwargs)
            ids[name] = reservation["id"]
            created[name] = reservation["created_at"]
            clock.advance(timedelta(hours=1))
            return reservation

        make("r1", nights=2, new_party={"first_name": "Mario", "last_name": "Rossi"},
             external_ref="L-1", booking_code="BC-1", voucher="V-1")
        make("r2", arrival=d(5), nights=3, room_type="DLX", group_name="Choir of Lund",
             status="option", booker_is_guest=False)
        r3 = make("r3", rooms=[room_request(api, arrival=d(10), nights=1),
                               room_request(api, arrival=d(12), nights=2, room_type="SUP")])
        r4 = make("r4", arrival=d(1), nights=4)
        x_room = rooms_of(api, "SUP")[3]
        make("r5", nights=1, room_type="SUP", room={"room_id": x_room["id"]})

        placed = api.post(f"/reservations/{ids['r3']}/rooms/{r3['rooms'][1]['id']}/guests",
                          json={"guest": {"first_name": "Zoe", "last_name": "Quinn"}})
        assert placed.status_code == 201
        clock.advance(timedelta(hours=1))
        assert api.post(f"/reservations/{r4['id']}/cancel").status_code == 200
        clock.advance(timedelta(hours=1))
        assert api.post(f"/reservations/{ids['r5']}/check-in").status_code == 200
        clock.advance(timedelta(hours=1))
        patched_at = clock.now()
        response = api.patch(f"/reservations/{ids['r1']}", json={"notes": "late arrival"})
        assert response.status_code == 200
        yield World(api, clock, today, ids, created, x_room, patched_at)


def names(world: World, **params: Any) -> list[str]:
    response = world.api.get("/reservations", params=params)
    assert response.status_code == 200, response.text
    by_id = {v: k for k, v in world.ids.items()}
    return [by_id[item["id"]] for item in response.json()["data"]]


def test_default_sort_is_arrival_then_id(world: World) -> None:
    """Sort `arrival` is the default: r1 and r5 arrive today (id breaks the tie)."""
    assert names(world) == ["r1", "r5", "r4", "r2", "r3"]
    assert names(world, sort="arrival") == ["r1", "r5", "r4", "r2", "r3"]


def test_other_sorts(world: World) -> None:
    assert names(world, sort="arrival_desc") == ["r3", "r2", "r4", "r5", "r1"]
    assert names(world, sort="created_desc") == ["r5", "r4", "r3", "r2", "r1"]
    # updated_at: r1 patched last, r5 checked in before it, r4 cancelled before that, r3 got a
    # guest before that; r2 untouched since creation.
    assert names(world, sort="updated_desc") == ["r1", "r5", "r4", "r3", "r2"]


def test_arrival_filters(world: World) -> None:
    """Filters on rooms match when at least one room matches (r3's second room arrives +12)."""
    t = world.today
    assert names(world, arrival_from=(t + timedelta(days=5)).isoformat()) == ["r2", "r3"]
    assert names(world, arrival_to=t.isoformat()) == ["r1", "r5"]
    assert names(world, arrival_from=(t + timedelta(days=11)).isoformat(),
                 arrival_to=(t + timedelta(days=12)).isoformat()) == ["r3"]


def test_departure_filters(world: World) -> None:
    t = world.today
    assert names(world, departure_to=(t + timedelta(days=1)).isoformat()) == ["r5"]
    assert names(world, departure_from=(t + timedelta(days=14)).isoformat()) == ["r3"]
    assert names(world, departure_from=(t + timedelta(days=2)).isoformat(),
                 departure_to=(t + timedelta(days=5)).isoformat()) == ["r1", "r4"]


def test_stay_on_is_a_night_within_the_stay(world: World) -> None:
    """`stay_on`: a night within the stay (departure exclusive, convention 2)."""
    t = world.today
    assert names(world, stay_on=(t + timedelta(days=1)).isoformat()) == ["r1", "r4"]
    assert names(world, stay_on=(t + timedelta(days=13)).isoformat()) == ["r3"]
    assert names(world, stay_on=(t + timedelta(days=30)).isoformat()) == []


def test_created_since_and_updated_since(world: World) -> None:
    """`created_since`, `updated_since` (date-time; updated_since sees changes of the head or
    of any room: r4's cancel, r5's check-in and r3's new guest are room changes)."""
    assert names(world, created_since=world.created["r3"]) == ["r5", "r4", "r3"]
    assert names(world, created_since=_stamp(START + timedelta(days=1))) == []
    assert names(world, updated_since=_stamp(world.patched_at)) == ["r1"]
    since_guest = datetime.fromisoformat(world.created["r5"].replace("Z", "+00:00"))
    assert names(world, updated_since=_stamp(since_guest + timedelta(minutes=30))) == [
        "r1", "r5", "r4", "r3"]


def test_status_filter(world: World) -> None:
    assert names(world, status="cancelled") == ["r4"]
    assert names(world, status="checked_in") == ["r5"]
    assert names(world, status="option") == ["r2"]
    assert names(world, status="confirmed") == ["r1", "r3"]
    assert names(world, status="checked_out") == []


def test_room_external_ref_booking_code_voucher(world: World) -> None:
    assert names(world, room_id=world.x_room["id"]) == ["r5"]
    assert names(world, external_ref="L-1") == ["r1"]
    assert names(world, external_ref="L-") == [], "external_ref is an exact match"
    assert names(world, booking_code="BC-1") == ["r1"]
    assert names(world, voucher="V-1") == ["r1"]


def test_q_searches_booker_guest_and_group_names(world: World) -> None:
    assert names(world, q="rossi") == ["r1"]
    assert names(world, q="LUND") == ["r2"]
    assert names(world, q="quinn") == ["r3"]
    assert names(world, q="nobody-like-this") == []


def test_paging_totals_and_pages(world: World) -> None:
    """Page fields `page`, `page_size`, `total`, `pages`; defaults page 1, page_size 50."""
    first = world.api.get("/reservations").json()
    assert (first["page"], first["page_size"], first["total"], first["pages"]) == (1, 50, 5, 1)
    seen = []
    for page in (1, 2, 3):
        body = world.api.get("/reservations", params={"page": page, "page_size": 2}).json()
        assert (body["total"], body["pages"], body["page"]) == (5, 3, page)
        seen += [item["id"] for item in body["data"]]
    assert seen == [world.ids[n] for n in ("r1", "r5", "r4", "r2", "r3")]
    beyond = world.api.get("/reservations", params={"page": 4, "page_size": 2}).json()
    assert beyond["data"] == []
    assert world.api.get("/reservations", params={"page_size": 200}).status_code == 200
    assert world.api.get("/reservations", params={"page_size": 1}).json()["pages"] == 5


@pytest.mark.parametrize(("param", "value"), [
    ("page", 0), ("page", -1), ("page_size", 0), ("page_size", 201), ("page", "x"),
    ("status", "lost"), ("sort", "price"), ("arrival_from", "2030-13-01"),
    ("stay_on", "tomorrow"), ("room_id", "abc"), ("updated_since", "2030-01-01T10:00:00"),
    ("created_since", "not-a-time"),
])
def test_malformed_parameters_answer_400_naming_them(world: World, param: str,
                                                     value: object) -> None:
    """Limits: page minimum 1, page_size 1..200; malformed filters -> 400 invalid_request."""
    response = world.api.get("/reservations", params={param: value})
    assert refusal(response, 400, "invalid_request")["field"] == param


def test_items_hold_rooms_but_not_guests_or_folios(world: World) -> None:
    """GET /reservations: `data: Reservation[]` (rooms included, guests and folios not)."""
    items = world.api.get("/reservations", params={"q": "quinn"}).json()["data"]
    assert len(items[0]["rooms"]) == 2
    assert "folios" not in items[0]
    assert all("guests" not in room for room in items[0]["rooms"])
    full = world.api.get(f"/reservations/{world.ids['r3']}").json()
    assert [g["name"] for g in full["rooms"][1]["guests"]] == ["Zoe Quinn"]
    assert len(full["folios"]) == 2


def test_another_property_sees_none_of_them(world: World) -> None:
    """Convention 8: a key sees only its property."""
    other = world.api.get("/reservations", headers=auth("sbx_test_other_property")).json()
    assert other["total"] == 0
    assert other["data"] == []


def test_read_scope_is_enough(world: World) -> None:
    response = world.api.get("/reservations", headers=auth("sbx_test_read_only"))
    assert response.status_code == 200
