"""Account and property endpoints (spec, Endpoints: Account and property; Property data).

Where a test relies on what the seed holds (codes of hidden plans, the virtual type), it says
so: the seed is described in docs/sandbox.md.
"""

from __future__ import annotations

import re
from datetime import date

import httpx

from sandbox.http.server import RunningSandbox
from tests.conftest import answered, auth
from tests.contract import reading
from tests.contract.reading import add_key

HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")

sandbox, api = reading.sandbox, reading.api


def test_me_needs_no_scope_and_returns_the_keys_scopes(sandbox: RunningSandbox) -> None:
    """Spec, Authentication 3: GET /me needs no scope and returns the scopes of the key."""
    key = add_key(sandbox, "sbx_test_no_scopes", [])
    with httpx.Client(base_url=sandbox.base_url, headers=auth(key)) as client:
        response = client.get("/me")
    body = answered(response)
    assert body["key"]["scopes"] == []
    assert set(body["key"]) >= {"id", "name", "prefix", "scopes", "created_at"}
    assert key.startswith(body["key"]["prefix"])


def test_me_describes_key_property_and_sandbox_account(api: httpx.Client) -> None:
    """Spec, GET /me; Authentication 7: `account.sandbox` is true on the test environment."""
    body = api.get("/me").json()
    assert sorted(body["key"]["scopes"]) == sorted([
        "property:read", "availability:read", "reservations:read", "reservations:write",
        "guests:read", "guests:write", "folios:read", "folios:write", "events:read",
        "webhooks:manage"])
    assert body["account"]["sandbox"] is True
    assert isinstance(body["account"]["name"], str)
    assert isinstance(body["account"]["plan"], str)
    prop = api.get("/property").json()
    assert body["property"] == {"id": prop["id"], "code": prop["code"], "name": prop["name"]}
    assert re.match(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$", body["key"]["created_at"])


def test_property_fields(api: httpx.Client) -> None:
    """Spec, Property data: Property."""
    prop = api.get("/property").json()
    for name in ("code", "name", "legal_name", "activity", "address", "zip", "city", "province",
                 "country", "phone", "email", "website", "star_rating", "currency", "timezone"):
        assert isinstance(prop[name], str), name
    assert re.match(r"^[A-Z]{2}$", prop["country"])
    assert re.match(r"^[A-Z]{3}$", prop["currency"])
    assert HHMM.match(prop["check_in_time"])
    assert HHMM.match(prop["check_out_time"])
    date.fromisoformat(prop["business_date"])
    assert all(isinstance(prop[n], int | float) or prop[n] is None
               for n in ("latitude", "longitude"))


def test_room_types_count_rooms_on_sale_and_hide_virtual_types(api: httpx.Client) -> None:
    """Spec, Property data: RoomType.rooms = rooms of the type on sale; virtual types excluded.

    Seed: property 1 has four physical types and the virtual DUS."""
    types = api.get("/room-types").json()["data"]
    rooms = api.get("/rooms").json()["data"]
    assert [t["code"] for t in types] == ["STD", "SUP", "DLX", "JSU"]
    for room_type in types:
        on_sale = [r for r in rooms if r["room_type_id"] == room_type["id"] and r["sellable"]]
        assert room_type["rooms"] == len(on_sale), room_type["code"]
        assert room_type["max_pax"] >= 1
        assert isinstance(room_type["channel_code"], str)
    assert sum(t["rooms"] for t in types) < len(rooms)  # seed: some rooms are not sellable


def test_rooms_list_every_physical_room(api: httpx.Client) -> None:
    """Spec, Property data: Room."""
    rooms = api.get("/rooms").json()["data"]
    assert len(rooms) == 80  # seed: Rome has 80 rooms
    assert len({r["id"] for r in rooms}) == len(rooms)
    assert {r["housekeeping"] for r in rooms} <= {"clean", "dirty", "inspected"}
    assert any(not r["sellable"] for r in rooms)
    assert all(isinstance(r["extra_beds"], int) for r in rooms)


def test_rate_plans_only_active_and_not_contract(api: httpx.Client) -> None:
    """Spec, Property data: only active plans are listed; contract plans are left out.

    Seed: OLD is inactive and CORP a contract plan."""
    plans = api.get("/rate-plans").json()["data"]
    codes = {p["code"] for p in plans}
    assert {"BAR", "NREF", "BB", "PP"} <= codes
    assert not codes & {"OLD", "CORP"}
    assert [p["code"] for p in plans if p["is_default"]] == ["BAR"]
    assert {p["cadence"] for p in plans} <= {"daily", "weekly", "monthly", "month_start"}
    assert any(p["per_person"] for p in plans)
    assert next(p for p in plans if p["code"] == "NREF")["discount_pct"] == 15


def test_age_brackets(api: httpx.Client) -> None:
    """Spec, Property data: AgeBracket (infants do not count as persons in the seed). Rome's
    children's bracket ends at 10, the age up to which its city tax exempts children
    (docs/sandbox.md, City tax)."""
    brackets = {b["code"]: b for b in api.get("/age-brackets").json()["data"]}
    assert set(brackets) == {"INF", "CHD", "TEEN"}
    assert brackets["INF"]["counts_as_person"] is False
    assert brackets["CHD"]["counts_as_person"] is True
    assert (brackets["CHD"]["age_from"], brackets["CHD"]["age_to"]) == (3, 10)
    assert (brackets["TEEN"]["age_from"], brackets["TEEN"]["age_to"]) == (11, 17)


def test_items_filter_on_part_of_code_or_name_ignoring_case(api: httpx.Client) -> None:
    """Spec, GET /items: query `q` is part of the code or the name."""
    everything = api.get("/items").json()["data"]
    assert {"BRK", "CTAX", "MINI", "RST", "BAR", "PARK"} <= {i["code"] for i in everything}
    assert [i["code"] for i in api.get("/items", params={"q": "brk"}).json()["data"]] == ["BRK"]
    by_name = api.get("/items", params={"q": "PARKIN"}).json()["data"]
    assert [i["code"] for i in by_name] == ["PARK"]
    both = {i["code"] for i in api.get("/items", params={"q": "bar"}).json()["data"]}
    assert both == {"BAR", "MINI"}  # code BAR, name "Minibar"
    assert api.get("/items", params={"q": "no-such-item"}).json()["data"] == []
    breakfast = next(i for i in everything if i["code"] == "BRK")
    assert (breakfast["price"], breakfast["tax_pct"]) == (15, 10)


def test_classifications(api: httpx.Client) -> None:
    """Spec, Property data: Classifications; the seed makes `market` required."""
    body = api.get("/classifications").json()
    assert body["required"] == {"source": False, "channel": False, "market": True}
    for kind in ("sources", "channels", "markets"):
        assert body[kind]
        assert all(isinstance(v, str) for v in body[kind])
    assert body["markets"][0] == "leisure"  # in the property's own order


def test_a_key_sees_only_its_property(sandbox: RunningSandbox, api: httpx.Client) -> None:
    """Spec, convention 8: a key sees only the property it belongs to."""
    with httpx.Client(base_url=sandbox.base_url, headers=auth("sbx_test_other_property")) as c:
        other = c.get("/property").json()
        other_types = c.get("/room-types").json()["data"]
        other_rooms = c.get("/rooms").json()["data"]
    mine = api.get("/property").json()
    assert other["id"] != mine["id"]
    assert {t["id"] for t in other_types}.isdisjoint(
        {t["id"] for t in api.get("/room-types").json()["data"]})
    assert {r["room_type_id"] for r in other_rooms} <= {t["id"] for t in other_types}
