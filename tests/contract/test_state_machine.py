"""Statuses of reservation rooms and of the reservation (spec, States and transitions: the
table and rules 1-3; Reservations endpoints for the whole and room-level operations)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import httpx

from sandbox.http.server import RunningSandbox
from tests.conftest import answered, refusal

from .test_reservations_support import (
    book,
    business_date,
    checked_in,
    detail,
    move_business_date,
    room_request,
    rooms_of,
)

# --- confirm -------------------------------------------------------------------------------

def test_whole_confirm_confirms_every_room_in_option(api: httpx.Client) -> None:
    """Table: option -> confirmed; the whole call confirms every room in option."""
    expires = (business_date(api) + timedelta(days=3)).isoformat()
    made = book(api, status="option", option_expires_on=expires, room={"quantity": 2})
    result = api.post(f"/reservations/{made['id']}/confirm")
    body = answered(result)
    assert sorted(body["done"]) == sorted(room["id"] for room in made["rooms"])
    assert body["skipped"] == []
    assert body["reservation"]["status"] == "confirmed"
    assert {room["status"] for room in body["reservation"]["rooms"]} == {"confirmed"}
    assert body["reservation"]["option_expires_on"] is None


def test_confirm_of_a_room_not_in_option_is_refused(api: httpx.Client) -> None:
    """Condition "room is in option"; rule 3: a move the table does not list -> 422."""
    made = book(api)
    refusal(api.post(f"/reservations/{made['id']}/confirm"), 422, "rule_violation")
    rid = made["rooms"][0]["id"]
    refusal(api.post(f"/reservations/{made['id']}/rooms/{rid}/confirm"), 422, "rule_violation")


def test_room_confirm_and_least_advanced_status(api: httpx.Client) -> None:
    """The reservation status is the least advanced status among its rooms not cancelled."""
    made = book(api, status="option", room={"quantity": 2})
    first, second = (room["id"] for room in made["rooms"])
    response = api.post(f"/reservations/{made['id']}/rooms/{first}/confirm")
    reservation = answered(response)
    assert [r["status"] for r in reservation["rooms"]] == ["confirmed", "option"]
    assert reservation["status"] == "option"
    cancel = api.post(f"/reservations/{made['id']}/rooms/{second}/cancel")
    assert cancel.json()["status"] == "confirmed", "cancelled rooms do not count"


# --- cancel --------------------------------------------------------------------------------

def test_whole_cancel_by_guest_default_and_hotel(api: httpx.Client) -> None:
    """Table: cancel sets `cancelled_by` to guest (default) or hotel."""
    made = book(api, room={"quantity": 2})
    result = api.post(f"/reservations/{made['id']}/cancel")
    reservation = answered(result)["reservation"]
    assert reservation["status"] == "cancelled"
    assert {r["cancelled_by"] for r in reservation["rooms"]} == {"guest"}
    assert Decimal(str(reservation["total"])) == 0, "cancelled rooms leave the total"
    other = book(api, status="option")
    by_hotel = api.post(f"/reservations/{other['id']}/cancel", json={"by": "hotel"})
    assert by_hotel.json()["reservation"]["rooms"][0]["cancelled_by"] == "hotel"
    bad = api.post(f"/reservations/{other['id']}/cancel", json={"by": "weather"})
    assert bad.status_code == 400


def test_room_cancel_changes_total_and_keeps_the_rest(api: httpx.Client) -> None:
    made = book(api, rooms=[room_request(api, nights=2), room_request(api, nights=3)])
    first, second = made["rooms"]
    response = api.post(f"/reservations/{made['id']}/rooms/{first['id']}/cancel",
                        json={"by": "hotel"})
    reservation = answered(response)
    assert [r["status"] for r in reservation["rooms"]] == ["cancelled", "confirmed"]
    assert reservation["rooms"][0]["cancelled_by"] == "hotel"
    assert Decimal(str(reservation["total"])) == Decimal(str(second["total"]))
    assert reservation["arrival"] == second["arrival"]
    assert reservation["departure"] == second["departure"]


def test_whole_cancel_skips_checked_in_rooms(api: httpx.Client) -> None:
    """Rule 1: a whole-reservation cancel skips a room already checked in, listed in skipped."""
    today = business_date(api)
    made = book(api, rooms=[room_request(api, nights=2), room_request(api, arrival=today +
                                                                      timedelta(days=1))])
    first, second = (room["id"] for room in made["rooms"])
    assert api.post(f"/reservations/{made['id']}/rooms/{first}/assign-room").status_code == 200
    assert api.post(f"/reservations/{made['id']}/rooms/{first}/check-in").status_code == 200
    result = api.post(f"/reservations/{made['id']}/cancel")
    body = answered(result)
    assert body["done"] == [second]
    assert [s["room_id"] for s in body["skipped"]] == [first]
    assert body["skipped"][0]["reason"]
    assert body["skipped"][0]["room"] == body["reservation"]["rooms"][0]["room"]["code"]
    assert body["reservation"]["status"] == "checked_in"


def test_cancel_of_a_checked_in_room_is_refused(api: httpx.Client) -> None:
    """Table: cancel only when the room is not checked in; whole call with nothing to cancel
    answers 422 (docs/sandbox.md: no room processed)."""
    reservation = checked_in(api)
    rid = reservation["rooms"][0]["id"]
    refusal(api.post(f"/reservations/{reservation['id']}/rooms/{rid}/cancel"), 422,
            "rule_violation")
    refusal(api.post(f"/reservations/{reservation['id']}/cancel"), 422, "rule_violation")
    assert detail(api, reservation["id"])["status"] == "checked_in"


def test_nothing_moves_from_cancelled(api: httpx.Client) -> None:
    """Rule 3: from `cancelled` no move is listed -> 422 rule_violation."""
    made = book(api)
    rid = made["rooms"][0]["id"]
    assert api.post(f"/reservations/{made['id']}/cancel").status_code == 200
    base = f"/reservations/{made['id']}"
    for path in (f"{base}/rooms/{rid}/confirm", f"{base}/rooms/{rid}/cancel",
                 f"{base}/rooms/{rid}/check-in", f"{base}/rooms/{rid}/check-out",
                 f"{base}/rooms/{rid}/assign-room", f"{base}/confirm", f"{base}/cancel",
                 f"{base}/check-in", f"{base}/check-out"):
        refusal(api.post(path), 422, "rule_violation")
    refusal(api.patch(f"{base}/rooms/{rid}", json={"notes": "x"}), 422, "rule_violation")
    assert detail(api, made["id"])["status"] == "cancelled"


# --- assign rooms ----------------------------------------------------------------------------

def test_assign_room_picks_a_free_room_of_the_type_or_the_one_asked(api: httpx.Client) -> None:
    """Room-level assign-room: empty body picks the first free room of the type; `room_id`
    gives that room; a taken room -> 409 room_unavailable."""
    made = book(api, room={"quantity": 2})
    first, second = (room["id"] for room in made["rooms"])
    picked = api.post(f"/reservations/{made['id']}/rooms/{first}/assign-room")
    room = answered(picked)["rooms"][0]["room"]
    std_ids = {r["id"] for r in rooms_of(api, "STD")}
    assert room["id"] in std_ids
    taken = api.post(f"/reservations/{made['id']}/rooms/{second}/assign-room",
                     json={"room_id": room["id"]})
    refusal(taken, 409, "room_unavailable")
    chosen = next(r for r in rooms_of(api, "STD") if r["id"] != room["id"])
    other = api.post(f"/reservations/{made['id']}/rooms/{second}/assign-room",
                     json={"room_id": chosen["id"]})
    assert answered(other)["rooms"][1]["room"] == {"id": chosen["id"], "code": chosen["code"]}


def test_whole_assign_rooms_and_allow_other_type(api: httpx.Client) -> None:
    """assign-rooms gives a free room to every room without one; `allow_other_type` also
    uses rooms of another type when the requested one is full."""
    today = business_date(api)
    days = api.get("/availability", params={"from": today.isoformat(),
                                            "to": (today + timedelta(days=2)).isoformat()})
    jsu = next(t for t in days.json()["data"] if t["code"] == "JSU")
    free = min(day["available"] for day in jsu["days"])
    full = book(api, room_type="JSU", room={"quantity": free})
    assigned = api.post(f"/reservations/{full['id']}/assign-rooms")
    assert sorted(answered(assigned)["done"]) == sorted(r["id"] for r in full["rooms"])
    assert all(r["room"] is not None for r in assigned.json()["reservation"]["rooms"])
    again = api.post(f"/reservations/{full['id']}/assign-rooms")
    assert answered(again)["done"] == [], "nothing left to assign (docs/sandbox.md)"

    extra = book(api, room_type="JSU", force=True)
    refused = api.post(f"/reservations/{extra['id']}/assign-rooms")
    refusal(refused, 409, "room_unavailable")
    upgraded = api.post(f"/reservations/{extra['id']}/assign-rooms",
                        json={"allow_other_type": True})
    room = answered(upgraded)["reservation"]["rooms"][0]
    assert upgraded.json()["done"] == [room["id"]]
    jsu_ids = {r["id"] for r in rooms_of(api, "JSU")}
    assert room["room"] is not None
    assert room["room"]["id"] not in jsu_ids
    assert room["room_type"]["code"] == "JSU", "the requested type stays"


# --- check-in ------------------------------------------------------------------------------

def test_check_in_of_an_assigned_room_arriving_today(api: httpx.Client) -> None:
    """Table: confirmed -> checked_in when the room is assigned and arrival is today;
    `checked_in_at` set."""
    made = book(api)
    rid = made["rooms"][0]["id"]
    unassigned = api.post(f"/reservations/{made['id']}/rooms/{rid}/check-in")
    refusal(unassigned, 422, "rule_violation")
    refusal(api.post(f"/reservations/{made['id']}/check-in"), 422, "rule_violation")
    api.post(f"/reservations/{made['id']}/rooms/{rid}/assign-room")
    response = api.post(f"/reservations/{made['id']}/rooms/{rid}/check-in")
    room = answered(response)["rooms"][0]
    assert room["status"] == "checked_in"
    assert room["checked_in_at"] is not None
    assert response.json()["status"] == "checked_in"
    refusal(api.post(f"/reservations/{made['id']}/rooms/{rid}/check-in"), 422, "rule_violation")


def test_check_in_refused_before_arrival_and_in_option(api: httpx.Client) -> None:
    """Condition "arrival date is today"; option rooms are not in the table's `From`."""
    tomorrow = business_date(api) + timedelta(days=1)
    later = book(api, arrival=tomorrow)
    rid = later["rooms"][0]["id"]
    api.post(f"/reservations/{later['id']}/rooms/{rid}/assign-room")
    refused = api.post(f"/reservations/{later['id']}/rooms/{rid}/check-in")
    assert refusal(refused, 422, "rule_violation")["field"] == "arrival"
    refusal(api.post(f"/reservations/{later['id']}/check-in"), 422, "rule_violation")
    option = book(api, status="option")
    orid = option["rooms"][0]["id"]
    api.post(f"/reservations/{option['id']}/rooms/{orid}/assign-room")
    refusal(api.post(f"/reservations/{option['id']}/rooms/{orid}/check-in"), 422, "rule_violation")


