"""POST /reservations (spec, Reservations endpoints; Creation rules 1-6; ReservationCreate)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import httpx

from tests.conftest import answered, auth, refusal

from .test_reservations_support import (
    book,
    book_response,
    business_date,
    error_of,
    room_request,
    rooms_of,
    type_id,
)


def test_create_answers_201_with_reservation_and_warnings(api: httpx.Client) -> None:
    """Spec, POST /reservations: 201 `{reservation, warnings}`; status default `confirmed`."""
    today = business_date(api)
    response = book_response(api, nights=3)
    body = answered(response, 201)
    assert body["warnings"] == []
    reservation = body["reservation"]
    assert reservation["status"] == "confirmed"
    assert reservation["arrival"] == today.isoformat()
    assert reservation["departure"] == (today + timedelta(days=3)).isoformat()
    assert reservation["nights"] == 3
    assert [room["status"] for room in reservation["rooms"]] == ["confirmed"]
    assert reservation["rooms"][0]["room"] is None
    assert reservation["rooms"][0]["room_type"]["code"] == "STD"


def test_price_comes_from_the_rate_engine_with_the_default_plan(api: httpx.Client) -> None:
    """Creation rule 3: the price of the rate engine, default plan when rate_plan_id omitted;
    the same engine answers POST /quotes."""
    request = room_request(api, nights=4, adults=2)
    quote = api.post("/quotes", json={k: request[k] for k in
                                      ("room_type_id", "arrival", "departure", "adults")})
    assert quote.status_code == 200
    reservation = book(api, rooms=[request])
    room = reservation["rooms"][0]
    default = next(p for p in api.get("/rate-plans").json()["data"] if p["is_default"])
    assert room["rate_plan"]["id"] == default["id"]
    assert Decimal(str(room["total"])) == Decimal(str(quote.json()["total"]))
    assert Decimal(str(reservation["total"])) == Decimal(str(quote.json()["total"]))


def test_price_with_plan_offer_discount_and_override(api: httpx.Client) -> None:
    """Creation rule 3 with `rate_plan_id`, `offer_id`, `discount_pct`; `price_override` is a
    fixed nightly price."""
    plan = next(p for p in api.get("/rate-plans").json()["data"] if not p["is_default"])
    request = room_request(api, nights=2, adults=2, rate_plan_id=plan["id"], discount_pct=5)
    quote = api.post("/quotes", json={k: request[k] for k in (
        "room_type_id", "arrival", "departure", "adults", "rate_plan_id", "discount_pct")})
    room = book(api, rooms=[request])["rooms"][0]
    assert room["rate_plan"]["id"] == plan["id"]
    assert Decimal(str(room["discount_pct"])) == 5
    assert Decimal(str(room["total"])) == Decimal(str(quote.json()["total"]))
    fixed = book(api, room={"price_override": 99.5}, nights=3)["rooms"][0]
    assert Decimal(str(fixed["price_override"])) == Decimal("99.5")
    assert Decimal(str(fixed["total"])) == Decimal("298.5")


def test_option_with_expiry(api: httpx.Client) -> None:
    """States table: `status` option -> rooms in `option`, optional `option_expires_on`."""
    expires = (business_date(api) + timedelta(days=5)).isoformat()
    reservation = book(api, status="option", option_expires_on=expires)
    assert reservation["status"] == "option"
    assert reservation["option_expires_on"] == expires
    assert reservation["rooms"][0]["status"] == "option"
    assert reservation["rooms"][0]["option_expires_on"] == expires


def test_existing_party_is_the_booker(api: httpx.Client) -> None:
    """Creation rule 1: `party_id` names an existing guest, company or agency as booker."""
    party = api.post("/guests", json={"kind": "company", "company_name": "ACME S.p.A.",
                                      "email": "desk@acme.example"}).json()
    reservation = book(api, party_id=party["id"], billing_party_id=party["id"])
    assert reservation["booker"] == {"id": party["id"], "kind": "company", "name": "ACME S.p.A.",
                                     "email": "desk@acme.example", "phone": ""}
    assert reservation["billing_party"]["id"] == party["id"]


def test_unknown_party_is_refused_naming_the_field(api: httpx.Client) -> None:
    """Creation rule 1: the party must exist (for this property: spec convention 8)."""
    response = book_response(api, party_id=999_999)
    assert refusal(response, 422, "rule_violation")["field"] == "party_id"
    other = api.post("/guests", json={"first_name": "Ada", "last_name": "Other"},
                     headers=auth("sbx_test_other_property")).json()
    response = book_response(api, party_id=other["id"])
    assert error_of(response, 422)["field"] == "party_id"
    response = book_response(api, billing_party_id=999_999)
    assert error_of(response, 422)["field"] == "billing_party_id"


def test_new_party_is_created_in_the_archive(api: httpx.Client) -> None:
    """Creation rule 1: `new_party` creates the booker with the reservation."""
    reservation = book(api, new_party={"first_name": "Giulia", "last_name": "Bianchi",
                                       "email": "giulia@example.org", "country_code": "IT"})
    booker = reservation["booker"]
    assert booker["kind"] == "private"
    assert booker["name"] == "Giulia Bianchi"
    guest = api.get(f"/guests/{booker['id']}")
    assert answered(guest)["email"] == "giulia@example.org"


def test_party_id_and_new_party_together_are_malformed(api: httpx.Client) -> None:
    party = api.post("/guests", json={"first_name": "A", "last_name": "B"}).json()
    response = book_response(api, party_id=party["id"], new_party={"last_name": "C"})
    refusal(response, 400, "invalid_request")


def test_booker_is_guest_places_a_private_booker_in_the_first_room(api: httpx.Client) -> None:
    """ReservationCreate `booker_is_guest`: the booker sleeps in the first room; the default is
    the property's rule (the seeded property has it on)."""
    reservation = book(api, new_party={"first_name": "Luca", "last_name": "Verdi"},
                       rooms=[room_request(api), room_request(api)])
    first = api.get(f"/reservations/{reservation['id']}").json()["rooms"]
    assert [(g["guest_id"], g["is_main"]) for g in first[0]["guests"]] == [
        (reservation["booker"]["id"], True)]
    assert first[1]["guests"] == []
    off = book(api, new_party={"first_name": "Luca", "last_name": "Neri"}, booker_is_guest=False)
    assert api.get(f"/reservations/{off['id']}").json()["rooms"][0]["guests"] == []
    company = book(api, new_party={"kind": "company", "company_name": "Travel Co"})
    assert api.get(f"/reservations/{company['id']}").json()["rooms"][0]["guests"] == []


