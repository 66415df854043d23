"""Folios: one open folio per reservation room at creation, lines, balances, documents.

Balance = charges - payments. A line's `type` is `charge` or `payment`; a correction is a
line with `reversal_of` set and the opposite sign (lines are never edited).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal

from models.common import FolioStatus
from models.folios import ChargeInput, Folio, FolioLine
from models.reservations import FolioRef

from ..db import all_rows, from_cents, insert, one, to_cents, transaction, ts
from ..errors import not_found, rule_violation

CHARGE = "charge"
PAYMENT = "payment"


def open_folio(
    conn: sqlite3.Connection,
    property_id: int,
    *,
    reservation_id: int,
    reservation_room_id: int | None,
    guest_id: int | None,
    guest_name: str,
    description: str,
    now: datetime,
) -> int:
    return insert(conn, "folios", {
        "property_id": property_id, "reservation_id": reservation_id,
        "reservation_room_id": reservation_room_id, "guest_id": guest_id,
        "guest_name": guest_name, "description": description,
        "status": FolioStatus.OPEN.value, "prices_include_vat": 1,
        "created_at": ts(now), "updated_at": ts(now),
    })


def line_total_cents(quantity: Decimal, unit_price_cents: int, discount_cents: int = 0) -> int:
    gross = (quantity * unit_price_cents).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return int(gross) - discount_cents


def post_line(
    conn: sqlite3.Connection,
    folio_id: int,
    *,
    line_type: str,
    description: str,
    posted_on: date,
    quantity: Decimal,
    unit_price_cents: int,
    tax_pct: Decimal,
    room_code: str,
    service_item_id: int | None,
    reservation_room_id: int | None,
    now: datetime,
    discount_cents: int = 0,
    reversal_of: int | None = None,
) -> int:
    """Append a line to a folio (the caller checks that the folio may take it)."""
    line_id = insert(conn, "folio_lines", {
        "folio_id": folio_id, "reservation_room_id": reservation_room_id, "type": line_type,
        "description": description, "posted_on": posted_on.isoformat(),
        "quantity": str(quantity), "unit_price_cents": unit_price_cents,
        "discount_cents": discount_cents, "tax_pct": str(tax_pct),
        "total_cents": line_total_cents(quantity, unit_price_cents, discount_cents),
        "room": room_code, "service_item_id": service_item_id, "reversal_of": reversal_of,
        "created_at": ts(now),
    })
    conn.execute("UPDATE folios SET updated_at = ? WHERE id = ?", (ts(now), folio_id))
    return line_id


@dataclass(frozen=True)
class Totals:
    charges_cents: int
    payments_cents: int

    @property
    def balance_cents(self) -> int:
        return self.charges_cents - self.payments_cents


def folio_totals(conn: sqlite3.Connection, folio_id: int) -> Totals:
    row = one(
        conn,
        "SELECT COALESCE(SUM(CASE WHEN type <> ? THEN total_cents END), 0) AS charges, "
        "COALESCE(SUM(CASE WHEN type = ? THEN total_cents END), 0) AS payments "
        "FROM folio_lines WHERE folio_id = ?",
        PAYMENT, PAYMENT, folio_id,
    )
    assert row is not None
    return Totals(row["charges"], row["payments"])


def room_balance_cents(conn: sqlite3.Connection, reservation_room_id: int) -> int:
    """What the guest of this room still owes, over every folio of the room."""
    return sum(
        folio_totals(conn, row["id"]).balance_cents
        for row in all_rows(conn, "SELECT id FROM folios WHERE reservation_room_id = ?",
                            reservation_room_id)
    )


def room_open_folio(conn: sqlite3.Connection, reservation_room_id: int) -> int | None:
    """The first open folio of a reservation room, where its charges go."""
    row = one(conn, "SELECT id FROM folios WHERE reservation_room_id = ? AND status = ? "
                    "ORDER BY id LIMIT 1", reservation_room_id, FolioStatus.OPEN.value)
    return None if row is None else int(row["id"])


def has_issued_document(conn: sqlite3.Connection, reservation_id: int) -> bool:
    return one(conn, "SELECT 1 FROM folios WHERE reservation_id = ? AND document IS NOT NULL",
               reservation_id) is not None


def folio_refs(conn: sqlite3.Connection, reservation_id: int) -> list[FolioRef]:
    refs = []
    for row in all_rows(conn, "SELECT * FROM folios WHERE reservation_id = ? ORDER BY id",
                        reservation_id):
        totals = folio_totals(conn, row["id"])
        refs.append(FolioRef(
            id=row["id"], description=row["description"], status=FolioStatus(row["status"]),
            charges=from_cents(totals.charges_cents), payments=from_cents(totals.payments_cents),
            balance=from_cents(totals.balance_cents),
        ))
    return refs


def _line_model(row: sqlite3.Row) -> FolioLine:
    return FolioLine(
        id=row["id"], description=row["description"],
        posted_on=date.fromisoformat(row["posted_on"]), quantity=Decimal(row["quantity"]),
        unit_price=from_cents(row["unit_price_cents"]), discount=from_cents(row["discount_cents"]),
        tax_pct=Decimal(row["tax_pct"]), total=from_cents(row["total_cents"]), room=row["room"],
        service_item_id=row["service_item_id"], reversal_of=row["reversal_of"], type=row["type"],
    )


def folio_model(conn: sqlite3.Connection, property_id: int, folio_id: int) -> Folio:
    row = folio_row(conn, property_id, folio_id)
    totals = folio_totals(conn, folio_id)
    lines = all_rows(conn, "SELECT * FROM folio_lines WHERE folio_id = ? ORDER BY id", folio_id)
    return Folio(
        id=row["id"], reservation_id=row["reservation_id"], guest_id=row["guest_id"],
        guest_name=row["guest_name"], description=row["description"],
        status=FolioStatus(row["status"]), document=row["document"],
        issue_date=date.fromisoformat(row["issue_date"]) if row["issue_date"] else None,
        prices_include_vat=bool(row["prices_include_vat"]),
        charges=from_cents(totals.charges_cents), payments=from_cents(totals.payments_cents),
        balance=from_cents(totals.balance_cents), lines=[_line_model(line) for line in lines],
    )


def folio_row(conn: sqlite3.Connection, property_id: int, folio_id: int) -> sqlite3.Row:
    """The folio of this property, or 404 (a folio of another property does not exist)."""
    row = one(
        conn, "SELECT * FROM folios WHERE id = ? AND property_id = ?", folio_id, property_id)
    if row is None:
        raise not_found(f"folio {folio_id}")
    return row


def stay_room_code(conn: sqlite3.Connection, reservation_room_id: int | None) -> str:
    """The code of the physical room of a reservation room ('' while none is assigned);
    `reservation_view.room_code` takes the physical room's id instead."""
    if reservation_room_id is None:
        return ""
    row = one(conn, "SELECT r.code FROM reservation_rooms rr JOIN rooms r ON r.id = rr.room_id "
                    "WHERE rr.id = ?", reservation_room_id)
    return "" if row is None else str(row["code"])