def test_whole_check_in_skips_rooms_without_a_room(api: httpx.Client) -> None:
    """check-in (whole): checks in every room arriving today; each needs an assigned room."""
    made = book(api, rooms=[room_request(api), room_request(api),
                            room_request(api, arrival=business_date(api) + timedelta(days=2))])
    first, second, third = (room["id"] for room in made["rooms"])
    api.post(f"/reservations/{made['id']}/rooms/{first}/assign-room")
    api.post(f"/reservations/{made['id']}/rooms/{third}/assign-room")
    result = api.post(f"/reservations/{made['id']}/check-in")
    body = answered(result)
    assert body["done"] == [first]
    assert [s["room_id"] for s in body["skipped"]] == [second]
    assert [r["status"] for r in body["reservation"]["rooms"]] == [
        "checked_in", "confirmed", "confirmed"]


def test_past_arrival_moves_to_today_and_is_priced_again(api: httpx.Client,
                                                         sandbox: RunningSandbox) -> None:
    """Table, check-in: arrival in the past, without charge_no_show: arrival moves to today
    (and the price follows the new nights, as POST /quotes prices them)."""
    today = business_date(api)
    made = book(api, nights=4, room={"adults": 2})
    rid = made["rooms"][0]["id"]
    api.post(f"/reservations/{made['id']}/rooms/{rid}/assign-room")
    new_today = today + timedelta(days=1)
    move_business_date(sandbox, 1, new_today)
    response = api.post(f"/reservations/{made['id']}/check-in", json={"charge_no_show": False})
    room = answered(response)["reservation"]["rooms"][0]
    assert room["arrival"] == new_today.isoformat()
    assert room["nights"] == 3
    quote = api.post("/quotes", json={"room_type_id": room["room_type"]["id"], "adults": 2,
                                      "arrival": room["arrival"],
                                      "departure": room["departure"]}).json()
    assert Decimal(str(room["total"])) == Decimal(str(quote["total"]))
    folios = api.get(f"/reservations/{made['id']}/folios").json()["data"]
    assert sum(Decimal(str(f["charges"])) for f in folios) == 0


