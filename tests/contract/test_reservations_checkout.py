"""Check-out (spec, Check-out rules 1-2; CheckOutOptions; States table, checked_in ->
checked_out; the order of the checks is documented in docs/sandbox.md, Check-out)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import httpx

from sandbox.http.server import RunningSandbox
from tests.conftest import answered, refusal

from .test_reservations_support import (
    book,
    business_date,
    checked_in,
    detail,
    error_of,
    move_business_date,
    room_request,
)


def _admin(sandbox: RunningSandbox, path: str, body: dict[str, Any] | None = None) -> None:
    """Front-desk actions API v1 does not offer (payments, closing with a document)."""
    response = httpx.post(f"{sandbox.root_url}/_sandbox{path}", json=body, timeout=30)
    assert response.status_code == 200, response.text


def _charge(api: httpx.Client, folio_id: int, rid: int) -> None:
    item = api.get("/items", params={"q": "minibar"}).json()["data"][0]
    response = api.post(f"/folios/{folio_id}/charges",
                        json={"item_id": item["id"], "reservation_room_id": rid})
    assert response.status_code == 201, response.text


def _room_folio(api: httpx.Client, reservation_id: int, index: int = 0) -> int:
    folios = api.get(f"/reservations/{reservation_id}/folios").json()["data"]
    return int(folios[index]["id"])


def _quote(api: httpx.Client, type_id: int, arrival: date, departure: date) -> Decimal:
    response = api.post("/quotes", json={"room_type_id": type_id, "adults": 2,
                                         "arrival": arrival.isoformat(),
                                         "departure": departure.isoformat()})
    return Decimal(str(answered(response)["total"]))


def _charges(api: httpx.Client, reservation_id: int) -> list[Decimal]:
    folios = api.get(f"/reservations/{reservation_id}/folios").json()["data"]
    return [Decimal(str(f["charges"])) for f in folios]


def _in_house_since_yesterday(api: httpx.Client, sandbox: RunningSandbox,
                              nights: int = 4) -> tuple[dict[str, Any], date]:
    """Checked in yesterday for `nights` nights; the business date then moves one day on."""
    reservation = checked_in(api, nights=nights, room={"adults": 2})
    today = business_date(api) + timedelta(days=1)
    move_business_date(sandbox, 1, today)
    return reservation, today


def test_open_balance_answers_open_folios(api: httpx.Client, sandbox: RunningSandbox) -> None:
    """Check-out rule 1: a room with an open balance answers 409 open_folios."""
    reservation = checked_in(api, nights=1)
    rid = reservation["rooms"][0]["id"]
    folio_id = _room_folio(api, reservation["id"])
    _charge(api, folio_id, rid)
    move_business_date(sandbox, 1, business_date(api) + timedelta(days=1))
    refused = api.post(f"/reservations/{reservation['id']}/rooms/{rid}/check-out")
    refusal(refused, 409, "open_folios")
    refused_whole = api.post(f"/reservations/{reservation['id']}/check-out")
    refusal(refused_whole, 409, "open_folios")
    assert detail(api, reservation["id"])["rooms"][0]["status"] == "checked_in"
    _admin(sandbox, f"/folios/{folio_id}/payments")
    done = api.post(f"/reservations/{reservation['id']}/check-out")
    assert answered(done)["done"] == [rid]
    assert done.json()["reservation"]["status"] == "checked_out"


def test_whole_check_out_skips_a_room_with_a_balance(api: httpx.Client,
                                                     sandbox: RunningSandbox) -> None:
    """Operation result: `skipped` lists the rooms the operation could not apply to."""
    made = book(api, rooms=[room_request(api, nights=1), room_request(api, nights=1)])
    assert api.post(f"/reservations/{made['id']}/assign-rooms").status_code == 200
    assert api.post(f"/reservations/{made['id']}/check-in").json()["done"] == [
        r["id"] for r in made["rooms"]]
    first, second = (r["id"] for r in made["rooms"])
    _charge(api, _room_folio(api, made["id"], 1), second)
    move_business_date(sandbox, 1, business_date(api) + timedelta(days=1))
    result = api.post(f"/reservations/{made['id']}/check-out")
    assert answered(result)["done"] == [first]
    assert [s["room_id"] for s in result.json()["skipped"]] == [second]
    assert result.json()["reservation"]["status"] == "checked_in"


def test_departure_after_today_needs_early_departure(api: httpx.Client,
                                                     sandbox: RunningSandbox) -> None:
    """CheckOutOptions `early_departure`: departure after today moves to today; the nights
    shrink and the price is the kept nights' (here: the night already spent)."""
    reservation, today = _in_house_since_yesterday(api, sandbox)
    rid = reservation["rooms"][0]["id"]
    refused = api.post(f"/reservations/{reservation['id']}/rooms/{rid}/check-out")
    assert error_of(refused, 422)["field"] == "early_departure"
    response = api.post(f"/reservations/{reservation['id']}/rooms/{rid}/check-out",
                        json={"early_departure": True})
    room = answered(response)["rooms"][0]
    assert room["status"] == "checked_out"
    assert room["departure"] == today.isoformat()
    assert room["nights"] == 1
    yesterday = today - timedelta(days=1)
    assert Decimal(str(room["total"])) == _quote(api, room["room_type"]["id"], yesterday, today)
    assert sum(_charges(api, reservation["id"])) == 0, "nothing charged without the option"


