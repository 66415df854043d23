"""GET /availability (spec, Endpoints: Availability and quotes; Property data: TypeAvailability;
Limits: availability period)."""

from __future__ import annotations

from datetime import date, timedelta

import httpx
import pytest

from sandbox.http.server import RunningSandbox
from tests.conftest import answered, auth, refusal
from tests.contract import reading

from .test_reservations_support import business_date

sandbox, api = reading.sandbox, reading.api


def test_defaults_from_business_date_for_14_nights(api: httpx.Client) -> None:
    """Spec: `from` defaults to the business date, `to` (exclusive) to 14 nights after it."""
    today = business_date(api)
    body = api.get("/availability").json()
    assert body["from"] == today.isoformat()
    assert body["to"] == (today + timedelta(days=14)).isoformat()
    for type_days in body["data"]:
        assert [d["date"] for d in type_days["days"]] == [
            (today + timedelta(days=n)).isoformat() for n in range(14)]


def test_to_defaults_to_14_nights_after_an_explicit_from(api: httpx.Client) -> None:
    first = business_date(api) + timedelta(days=100)
    body = api.get("/availability", params={"from": first.isoformat()}).json()
    assert body["to"] == (first + timedelta(days=14)).isoformat()


def test_one_entry_per_room_type_with_totals_of_rooms_on_sale(api: httpx.Client) -> None:
    """Spec: TypeAvailability per room type; total = rooms of the type on sale (virtual types
    are not room types of the list)."""
    types = api.get("/room-types").json()["data"]
    body = api.get("/availability").json()
    assert [(t["room_type_id"], t["code"], t["name"]) for t in body["data"]] == [
        (t["id"], t["code"], t["name"]) for t in types]
    rooms_of = {t["id"]: t["rooms"] for t in types}
    for type_days in body["data"]:
        for day in type_days["days"]:
            assert day["total"] == rooms_of[type_days["room_type_id"]]


def test_available_is_total_minus_occupied_minus_out_of_order(api: httpx.Client) -> None:
    """Spec, TypeAvailability: available = on sale - stays - out of order."""
    first = business_date(api)
    body = api.get("/availability", params={"from": first.isoformat(),
                                            "to": (first + timedelta(days=62)).isoformat()})
    for type_days in body.json()["data"]:
        for day in type_days["days"]:
            assert day["available"] == day["total"] - day["occupied"] - day["out_of_order"]
            assert day["occupied"] >= 0
            assert day["out_of_order"] >= 0


def test_out_of_order_rooms_counted_on_their_nights(sandbox: RunningSandbox,
                                                    api: httpx.Client) -> None:
    """Spec: rooms out of order are subtracted. The seed blocks some sellable rooms for a few
    nights from the business date (table room_blocks, nights from_date <= night < to_date)."""
    blocks = sandbox.state.conn.execute(
        "SELECT b.from_date, b.to_date, r.room_type_id FROM room_blocks b "
        "JOIN rooms r ON r.id = b.room_id WHERE b.property_id = 1 AND r.sellable = 1").fetchall()
    assert blocks
    first = business_date(api)
    days = {t["room_type_id"]: {d["date"]: d for d in t["days"]}
            for t in api.get("/availability", params={"from": first.isoformat()}).json()["data"]}
    expected: dict[tuple[int, str], int] = {}
    for block in blocks:
        night = date.fromisoformat(block["from_date"])
        while night < date.fromisoformat(block["to_date"]):
            key = (block["room_type_id"], night.isoformat())
            expected[key] = expected.get(key, 0) + 1
            night += timedelta(days=1)
    for type_id, by_date in days.items():
        for night_iso, day in by_date.items():
            assert day["out_of_order"] == expected.get((type_id, night_iso), 0), (type_id,
                                                                                  night_iso)


def test_period_of_62_nights_is_the_maximum(api: httpx.Client) -> None:
    """Spec, Limits: availability period at most 62 nights."""
    first = business_date(api)
    ok = api.get("/availability", params={"from": first.isoformat(),
                                          "to": (first + timedelta(days=62)).isoformat()})
    assert all(len(t["days"]) == 62 for t in answered(ok)["data"])
    too_long = api.get("/availability", params={"from": first.isoformat(),
                                                "to": (first + timedelta(days=63)).isoformat()})
    assert refusal(too_long, 400, "invalid_request")["field"] == "to"


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"from": "2026-13-01"}, "from"),
        ({"from": "tomorrow"}, "from"),
        ({"to": "2026/01/02"}, "to"),
        ({"from": "2030-01-10", "to": "2030-01-10"}, "to"),  # to must be after from
        ({"from": "2030-01-10", "to": "2030-01-09"}, "to"),
    ],
)
def test_malformed_period_is_400_naming_the_parameter(api: httpx.Client, params: dict[str, str],
                                                      field: str) -> None:
    """Spec: 400 when malformed; Errors: invalid_request."""
    response = api.get("/availability", params=params)
    assert refusal(response, 400, "invalid_request")["field"] == field


def test_needs_availability_read(sandbox: RunningSandbox) -> None:
    """Spec: GET /availability needs availability:read (the read-only key has it)."""
    with httpx.Client(base_url=sandbox.base_url, headers=auth("sbx_test_read_only")) as client:
        assert client.get("/availability").status_code == 200


def test_each_property_sees_its_own_types(sandbox: RunningSandbox, api: httpx.Client) -> None:
    """Spec, convention 8."""
    with httpx.Client(base_url=sandbox.base_url, headers=auth("sbx_test_other_property")) as c:
        other = {t["room_type_id"] for t in c.get("/availability").json()["data"]}
        other_types = {t["id"] for t in c.get("/room-types").json()["data"]}
    mine = {t["room_type_id"] for t in api.get("/availability").json()["data"]}
    assert other == other_types
    assert other.isdisjoint(mine)
