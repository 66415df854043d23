"""Folios: GET /reservations/{id}/folios, GET /folios/{id}, POST /folios/{id}/charges (spec,
Endpoints, Folios; Resources, Folio and FolioLine; Input shapes, ChargeInput; Folio states),
and the folio lifecycle behind the sandbox admin endpoints (issue 3; docs/sandbox.md "Folios").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

import httpx
import pytest

from sandbox.clock import SimulatedClock
from sandbox.http.server import RunningSandbox, running_sandbox
from sandbox.settings import SandboxSettings
from tests.conftest import MakeSandbox, answered, auth, refusal

OTHER_PROPERTY = "sbx_test_other_property"
SLOTS = itertools.count()
DOCUMENT = re.compile(r"^(\d{4})/(\d{6})$")


def money(value: Any) -> Decimal:
    """Amounts are JSON numbers (spec, conventions 4); compare them exactly."""
    return Decimal(str(value))


class Hotel:
    """A client on one sandbox: API v1 with a key, and the `/_sandbox` admin endpoints."""

    def __init__(self, sandbox: RunningSandbox, key: str = "sbx_test_all_scopes") -> None:
        self.api = httpx.Client(base_url=sandbox.base_url, headers=auth(key), timeout=30)
        self.admin = httpx.Client(base_url=f"{sandbox.root_url}/_sandbox", timeout=30)

    def close(self) -> None:
        self.api.close()
        self.admin.close()

    def __enter__(self) -> Hotel:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def business_date(self) -> date:
        return date.fromisoformat(self.api.get("/property").json()["business_date"])

    def item(self, code: str) -> dict[str, Any]:
        items = self.api.get("/items").json()["data"]
        found: dict[str, Any] = next(item for item in items if item["code"] == code)
        return found

    def book(self, rooms: int = 1, assign: bool = True) -> dict[str, Any]:
        """A confirmed reservation of `rooms` rooms; the detail. Each booking takes the next
        two nights, so the tests sharing a sandbox never fill a room type."""
        arrival = self.business_date() + timedelta(days=2 * (next(SLOTS) % 180))
        room_type = self.api.get("/room-types").json()["data"][0]
        response = self.api.post("/reservations", json={
            "rooms": [{"room_type_id": room_type["id"], "arrival": arrival.isoformat(),
                       "departure": (arrival + timedelta(days=2)).isoformat(),
                       "quantity": rooms}],
            "new_party": {"first_name": "Anna", "last_name": "Conti"},
            "market": "leisure",
        })
        reservation_id = answered(response, 201)["reservation"]["id"]
        if assign:
            assigned = self.api.post(f"/reservations/{reservation_id}/assign-rooms")
            assert assigned.status_code == 200, assigned.text
        detail: dict[str, Any] = self.api.get(f"/reservations/{reservation_id}").json()
        return detail

    def folios(self, reservation_id: int) -> list[dict[str, Any]]:
        response = self.api.get(f"/reservations/{reservation_id}/folios")
        data: list[dict[str, Any]] = answered(response)["data"]
        return data

    def charge(self, folio_id: int, **body: Any) -> httpx.Response:
        return self.api.post(f"/folios/{folio_id}/charges", json=body)

    def lifecycle(self, folio_id: int, action: str, **body: Any) -> httpx.Response:
        return self.admin.post(f"/folios/{folio_id}/{action}", json=body or None)


@pytest.fixture(scope="module")
def shared_sandbox() -> Iterator[RunningSandbox]:
    """One admin sandbox for the tests of this module: each books its own reservation, so
    they do not meet; tests that count across the property start their own (`sandbox`)."""
    settings = SandboxSettings(admin=True, rate_per_minute=1_000_000, burst=1_000_000)
    with running_sandbox(settings) as sandbox:
        yield sandbox


@pytest.fixture
def hotel(shared_sandbox: RunningSandbox) -> Iterator[Hotel]:
    with Hotel(shared_sandbox) as client:
        yield client


def first_folio(hotel: Hotel, rooms: int = 1, assign: bool = True) -> tuple[dict[str, Any],
                                                                            dict[str, Any]]:
    reservation = hotel.book(rooms=rooms, assign=assign)
    return reservation, hotel.folios(reservation["id"])[0]


# --- reading ---------------------------------------------------------------------------------


def test_reservation_folios_one_open_folio_per_room(hotel: Hotel) -> None:
    """Spec, GET /reservations/{id}/folios: 200 {data: Folio[]} with lines. Sandbox rule
    (issue 2): one open folio per reservation room at creation, empty and balanced."""
    reservation = hotel.book(rooms=2)
    folios = hotel.folios(reservation["id"])
    assert len(folios) == 2
    for folio in folios:
        assert folio["reservation_id"] == reservation["id"]
        assert folio["status"] == "open"
        assert folio["document"] is None  # spec, Folio states: a document exists once closed
        assert folio["issue_date"] is None
        assert isinstance(folio["prices_include_vat"], bool)
        assert folio["lines"] == []
        assert money(folio["charges"]) == money(folio["payments"]) == money(folio["balance"]) == 0
    refs = {ref["id"] for ref in reservation["folios"]}  # spec, Reservation `folios` FolioRef
    assert refs == {folio["id"] for folio in folios}


def test_folio_detail_matches_the_list(hotel: Hotel) -> None:
    """Spec, GET /folios/{id}: 200 Folio, the same record the reservation lists."""
    _, folio = first_folio(hotel)
    response = hotel.api.get(f"/folios/{folio['id']}")
    assert answered(response) == folio


def test_unknown_records_are_404(hotel: Hotel) -> None:
    """Spec, Endpoints: endpoints taking a record id answer 404 not_found."""
    refusal(hotel.api.get("/folios/999999"), 404, "not_found")
    refusal(hotel.api.get("/reservations/999999/folios"), 404, "not_found")
    item = hotel.item("BRK")
    refusal(hotel.charge(999999, item_id=item["id"]), 404, "not_found")
    huge = 2**70  # beyond any stored id: still "does not exist", never a server error
    refusal(hotel.api.get(f"/folios/{huge}"), 404, "not_found")
    refusal(hotel.api.get(f"/reservations/{huge}/folios"), 404, "not_found")
    refusal(hotel.lifecycle(huge, "close"), 404, "not_found")


def test_another_propertys_folios_are_404(shared_sandbox: RunningSandbox, hotel: Hotel) -> None:
    """Spec, General conventions 8: a record of another property answers 404 not_found."""
    reservation, folio = first_folio(hotel)
    with Hotel(shared_sandbox, OTHER_PROPERTY) as other:
        refusal(other.api.get(f"/folios/{folio['id']}"), 404, "not_found")
        refusal(other.api.get(f"/reservations/{reservation['id']}/folios"), 404, "not_found")
        other_item = other.item("BRK")
        refusal(other.charge(folio["id"], item_id=other_item["id"]), 404, "not_found")
    assert hotel.api.get(f"/folios/{folio['id']}").json() == folio  # nothing posted


# --- charges ---------------------------------------------------------------------------------


def test_charge_at_list_price(hotel: Hotel) -> None:
    """Spec, POST /folios/{id}/charges: 201 Folio after the charge; the list price unless
    `unit_price`; `posted_on` defaults to the business date; ChargeInput `quantity`.
    FolioLine: `type` `charge`, `service_item_id` the item, `tax_pct` of the item."""
    reservation, folio = first_folio(hotel)
    item = hotel.item("BRK")
    response = hotel.charge(folio["id"], item_id=item["id"], quantity=2)
    after = answered(response, 201)
    assert after["id"] == folio["id"]
    [line] = after["lines"]
    assert line["type"] == "charge"
    assert line["service_item_id"] == item["id"]
    assert line["description"] == item["name"]
    assert money(line["unit_price"]) == money(item["price"])
    assert money(line["quantity"]) == 2
    assert money(line["discount"]) == 0
    assert money(line["total"]) == 2 * money(item["price"])
    assert money(line["tax_pct"]) == money(item["tax_pct"])
    assert line["posted_on"] == hotel.business_date().isoformat()
    assert line["reversal_of"] is None
    # the room the charge belongs to: the folio's room, shown by its physical room code
    assert line["room"] == reservation["rooms"][0]["room"]["code"]
    assert money(after["charges"]) == 2 * money(item["price"])
    assert money(after["balance"]) == money(after["charges"]) - money(after["payments"])
    assert hotel.api.get(f"/folios/{folio['id']}").json() == after


def test_charge_with_unit_price_description_and_posted_on(hotel: Hotel) -> None:
    """Spec, ChargeInput: `unit_price` (list price when omitted), `description` (replaces the
    item name on the line), `posted_on` (default the business date)."""
    _, folio = first_folio(hotel)
    item = hotel.item("RST")
    day = hotel.business_date() - timedelta(days=1)
    response = hotel.charge(folio["id"], item_id=item["id"], unit_price=42.5, quantity=1,
                            description="Dinner, table 7", posted_on=day.isoformat())
    [line] = answered(response, 201)["lines"]
    assert money(line["unit_price"]) == Decimal("42.50")
    assert money(line["total"]) == Decimal("42.50")
    assert line["description"] == "Dinner, table 7"
    assert line["posted_on"] == day.isoformat()
    assert line["service_item_id"] == item["id"]


def test_charge_with_discount(hotel: Hotel) -> None:
    """Spec, ChargeInput `discount_pct`; FolioLine `discount` (num): the discount amount,
    and the line total is quantity x unit price less it (sandbox reading, docs/sandbox.md)."""
    _, folio = first_folio(hotel)
    item = hotel.item("PARK")  # 25.00 list price
    response = hotel.charge(folio["id"], item_id=item["id"], quantity=3, discount_pct=10)
    [line] = answered(response, 201)["lines"]
    gross = 3 * money(item["price"])
    assert money(line["discount"]) == gross / 10
    assert money(line["total"]) == gross - gross / 10
    assert money(response.json()["charges"]) == money(line["total"])


def test_charge_on_a_room_of_the_reservation(hotel: Hotel) -> None:
    """Spec, ChargeInput `reservation_room_id`: the room of the reservation the charge belongs
    to; the line's `room` is that room's physical room."""
    reservation, folio = first_folio(hotel, rooms=2)
    second = reservation["rooms"][1]
    response = hotel.charge(folio["id"], item_id=hotel.item("BAR")["id"],
                            reservation_room_id=second["id"])
    assert answered(response, 201)["lines"][0]["room"] == second["room"]["code"]


def test_charge_for_a_room_of_another_reservation_is_refused(hotel: Hotel) -> None:
    """Spec, ChargeInput `reservation_room_id`: a room of the folio's reservation; another
    reservation's room is refused with 422 rule_violation naming the field."""
    _, folio = first_folio(hotel)
    stranger = hotel.book()["rooms"][0]
    error = refusal(hotel.charge(folio["id"], item_id=hotel.item("BAR")["id"],
                                 reservation_room_id=stranger["id"]), 422, "rule_violation")
    assert error["field"] == "reservation_room_id"


