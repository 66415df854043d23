"""The guest archive: GET/POST /guests, GET/PATCH /guests/{id} (spec, Endpoints, Guests;
Resources, Guest and GuestInput; Limits, Guest search)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from sandbox.http.server import running_sandbox
from tests.conftest import answered, auth, refusal
from tests.contract.reading import UNLIMITED

OTHER_PROPERTY = "sbx_test_other_property"
COUNTRY_FIELDS = ("birth_country", "nationality", "country_code", "doc_issue_country")

ROSSI: dict[str, Any] = {
    "first_name": "Mario", "last_name": "Rossi", "email": "mario.rossi@example.it",
    "phone": "+39 06 5551234", "doc_type": "IDENT", "doc_number": "AX1234567",
    "nationality": "IT", "birth_date": "1980-05-17", "gender": "M",
}


def _fresh_client() -> Iterator[httpx.Client]:
    with running_sandbox(UNLIMITED) as sandbox, \
            httpx.Client(base_url=sandbox.base_url, headers=auth(), timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def shared() -> Iterator[httpx.Client]:
    """One sandbox for the tests whose records do not meet (refusals, create and read): the
    suite stays quick. Tests that count or search records use a fresh one (`api`)."""
    yield from _fresh_client()


@pytest.fixture(scope="module")
def searchable() -> Iterator[httpx.Client]:
    """A sandbox holding only the `archive` records below, for the search tests."""
    yield from _fresh_client()


def create(api: httpx.Client, **fields: Any) -> dict[str, Any]:
    response = api.post("/guests", json=fields)
    body: dict[str, Any] = answered(response, 201)
    return body


def search(api: httpx.Client, **params: Any) -> list[dict[str, Any]]:
    response = api.get("/guests", params=params)
    data: list[dict[str, Any]] = answered(response)["data"]
    return data


def ids(guests: list[dict[str, Any]]) -> list[int]:
    return [guest["id"] for guest in guests]


def assert_refused(response: httpx.Response, status: int, code: str, field: str) -> None:
    """Spec, Errors: `{error: {code, message}}`; the brief: every refusal names the field."""
    error = refusal(response, status, code)
    assert field in error["message"] or error.get("field") == field


# --- create and read -------------------------------------------------------------------------


def test_create_answers_201_with_the_guest(shared: httpx.Client) -> None:
    """Spec, POST /guests: 201 Guest; Guest has `id`, `kind`, `display_name` and the fields."""
    api = shared
    guest = create(api, **ROSSI)
    assert isinstance(guest["id"], int)
    assert guest["kind"] == "private"  # GuestInput `kind` omitted: a private guest
    assert guest["display_name"]
    assert "Rossi" in guest["display_name"]
    for field, value in ROSSI.items():
        assert guest[field] == value
    assert guest["company_name"] is None  # fields not sent are null (Guest: "str or null")


def test_read_answers_the_same_guest(shared: httpx.Client) -> None:
    """Spec, GET /guests/{id}: 200 Guest."""
    api = shared
    guest = create(api, **ROSSI)
    response = api.get(f"/guests/{guest['id']}")
    assert answered(response) == guest


def test_unknown_guest_is_404(shared: httpx.Client) -> None:
    """Spec, Endpoints: endpoints taking a record id answer 404 `not_found`."""
    api = shared
    assert_refused(api.get("/guests/999999"), 404, "not_found", "")
    assert_refused(api.get(f"/guests/{2**70}"), 404, "not_found", "")


def test_extra_fields_are_accepted_and_returned(shared: httpx.Client) -> None:
    """Spec, GuestInput: "extra fields accepted"; Guest: "Extra fields may be present"."""
    api = shared
    guest = create(api, last_name="Bianchi", loyalty_tier="gold", title="Dott.",
                   pec="bianchi@pec.example.it", sdi_code="ABC1234", vat_chargeability="I")
    again = api.get(f"/guests/{guest['id']}").json()
    for answer in (guest, again):
        assert answer["loyalty_tier"] == "gold"
        assert answer["title"] == "Dott."
        assert answer["pec"] == "bianchi@pec.example.it"
        assert answer["vat_chargeability"] == "I"


def test_company_record(shared: httpx.Client) -> None:
    """Spec, GuestInput `kind` (`private`, `company`, `agency`) and `company_name`."""
    api = shared
    guest = create(api, kind="company", company_name="ACME S.p.A.", vat_number="IT01234567890")
    assert guest["kind"] == "company"
    assert guest["display_name"] == "ACME S.p.A."


@pytest.mark.parametrize("fields", [{}, {"email": "nobody@example.com"}, {"kind": "agency"}])
def test_a_new_guest_needs_a_name(shared: httpx.Client, fields: dict[str, Any]) -> None:
    """Spec, Guest: `display_name` is required, so a record without any name is refused
    (422 rule_violation naming the name field; sandbox choice, docs/sandbox.md "Guests")."""
    api = shared
    response = api.post("/guests", json=fields)
    error = refusal(response, 422, "rule_violation")
    assert error["field"] in ("last_name", "company_name")


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize("field", COUNTRY_FIELDS)
@pytest.mark.parametrize("code", ["XX", "ZZ", "UK", "it", "ITA", "1T"])
def test_country_codes_must_be_iso_3166_alpha2(shared: httpx.Client, field: str, code: str) -> None:
    """Spec, GuestInput: these fields are ISO 3166-1 alpha-2; a code ISO does not assign
    (XX, ZZ, UK: the United Kingdom is GB) or a malformed one is a 400 naming the field."""
    api = shared
    assert_refused(api.post("/guests", json={"last_name": "Verdi", field: code}),
                   400, "invalid_request", field)


@pytest.mark.parametrize("code", ["IT", "GB", "DE", "US", "SM", "VA", "AX", "SS"])
def test_assigned_country_codes_are_accepted(shared: httpx.Client, code: str) -> None:
    """Spec, GuestInput: ISO 3166-1 alpha-2 codes, including small and recent ones."""
    api = shared
    guest = create(api, last_name="Verdi", nationality=code, country_code=code)
    assert guest["nationality"] == code
    assert guest["country_code"] == code


@pytest.mark.parametrize(("field", "value"), [
    ("kind", "hotel"), ("gender", "X"), ("vat_chargeability", "Z"), ("birth_date", "17/05/1980"),
    ("doc_expires_on", "2030-02-30"),
])
def test_enums_and_dates_are_validated(shared: httpx.Client, field: str, value: str) -> None:
    """Spec, GuestInput: `kind`, `gender` (`M`, `F`), `vat_chargeability` (`I`, `D`, `S`) are
    enums and dates are YYYY-MM-DD; anything else is 400 invalid_request naming the field."""
    api = shared
    assert_refused(api.post("/guests", json={"last_name": "Verdi", field: value}),
                   400, "invalid_request", field)


# --- patch -----------------------------------------------------------------------------------


def test_patch_changes_only_the_fields_sent(shared: httpx.Client) -> None:
    """Spec, PATCH /guests/{id}: "only the fields sent change"; 200 Guest."""
    api = shared
    guest = create(api, **ROSSI)
    response = api.patch(f"/guests/{guest['id']}", json={"city": "Roma", "phone": "+39 333 1"})
    patched = answered(response)
    assert patched["city"] == "Roma"
    assert patched["phone"] == "+39 333 1"
    unchanged = {k: v for k, v in guest.items() if k not in ("city", "phone")}
    assert {k: patched[k] for k in unchanged} == unchanged
    assert api.get(f"/guests/{guest['id']}").json() == patched


def test_patch_with_an_empty_body_changes_nothing(shared: httpx.Client) -> None:
    """Spec, PATCH /guests/{id}: every field optional; none sent, none changes."""
    api = shared
    guest = create(api, **ROSSI)
    response = api.patch(f"/guests/{guest['id']}", json={})
    assert answered(response) == guest


def test_patch_null_clears_a_field(shared: httpx.Client) -> None:
    """Spec, PATCH: fields sent change; an explicit null is sent, so the field becomes null
    (sandbox reading, docs/sandbox.md "Guests")."""
    api = shared
    guest = create(api, **ROSSI)
    patched = api.patch(f"/guests/{guest['id']}", json={"email": None}).json()
    assert patched["email"] is None
    assert patched["phone"] == ROSSI["phone"]


def test_patch_renames_and_display_name_follows(shared: httpx.Client) -> None:
    """Spec, Guest `display_name`: the record's name, so it follows a change of the name."""
    api = shared
    guest = create(api, **ROSSI)
    patched = api.patch(f"/guests/{guest['id']}", json={"last_name": "Russo"}).json()
    assert "Russo" in patched["display_name"]
    assert "Rossi" not in patched["display_name"]