def test_past_arrival_with_charge_no_show_charges_the_missed_nights(
        api: httpx.Client, sandbox: RunningSandbox) -> None:
    """Table, check-in: with `charge_no_show` true the missed nights are charged."""
    today = business_date(api)
    made = book(api, nights=4, room={"adults": 2})
    rid = made["rooms"][0]["id"]
    api.post(f"/reservations/{made['id']}/rooms/{rid}/assign-room")
    quote = api.post("/quotes", json={"room_type_id": made["rooms"][0]["room_type"]["id"],
                                      "adults": 2, "arrival": today.isoformat(),
                                      "departure": (today + timedelta(days=2)).isoformat()})
    move_business_date(sandbox, 1, today + timedelta(days=2))
    response = api.post(f"/reservations/{made['id']}/rooms/{rid}/check-in",
                        json={"charge_no_show": True})
    room = answered(response)["rooms"][0]
    assert room["status"] == "checked_in"
    assert room["arrival"] == today.isoformat(), "the missed nights stay in the stay"
    folios = api.get(f"/reservations/{made['id']}/folios").json()["data"]
    charged = sum(Decimal(str(f["charges"])) for f in folios)
    assert charged == Decimal(str(quote.json()["total"]))


# --- check-out (statuses; the check-out rules have their own module) -----------------------

