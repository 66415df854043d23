"""Hand-made API v1 model instances: the inputs of the warehouse layer in its tests."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from models import (
    Event,
    Folio,
    FolioLine,
    Party,
    Reservation,
    ReservationRoom,
    StayGuest,
)

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def ts(minutes: int) -> datetime:
    """A server timestamp `minutes` after T0."""
    return T0 + timedelta(minutes=minutes)


def room(room_id: int, **changes: Any) -> ReservationRoom:
    values: dict[str, Any] = {
        "id": room_id, "status": "confirmed", "arrival": date(2026, 4, 10),
        "departure": date(2026, 4, 13), "nights": 3, "arrival_time": "", "adults": 2,
        "brackets": {}, "room_type": {"id": 1, "code": "STD"}, "room": None,
        "rate_plan": {"id": 1, "code": "BAR", "name": "Best available"}, "offer_id": None,
        "discount_pct": Decimal("0"), "price_override": None, "option_expires_on": None,
        "cancelled_by": None, "checked_in_at": None, "checked_out_at": None, "notes": "",
        "total": Decimal("450.00"), "updated_at": ts(0),
    }
    values.update(changes)
    return ReservationRoom.model_validate(values)


def reservation(reservation_id: int, rooms: list[ReservationRoom] | None = None,
                **changes: Any) -> Reservation:
    rooms = rooms if rooms is not None else [room(reservation_id * 10 + 1)]
    values: dict[str, Any] = {
        "id": reservation_id, "arrival": min(r.arrival for r in rooms),
        "departure": max(r.departure for r in rooms),
        "nights": (max(r.departure for r in rooms) - min(r.arrival for r in rooms)).days,
        "status": "confirmed", "type": "individual",
        "booker": Party(id=500 + reservation_id, kind="private", name="Anna Rossi",
                        email="anna@example.com", phone="+39 06 1234"),
        "billing_party": None, "booker_reference": "", "booking_code": f"BK{reservation_id}",
        "external_ref": "", "channel": "booking.com", "source": "ota", "market": "leisure",
        "group_name": "", "notes": "", "voucher": "", "option_expires_on": None,
        "rooms": rooms, "total": sum((r.total for r in rooms), Decimal("0")),
        "created_at": ts(-60 * 24), "updated_at": max(r.updated_at for r in rooms),
    }
    values.update(changes)
    return Reservation.model_validate(values)


def stay_guest(placement_id: int, guest_id: int, name: str = "Anna Rossi",
               is_main: bool = True) -> StayGuest:
    first, _, last = name.partition(" ")
    return StayGuest(id=placement_id, guest_id=guest_id, is_main=is_main, name=name,
                     first_name=first, last_name=last, email=None, nationality="IT",
                     birth_date=None)


def line(line_id: int, **changes: Any) -> FolioLine:
    values: dict[str, Any] = {
        "id": line_id, "description": "Room", "posted_on": date(2026, 4, 10),
        "quantity": Decimal("1"), "unit_price": Decimal("150.00"), "discount": Decimal("0"),
        "tax_pct": Decimal("10"), "total": Decimal("150.00"), "room": "101",
        "service_item_id": 1, "reversal_of": None, "type": "charge",
    }
    values.update(changes)
    return FolioLine.model_validate(values)


def folio(folio_id: int, reservation_id: int | None, lines: list[FolioLine],
          **changes: Any) -> Folio:
    charges = sum((ln.total for ln in lines if ln.type != "payment"), Decimal("0"))
    payments = sum((ln.total for ln in lines if ln.type == "payment"), Decimal("0"))
    values: dict[str, Any] = {
        "id": folio_id, "reservation_id": reservation_id, "guest_id": None,
        "guest_name": "Anna Rossi", "description": "Main", "status": "open", "document": None,
        "issue_date": None, "prices_include_vat": True, "charges": charges,
        "payments": payments, "balance": charges - payments, "lines": lines,
    }
    values.update(changes)
    return Folio.model_validate(values)


def event(event_id: int, entity_id: int = 1, type_: str = "reservation.updated") -> Event:
    return Event(id=event_id, type=type_, entity="reservation", entity_id=entity_id,
                 created_at=ts(event_id), data={"status": "confirmed"})
