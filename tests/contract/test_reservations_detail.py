"""GET /reservations/{id} and PATCH /reservations/{id} (spec, Reservation; ReservationPatch;
Reservations endpoints; convention 8 on isolation)."""

from __future__ import annotations

from datetime import timedelta

import httpx

from tests.conftest import answered, auth, refusal

from .test_reservations_support import book, business_date, detail, error_of


def test_detail_holds_rooms_guests_and_folios(api: httpx.Client) -> None:
    """GET /reservations/{id}: Reservation with rooms, guests of each room and folios."""
    made = book(api, new_party={"first_name": "Ada", "last_name": "Lovelace"})
    full = detail(api, made["id"])
    assert full["id"] == made["id"]
    assert [g["name"] for g in full["rooms"][0]["guests"]] == ["Ada Lovelace"]
    assert len(full["folios"]) == 1
    assert set(full["folios"][0]) >= {"id", "description", "status", "charges", "payments",
                                      "balance"}
    assert full["created_at"].endswith("Z")
    assert full["updated_at"] >= full["created_at"]


def test_unknown_or_other_property_reservation_is_not_found(api: httpx.Client) -> None:
    """Convention 8: a record of another property answers 404 not_found, as if absent."""
    made = book(api)
    other = auth("sbx_test_other_property")
    for method, path, body in (
        ("GET", f"/reservations/{made['id']}", None),
        ("PATCH", f"/reservations/{made['id']}", {"notes": "x"}),
        ("POST", f"/reservations/{made['id']}/confirm", None),
        ("POST", f"/reservations/{made['id']}/cancel", None),
        ("GET", f"/reservations/{made['id']}/rooms/{made['rooms'][0]['id']}/guests", None),
    ):
        response = api.request(method, path, json=body, headers=other)
        assert response.status_code == 404, path
        assert error_of(response)["code"] == "not_found"
    assert api.get("/reservations/999999").status_code == 404


def test_patch_changes_only_the_fields_sent(api: httpx.Client) -> None:
    """ReservationPatch: all optional, only fields sent change."""
    made = book(api, notes="first", voucher="V1", booking_code="B1")
    patched = api.patch(f"/reservations/{made['id']}", json={
        "notes": "second", "booker_reference": "REF-9", "channel": "phone", "source": "direct",
        "market": "business", "group_name": "Sales team", "external_ref": "EXT-1"})
    body = answered(patched)
    assert (body["notes"], body["booker_reference"], body["channel"], body["source"],
            body["market"], body["group_name"], body["external_ref"]) == (
        "second", "REF-9", "phone", "direct", "business", "Sales team", "EXT-1")
    assert (body["voucher"], body["booking_code"]) == ("V1", "B1")
    assert body["type"] == "group", "group_name makes a group (docs/sandbox.md)"
    assert detail(api, made["id"])["notes"] == "second"


def test_patch_booker_and_billing_party_must_exist(api: httpx.Client) -> None:
    made = book(api)
    party = api.post("/guests", json={"kind": "agency", "company_name": "Viaggi Srl"}).json()
    ok = api.patch(f"/reservations/{made['id']}", json={"booker_id": party["id"],
                                                        "billing_party_id": party["id"]})
    assert answered(ok)["booker"]["id"] == party["id"]
    assert ok.json()["billing_party"]["name"] == "Viaggi Srl"
    for field in ("booker_id", "billing_party_id"):
        response = api.patch(f"/reservations/{made['id']}", json={field: 987654})
        assert refusal(response, 422, "rule_violation")["field"] == field


def test_patch_classifications_are_checked(api: httpx.Client) -> None:
    """Creation rule 4 holds for PATCH: values of GET /classifications; required ones stay."""
    made = book(api)
    bad = api.patch(f"/reservations/{made['id']}", json={"channel": "carrier-pigeon"})
    assert error_of(bad, 422)["field"] == "channel"
    cleared = api.patch(f"/reservations/{made['id']}", json={"market": ""})
    assert error_of(cleared, 422)["field"] == "market"


def test_patch_external_ref_stays_unique(api: httpx.Client) -> None:
    """`external_ref` is unique for the property: 409 duplicate_external_ref with the id."""
    first = book(api, external_ref="A-1")
    second = book(api)
    response = api.patch(f"/reservations/{second['id']}", json={"external_ref": "A-1"})
    assert refusal(response, 409, "duplicate_external_ref")["reservation_id"] == first["id"]
    same = api.patch(f"/reservations/{first['id']}", json={"external_ref": "A-1"})
    assert same.status_code == 200


def test_patch_option_expires_on_sets_and_clears(api: httpx.Client) -> None:
    """ReservationPatch `option_expires_on`: a date sets it; an empty string clears it."""
    today = business_date(api)
    made = book(api, status="option")
    later = (today + timedelta(days=4)).isoformat()
    set_ = api.patch(f"/reservations/{made['id']}", json={"option_expires_on": later})
    assert answered(set_)["option_expires_on"] == later
    assert set_.json()["rooms"][0]["option_expires_on"] == later
    cleared = api.patch(f"/reservations/{made['id']}", json={"option_expires_on": ""})
    assert answered(cleared)["option_expires_on"] is None
    malformed = api.patch(f"/reservations/{made['id']}", json={"option_expires_on": "soon"})
    assert error_of(malformed, 400)["field"].startswith("option_expires_on")


def test_patch_refuses_unknown_fields_and_moves_updated_at(api: httpx.Client) -> None:
    made = book(api)
    response = api.patch(f"/reservations/{made['id']}", json={"status": "cancelled"})
    assert error_of(response, 400)["field"] == "status"
    paused = api.patch(f"/reservations/{made['id']}", json={"notes": "x"},
                       headers=auth("sbx_test_read_only"))
    assert paused.status_code == 403
