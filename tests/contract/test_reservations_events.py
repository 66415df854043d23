"""Events recorded by reservation operations, read through GET /events (spec, Events: types,
entities, `entity_id` of reservation or room entry; which operation emits which type and the
keys of `data` are the sandbox's map in docs/events.md)."""

from __future__ import annotations

from typing import Any

import httpx

from .test_reservations_support import book, error_of, events, last_event_id, room_request


def _since(api: httpx.Client, after: int) -> list[tuple[str, str, int]]:
    return [(e["type"], e["entity"], e["entity_id"]) for e in events(api, after)]


def _data(api: httpx.Client, after: int) -> list[dict[str, Any]]:
    return [e["data"] for e in events(api, after)]


def test_creation_records_reservation_created(api: httpx.Client) -> None:
    mark = last_event_id(api)
    made = book(api, room={"quantity": 2}, external_ref="EV-1")
    assert _since(api, mark) == [("reservation.created", "reservation", made["id"])]
    data = _data(api, mark)[0]
    assert data["rooms"] == [room["id"] for room in made["rooms"]]
    assert (data["status"], data["arrival"], data["departure"], data["external_ref"]) == (
        "confirmed", made["arrival"], made["departure"], "EV-1")


def test_head_patch_records_reservation_updated_with_the_changed_fields(
        api: httpx.Client) -> None:
    made = book(api)
    mark = last_event_id(api)
    api.patch(f"/reservations/{made['id']}", json={"notes": "x", "voucher": "V"})
    assert _since(api, mark) == [("reservation.updated", "reservation", made["id"])]
    assert _data(api, mark)[0]["changed"] == ["notes", "voucher"]
    mark = last_event_id(api)
    api.patch(f"/reservations/{made['id']}", json={"notes": "x"})
    assert _since(api, mark) == [], "nothing changed, nothing recorded"


def test_whole_operations_record_one_stay_event_per_room(api: httpx.Client) -> None:
    """Entity `stay`: `entity_id` is the room entry id (`rooms[].id`)."""
    made = book(api, status="option", room={"quantity": 2})
    ids = [room["id"] for room in made["rooms"]]
    base = f"/reservations/{made['id']}"
    for path, event_type in (("/confirm", "stay.confirmed"),
                             ("/assign-rooms", "stay.room_assigned"),
                             ("/check-in", "stay.checked_in")):
        mark = last_event_id(api)
        assert api.post(base + path).status_code == 200
        assert _since(api, mark) == [(event_type, "stay", rid) for rid in ids]
    data = _data(api, mark)[0]
    assert data["status"] == "checked_in"
    assert data["reservation_id"] == made["id"]
    assert data["room"]
    assert {"arrival", "departure", "room_id", "room_type_id"} <= set(data)


def test_cancel_records_stay_cancelled_with_by(api: httpx.Client) -> None:
    made = book(api, rooms=[room_request(api), room_request(api)])
    mark = last_event_id(api)
    api.post(f"/reservations/{made['id']}/rooms/{made['rooms'][1]['id']}/cancel",
             json={"by": "hotel"})
    assert _since(api, mark) == [("stay.cancelled", "stay", made["rooms"][1]["id"])]
    assert _data(api, mark)[0]["by"] == "hotel"
    assert _data(api, mark)[0]["status"] == "cancelled"


def test_room_changes_and_guests_record_stay_updated(api: httpx.Client) -> None:
    made = book(api, booker_is_guest=False)
    rid = made["rooms"][0]["id"]
    mark = last_event_id(api)
    api.patch(f"/reservations/{made['id']}/rooms/{rid}", json={"adults": 2, "notes": "n"})
    assert _since(api, mark) == [("stay.updated", "stay", rid)]
    assert _data(api, mark)[0]["changed"] == ["adults", "notes"]
    mark = last_event_id(api)
    placed = api.post(f"/reservations/{made['id']}/rooms/{rid}/guests",
                      json={"guest": {"first_name": "A", "last_name": "B"}})
    api.delete(f"/reservations/{made['id']}/rooms/{rid}/guests/{placed.json()['data'][0]['id']}")
    assert _since(api, mark) == [("stay.updated", "stay", rid)] * 2
    assert [d["changed"] for d in _data(api, mark)] == [["guests"], ["guests"]]


def test_refused_operations_record_nothing(api: httpx.Client) -> None:
    """An operation and its events commit together: a refusal leaves no event."""
    made = book(api)
    mark = last_event_id(api)
    refused = api.post(f"/reservations/{made['id']}/check-in")
    assert error_of(refused, 422)["code"] == "rule_violation"
    assert api.post(f"/reservations/{made['id']}/confirm").status_code == 422
    assert _since(api, mark) == []
