"""The status machine of a reservation room, as the spec's table of transitions (data, not code).

Spec, States and transitions: a move the table does not list (from `cancelled`, from
`checked_out`, confirm of a confirmed room, ...) answers 422 `rule_violation` (rule 3). The
reservation status is the least advanced status among its rooms not cancelled, and
`cancelled` when every room is cancelled.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from models.common import STATUS_ORDER, ReservationStatus

from ..errors import rule_violation

S = ReservationStatus


class Trigger(StrEnum):
    CONFIRM = "confirm"
    CHECK_IN = "check-in"
    CHECK_OUT = "check-out"
    CANCEL = "cancel"


TRANSITIONS: dict[tuple[ReservationStatus, Trigger], ReservationStatus] = {
    (S.OPTION, Trigger.CONFIRM): S.CONFIRMED,
    (S.CONFIRMED, Trigger.CHECK_IN): S.CHECKED_IN,
    (S.CHECKED_IN, Trigger.CHECK_OUT): S.CHECKED_OUT,
    # "any not yet checked_in or later" -> cancelled
    (S.OPTION, Trigger.CANCEL): S.CANCELLED,
    (S.CONFIRMED, Trigger.CANCEL): S.CANCELLED,
}
"""(from, trigger) -> to: exactly the rows of the spec's table after creation."""

WHY_NOT: dict[Trigger, str] = {
    Trigger.CONFIRM: "only a room in option can be confirmed",
    Trigger.CHECK_IN: "only a confirmed room can be checked in",
    Trigger.CHECK_OUT: "only a checked-in room can be checked out",
    Trigger.CANCEL: "a room checked in or later cannot be cancelled",
}


def allowed(current: ReservationStatus | str, trigger: Trigger) -> bool:
    return (S(current), trigger) in TRANSITIONS


def refusal(current: ReservationStatus | str, trigger: Trigger) -> str:
    """Why the table refuses `trigger` from `current` (for messages and `skipped` reasons)."""
    return f"{WHY_NOT[trigger]}; the room is {S(current).value}"


def transition(current: ReservationStatus | str, trigger: Trigger) -> ReservationStatus:
    """The status after `trigger`, or 422 `rule_violation` when the table lists no such move."""
    target = TRANSITIONS.get((S(current), trigger))
    if target is None:
        raise rule_violation(refusal(current, trigger), field="status")
    return target


def reservation_status(room_statuses: Iterable[ReservationStatus | str]) -> ReservationStatus:
    """Least advanced status among rooms not cancelled; `cancelled` when all are (or none)."""
    live = [S(status) for status in room_statuses if S(status) is not S.CANCELLED]
    if not live:
        return S.CANCELLED
    return min(live, key=STATUS_ORDER.index)
