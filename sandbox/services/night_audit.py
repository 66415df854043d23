"""The night audit: close a property's business date D (docs/sandbox.md, "Time and the night
audit" and "No-show and option policy").

In one transaction, in this order (the industry's sequence, domain.md "Night audit"):
1. Options past their expiry lapse: every room still in `option` whose `option_expires_on`
   (the room's, else the reservation's) is D or earlier, or whose arrival is D or earlier, is
   cancelled by the hotel (`cancelled_by` hotel, event stay.cancelled with
   `{by: hotel, reason: option_expired}`). Nothing is charged.
2. No-shows: every room still `confirmed` whose arrival is D or earlier is cancelled by the
   hotel with `no_show` = 1; its first night (the price of that night in stay_nights) is charged
   on its folio; event stay.cancelled with `{by: hotel, reason: no_show}`.
3. Room and tax: each room checked in and in house on the night D (arrival <= D < departure)
   gets the price of the night D from stay_nights posted on its open folio (a new folio when
   none is open): line type `charge`, item ROOM, VAT of the property (10%, included), posted on
   D, description "Room 104 night 2026-03-01". The room's housekeeping becomes `dirty`
   (a stayover needs service).
4. The business date moves to D + 1.

Idempotent per date: a date already closed changes nothing, and each (room entry, night)
is charged at most once (table audit_room_charges), whoever runs the audit.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta

from models.common import CancelledBy, FolioStatus, ReservationStatus
from models.events import EventType

from ..context import Ctx
from ..db import all_rows, insert, iso, one, transaction, ts, update
from ..errors import rule_violation
from .folios import open_folio
from .stay_store import post_room_night, stay_event, touch
from .stay_transitions import clear_head_option

S = ReservationStatus
NO_SHOW = "no_show"
OPTION_EXPIRED = "option_expired"


@dataclass
class AuditResult:
    property_id: int
    business_date: date
    """The date the audit closed (or found closed)."""
    new_business_date: date
    already_closed: bool = False
    room_charges: int = 0
    room_revenue_cents: int = 0
    no_shows: list[int] = field(default_factory=list)
    """Room entries (reservation_rooms ids) cancelled as no-shows."""
    lapsed_options: list[int] = field(default_factory=list)
    unpriced_nights: list[int] = field(default_factory=list)
    """Room entries in house on D without a price for D (an overstay): nothing charged."""

    def summary(self) -> dict[str, object]:
        data = asdict(self)
        data["business_date"] = iso(self.business_date)
        data["new_business_date"] = iso(self.new_business_date)
        return data


def property_business_date(conn: sqlite3.Connection, property_id: int) -> date:
    row = one(conn, "SELECT business_date FROM properties WHERE id = ?", property_id)
    if row is None:
        raise rule_violation(f"property {property_id} does not exist", field="property_id")
    return date.fromisoformat(row["business_date"])


def run_night_audit(ctx: Ctx, business_date: date | None = None) -> AuditResult:
    """Close the property's business date (or check that `business_date` is already closed).

    `business_date` given and earlier than the property's: it is closed already, nothing
    changes. Later than the property's: refused (dates are closed one at a time, in order).
    """
    conn = ctx.conn
    with transaction(conn):
        current = property_business_date(conn, ctx.property_id)
        day = business_date or current
        if day < current:
            return AuditResult(ctx.property_id, day, current, already_closed=True)
        if day > current:
            raise rule_violation(f"the business date of property {ctx.property_id} is "
                                 f"{current}: {day} cannot be closed before it",
                                 field="business_date")
        result = AuditResult(ctx.property_id, day, day + timedelta(days=1))
        _lapse_options(ctx, day, result)
        _no_shows(ctx, day, result)
        _room_charges(ctx, day, result)
        conn.execute("UPDATE properties SET business_date = ? WHERE id = ?",
                     (iso(result.new_business_date), ctx.property_id))
        insert(conn, "night_audits", {
            "property_id": ctx.property_id, "business_date": iso(day),
            "ran_at": ts(ctx.now()), "summary": json.dumps(result.summary(), sort_keys=True),
        })
        return result


def _cancel_by_hotel(ctx: Ctx, stay: sqlite3.Row, reason: str, *, no_show: bool) -> None:
    update(ctx.conn, "reservation_rooms", stay["id"], {
        "status": S.CANCELLED.value, "cancelled_by": CancelledBy.HOTEL.value,
        "option_expires_on": None, "no_show": int(no_show)})
    clear_head_option(ctx, stay["reservation_id"])
    touch(ctx, stay["reservation_id"], [stay["id"]])
    stay_event(ctx, EventType.STAY_CANCELLED, stay["id"], by=CancelledBy.HOTEL.value,
               reason=reason)


def _lapse_options(ctx: Ctx, day: date, result: AuditResult) -> None:
    for stay in all_rows(
        ctx.conn,
        "SELECT s.* FROM reservation_rooms s JOIN reservations r ON r.id = s.reservation_id "
        "WHERE s.property_id = ? AND s.status = ? AND "
        "(COALESCE(s.option_expires_on, r.option_expires_on) <= ? OR s.arrival <= ?) "
        "ORDER BY s.id", ctx.property_id, S.OPTION.value, iso(day), iso(day)):
        _cancel_by_hotel(ctx, stay, OPTION_EXPIRED, no_show=False)
        result.lapsed_options.append(stay["id"])


def _no_shows(ctx: Ctx, day: date, result: AuditResult) -> None:
    for stay in all_rows(
        ctx.conn, "SELECT * FROM reservation_rooms WHERE property_id = ? AND status = ? "
        "AND arrival <= ? ORDER BY id", ctx.property_id, S.CONFIRMED.value, iso(day)):
        first_night = date.fromisoformat(stay["arrival"])
        _charge_night(ctx, stay, first_night,
                      f"No-show {_room_label(ctx, stay)}".rstrip(), result)
        _cancel_by_hotel(ctx, stay, NO_SHOW, no_show=True)
        result.no_shows.append(stay["id"])


def _room_charges(ctx: Ctx, day: date, result: AuditResult) -> None:
    in_house = all_rows(
        ctx.conn, "SELECT * FROM reservation_rooms WHERE property_id = ? AND status = ? "
        "AND arrival <= ? AND departure > ? ORDER BY id",
        ctx.property_id, S.CHECKED_IN.value, iso(day), iso(day))
    for stay in in_house:
        _charge_night(ctx, stay, day, f"Room {_room_label(ctx, stay)}", result)
    room_ids = [stay["room_id"] for stay in in_house if stay["room_id"] is not None]
    ctx.conn.executemany("UPDATE rooms SET housekeeping = 'dirty' WHERE id = ?",
                         [(room_id,) for room_id in room_ids])


def _room_label(ctx: Ctx, stay: sqlite3.Row) -> str:
    if stay["room_id"] is None:
        return ""
    row = one(ctx.conn, "SELECT code FROM rooms WHERE id = ?", stay["room_id"])
    return "" if row is None else str(row["code"])


def _charge_night(ctx: Ctx, stay: sqlite3.Row, night: date, label: str,
                  result: AuditResult) -> None:
    """Post the stored price of `night` once on the room's open folio."""
    conn = ctx.conn
    if one(conn, "SELECT 1 FROM audit_room_charges WHERE reservation_room_id = ? AND night = ?",
           stay["id"], iso(night)) is not None:
        return
    price = one(conn, "SELECT price_cents FROM stay_nights WHERE reservation_room_id = ? "
                "AND night = ?", stay["id"], iso(night))
    if price is None:
        result.unpriced_nights.append(stay["id"])
        return
    line_id = post_room_night(ctx, stay, _open_folio_of(ctx, stay),
                              cents=price["price_cents"], posted_on=night,
                              description=f"{label} night {night}")
    insert(conn, "audit_room_charges", {"reservation_room_id": stay["id"], "night": iso(night),
                                        "folio_line_id": line_id})
    result.room_charges += 1
    result.room_revenue_cents += price["price_cents"]


def _open_folio_of(ctx: Ctx, stay: sqlite3.Row) -> int:
    """The room's first open folio; a new one (same holder) when none is open."""
    row = one(ctx.conn, "SELECT id FROM folios WHERE reservation_room_id = ? AND status = ? "
              "ORDER BY id LIMIT 1", stay["id"], FolioStatus.OPEN.value)
    if row is not None:
        return int(row["id"])
    first = one(ctx.conn, "SELECT guest_id, guest_name FROM folios WHERE reservation_room_id = ?"
                " ORDER BY id LIMIT 1", stay["id"])
    return open_folio(
        ctx.conn, ctx.property_id, reservation_id=stay["reservation_id"],
        reservation_room_id=stay["id"], guest_id=None if first is None else first["guest_id"],
        guest_name="" if first is None else first["guest_name"], description="Room",
        now=ctx.now())
