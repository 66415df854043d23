"""Operations on a whole reservation (Operation result) and on one of its rooms.

A whole-reservation operation runs the room operation on every room it concerns, each in a
nested transaction: a room it refuses goes to `skipped` with the reason and leaves no trace.
Rooms an operation does not concern are neither done nor skipped:
- confirm: concerns rooms in option;
- cancel: rooms not cancelled (checked-in or checked-out rooms are skipped, spec rule 1);
- check-in: rooms in option or confirmed whose arrival is on or before the business date
  (an option room or a room without a physical room is skipped);
- check-out: checked-in rooms;
- assign-rooms: rooms without a physical room, not cancelled or checked out.
When `done` ends empty the call answers an error instead of 200: the error of the first
skipped room (so 409 `open_folios` / `room_unavailable` where that was the cause), or 422
`rule_violation` when no room was concerned at all. Exception: assign-rooms with every room
already assigned answers 200 with `done` empty (nothing to do is not a refusal).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import date

from models.common import CancelledBy, ReservationStatus
from models.reservations import CheckOutOptions, SkippedRoom

from ..context import Ctx
from ..db import transaction
from ..errors import ApiError, rule_violation
from . import checkout, stay_transitions
from .reservation_view import reservation_row, room_code, stay_row, stay_rows

S = ReservationStatus
RoomOp = Callable[[sqlite3.Row], object]


class Outcome:
    def __init__(self) -> None:
        self.done: list[int] = []
        self.skipped: list[SkippedRoom] = []
        self.first_error: ApiError | None = None


def _run(ctx: Ctx, stays: list[sqlite3.Row], operation: RoomOp, nothing: str) -> Outcome:
    outcome = Outcome()
    for stay in stays:
        try:
            with transaction(ctx.conn):
                if operation(stay) is False:
                    continue
        except ApiError as error:
            outcome.first_error = outcome.first_error or error
            outcome.skipped.append(SkippedRoom(room_id=stay["id"],
                                               room=room_code(ctx.conn, stay["room_id"]),
                                               reason=error.message))
            continue
        outcome.done.append(stay["id"])
    if not outcome.done:
        if outcome.first_error is not None:
            raise outcome.first_error
        if nothing:
            raise rule_violation(nothing)
    return outcome


def _whole(ctx: Ctx, reservation_id: int, concerned: Callable[[sqlite3.Row], bool],
           operation: RoomOp, nothing: str) -> Outcome:
    with transaction(ctx.conn):
        reservation_row(ctx.conn, ctx.property_id, reservation_id)
        stays = [stay for stay in stay_rows(ctx.conn, reservation_id) if concerned(stay)]
        return _run(ctx, stays, operation, nothing)


def confirm_all(ctx: Ctx, reservation_id: int) -> Outcome:
    return _whole(ctx, reservation_id, lambda s: s["status"] == S.OPTION.value,
                  lambda s: stay_transitions.confirm(ctx, s),
                  "no room of the reservation is in option")


def cancel_all(ctx: Ctx, reservation_id: int, by: CancelledBy) -> Outcome:
    return _whole(ctx, reservation_id, lambda s: s["status"] != S.CANCELLED.value,
                  lambda s: stay_transitions.cancel(ctx, s, by),
                  "every room of the reservation is already cancelled")


def check_in_all(ctx: Ctx, reservation_id: int, charge_no_show: bool) -> Outcome:
    today = ctx.business_date()

    def concerned(stay: sqlite3.Row) -> bool:
        return (stay["status"] in (S.OPTION.value, S.CONFIRMED.value)
                and date.fromisoformat(stay["arrival"]) <= today)

    return _whole(ctx, reservation_id, concerned,
                  lambda s: stay_transitions.check_in(ctx, s, charge_no_show),
                  f"no room of the reservation arrives on the business date {today}")


def check_out_all(ctx: Ctx, reservation_id: int, options: CheckOutOptions) -> Outcome:
    with transaction(ctx.conn):
        reservation_row(ctx.conn, ctx.property_id, reservation_id)
        stays = [s for s in stay_rows(ctx.conn, reservation_id)
                 if s["status"] == S.CHECKED_IN.value]
        checkout.ask_nights_to_charge(ctx, reservation_id, stays, options)
        return _run(ctx, stays, lambda s: checkout.check_out(ctx, s, options),
                    "no room of the reservation is checked in")


def assign_all(ctx: Ctx, reservation_id: int, allow_other_type: bool) -> Outcome:
    return _whole(
        ctx, reservation_id,
        lambda s: s["room_id"] is None and s["status"] not in stay_transitions.NOT_CHANGEABLE,
        lambda s: stay_transitions.assign(ctx, s, None, allow_other_type=allow_other_type), "")


# Room-level operations: the same room operations, refusals answered as they are.

def _on_room(ctx: Ctx, reservation_id: int, stay_id: int, operation: RoomOp) -> None:
    with transaction(ctx.conn):
        operation(stay_row(ctx.conn, ctx.property_id, reservation_id, stay_id))


def confirm_room(ctx: Ctx, reservation_id: int, stay_id: int) -> None:
    _on_room(ctx, reservation_id, stay_id, lambda s: stay_transitions.confirm(ctx, s))


def cancel_room(ctx: Ctx, reservation_id: int, stay_id: int, by: CancelledBy) -> None:
    _on_room(ctx, reservation_id, stay_id, lambda s: stay_transitions.cancel(ctx, s, by))


def check_in_room(ctx: Ctx, reservation_id: int, stay_id: int, charge_no_show: bool) -> None:
    _on_room(ctx, reservation_id, stay_id,
             lambda s: stay_transitions.check_in(ctx, s, charge_no_show))


def assign_room(ctx: Ctx, reservation_id: int, stay_id: int, room_id: int | None) -> None:
    _on_room(ctx, reservation_id, stay_id, lambda s: stay_transitions.assign(ctx, s, room_id))


def check_out_room(ctx: Ctx, reservation_id: int, stay_id: int,
                   options: CheckOutOptions) -> None:
    def operation(stay: sqlite3.Row) -> None:
        checkout.ask_nights_to_charge(ctx, reservation_id, [stay], options)
        checkout.check_out(ctx, stay, options)

    _on_room(ctx, reservation_id, stay_id, operation)
