"""PATCH /reservations/{id}/rooms/{rid} (spec, StayPatch; Reservations endpoints: "price
recomputed"; States rule 2). Prices are checked against POST /quotes, the same rate engine."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import httpx

from tests.conftest import answered, refusal

from .test_reservations_support import (
    book,
    business_date,
    checked_in,
    error_of,
    free_room,
    type_id,
)


def _quote(api: httpx.Client, **body: Any) -> Decimal:
    response = api.post("/quotes", json=body)
    return Decimal(str(answered(response)["total"]))


def _patch(api: httpx.Client, reservation: dict[str, Any], body: dict[str, Any],
           index: int = 0) -> httpx.Response:
    rid = reservation["rooms"][index]["id"]
    return api.patch(f"/reservations/{reservation['id']}/rooms/{rid}", json=body)


def _room(response: httpx.Response, index: int = 0) -> dict[str, Any]:
    room: dict[str, Any] = answered(response)["rooms"][index]
    return room


def test_new_dates_are_priced_again(api: httpx.Client) -> None:
    """StayPatch `arrival`, `departure`: the price is recomputed for the new nights."""
    today = business_date(api)
    made = book(api, nights=2, room={"adults": 2})
    arrival, departure = today + timedelta(days=3), today + timedelta(days=8)
    room = _room(_patch(api, made, {"arrival": arrival.isoformat(),
                                    "departure": departure.isoformat()}))
    assert (room["arrival"], room["departure"], room["nights"]) == (
        arrival.isoformat(), departure.isoformat(), 5)
    expected = _quote(api, room_type_id=type_id(api, "STD"), adults=2,
                      arrival=arrival.isoformat(), departure=departure.isoformat())
    assert Decimal(str(room["total"])) == expected


def test_type_plan_offer_discount_and_occupancy_are_priced_again(api: httpx.Client) -> None:
    """StayPatch `room_type_id`, `rate_plan_id`, `offer_id`, `discount_pct`, `adults`,
    `brackets` (full replacement of the children)."""
    today = business_date(api)
    made = book(api, nights=3, room={"adults": 2})
    dates = {"arrival": today.isoformat(), "departure": (today + timedelta(days=3)).isoformat()}
    per_person = next(p for p in api.get("/rate-plans").json()["data"] if p["per_person"])
    child = next(b for b in api.get("/age-brackets").json()["data"] if b["counts_as_person"])
    sup = type_id(api, "SUP")
    body = {"room_type_id": sup, "rate_plan_id": per_person["id"], "offer_id": 1,
            "discount_pct": 10, "adults": 1, "brackets": {str(child["id"]): 1}}
    room = _room(_patch(api, made, body))
    assert room["room_type"]["code"] == "SUP"
    assert room["rate_plan"]["id"] == per_person["id"]
    assert (room["offer_id"], room["adults"]) == (1, 1)
    assert room["brackets"] == {str(child["id"]): 1}
    assert Decimal(str(room["discount_pct"])) == 10
    assert Decimal(str(room["total"])) == _quote(api, **dates, **body)
    replaced = _room(_patch(api, made, {"brackets": {}, "clear_offer": True}))
    assert replaced["brackets"] == {}
    assert replaced["offer_id"] is None
    assert Decimal(str(replaced["total"])) == _quote(api, **dates, room_type_id=sup, adults=1,
                                                     rate_plan_id=per_person["id"],
                                                     discount_pct=10)


def test_price_override_and_clear(api: httpx.Client) -> None:
    """StayPatch `price_override` (fixed nightly price) and `clear_price_override`."""
    today = business_date(api)
    made = book(api, nights=2, room={"adults": 2})
    fixed = _room(_patch(api, made, {"price_override": 120}))
    assert Decimal(str(fixed["price_override"])) == 120
    assert Decimal(str(fixed["total"])) == 240
    cleared = _room(_patch(api, made, {"clear_price_override": True}))
    assert cleared["price_override"] is None
    assert Decimal(str(cleared["total"])) == _quote(
        api, room_type_id=type_id(api, "STD"), adults=2, arrival=today.isoformat(),
        departure=(today + timedelta(days=2)).isoformat())
    both = _patch(api, made, {"price_override": 100, "clear_price_override": True})
    refusal(both, 400, "invalid_request")


def test_room_moves_and_clear_room(api: httpx.Client) -> None:
    """StayPatch `room_id` (move to this room; a taken room -> 409 room_unavailable) and
    `clear_room` (take the room away)."""
    today = business_date(api)
    holder = book(api, nights=3)
    api.post(f"/reservations/{holder['id']}/assign-rooms")
    taken = api.get(f"/reservations/{holder['id']}").json()["rooms"][0]["room"]
    made = book(api, nights=2)
    refused = _patch(api, made, {"room_id": taken["id"]})
    refusal(refused, 409, "room_unavailable")
    target = free_room(api, "STD", today, today + timedelta(days=2))
    moved = _room(_patch(api, made, {"room_id": target["id"]}))
    assert moved["room"] == {"id": target["id"], "code": target["code"]}
    cleared = _room(_patch(api, made, {"clear_room": True}))
    assert cleared["room"] is None
    both = _patch(api, made, {"room_id": target["id"], "clear_room": True})
    assert both.status_code == 400


def test_new_dates_need_the_assigned_room_free(api: httpx.Client) -> None:
    """With a room assigned, the new nights must find it free (409 room_unavailable)."""
    today = business_date(api)
    first = book(api, nights=2)
    api.post(f"/reservations/{first['id']}/assign-rooms")
    room = api.get(f"/reservations/{first['id']}").json()["rooms"][0]["room"]
    later = book(api, arrival=today + timedelta(days=2), nights=2, room={"room_id": room["id"]})
    response = _patch(api, first, {"departure": (today + timedelta(days=3)).isoformat()})
    refusal(response, 409, "room_unavailable")
    assert later["rooms"][0]["room"]["id"] == room["id"]


def test_checked_in_room_keeps_its_arrival_but_can_extend(api: httpx.Client) -> None:
    """A checked-in guest: the arrival cannot change; the departure can (priced again)."""
    reservation = checked_in(api, nights=2, room={"adults": 2})
    room = reservation["rooms"][0]
    arrival = date.fromisoformat(room["arrival"])
    refused = _patch(api, reservation, {"arrival": (arrival + timedelta(days=1)).isoformat()})
    assert error_of(refused, 422)["field"] == "arrival"
    longer = arrival + timedelta(days=4)
    extended = _room(_patch(api, reservation, {"departure": longer.isoformat()}))
    assert (extended["departure"], extended["nights"], extended["status"]) == (
        longer.isoformat(), 4, "checked_in")
    assert Decimal(str(extended["total"])) == _quote(
        api, room_type_id=room["room_type"]["id"], adults=2, arrival=room["arrival"],
        departure=longer.isoformat())
    cleared = _patch(api, reservation, {"clear_room": True})
    assert cleared.status_code == 422


def test_refusals_name_the_field(api: httpx.Client) -> None:
    today = business_date(api)
    made = book(api, nights=2)
    past = _patch(api, made, {"arrival": (today - timedelta(days=1)).isoformat()})
    assert error_of(past, 422)["field"] == "arrival"
    crowded = _patch(api, made, {"adults": 9})
    assert error_of(crowded, 422)["field"] == "adults"
    backwards = _patch(api, made, {"departure": today.isoformat()})
    assert error_of(backwards, 400)["field"] == "departure"
    unknown = _patch(api, made, {"colour": "blue"})
    assert error_of(unknown, 400)["field"] == "colour"
    plan = _patch(api, made, {"rate_plan_id": 9999})
    assert error_of(plan, 422)["field"] == "rate_plan_id"
    assert api.get(f"/reservations/{made['id']}").json()["rooms"][0]["nights"] == 2


def test_room_of_another_reservation_is_not_found(api: httpx.Client) -> None:
    first, second = book(api), book(api)
    response = api.patch(f"/reservations/{first['id']}/rooms/{second['rooms'][0]['id']}",
                         json={"notes": "x"})
    refusal(response, 404, "not_found")


def test_a_change_moves_updated_at_of_room_and_head(api: httpx.Client) -> None:
    """Reservation `updated_at` is the latest change of the head or of any room."""
    made = book(api, nights=2)
    response = _patch(api, made, {"notes": "quiet room", "arrival_time": "21:30"})
    room = _room(response)
    assert (room["notes"], room["arrival_time"]) == ("quiet room", "21:30")
    assert room["updated_at"] >= made["rooms"][0]["updated_at"]
    assert response.json()["updated_at"] == max(r["updated_at"]
                                                for r in response.json()["rooms"])