def test_patch_cannot_leave_the_guest_without_a_name(shared: httpx.Client) -> None:
    """Spec, Guest: `display_name` required -> 422 rule_violation naming a name field."""
    api = shared
    guest = create(api, last_name="Solo")
    response = api.patch(f"/guests/{guest['id']}", json={"last_name": None})
    assert refusal(response, 422, "rule_violation")["field"] == "last_name"
    assert api.get(f"/guests/{guest['id']}").json()["last_name"] == "Solo"


def test_patch_validates_like_create(shared: httpx.Client) -> None:
    """Spec, PATCH /guests/{id}: GuestInput; 400 for an unknown country or a bad enum."""
    api = shared
    guest = create(api, **ROSSI)
    assert_refused(api.patch(f"/guests/{guest['id']}", json={"nationality": "XX"}),
                   400, "invalid_request", "nationality")
    assert_refused(api.patch(f"/guests/{guest['id']}", json={"gender": "Q"}),
                   400, "invalid_request", "gender")
    assert api.get(f"/guests/{guest['id']}").json() == guest


def test_patch_unknown_guest_is_404(shared: httpx.Client) -> None:
    assert_refused(shared.patch("/guests/999999", json={"city": "Roma"}), 404, "not_found", "")


# --- search ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def archive(searchable: httpx.Client) -> dict[str, int]:
    """A few records to search in (created once; the search tests only read)."""
    api = searchable
    return {
        "rossi": create(api, **ROSSI)["id"],
        "muller": create(api, first_name="Jürgen", last_name="Müller", email="jm@example.de",
                         mobile="+49 171 2223334", doc_number="C01X00T47")["id"],
        "acme": create(api, kind="company", company_name="ACME S.p.A.",
                       email="billing@acme.example.com", phone="+39 02 8889990")["id"],
        "travel": create(api, kind="agency", company_name="Rossi Viaggi",
                         email="booking@rossiviaggi.example")["id"],
    }