def test_quantity_books_identical_rooms(api: httpx.Client) -> None:
    """Creation rule 2: `quantity` books that many identical rooms (a group: docs)."""
    reservation = book(api, room={"quantity": 3, "adults": 2})
    rooms = reservation["rooms"]
    assert len(rooms) == 3
    assert len({room["id"] for room in rooms}) == 3
    assert {(r["room_type"]["id"], r["arrival"], r["departure"], r["adults"], r["total"])
            for r in rooms} == {(rooms[0]["room_type"]["id"], rooms[0]["arrival"],
                                 rooms[0]["departure"], 2, rooms[0]["total"])}
    assert reservation["type"] == "group"
    assert Decimal(str(reservation["total"])) == 3 * Decimal(str(rooms[0]["total"]))
    assert book(api)["type"] == "individual"
    assert book(api, group_name="Choir of Lund")["type"] == "group"


def test_units_assign_rooms_and_place_guests(api: httpx.Client) -> None:
    """RoomRequest `units`: one per room booked, `{room_id, guests}`."""
    std = rooms_of(api, "STD")
    party = api.post("/guests", json={"first_name": "Known", "last_name": "Guest"}).json()
    units = [{"room_id": std[20]["id"], "guests": [{"first_name": "Anna", "last_name": "Rossi"},
                                                    {"party_id": party["id"]}]},
             {"room_id": std[21]["id"], "guests": []}]
    reservation = book(api, room={"quantity": 2, "units": units}, booker_is_guest=False)
    rooms = api.get(f"/reservations/{reservation['id']}").json()["rooms"]
    assert [room["room"]["id"] for room in rooms] == [std[20]["id"], std[21]["id"]]
    assert [g["name"] for g in rooms[0]["guests"]] == ["Anna Rossi", "Known Guest"]
    assert rooms[0]["guests"][1]["guest_id"] == party["id"]
    assert rooms[1]["guests"] == []


def test_units_must_match_quantity(api: httpx.Client) -> None:
    """RoomRequest: `units` holds one entry per room booked; otherwise the request is refused
    naming the field."""
    response = book_response(api, room={"quantity": 2, "units": [{"guests": []}]})
    assert refusal(response, 400, "invalid_request")["field"] == "rooms[0].units"


def test_room_id_must_be_free(api: httpx.Client) -> None:
    """RoomRequest `room_id`: a specific room, must be free -> else 409 room_unavailable."""
    room = rooms_of(api, "DLX")[5]
    first = book(api, room_type="DLX", room={"room_id": room["id"]}, nights=3)
    assert first["rooms"][0]["room"] == {"id": room["id"], "code": room["code"]}
    overlapping = book_response(api, room_type="DLX", room={"room_id": room["id"]},
                                arrival=business_date(api) + timedelta(days=2), nights=2)
    refusal(overlapping, 409, "room_unavailable")
    after = book_response(api, room_type="DLX", room={"room_id": room["id"]},
                          arrival=business_date(api) + timedelta(days=3), nights=2)
    assert after.status_code == 201, "departure is exclusive (convention 2)"


