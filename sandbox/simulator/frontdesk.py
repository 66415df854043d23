"""The front desk, the cashier and housekeeping of one hotel, acting through the services.

- Rooms are assigned in the morning for the day's arrivals (another type when the booked one
  is full: an upgrade); guests are checked in at their arrival time and placed in the room.
- Check-out: the cashier (cashier.py) settles every open folio of the room and closes it with
  its fiscal document, then the room is checked out. An early departure leaves before its
  departure date; on a non-refundable plan the remaining nights are still charged
  (`charge_full_period`): the document is already issued, so the call answers 409
  `nights_to_charge` and is repeated with `charge_remaining` true, which charges them on a new
  folio, settled and closed in turn.
- Housekeeping: a room checked out becomes dirty; dirty rooms are cleaned around midday and
  some inspected in the afternoon (the night audit makes occupied rooms dirty again).
- Maintenance: now and then a free room goes out of order for a few nights (room_blocks).
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

from models.errors import ErrorCode
from models.guests import GuestInput, StayGuestAdd
from models.reservations import CheckOutOptions

from ..context import Ctx
from ..db import all_rows, insert, iso, one
from ..errors import ApiError
from ..services import reservation_actions
from ..services.availability import room_is_free, type_has_rooms
from ..services.stay_guests import add_guest
from .demand import FIRST_NAMES


@dataclass
class DeskStats:
    check_ins: int = 0
    check_outs: int = 0
    early_departures: int = 0
    nights_to_charge: int = 0
    not_assigned: int = 0
    documents: int = 0
    out_of_order: int = 0


class FrontDesk:
    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        self.stats = DeskStats()

    # -- rooms ------------------------------------------------------------------------------

    def assign(self, stay: sqlite3.Row) -> bool:
        if stay["room_id"] is not None:
            return True
        try:
            reservation_actions.assign_room(self.ctx, stay["reservation_id"], stay["id"], None)
            return True
        except ApiError:
            pass
        try:
            outcome = reservation_actions.assign_all(self.ctx, stay["reservation_id"], True)
            return stay["id"] in outcome.done
        except ApiError:
            self.stats.not_assigned += 1
            return False

    def check_in(self, stay_id: int, rng: random.Random, last_name: str) -> bool:
        stay = one(self.ctx.conn, "SELECT * FROM reservation_rooms WHERE id = ?", stay_id)
        if stay is None or stay["status"] != "confirmed":
            return False
        if not self.assign(stay):
            return False
        try:
            reservation_actions.check_in_room(self.ctx, stay["reservation_id"], stay_id, False)
        except ApiError:
            return False
        self.stats.check_ins += 1
        placed = one(self.ctx.conn, "SELECT COUNT(*) AS n FROM stay_guests WHERE "
                     "reservation_room_id = ?", stay_id)
        count = 0 if placed is None else int(placed["n"])
        wanted = 1 if stay["adults"] == 1 or rng.random() < 0.4 else stay["adults"]
        for _ in range(count, wanted):
            guest = GuestInput(first_name=rng.choice(FIRST_NAMES), last_name=last_name)
            add_guest(self.ctx, stay["reservation_id"], stay_id,
                      StayGuestAdd(guest=guest, is_main=count == 0))
            count += 1
        return True

    def check_out(self, stay_id: int, early: bool, charge_full_period: bool,
                  settle: Callable[[int], int]) -> bool:
        """Check a room out; `settle(stay_id)` (the cashier) settles and closes its folios
        and returns the documents it issued."""
        stay = one(self.ctx.conn, "SELECT * FROM reservation_rooms WHERE id = ?", stay_id)
        if stay is None or stay["status"] != "checked_in":
            return False
        self.stats.documents += settle(stay_id)
        options = CheckOutOptions(early_departure=early,
                                  charge_full_period=early and charge_full_period)
        try:
            reservation_actions.check_out_room(self.ctx, stay["reservation_id"], stay_id, options)
        except ApiError as error:
            if error.code != ErrorCode.NIGHTS_TO_CHARGE:
                return False
            self.stats.nights_to_charge += 1
            options = options.model_copy(update={"charge_remaining": True})
            reservation_actions.check_out_room(self.ctx, stay["reservation_id"], stay_id, options)
            self.stats.documents += settle(stay_id)
        self.stats.check_outs += 1
        self.stats.early_departures += int(early)
        if stay["room_id"] is not None:
            self.ctx.conn.execute("UPDATE rooms SET housekeeping = 'dirty' WHERE id = ?",
                                  (stay["room_id"],))
        return True

    # -- housekeeping and maintenance -------------------------------------------------------

    def clean_rooms(self) -> None:
        self.ctx.conn.execute("UPDATE rooms SET housekeeping = 'clean' WHERE property_id = ? "
                              "AND housekeeping = 'dirty'", (self.ctx.property_id,))

    def inspect_rooms(self, rng: random.Random) -> None:
        rows = all_rows(self.ctx.conn, "SELECT id FROM rooms WHERE property_id = ? AND "
                        "housekeeping = 'clean' ORDER BY id", self.ctx.property_id)
        chosen = [(row["id"],) for row in rows if rng.random() < 0.5]
        self.ctx.conn.executemany("UPDATE rooms SET housekeeping = 'inspected' WHERE id = ?",
                                  chosen)

    def maybe_out_of_order(self, day: date, rng: random.Random, per_month: float) -> None:
        if rng.random() >= per_month / 30:
            return
        rooms = all_rows(self.ctx.conn, "SELECT id, room_type_id FROM rooms WHERE "
                         "property_id = ? AND sellable = 1 ORDER BY id", self.ctx.property_id)
        room = rng.choice(rooms)
        first = day + timedelta(days=rng.randint(1, 10))
        end = first + timedelta(days=rng.randint(2, 5))
        if not room_is_free(self.ctx.conn, self.ctx.property_id, room["id"], first, end):
            return
        if not type_has_rooms(self.ctx.conn, self.ctx.property_id, room["room_type_id"],
                              first, end):
            return
        insert(self.ctx.conn, "room_blocks", {
            "property_id": self.ctx.property_id, "room_id": room["id"],
            "from_date": iso(first), "to_date": iso(end),
            "reason": rng.choice(("maintenance", "plumbing", "painting", "air conditioning")),
        })
        self.stats.out_of_order += 1