@pytest.mark.parametrize(("q", "expected"), [
    ("rossi", {"rossi", "travel"}),          # name, part of a name
    ("ROSSI", {"rossi", "travel"}),          # case-insensitive
    ("mar", {"rossi"}),                      # part of the first name
    ("mario rossi", {"rossi"}),              # the full name
    ("müll", {"muller"}),                    # beyond ASCII
    ("MÜLLER", {"muller"}),
    ("acme", {"acme"}),                      # company name (and e-mail)
    ("jm@example", {"muller"}),              # part of the e-mail
    ("@ACME.example.com", {"acme"}),
    ("5551234", {"rossi"}),                  # part of the phone
    ("+39 06 555", {"rossi"}),
    ("2223334", {"muller"}),                 # mobile
    ("ax1234", {"rossi"}),                   # document number
    ("C01X00T47", {"muller"}),
    ("nobody-matches-this", set()),
])
def test_search_by_name_email_phone_or_document(
    searchable: httpx.Client, archive: dict[str, int], q: str, expected: set[str]
) -> None:
    """Spec, GET /guests: `q` on name, e-mail, phone or document number."""
    assert set(ids(search(searchable, q=q))) == {archive[name] for name in expected}


def test_search_by_kind(searchable: httpx.Client, archive: dict[str, int]) -> None:
    """Spec, GET /guests: `kind` (`private`, `company`, `agency`)."""
    assert set(ids(search(searchable, kind="private"))) == {archive["rossi"], archive["muller"]}
    assert ids(search(searchable, kind="company")) == [archive["acme"]]
    assert ids(search(searchable, kind="agency")) == [archive["travel"]]
    assert ids(search(searchable, q="rossi", kind="agency")) == [archive["travel"]]
    assert_refused(searchable.get("/guests", params={"kind": "hotel"}),
                   400, "invalid_request", "kind")