def test_check_out_only_from_checked_in(api: httpx.Client) -> None:
    """Table: checked_in -> checked_out; from confirmed or checked_out: 422 (rule 3)."""
    made = book(api, nights=1)
    rid = made["rooms"][0]["id"]
    refusal(api.post(f"/reservations/{made['id']}/rooms/{rid}/check-out"), 422, "rule_violation")
    refusal(api.post(f"/reservations/{made['id']}/check-out"), 422, "rule_violation")
    reservation = checked_in(api, nights=1)
    rid = reservation["rooms"][0]["id"]
    out = api.post(f"/reservations/{reservation['id']}/rooms/{rid}/check-out",
                   json={"early_departure": True})
    assert answered(out)["rooms"][0]["status"] == "checked_out"
    assert out.json()["rooms"][0]["checked_out_at"] is not None
    assert out.json()["status"] == "checked_out"
    base = f"/reservations/{reservation['id']}"
    for path in (f"{base}/rooms/{rid}/check-out", f"{base}/rooms/{rid}/check-in",
                 f"{base}/rooms/{rid}/cancel", f"{base}/rooms/{rid}/confirm", f"{base}/cancel",
                 f"{base}/check-out"):
        refusal(api.post(path), 422, "rule_violation")
    # Rule 2: a room already checked out cannot be changed through PATCH of the room.
    refusal(api.patch(f"{base}/rooms/{rid}", json={"adults": 1}), 422, "rule_violation")


def test_status_is_the_least_advanced_among_rooms(api: httpx.Client) -> None:
    """Reservation `status`: the least advanced status among the rooms not cancelled."""
    made = book(api, rooms=[room_request(api), room_request(api)])
    first, second = (room["id"] for room in made["rooms"])
    api.post(f"/reservations/{made['id']}/rooms/{first}/assign-room")
    api.post(f"/reservations/{made['id']}/rooms/{first}/check-in")
    assert detail(api, made["id"])["status"] == "confirmed"
    api.post(f"/reservations/{made['id']}/rooms/{second}/cancel")
    assert detail(api, made["id"])["status"] == "checked_in"
