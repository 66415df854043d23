"""The point of sale and the city-tax postings, with the failures of a real interface.

Every POS ticket line is written to the POS ledger (table sim_pos_ledger, exported as one CSV
per business date); a share of them (`drop_share`) never reaches the folio, as when the POS
interface loses a message, and the same share of city-tax postings is lost too. Each lost
posting is recorded in sim_dropped_postings: the ground truth reconciliation must find.
Folio lines of POS charges carry the ticket in their description: "Bar [T-000123/1]".
"""

from __future__ import annotations

import csv
import random
import sqlite3
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path

from models.folios import ChargeInput

from ..context import Ctx
from ..db import all_rows, from_cents, insert, iso, one, ts
from ..services.folios import post_charge, room_open_folio
from ..services.stay_transitions import new_room_folio
from .hotel import HotelData

LEDGER_COLUMNS = ("ticket_id", "line", "business_date", "posted_at", "reservation_id",
                  "reservation_room_id", "room", "item_code", "quantity", "unit_price", "total")


@dataclass(frozen=True)
class TicketLine:
    item_code: str
    quantity: int
    unit_price_cents: int | None = None
    """None: the item's list price."""


class PosTerminal:
    """Posts tickets and city tax for one hotel; decides which postings are lost."""

    def __init__(self, ctx: Ctx, hotel: HotelData, drop_share: float) -> None:
        self.ctx = ctx
        self.hotel = hotel
        self.drop_share = drop_share
        last = one(ctx.conn, "SELECT MAX(CAST(SUBSTR(ticket_id, 3) AS INTEGER)) AS n FROM "
                   "sim_pos_ledger WHERE property_id = ?", ctx.property_id)
        self.last_ticket = int(last["n"] or 0) if last is not None else 0

    def ticket(self, stay: sqlite3.Row, room: str, lines: list[TicketLine], day: date,
               rng: random.Random) -> str:
        """Ring up a ticket charged to the room; returns its id."""
        self.last_ticket += 1
        ticket_id = f"T-{self.last_ticket:06d}"
        posted_at = ts(self.ctx.now())
        for number, line in enumerate(lines, start=1):
            item = self.hotel.items[line.item_code]
            unit = item.price_cents if line.unit_price_cents is None else line.unit_price_cents
            total = unit * line.quantity
            description = f"{item.name} [{ticket_id}/{number}]"
            dropped = rng.random() < self.drop_share
            line_id = None
            if not dropped:
                line_id = self._post(stay, item.id, line.quantity, unit, description, day)
            insert(self.ctx.conn, "sim_pos_ledger", {
                "property_id": self.ctx.property_id, "ticket_id": ticket_id, "line": number,
                "business_date": iso(day), "posted_at": posted_at,
                "reservation_id": stay["reservation_id"], "reservation_room_id": stay["id"],
                "room": room, "item_code": item.code, "quantity": str(line.quantity),
                "unit_price_cents": unit, "total_cents": total, "folio_line_id": line_id,
            })
            if dropped:
                self._dropped("pos", stay, room, item.code, line.quantity, unit, description,
                              day, ticket_id, number)
        return ticket_id

    def city_tax(self, stay: sqlite3.Row, room: str, persons: int, unit_cents: int, day: date,
                 rng: random.Random) -> None:
        """City tax of the night `day` for `persons` taxable persons (outside VAT)."""
        item = self.hotel.items["CTAX"]
        description = f"{item.name} night {day}"
        if rng.random() < self.drop_share:
            self._dropped("city_tax", stay, room, item.code, persons, unit_cents,
                          description, day, None, None)
            return
        self._post(stay, item.id, persons, unit_cents, description, day)

    def _post(self, stay: sqlite3.Row, item_id: int, quantity: int, unit_cents: int,
              description: str, day: date) -> int:
        folio_id = room_open_folio(self.ctx.conn, stay["id"])
        if folio_id is None:
            folio_id = new_room_folio(self.ctx, stay, "Room")
        return post_charge(
            self.ctx.conn, self.ctx.property_id, folio_id,
            ChargeInput(item_id=item_id, reservation_room_id=stay["id"],
                        quantity=Decimal(quantity), unit_price=from_cents(unit_cents),
                        description=description),
            day, self.ctx.now())

    def _dropped(self, kind: str, stay: sqlite3.Row, room: str, item_code: str, quantity: int,
                 unit_cents: int, description: str, day: date, ticket_id: str | None,
                 line: int | None) -> None:
        insert(self.ctx.conn, "sim_dropped_postings", {
            "property_id": self.ctx.property_id, "kind": kind, "business_date": iso(day),
            "reservation_id": stay["reservation_id"], "reservation_room_id": stay["id"],
            "room": room, "item_code": item_code, "ticket_id": ticket_id, "line": line,
            "quantity": str(quantity), "unit_price_cents": unit_cents,
            "total_cents": unit_cents * quantity, "description": description,
        })


def export_ledger(conn: sqlite3.Connection, property_id: int, property_code: str, day: date,
                  folder: Path) -> Path:
    """Write the POS ledger of one business date: `{folder}/pos-{code}-{date}.csv`."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"pos-{property_code}-{iso(day)}.csv"
    rows = all_rows(conn, "SELECT * FROM sim_pos_ledger WHERE property_id = ? AND "
                    "business_date = ? ORDER BY ticket_id, line", property_id, iso(day))
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(LEDGER_COLUMNS)
        for row in rows:
            writer.writerow([
                row["ticket_id"], row["line"], row["business_date"], row["posted_at"],
                row["reservation_id"], row["reservation_room_id"], row["room"],
                row["item_code"], row["quantity"], from_cents(row["unit_price_cents"]),
                from_cents(row["total_cents"]),
            ])
    return path
