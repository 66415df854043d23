"""Every method of `PmsClient` once, against the real sandbox over HTTP (spec, Endpoints).

The tests check what each method returns as the spec describes it (types, ids, states), not
the sandbox's particular figures.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from models import (
    ChargeInput,
    CheckOutOptions,
    GuestInput,
    NewParty,
    QuoteRequest,
    ReservationCreate,
    ReservationPatch,
    RoomRequest,
    StayGuestAdd,
    StayPatch,
    WebhookInput,
    WebhookPatch,
)
from models.common import CancelledBy, ReservationStatus
from pipelines.api import NotFoundError, PmsClient, parse_webhook
from sandbox.http.server import RunningSandbox
from tests.client.conftest import MakeClient, book, business_date, first_type_id
from tests.conftest import MakeSandbox


def settle(sandbox: RunningSandbox, folio_id: int) -> None:
    """The front desk takes payment (a sandbox admin call: API v1 has no payments)."""
    response = httpx.post(f"{sandbox.root_url}/_sandbox/folios/{folio_id}/payments", json={})
    response.raise_for_status()


def test_account_and_property_methods(pms: PmsClient) -> None:
    """Spec, Account and property."""
    me = pms.me()
    assert me.property.id == 1
    assert me.account.sandbox is True
    assert "reservations:write" in me.key.scopes
    prop = pms.get_property()
    assert prop.id == 1
    assert len(prop.currency) == 3
    types = pms.list_room_types()
    rooms = pms.list_rooms()
    assert types
    assert rooms
    assert {room.room_type_id for room in rooms} >= {t.id for t in types}
    plans = pms.list_rate_plans()
    assert sum(plan.is_default for plan in plans) == 1
    assert pms.list_age_brackets()
    items = pms.list_items()
    breakfast = pms.list_items(q="Breakfast")
    assert breakfast
    assert len(breakfast) < len(items)
    classes = pms.get_classifications()
    assert classes.markets
    assert isinstance(classes.required.market, bool)


def test_availability_and_quote(pms: PmsClient) -> None:
    """Spec, Availability and quotes: nights [from, to); a quote prices every night."""
    start = business_date(pms) + timedelta(days=3)
    availability = pms.get_availability(start, start + timedelta(days=4))
    assert availability.from_ == start
    assert availability.to == start + timedelta(days=4)
    assert all(len(t.days) == 4 for t in availability.data)
    default = pms.get_availability()
    assert default.from_ == business_date(pms)
    quote = pms.quote(QuoteRequest(room_type_id=first_type_id(pms), arrival=start,
                                   departure=start + timedelta(days=3)))
    assert len(quote.nights) == 3
    assert quote.total == sum((night.price for night in quote.nights), Decimal(0))


def test_reservation_whole_operations(pms: PmsClient, sandbox: RunningSandbox) -> None:
    """Create in option, patch, confirm, assign, check in, charge, pay, check out (spec,
    Reservations and the state table)."""
    today = business_date(pms)
    created = pms.create_reservation(ReservationCreate(
        rooms=[RoomRequest(room_type_id=first_type_id(pms), arrival=today,
                           departure=today + timedelta(days=2), adults=2)],
        new_party=NewParty(first_name="Marco", last_name="Bianchi"), market="business",
        status="option", external_ref="client-test-1"))
    reservation = created.reservation
    assert reservation.status == ReservationStatus.OPTION
    assert isinstance(created.warnings, list)

    detail = pms.get_reservation(reservation.id)
    assert detail.folios is not None
    assert detail.rooms[0].guests is not None
    patched = pms.update_reservation(reservation.id, ReservationPatch(notes="late arrival"))
    assert patched.notes == "late arrival"
    assert pms.list_reservations(external_ref="client-test-1").data[0].id == reservation.id

    confirmed = pms.confirm_reservation(reservation.id)
    assert confirmed.reservation.status == ReservationStatus.CONFIRMED
    assert confirmed.done == [reservation.rooms[0].id]
    assigned = pms.assign_rooms(reservation.id)
    assert assigned.reservation.rooms[0].room is not None
    checked_in = pms.check_in_reservation(reservation.id)
    assert checked_in.reservation.status == ReservationStatus.CHECKED_IN

    folios = pms.list_folios(reservation.id)
    assert folios
    assert all(folio.reservation_id == reservation.id for folio in folios)
    minibar = next(item for item in pms.list_items() if item.code == "MINI")
    charged = pms.post_charge(folios[0].id, ChargeInput(
        item_id=minibar.id, quantity=Decimal(2), reservation_room_id=reservation.rooms[0].id))
    assert any(line.service_item_id == minibar.id for line in charged.lines)
    assert pms.get_folio(folios[0].id).charges == charged.charges
    for folio in pms.list_folios(reservation.id):
        settle(sandbox, folio.id)
    checked_out = pms.check_out_reservation(reservation.id, CheckOutOptions(early_departure=True))
    assert checked_out.reservation.status == ReservationStatus.CHECKED_OUT


def test_room_level_operations_and_stay_guests(pms: PmsClient, sandbox: RunningSandbox) -> None:
    """Every room-level operation and the stay guests (spec, Reservations)."""
    today = business_date(pms)
    std = first_type_id(pms)
    reservation = pms.create_reservation(ReservationCreate(
        rooms=[RoomRequest(room_type_id=std, arrival=today, departure=today + timedelta(days=2),
                           adults=2, quantity=2)],
        new_party=NewParty(last_name="Verdi"), market="leisure", status="option")).reservation
    first, second = (room.id for room in reservation.rooms)

    assert pms.confirm_stay(reservation.id, first).rooms[0].status == ReservationStatus.CONFIRMED
    changed = pms.update_stay(reservation.id, first, StayPatch(adults=1, notes="quiet room"))
    assert next(r for r in changed.rooms if r.id == first).adults == 1
    free = next(room for room in pms.list_rooms() if room.room_type_id == std and room.sellable)
    placed = pms.assign_room(reservation.id, first, physical_room_id=free.id)
    assert next(r for r in placed.rooms if r.id == first).room is not None
    checked_in = pms.check_in_stay(reservation.id, first)
    assert next(r for r in checked_in.rooms if r.id == first).status == "checked_in"

    guests = pms.add_stay_guest(reservation.id, first, StayGuestAdd(
        guest=GuestInput(first_name="Luca", last_name="Verdi", nationality="IT")))
    assert pms.list_stay_guests(reservation.id, first) == guests
    placement = next(g for g in guests if g.last_name == "Verdi" and g.first_name == "Luca")
    remaining = pms.remove_stay_guest(reservation.id, first, placement.id)
    assert placement.id not in {g.id for g in remaining}

    cancelled = pms.cancel_stay(reservation.id, second, by=CancelledBy.HOTEL)
    assert next(r for r in cancelled.rooms if r.id == second).cancelled_by == CancelledBy.HOTEL
    for folio in pms.list_folios(reservation.id):
        settle(sandbox, folio.id)
    out = pms.check_out_stay(reservation.id, first, CheckOutOptions(early_departure=True))
    assert next(r for r in out.rooms if r.id == first).status == ReservationStatus.CHECKED_OUT

    other = book(pms)
    result = pms.cancel_reservation(other.id)
    assert result.reservation.status == ReservationStatus.CANCELLED


def test_guest_methods(pms: PmsClient) -> None:
    """Spec, Guests: search, create, read, update (only the fields sent change)."""
    guest = pms.create_guest(GuestInput(first_name="Giulia", last_name="Neri",
                                        email="giulia@example.org", city="Roma"))
    assert pms.get_guest(guest.id).email == "giulia@example.org"
    updated = pms.update_guest(guest.id, GuestInput(phone="+39 333 0000000"))
    assert updated.phone == "+39 333 0000000"
    assert updated.city == "Roma"
    assert guest.id in {g.id for g in pms.search_guests("Neri", kind="private", limit=10)}
    with pytest.raises(NotFoundError):
        pms.get_guest(999_999)


def test_event_methods(pms: PmsClient) -> None:
    """Spec, Event log: oldest first, `after`, `types`, `has_more`, `next_after`."""
    for _ in range(3):
        book(pms)
    batch = pms.get_events(0, limit=2)
    assert len(batch.data) == 2
    assert batch.has_more
    assert batch.next_after == batch.data[-1].id
    every = list(pms.iter_events(0, limit=2))
    ids = [event.id for event in every]
    assert ids == sorted(ids)
    assert len(ids) == len(set(ids)) >= 3
    created = list(pms.iter_events(0, types=["reservation.created"], limit=1))
    assert len(created) == 3
    assert {e.type for e in created} == {"reservation.created"}
    assert list(pms.iter_events(ids[-1])) == []


class _Receiver:
    """A webhook receiver on a loopback port: keeps every raw delivery."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[dict[str, str], bytes]] = []
        self.arrived = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                receiver.deliveries.append((dict(self.headers.items()), body))
                receiver.arrived.set()
                self.send_response(200)
                self.end_headers()

            def log_message(self, *_: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def receiver() -> Iterator[_Receiver]:
    hook = _Receiver()
    yield hook
    hook.server.shutdown()
    hook.server.server_close()


def test_webhook_methods_and_a_signed_delivery(
    make_sandbox: MakeSandbox, make_client: MakeClient, receiver: _Receiver
) -> None:
    """Spec, Webhooks: create (secret shown once), test ping (event id 0), deliveries; the
    ping's signature verifies with the secret (Webhook delivery 7). GET/PATCH/DELETE of one
    subscription are this sandbox's additions within v1."""
    sandbox = make_sandbox(allow_http_webhooks=True)
    pms = make_client(sandbox)
    created = pms.create_webhook(WebhookInput(url=receiver.url, events=["reservation.created"],
                                              description="client test"))
    assert created.secret
    listing = pms.list_webhooks()
    assert [w.id for w in listing.data] == [created.webhook.id]
    assert "reservation.created" in listing.event_types
    assert pms.get_webhook(created.webhook.id).url == receiver.url
    assert pms.update_webhook(created.webhook.id, WebhookPatch(description="renamed")
                              ).description == "renamed"

    delivery = pms.test_webhook(created.webhook.id)
    assert delivery.event_id == 0
    assert delivery.event_type == "ping"
    assert receiver.arrived.wait(10)
    headers, body = receiver.deliveries[0]
    payload = parse_webhook(body, headers, created.secret)
    assert payload.id == 0
    assert payload.type == "ping"
    assert json.loads(body)["subscription_id"] == created.webhook.id
    assert delivery.id in {d.id for d in pms.list_webhook_deliveries(created.webhook.id)}

    pms.delete_webhook(created.webhook.id)
    with pytest.raises(NotFoundError):
        pms.get_webhook(created.webhook.id)