def test_unassigned_room_shows_no_room_code(hotel: Hotel) -> None:
    """FolioLine `room` is a str: '' while the reservation room has no physical room
    (ReservationRoom `room` is null until assigned; sandbox reading)."""
    _, folio = first_folio(hotel, assign=False)
    response = hotel.charge(folio["id"], item_id=hotel.item("BAR")["id"])
    assert answered(response, 201)["lines"][0]["room"] == ""


@pytest.mark.parametrize("item_id", [999999, 0, 2**70])
def test_item_must_be_an_item_of_the_property(hotel: Hotel, item_id: int) -> None:
    """Spec, ChargeInput: `item_id` required, an item of GET /items -> else 422 rule_violation
    naming `item_id`."""
    _, folio = first_folio(hotel)
    error = refusal(hotel.charge(folio["id"], item_id=item_id), 422, "rule_violation")
    assert error["field"] == "item_id"


def test_item_of_another_property_is_refused(shared_sandbox: RunningSandbox, hotel: Hotel) -> None:
    """Spec, ChargeInput: an item of GET /items (of the caller's property)."""
    _, folio = first_folio(hotel)
    with Hotel(shared_sandbox, OTHER_PROPERTY) as other:
        foreign = other.item("BRK")
    own_ids = {item["id"] for item in hotel.api.get("/items").json()["data"]}
    assert foreign["id"] not in own_ids
    error = refusal(hotel.charge(folio["id"], item_id=foreign["id"]), 422, "rule_violation")
    assert error["field"] == "item_id"


