"""Writing room entries (stays): pricing into stay_nights, touching updated_at, stay events,
and posting accommodation nights on a folio.

Money: a stay's `total_cents` is always the sum of its rows in `stay_nights`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from models.events import EventType

from ..context import Ctx
from ..db import all_rows, iso, one, ts
from .events import record_event
from .folios import CHARGE, post_line
from .pricing import PricedStay, price_stay
from .reservation_view import room_code


def price_row(conn: sqlite3.Connection, property_id: int,
              stay: sqlite3.Row | Mapping[str, Any]) -> PricedStay:
    """Ask the rate engine for the stay as `stay` holds it (a reservation_rooms row or the
    same columns in a mapping)."""
    return price_stay(
        conn, property_id, room_type_id=stay["room_type_id"],
        arrival=date.fromisoformat(stay["arrival"]),
        departure=date.fromisoformat(stay["departure"]), adults=stay["adults"],
        brackets={int(k): v for k, v in json.loads(stay["brackets"]).items()},
        rate_plan_id=stay["rate_plan_id"], offer_id=stay["offer_id"],
        discount_pct=Decimal(stay["discount_pct"]),
        price_override_cents=stay["price_override_cents"],
    )


def store_price(conn: sqlite3.Connection, stay_id: int, priced: PricedStay) -> None:
    """Rewrite the nights of the stay and its total (and the plan the engine used)."""
    conn.execute("DELETE FROM stay_nights WHERE reservation_room_id = ?", (stay_id,))
    conn.executemany(
        "INSERT INTO stay_nights (reservation_room_id, night, price_cents) VALUES (?, ?, ?)",
        [(stay_id, iso(night.night), night.price_cents) for night in priced.nights])
    conn.execute("UPDATE reservation_rooms SET total_cents = ?, rate_plan_id = ? WHERE id = ?",
                 (priced.total_cents, priced.rate_plan_id, stay_id))


def reprice(ctx: Ctx, stay_id: int) -> None:
    """Price the stay again from its current row and store the result."""
    stay = one(ctx.conn, "SELECT * FROM reservation_rooms WHERE id = ?", stay_id)
    assert stay is not None
    store_price(ctx.conn, stay_id, price_row(ctx.conn, ctx.property_id, stay))


def night_prices(conn: sqlite3.Connection, stay_id: int, first: date, end: date) -> list[
        tuple[date, int]]:
    """Stored price of each night of the stay within [first, end)."""
    return [(date.fromisoformat(row["night"]), row["price_cents"]) for row in all_rows(
        conn, "SELECT night, price_cents FROM stay_nights WHERE reservation_room_id = ? "
        "AND night >= ? AND night < ? ORDER BY night", stay_id, iso(first), iso(end))]


def keep_nights(conn: sqlite3.Connection, stay_id: int, arrival: date, departure: date) -> None:
    """Shrink the stay's priced nights to [arrival, departure); the total follows the nights."""
    conn.execute("DELETE FROM stay_nights WHERE reservation_room_id = ? AND (night < ? "
                 "OR night >= ?)", (stay_id, iso(arrival), iso(departure)))
    conn.execute("UPDATE reservation_rooms SET total_cents = (SELECT COALESCE(SUM(price_cents), 0)"
                 " FROM stay_nights WHERE reservation_room_id = ?) WHERE id = ?",
                 (stay_id, stay_id))


def touch(ctx: Ctx, reservation_id: int, stay_ids: list[int] | tuple[int, ...] = ()) -> None:
    """Mark a change: the rooms' updated_at and the head's (latest change of head or any room)."""
    now = ts(ctx.now())
    for stay_id in stay_ids:
        ctx.conn.execute("UPDATE reservation_rooms SET updated_at = ? WHERE id = ?",
                         (now, stay_id))
    ctx.conn.execute("UPDATE reservations SET updated_at = ? WHERE id = ?", (now, reservation_id))


def stay_data(conn: sqlite3.Connection, stay_id: int) -> dict[str, Any]:
    """The facts every stay.* event carries (docs/events.md)."""
    stay = one(conn, "SELECT * FROM reservation_rooms WHERE id = ?", stay_id)
    assert stay is not None
    return {
        "reservation_id": stay["reservation_id"], "status": stay["status"],
        "arrival": stay["arrival"], "departure": stay["departure"],
        "room_type_id": stay["room_type_id"], "room_id": stay["room_id"],
        "room": room_code(conn, stay["room_id"]),
    }


def stay_event(ctx: Ctx, event_type: EventType, stay_id: int, **extra: Any) -> None:
    record_event(ctx.conn, ctx.property_id, event_type, stay_id,
                 {**stay_data(ctx.conn, stay_id), **extra}, ctx.now())


def accommodation_vat(conn: sqlite3.Connection, property_id: int) -> Decimal:
    row = one(conn, "SELECT accommodation_vat_pct FROM properties WHERE id = ?", property_id)
    assert row is not None
    return Decimal(row["accommodation_vat_pct"])


def post_room_night(ctx: Ctx, stay: sqlite3.Row, folio_id: int, *, cents: int, posted_on: date,
                    description: str) -> int:
    """Post one room night of `stay` on a folio: line type `charge`, item ROOM, the property's
    accommodation VAT. The night audit and check-in/check-out charges all post through here."""
    item = one(ctx.conn, "SELECT id FROM items WHERE property_id = ? AND code = 'ROOM'",
               ctx.property_id)
    return post_line(ctx.conn, folio_id, line_type=CHARGE, description=description,
                     posted_on=posted_on, quantity=Decimal(1), unit_price_cents=cents,
                     tax_pct=accommodation_vat(ctx.conn, ctx.property_id),
                     room_code=room_code(ctx.conn, stay["room_id"]),
                     service_item_id=None if item is None else item["id"],
                     reservation_room_id=stay["id"], now=ctx.now())


def post_nights(ctx: Ctx, stay: sqlite3.Row, folio_id: int, nights: list[tuple[date, int]],
                label: str) -> int:
    """Charge each night (its stored price) on the folio, posted on the business date.

    Returns the amount charged in cents.
    """
    for night, cents in nights:
        post_room_night(ctx, stay, folio_id, cents=cents,
                        posted_on=ctx.business_date(),
                        description=f"Accommodation {iso(night)} ({label})")
    return sum(cents for _, cents in nights)
