"""Guests placed in a room: GET/POST/DELETE /reservations/{id}/rooms/{rid}/guests (spec,
Reservations endpoints; StayGuest)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import answered, auth, refusal

from .test_reservations_support import book, error_of


def _path(reservation: dict[str, Any], index: int = 0) -> str:
    return f"/reservations/{reservation['id']}/rooms/{reservation['rooms'][index]['id']}/guests"


def test_add_an_archive_guest_and_a_new_one(api: httpx.Client) -> None:
    """POST: `{guest_id}` or `{guest: GuestInput}` plus optional `is_main`; 201 `{data}`."""
    made = book(api, booker_is_guest=False)
    known = api.post("/guests", json={"first_name": "Ada", "last_name": "Known",
                                      "email": "ada@example.org", "nationality": "GB"}).json()
    first = api.post(_path(made), json={"guest_id": known["id"], "is_main": True})
    assert answered(first, 201)["data"] == [{
        "id": first.json()["data"][0]["id"], "guest_id": known["id"], "is_main": True,
        "name": "Ada Known", "first_name": "Ada", "last_name": "Known",
        "email": "ada@example.org", "nationality": "GB", "birth_date": None}]
    second = api.post(_path(made), json={"guest": {"first_name": "Bo", "last_name": "New",
                                                   "birth_date": "1990-05-01"}})
    data = answered(second, 201)["data"]
    assert [(g["name"], g["is_main"]) for g in data] == [("Ada Known", True), ("Bo New", False)]
    assert data[1]["birth_date"] == "1990-05-01"
    archived = api.get(f"/guests/{data[1]['guest_id']}")
    assert archived.status_code == 200, "the new guest joins the archive"
    listed = api.get(_path(made))
    assert answered(listed)["data"] == data
    assert api.get(f"/reservations/{made['id']}").json()["rooms"][0]["guests"] == data


def test_new_guest_needs_first_and_last_name(api: httpx.Client) -> None:
    """POST: a new guest needs at least `last_name` and `first_name`."""
    made = book(api)
    for guest, field in (({"first_name": "Only"}, "guest.last_name"),
                         ({"last_name": "Only"}, "guest.first_name")):
        response = api.post(_path(made), json={"guest": guest})
        assert refusal(response, 422, "rule_violation")["field"] == field


def test_malformed_or_unknown_guest(api: httpx.Client) -> None:
    made = book(api)
    neither = api.post(_path(made), json={"is_main": True})
    refusal(neither, 400, "invalid_request")
    unknown = api.post(_path(made), json={"guest_id": 424242})
    assert error_of(unknown, 422)["field"] == "guest_id"
    bad_country = api.post(_path(made), json={"guest": {"first_name": "A", "last_name": "B",
                                                        "nationality": "Italy"}})
    assert bad_country.status_code == 400


def test_one_main_guest_per_room(api: httpx.Client) -> None:
    """StayGuest `is_main`: marking another guest main takes the mark from the previous one."""
    made = book(api, new_party={"first_name": "Main", "last_name": "Booker"})
    data = api.post(_path(made), json={"guest": {"first_name": "New", "last_name": "Main"},
                                       "is_main": True}).json()["data"]
    assert [(g["name"], g["is_main"]) for g in data] == [("New Main", True),
                                                         ("Main Booker", False)]


def test_remove_by_placement_id(api: httpx.Client) -> None:
    """DELETE .../guests/{gid}: `gid` is the placement id; 200 `{data}`; another room's
    placement -> 404."""
    made = book(api, room={"quantity": 2}, booker_is_guest=False)
    placed = api.post(_path(made), json={"guest": {"first_name": "X", "last_name": "Y"}})
    placement = placed.json()["data"][0]
    wrong_room = api.delete(f"{_path(made, 1)}/{placement['id']}")
    refusal(wrong_room, 404, "not_found")
    removed = api.delete(f"{_path(made)}/{placement['id']}")
    assert answered(removed) == {"data": []}
    assert api.delete(f"{_path(made)}/{placement['id']}").status_code == 404
    assert api.get(f"/guests/{placement['guest_id']}").status_code == 200, "archive keeps it"


def test_scopes_and_isolation(api: httpx.Client) -> None:
    """Scopes: guests:write for POST/DELETE, reservations:read for GET; convention 8."""
    made = book(api)
    body = {"guest": {"first_name": "A", "last_name": "B"}}
    read_only = api.post(_path(made), json=body, headers=auth("sbx_test_read_only"))
    refusal(read_only, 403, "insufficient_scope")
    assert api.get(_path(made), headers=auth("sbx_test_read_only")).status_code == 200
    other = api.post(_path(made), json=body, headers=auth("sbx_test_other_property"))
    assert other.status_code == 404
    assert api.get(f"/reservations/{made['id']}/rooms/999999/guests").status_code == 404


def test_guests_of_a_cancelled_room_cannot_change(api: httpx.Client) -> None:
    made = book(api)
    api.post(f"/reservations/{made['id']}/cancel")
    response = api.post(_path(made), json={"guest": {"first_name": "A", "last_name": "B"}})
    refusal(response, 422, "rule_violation")