@pytest.mark.parametrize(("body", "field"), [
    ({}, "item_id"),
    ({"item_id": "breakfast"}, "item_id"),
    ({"quantity": 0}, "quantity"),
    ({"discount_pct": 150}, "discount_pct"),
    ({"posted_on": "yesterday"}, "posted_on"),
    ({"unit_price": "cheap"}, "unit_price"),
    ({"coupon": "X"}, "coupon"),
])
def test_malformed_charge_is_400(hotel: Hotel, body: dict[str, Any], field: str) -> None:
    """Spec, Errors: 400 invalid_request, a parameter missing or malformed (named)."""
    _, folio = first_folio(hotel)
    payload = body if "item_id" in body or not body else {"item_id": hotel.item("BRK")["id"],
                                                           **body}
    error = refusal(hotel.charge(folio["id"], **payload), 400, "invalid_request")
    assert field in error["message"]


def test_lines_never_change(hotel: Hotel) -> None:
    """Folio lines are kept as posted: a later charge adds a line and leaves the others."""
    _, folio = first_folio(hotel)
    first = hotel.charge(folio["id"], item_id=hotel.item("BRK")["id"]).json()["lines"]
    second = hotel.charge(folio["id"], item_id=hotel.item("MINI")["id"], quantity=3).json()
    assert second["lines"][: len(first)] == first
    assert len(second["lines"]) == len(first) + 1
    assert money(second["charges"]) == sum(money(line["total"]) for line in second["lines"])