def test_charge_full_period_charges_the_remaining_nights(api: httpx.Client,
                                                         sandbox: RunningSandbox) -> None:
    """CheckOutOptions `charge_full_period`: with early_departure, still charge the remaining
    nights (no document issued yet: on the room's open folio, which stays open)."""
    reservation, today = _in_house_since_yesterday(api, sandbox)
    type_id = reservation["rooms"][0]["room_type"]["id"]
    departure = date.fromisoformat(reservation["rooms"][0]["departure"])
    result = api.post(f"/reservations/{reservation['id']}/check-out",
                      json={"early_departure": True, "charge_full_period": True})
    assert answered(result)["reservation"]["rooms"][0]["status"] == "checked_out"
    assert _charges(api, reservation["id"]) == [_quote(api, type_id, today, departure)]
    folios = result.json()["reservation"]["folios"]
    assert [f["status"] for f in folios] == ["open"]


def test_nights_to_charge_when_a_document_is_issued(api: httpx.Client,
                                                    sandbox: RunningSandbox) -> None:
    """Check-out rule 2: with charge_full_period, a fiscal document already issued and nights
    still to charge -> 409 nights_to_charge carrying rooms, nights, dates and amount; nothing
    changes; repeating with charge_remaining true charges them on a new folio."""
    reservation, today = _in_house_since_yesterday(api, sandbox)
    room = reservation["rooms"][0]
    departure = date.fromisoformat(room["departure"])
    _admin(sandbox, f"/folios/{_room_folio(api, reservation['id'])}/close")
    options = {"early_departure": True, "charge_full_period": True}
    asked = api.post(f"/reservations/{reservation['id']}/check-out", json=options)
    error = error_of(asked, 409)
    assert error["code"] == "nights_to_charge"
    remaining = [(today + timedelta(days=n)).isoformat() for n in range((departure - today).days)]
    amount = _quote(api, room["room_type"]["id"], today, departure)
    detail_ = error["nights_to_charge"]
    assert detail_["nights"] == len(remaining) == 3
    assert detail_["dates"] == remaining
    assert Decimal(str(detail_["amount"])) == amount
    assert detail_["rooms"] == [{"room_id": room["id"], "room": room["room"]["code"],
                                 "nights": 3, "dates": remaining, "amount": detail_["amount"]}]
    unchanged = detail(api, reservation["id"])
    assert unchanged["rooms"][0]["status"] == "checked_in"
    assert unchanged["rooms"][0]["departure"] == room["departure"]
    room_level = api.post(f"/reservations/{reservation['id']}/rooms/{room['id']}/check-out",
                          json=options)
    refusal(room_level, 409, "nights_to_charge")

    charged = api.post(f"/reservations/{reservation['id']}/check-out",
                       json={**options, "charge_remaining": True})
    assert charged.status_code == 200, charged.text
    folios = api.get(f"/reservations/{reservation['id']}/folios").json()["data"]
    assert len(folios) == 2, "the remaining nights go on a new folio"
    assert folios[0]["status"] == "closed"
    assert folios[1]["status"] == "open"
    assert Decimal(str(folios[1]["charges"])) == amount
    assert charged.json()["reservation"]["rooms"][0]["departure"] == today.isoformat()


def test_charge_remaining_false_checks_out_without_charging(api: httpx.Client,
                                                            sandbox: RunningSandbox) -> None:
    """CheckOutOptions `charge_remaining` false: checked out without charging the nights."""
    reservation, _ = _in_house_since_yesterday(api, sandbox)
    _admin(sandbox, f"/folios/{_room_folio(api, reservation['id'])}/close")
    rid = reservation["rooms"][0]["id"]
    response = api.post(f"/reservations/{reservation['id']}/rooms/{rid}/check-out", json={
        "early_departure": True, "charge_full_period": True, "charge_remaining": False})
    assert answered(response)["rooms"][0]["status"] == "checked_out"
    assert sum(_charges(api, reservation["id"])) == 0


def test_check_out_on_the_departure_date_needs_no_option(api: httpx.Client,
                                                         sandbox: RunningSandbox) -> None:
    reservation = checked_in(api, nights=1)
    move_business_date(sandbox, 1, business_date(api) + timedelta(days=1))
    result = api.post(f"/reservations/{reservation['id']}/check-out")
    room = answered(result)["reservation"]["rooms"][0]
    assert (room["status"], room["nights"]) == ("checked_out", 1)
    assert Decimal(str(room["total"])) == Decimal(str(reservation["rooms"][0]["total"]))
