"""The night audit, driven through POST /_sandbox/night-audit and read back through API v1.

Rules (docs/sandbox.md, "Time and the night audit", "No-show and option policy"; issue 3):
each in-house room's night is charged once on its folio at the stay's price for that night
(VAT 10% included), arrivals that did not come become no-shows (cancelled by the hotel, first
night charged), options past `option_expires_on` lapse (cancelled by the hotel), and the
business date moves to the next day; a date already closed changes nothing.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import httpx

from sandbox.http.server import RunningSandbox
from tests.conftest import answered

STD = 1


def _book(api: httpx.Client, arrival: date, nights: int, **extra: Any) -> dict[str, Any]:
    body = {"rooms": [{"room_type_id": STD, "arrival": arrival.isoformat(),
                       "departure": (arrival + timedelta(days=nights)).isoformat(),
                       "adults": 2}],
            "new_party": {"first_name": "Ada", "last_name": "Audit"}, "market": "leisure",
            **extra}
    response = api.post("/reservations", json=body)
    reservation: dict[str, Any] = answered(response, 201)["reservation"]
    return reservation


def _audit(sandbox: RunningSandbox, **body: Any) -> dict[str, Any]:
    response = httpx.post(f"{sandbox.root_url}/_sandbox/night-audit",
                          json={"property_id": 1, **body}, timeout=30)
    result: dict[str, Any] = answered(response)["audits"][0]
    return result


def _business_date(api: httpx.Client) -> date:
    return date.fromisoformat(api.get("/property").json()["business_date"])


def _room_lines(api: httpx.Client, reservation_id: int) -> list[dict[str, Any]]:
    folios = api.get(f"/reservations/{reservation_id}/folios").json()["data"]
    return [line for folio in folios for line in folio["lines"]
            if line["description"].startswith(("Room ", "No-show"))]


def _events(api: httpx.Client, event_type: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = api.get("/events", params={"types": event_type,
                                                              "limit": 500}).json()["data"]
    return events


def test_night_audit_charges_each_in_house_night_once_and_moves_the_date(
        sandbox: RunningSandbox, api: httpx.Client) -> None:
    today = _business_date(api)
    guest = _book(api, today, 2)
    assert api.post(f"/reservations/{guest['id']}/assign-rooms").status_code == 200
    assert api.post(f"/reservations/{guest['id']}/check-in").status_code == 200
    room = api.get(f"/reservations/{guest['id']}").json()["rooms"][0]["room"]["code"]

    first = _audit(sandbox)
    assert first["business_date"] == today.isoformat()
    assert first["room_charges"] == 1
    assert _business_date(api) == today + timedelta(days=1)
    lines = _room_lines(api, guest["id"])
    assert [line["description"] for line in lines] == [f"Room {room} night {today}"]
    assert lines[0]["type"] == "charge"
    assert Decimal(str(lines[0]["tax_pct"])) == 10
    assert lines[0]["posted_on"] == today.isoformat()
    assert lines[0]["room"] == room

    # The same date again: already closed, nothing charged twice, the date stays.
    again = _audit(sandbox, business_date=today.isoformat())
    assert again["already_closed"] is True
    assert len(_room_lines(api, guest["id"])) == 1
    assert _business_date(api) == today + timedelta(days=1)

    # The second night, then the departure date (no night to charge any more).
    _audit(sandbox)
    _audit(sandbox)
    lines = _room_lines(api, guest["id"])
    assert len(lines) == 2
    total = Decimal(str(api.get(f"/reservations/{guest['id']}").json()["total"]))
    assert sum(Decimal(str(line["total"])) for line in lines) == total
    rooms = {r["code"]: r for r in api.get("/rooms").json()["data"]}
    assert rooms[room]["housekeeping"] == "dirty"


def test_arrival_that_did_not_come_is_a_no_show_with_its_first_night_charged(
        sandbox: RunningSandbox, api: httpx.Client) -> None:
    today = _business_date(api)
    absent = _book(api, today, 3)
    _audit(sandbox)
    after = api.get(f"/reservations/{absent['id']}").json()
    stay = after["rooms"][0]
    assert stay["status"] == "cancelled"
    assert stay["cancelled_by"] == "hotel"
    lines = _room_lines(api, absent["id"])
    assert len(lines) == 1
    assert lines[0]["posted_on"] == today.isoformat()
    night = api.post("/quotes", json={"room_type_id": STD, "arrival": today.isoformat(),
                                      "departure": (today + timedelta(days=1)).isoformat(),
                                      "adults": 2}).json()
    assert Decimal(str(lines[0]["total"])) == Decimal(str(night["total"]))
    cancelled = [e for e in _events(api, "stay.cancelled") if e["entity_id"] == stay["id"]]
    assert len(cancelled) == 1
    assert cancelled[0]["data"]["by"] == "hotel"
    assert cancelled[0]["data"]["reason"] == "no_show"


def test_options_past_their_expiry_lapse_and_the_others_stay(
        sandbox: RunningSandbox, api: httpx.Client) -> None:
    today = _business_date(api)
    expiring = _book(api, today + timedelta(days=5), 2, status="option",
                     option_expires_on=today.isoformat())
    holding = _book(api, today + timedelta(days=5), 2, status="option",
                    option_expires_on=(today + timedelta(days=3)).isoformat())
    result = _audit(sandbox)
    lapsed = api.get(f"/reservations/{expiring['id']}").json()
    assert lapsed["status"] == "cancelled"
    assert lapsed["rooms"][0]["cancelled_by"] == "hotel"
    assert result["lapsed_options"] == [lapsed["rooms"][0]["id"]]
    assert _room_lines(api, expiring["id"]) == []
    events = [e for e in _events(api, "stay.cancelled")
              if e["entity_id"] == lapsed["rooms"][0]["id"]]
    assert [e["data"]["reason"] for e in events] == ["option_expired"]
    assert api.get(f"/reservations/{holding['id']}").json()["status"] == "option"


def test_advance_needs_a_simulated_clock(sandbox: RunningSandbox) -> None:
    response = httpx.post(f"{sandbox.root_url}/_sandbox/advance", json={"days": 1}, timeout=30)
    assert response.status_code == 422
    assert "clock" in response.text