def test_classifications_outside_the_list_are_refused(api: httpx.Client) -> None:
    """Creation rule 4: values of GET /classifications; a value outside -> 422."""
    values = api.get("/classifications").json()
    ok = book(api, source=values["sources"][0], channel=values["channels"][0],
              market=values["markets"][0])
    assert (ok["source"], ok["channel"], ok["market"]) == (
        values["sources"][0], values["channels"][0], values["markets"][0])
    for field in ("source", "channel", "market"):
        response = book_response(api, **{field: "no-such-value"})
        assert refusal(response, 422, "rule_violation")["field"] == field


def test_required_classifications_must_be_sent(api: httpx.Client) -> None:
    """Creation rule 4: `required` says which of the three the property makes mandatory."""
    required = api.get("/classifications").json()["required"]
    missing = [name for name, needed in required.items() if needed]
    assert missing, "the seeded property requires at least market"
    body = {"rooms": [room_request(api)]}
    response = api.post("/reservations", json=body)
    assert refusal(response, 422, "rule_violation")["field"] in missing


def test_full_type_needs_force_and_then_warns(api: httpx.Client) -> None:
    """Creation rule 5: no room left of the type -> 422 unless `force` (overbooking)."""
    today = business_date(api)
    days = api.get("/availability", params={"from": today.isoformat(),
                                            "to": (today + timedelta(days=2)).isoformat()})
    jsu = next(t for t in days.json()["data"] if t["code"] == "JSU")
    free = min(day["available"] for day in jsu["days"])
    book(api, room_type="JSU", room={"quantity": free})
    refused = book_response(api, room_type="JSU")
    refusal(refused, 422, "rule_violation")
    forced = book_response(api, room_type="JSU", force=True)
    assert len(answered(forced, 201)["warnings"]) == 1


def test_duplicate_external_ref_answers_the_existing_reservation(api: httpx.Client) -> None:
    """Creation rule 6: 409 duplicate_external_ref; the answer carries the existing id."""
    first = book(api, external_ref="OTA-123")
    again = book_response(api, external_ref="OTA-123", nights=5)
    assert refusal(again, 409, "duplicate_external_ref")["reservation_id"] == first["id"]
    listed = api.get("/reservations", params={"external_ref": "OTA-123"}).json()
    assert listed["total"] == 1, "nothing was booked again"


def test_arrival_before_the_business_date_is_refused(api: httpx.Client) -> None:
    """Arrival in the past (before the property's business date) cannot be booked."""
    yesterday = business_date(api) - timedelta(days=1)
    response = book_response(api, arrival=yesterday, nights=3)
    assert refusal(response, 422, "rule_violation")["field"] == "rooms[0].arrival"


def test_malformed_bodies_answer_400_naming_the_field(api: httpx.Client) -> None:
    """Errors: 400 invalid_request when a parameter is missing or malformed."""
    cases = [
        ({"market": "leisure", "rooms": []}, "rooms"),
        ({"market": "leisure"}, "rooms"),
        ({"market": "leisure", "rooms": [{"arrival": "2030-01-01", "departure": "2030-01-02"}]},
         "rooms[0].room_type_id"),
        ({"market": "leisure", "rooms": [room_request(api)], "colour": "red"}, "colour"),
        ({"market": "leisure", "rooms": [room_request(api)], "status": "checked_in"}, "status"),
    ]
    for body, field in cases:
        response = api.post("/reservations", json=body)
        assert response.status_code == 400, body
        assert error_of(response)["code"] == "invalid_request"
        assert error_of(response)["field"] == field
    today = business_date(api)
    backwards = book_response(api, arrival=today + timedelta(days=3), departure=today)
    assert error_of(backwards, 400)["field"] == "rooms[0].departure"


def test_unknown_room_type_is_refused(api: httpx.Client) -> None:
    response = book_response(api, rooms=[{**room_request(api), "room_type_id": 999}])
    assert error_of(response, 422)["field"] == "rooms[0].room_type_id"


def test_one_open_folio_per_room_at_creation(api: httpx.Client) -> None:
    """Issue 2, Folios: one open folio per reservation room at creation; detail lists them."""
    reservation = book(api, room={"quantity": 2})
    folios = api.get(f"/reservations/{reservation['id']}/folios").json()["data"]
    assert len(folios) == 2
    assert {f["status"] for f in folios} == {"open"}
    assert [f["id"] for f in reservation["folios"]] == [f["id"] for f in folios]


def test_scope_and_pause(api: httpx.Client) -> None:
    """Authentication 5: reservations:write needed; Errors: 423 read_only in the pause."""
    body = {"market": "leisure", "rooms": [room_request(api)]}
    response = api.post("/reservations", json=body, headers=auth("sbx_test_read_only"))
    refusal(response, 403, "insufficient_scope")
    paused = api.post("/reservations", json={**body, "rooms": [
        {**body["rooms"][0], "room_type_id": type_id(api, "STD")}]},
        headers=auth("sbx_test_paused"))
    refusal(paused, 423, "read_only")