def test_charges_need_folios_write(shared_sandbox: RunningSandbox, hotel: Hotel) -> None:
    """Spec, Endpoints: folios:read to read, folios:write to post (403 insufficient_scope)."""
    _, folio = first_folio(hotel)
    with Hotel(shared_sandbox, "sbx_test_read_only") as reader:
        assert reader.api.get(f"/folios/{folio['id']}").status_code == 200
        refusal(reader.charge(folio["id"], item_id=hotel.item("BRK")["id"]),
                403, "insufficient_scope")


# --- payments, balance, lifecycle ------------------------------------------------------------


def test_balance_is_charges_minus_payments(hotel: Hotel) -> None:
    """Spec, Folio `charges`, `payments`, `balance`; FolioLine `type` `payment` (issue 2:
    balance = charges - payments)."""
    _, folio = first_folio(hotel)
    hotel.charge(folio["id"], item_id=hotel.item("RST")["id"], quantity=2)  # 70.00
    paid = hotel.lifecycle(folio["id"], "payments", amount=50, description="Card")
    after = answered(paid)
    assert money(after["charges"]) == Decimal(70)
    assert money(after["payments"]) == Decimal(50)
    assert money(after["balance"]) == Decimal(20)
    payment = after["lines"][-1]
    assert payment["type"] == "payment"
    assert payment["description"] == "Card"
    assert money(payment["total"]) == Decimal(50)
    assert hotel.api.get(f"/folios/{folio['id']}").json() == after


def test_close_needs_a_zero_balance_and_issues_a_document(hotel: Hotel) -> None:
    """Spec, Folio states: a document number and issue date exist once closed. Sandbox rule
    (issue 3): a folio is closed at settlement, balance 0, else 422 rule_violation."""
    reservation, folio = first_folio(hotel)
    hotel.charge(folio["id"], item_id=hotel.item("PARK")["id"])
    refusal(hotel.lifecycle(folio["id"], "close"), 422, "rule_violation")
    settled = hotel.lifecycle(folio["id"], "payments").json()  # amount omitted: the balance
    assert money(settled["balance"]) == 0
    closed = hotel.lifecycle(folio["id"], "close")
    body = answered(closed)
    assert body["status"] == "closed"
    match = DOCUMENT.match(body["document"])
    assert match is not None
    assert body["issue_date"] == hotel.business_date().isoformat()
    assert int(match.group(1)) == hotel.business_date().year
    assert hotel.api.get(f"/folios/{folio['id']}").json() == body
    refs = hotel.api.get(f"/reservations/{reservation['id']}").json()["folios"]
    assert {ref["id"]: ref["status"] for ref in refs}[folio["id"]] == "closed"


def test_charges_only_on_an_open_folio(hotel: Hotel) -> None:
    """Spec, Folio states: "A charge can be posted on an open folio"; POST charges "posts on
    an open folio": a suspended or closed folio answers 422 rule_violation."""
    _, folio = first_folio(hotel)
    item_id = hotel.item("BAR")["id"]
    assert hotel.lifecycle(folio["id"], "suspend").json()["status"] == "suspended"
    error = refusal(hotel.charge(folio["id"], item_id=item_id), 422, "rule_violation")
    assert "suspended" in error["message"]
    assert hotel.api.get(f"/folios/{folio['id']}").json()["status"] == "suspended"
    assert hotel.lifecycle(folio["id"], "reopen").json()["status"] == "open"
    assert hotel.charge(folio["id"], item_id=item_id).status_code == 201
    hotel.lifecycle(folio["id"], "payments")
    assert hotel.lifecycle(folio["id"], "close").status_code == 200
    error = refusal(hotel.charge(folio["id"], item_id=item_id), 422, "rule_violation")
    assert "closed" in error["message"]
    assert len(hotel.api.get(f"/folios/{folio['id']}").json()["lines"]) == 2  # charge, payment