def test_search_without_q_lists_the_archive(
    searchable: httpx.Client, archive: dict[str, int]
) -> None:
    """Spec, GET /guests: every parameter optional."""
    assert set(ids(search(searchable))) == set(archive.values())
    assert set(ids(search(searchable, q=""))) == set(archive.values())


def test_search_order_is_stable(searchable: httpx.Client, archive: dict[str, int]) -> None:
    """A client refining `q` or paging by `limit` needs the same order on every call."""
    first = ids(search(searchable))
    assert first == ids(search(searchable))
    assert ids(search(searchable, limit=2)) == first[:2]


def test_search_limit_default_and_bounds(api: httpx.Client) -> None:
    """Spec, Limits: guest search `limit` default 50, maximum 200."""
    for number in range(55):
        create(api, last_name=f"Guest{number:03d}", email=f"g{number}@example.com")
    assert len(search(api)) == 50
    assert len(search(api, limit=3)) == 3
    assert len(search(api, limit=1)) == 1
    assert len(search(api, limit=200)) == 55
    for bad in (0, -1, 201, 1000):
        assert_refused(api.get("/guests", params={"limit": bad}), 400, "invalid_request", "limit")
    assert_refused(api.get("/guests", params={"limit": "ten"}), 400, "invalid_request", "limit")


# --- keys, scopes, isolation -----------------------------------------------------------------


def test_another_property_does_not_see_the_guest(shared: httpx.Client) -> None:
    """Spec, General conventions 8: a record of another property answers 404 not_found
    (the archive is shared by a group of hotels; in the sandbox each property is its own)."""
    api = shared
    guest = create(api, **ROSSI)
    other = auth(OTHER_PROPERTY)
    assert_refused(api.get(f"/guests/{guest['id']}", headers=other), 404, "not_found", "")
    assert_refused(api.patch(f"/guests/{guest['id']}", json={"city": "Firenze"}, headers=other),
                   404, "not_found", "")
    listed = api.get("/guests", params={"q": "rossi"}, headers=other)
    assert answered(listed)["data"] == []
    assert api.get(f"/guests/{guest['id']}").json() == guest


def test_scopes(shared: httpx.Client) -> None:
    """Spec, Authentication 5 and Endpoints: guests:read to read, guests:write to write."""
    api = shared
    read_only = auth("sbx_test_read_only")
    assert api.get("/guests", headers=read_only).status_code == 200
    response = api.post("/guests", json={"last_name": "X"}, headers=read_only)
    refusal(response, 403, "insufficient_scope")
    no_key = httpx.get(str(api.base_url).rstrip("/") + "/guests")
    refusal(no_key, 401, "unauthenticated")


def test_writes_refused_in_the_seasonal_pause(shared: httpx.Client) -> None:
    """Spec, POST /guests: 423 possible; Errors: 423 read_only during the seasonal pause."""
    api = shared
    paused = auth("sbx_test_paused")
    response = api.post("/guests", json={"last_name": "X"}, headers=paused)
    refusal(response, 423, "read_only")
    assert api.get("/guests", headers=paused).status_code == 200