def reservation_folios(
    conn: sqlite3.Connection, property_id: int, reservation_id: int
) -> list[Folio]:
    """Every folio of a reservation of this property, with lines (404 for another property's)."""
    if one(
            conn, "SELECT 1 FROM reservations WHERE id = ? AND property_id = ?",
            reservation_id, property_id) is None:
        raise not_found(f"reservation {reservation_id}")
    return [
        folio_model(conn, property_id, row["id"])
        for row in all_rows(conn, "SELECT id FROM folios WHERE reservation_id = ? "
                                  "AND property_id = ? ORDER BY id", reservation_id, property_id)
    ]


def _pct_of(amount_cents: int, pct: Decimal) -> int:
    return int((amount_cents * pct / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def post_charge(
    conn: sqlite3.Connection,
    property_id: int,
    folio_id: int,
    charge: ChargeInput,
    business_date: date,
    now: datetime,
) -> int:
    """Post an item on an open folio (spec, POST /folios/{id}/charges). Returns the line id.

    List price unless `unit_price`; `discount_pct` becomes the line's `discount` amount;
    `description` replaces the item name; `posted_on` defaults to the business date; the
    line's `room` is the physical room of the reservation room the charge belongs to.
    """
    with transaction(conn):
        folio = folio_row(conn, property_id, folio_id)
        item = one(
            conn, "SELECT * FROM items WHERE id = ? AND property_id = ?", charge.item_id,
            property_id)
        if item is None:
            raise rule_violation(f"item {charge.item_id} is not an item of the property "
                                 "(see GET /items)", field="item_id")
        if folio["status"] != FolioStatus.OPEN.value:
            raise rule_violation(f"folio {folio_id} is {folio['status']}: charges are posted "
                                 "only on an open folio")
        stay_id = charge.reservation_room_id
        if stay_id is None:
            stay_id = folio["reservation_room_id"]
        elif one(
                conn, "SELECT 1 FROM reservation_rooms WHERE id = ? AND reservation_id IS ? "
                "AND property_id = ?", stay_id, folio["reservation_id"], property_id) is None:
            raise rule_violation(f"reservation room {stay_id} is not a room of the folio's "
                                 "reservation", field="reservation_room_id")
        unit_price_cents = (item["price_cents"] if charge.unit_price is None
                            else to_cents(charge.unit_price))
        gross_cents = line_total_cents(charge.quantity, unit_price_cents)
        discount_cents = (0 if charge.discount_pct is None
                          else _pct_of(gross_cents, charge.discount_pct))
        return post_line(
            conn, folio_id, line_type=CHARGE,
            description=charge.description if charge.description else item["name"],
            posted_on=charge.posted_on or business_date, quantity=charge.quantity,
            unit_price_cents=unit_price_cents, tax_pct=Decimal(item["tax_pct"]),
            room_code=stay_room_code(conn, stay_id), service_item_id=item["id"],
            reservation_room_id=stay_id, now=now, discount_cents=discount_cents,
        )