def test_refused_lifecycle_moves(hotel: Hotel) -> None:
    """Transitions of docs/sandbox.md "Folios" (spec: "Transitions: not shown"): only open ->
    suspended, suspended -> open, open -> closed; a closed folio is final; others are 422."""
    _, folio = first_folio(hotel)
    refusal(hotel.lifecycle(folio["id"], "reopen"), 422, "rule_violation")       # open
    hotel.lifecycle(folio["id"], "suspend")
    refusal(hotel.lifecycle(folio["id"], "suspend"), 422, "rule_violation")      # suspended
    refusal(hotel.lifecycle(folio["id"], "close"), 422, "rule_violation")
    hotel.lifecycle(folio["id"], "reopen")
    assert hotel.lifecycle(folio["id"], "close").status_code == 200
    for action in ("suspend", "reopen", "close"):
        refusal(hotel.lifecycle(folio["id"], action), 422, "rule_violation")     # closed
    refusal(hotel.lifecycle(folio["id"], "payments", amount=5), 422, "rule_violation")
    refusal(hotel.lifecycle(999999, "close"), 404, "not_found")


def test_documents_are_numbered_per_property(sandbox: RunningSandbox) -> None:
    """Issue 3: fiscal numbering per property and year: consecutive within a property, an
    own sequence for each property (a fresh sandbox: no document issued before)."""
    hotel = Hotel(sandbox)
    numbers = []
    for _ in range(3):
        _, folio = first_folio(hotel)
        hotel.lifecycle(folio["id"], "payments")
        numbers.append(hotel.lifecycle(folio["id"], "close").json()["document"])
    parsed = [DOCUMENT.match(number) for number in numbers]
    sequence = [int(match.group(2)) for match in parsed if match is not None]
    assert sequence == [sequence[0], sequence[0] + 1, sequence[0] + 2]
    with Hotel(sandbox, OTHER_PROPERTY) as other:
        _, foreign = first_folio(other)
        other_number = other.lifecycle(foreign["id"], "close").json()["document"]
    hotel.close()
    assert sequence[0] == 1
    match = DOCUMENT.match(other_number)
    assert match is not None
    assert int(match.group(2)) == 1  # its own sequence, not the next of property 1


def test_document_numbers_restart_with_the_year(make_sandbox: MakeSandbox) -> None:
    """Issue 3: fiscal numbering per property and year; `issue_date` is the business date,
    which the night audit moves from 31 December into the new year."""
    clock = SimulatedClock(datetime(2026, 12, 31, 10, 0, tzinfo=UTC))
    with Hotel(make_sandbox(clock=clock, admin=True)) as hotel:
        numbers = []
        for _ in range(2):
            _, folio = first_folio(hotel)
            hotel.charge(folio["id"], item_id=hotel.item("BAR")["id"])
            hotel.lifecycle(folio["id"], "payments")
            closed = hotel.lifecycle(folio["id"], "close").json()
            numbers.append((closed["document"], closed["issue_date"]))
        clock.advance(timedelta(hours=16))
        audit = hotel.admin.post("/night-audit", json={"property_id": 1})
        assert audit.status_code == 200, audit.text
        assert hotel.business_date() == date(2027, 1, 1)
        _, folio = first_folio(hotel)
        closed = hotel.lifecycle(folio["id"], "close").json()
        numbers.append((closed["document"], closed["issue_date"]))
    assert numbers == [("2026/000001", "2026-12-31"), ("2026/000002", "2026-12-31"),
                       ("2027/000001", "2027-01-01")]


def test_admin_folio_endpoints_only_with_admin(make_sandbox: MakeSandbox) -> None:
    """Issue 3: admin endpoints under /_sandbox, off unless the server runs with --admin."""
    sandbox = make_sandbox()
    with Hotel(sandbox) as hotel:
        _, folio = first_folio(hotel)
        assert hotel.lifecycle(folio["id"], "close").status_code == 404
        assert hotel.api.get(f"/folios/{folio['id']}").json()["status"] == "open"
