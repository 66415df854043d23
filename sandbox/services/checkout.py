"""Check-out of room entries (spec, Check-out rules; docs/sandbox.md, Check-out).

Order of the checks, the same for one room and for the whole reservation:
1. `nights_to_charge` (409, nothing changes): with `early_departure` and `charge_full_period`,
   `charge_remaining` omitted, a fiscal document of the reservation already issued, and nights
   after the business date still to charge in some room being checked out.
2. Per room: the state machine (checked_in -> checked_out, else 422); a departure after the
   business date without `early_departure` (422, field early_departure); an open balance on
   the room's folios (409 `open_folios`), measured BEFORE this check-out posts anything.
3. Effects: with `early_departure` the departure moves to the business date and the stay keeps
   the priced nights before it (its total shrinks to their sum). With `charge_full_period` the
   remaining nights are charged at their stored prices: on the room's open folio, or on a NEW
   folio when `charge_remaining` is true; `charge_remaining` false charges nothing. Those
   charges leave a balance on a folio that stays open for invoicing; they do not block the
   check-out that posts them.
"""

from __future__ import annotations

import sqlite3
from datetime import date

from models.errors import ErrorCode, NightsToChargeDetail, RoomNightsToCharge
from models.events import EventType
from models.reservations import CheckOutOptions

from ..context import Ctx
from ..db import from_cents, iso, ts, update
from ..errors import ApiError, conflict, rule_violation
from .folios import has_issued_document, room_balance_cents, room_open_folio
from .reservation_view import room_code
from .state_machine import S, Trigger, transition
from .stay_store import keep_nights, night_prices, post_nights, stay_event, touch
from .stay_transitions import new_room_folio


def remaining_nights(ctx: Ctx, stay: sqlite3.Row) -> list[tuple[date, int]]:
    """Priced nights from the business date to the departure (what an early departure leaves)."""
    today = ctx.business_date()
    departure = date.fromisoformat(stay["departure"])
    if departure <= today:
        return []
    return night_prices(ctx.conn, stay["id"], today, departure)


def ask_nights_to_charge(ctx: Ctx, reservation_id: int, stays: list[sqlite3.Row],
                         options: CheckOutOptions) -> None:
    """Check-out rule 2: answer 409 `nights_to_charge` (changing nothing) when it applies."""
    if not (options.early_departure and options.charge_full_period):
        return
    if options.charge_remaining is not None:
        return
    if not has_issued_document(ctx.conn, reservation_id):
        return
    rooms = []
    for stay in stays:
        if stay["status"] != S.CHECKED_IN.value:
            continue
        nights = remaining_nights(ctx, stay)
        if nights:
            rooms.append(RoomNightsToCharge(
                room_id=stay["id"], room=room_code(ctx.conn, stay["room_id"]),
                nights=len(nights), dates=[night for night, _ in nights],
                amount=from_cents(sum(cents for _, cents in nights))))
    if not rooms:
        return
    dates = sorted({day for room in rooms for day in room.dates})
    detail = NightsToChargeDetail(
        rooms=rooms, nights=sum(room.nights for room in rooms), dates=dates,
        amount=sum((room.amount for room in rooms), start=from_cents(0)))
    raise ApiError(
        409, ErrorCode.NIGHTS_TO_CHARGE,
        f"a document of the reservation is already issued and {detail.nights} night(s) remain "
        "to charge: repeat with charge_remaining true (charge them on a new folio) or false",
        nights_to_charge=detail.model_dump(mode="json"))


def check_out(ctx: Ctx, stay: sqlite3.Row, options: CheckOutOptions) -> None:
    status = transition(stay["status"], Trigger.CHECK_OUT)
    today = ctx.business_date()
    departure = date.fromisoformat(stay["departure"])
    if departure > today and not options.early_departure:
        raise rule_violation(f"departure is {departure}, after the business date {today}: send "
                             "early_departure to leave today", field="early_departure")
    balance = room_balance_cents(ctx.conn, stay["id"])
    if balance != 0:
        raise conflict(ErrorCode.OPEN_FOLIOS,
                       f"the folios of room entry {stay['id']} have an open balance of "
                       f"{from_cents(balance)}")
    remaining = remaining_nights(ctx, stay)
    charged = 0  # nights charged
    if departure > today:
        update(ctx.conn, "reservation_rooms", stay["id"], {"departure": iso(today)})
        keep_nights(ctx.conn, stay["id"], date.fromisoformat(stay["arrival"]), today)
        if options.charge_full_period and remaining and options.charge_remaining is not False:
            folio_id = (new_room_folio(ctx, stay, "Remaining nights")
                        if options.charge_remaining else _open_or_new(ctx, stay))
            post_nights(ctx, stay, folio_id, remaining, "early departure")
            charged = len(remaining)
    update(ctx.conn, "reservation_rooms", stay["id"],
           {"status": status.value, "checked_out_at": ts(ctx.now())})
    touch(ctx, stay["reservation_id"], [stay["id"]])
    stay_event(ctx, EventType.STAY_CHECKED_OUT, stay["id"],
               early_departure=departure > today, nights_charged=charged)


def _open_or_new(ctx: Ctx, stay: sqlite3.Row) -> int:
    folio_id = room_open_folio(ctx.conn, stay["id"])
    return folio_id if folio_id is not None else new_room_folio(ctx, stay, "Room")
