"""The booking engine and channel managers: create, confirm, modify and cancel bookings
through the reservation services, as a client of the API would.

Prices rise with occupancy: the stay is priced by the rate engine (`price_stay`, the plan's
discounts included) and, when the hotel's nights are already more than `MARKUP_FROM` sold,
booked with `price_override` = the average nightly price times a demand factor that grows
linearly to +`MARKUP_MAX` at a full hotel (a fixed nightly price is what the spec offers a
channel to send its own rate). Wholesale books at its net rate instead: the request's
`discount_pct` (20-30%) off the grid, never marked up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from models.common import CancelledBy, ReservationStatus
from models.reservations import NewParty, ReservationCreate, RoomRequest, StayPatch

from ..context import Ctx
from ..db import all_rows, from_cents, iso, one
from ..errors import ApiError
from ..services import reservation_actions
from ..services.pricing import price_stay
from ..services.reservation_create import create_reservation
from ..services.stay_patch import patch_stay
from .demand import BookingPlan, Modification, RoomAsk
from .hotel import HotelData

MARKUP_FROM = 0.6
MARKUP_MAX = 0.30
HUNDRED = Decimal(100)


@dataclass
class BookingStats:
    requested: int = 0
    created: int = 0
    refused: int = 0
    """Requests no room type could take, even forced (lost demand)."""
    overbooked: int = 0
    """Requests taken with `force` when no type that holds the persons had a room left."""
    modified: int = 0
    cancelled: int = 0
    cancel_refused: int = 0
    """Cancellations the API refused (the booking had lapsed, was cancelled or had arrived)."""
    confirmed: int = 0
    refusals: dict[str, int] = field(default_factory=dict)


class BookingEngine:
    def __init__(self, ctx: Ctx, hotel: HotelData) -> None:
        self.ctx = ctx
        self.hotel = hotel
        self.stats = BookingStats()
        self.reservation_of: dict[str, int] = {}
        """Plan ref -> reservation id."""

    def occupancy(self, arrival: date, departure: date) -> float:
        """Share of the hotel's rooms sold on the nights of [arrival, departure), on average."""
        nights = (departure - arrival).days
        row = one(  # the room-nights of the stays clipped to the span, summed by SQLite
            self.ctx.conn, "SELECT CAST(COALESCE(SUM(julianday(MIN(departure, ?2)) - "
            "julianday(MAX(arrival, ?3))), 0) AS INTEGER) AS sold FROM reservation_rooms "
            "WHERE property_id = ?1 AND status <> 'cancelled' AND arrival < ?2 AND departure > ?3",
            self.ctx.property_id, iso(departure), iso(arrival))
        assert row is not None
        return int(row["sold"]) / nights / max(self.hotel.profile.rooms, 1)

    def _brackets(self, ask: RoomAsk) -> dict[int, int]:
        counts: dict[int, int] = {}
        for code in ask.children:
            bracket_id = self.hotel.bracket_ids[code]
            counts[bracket_id] = counts.get(bracket_id, 0) + 1
        return counts

    def _override(self, plan: BookingPlan, ask: RoomAsk, type_id: int, plan_id: int | None,
                  factor: float) -> Decimal | None:
        if factor <= 1.0:
            return None
        priced = price_stay(
            self.ctx.conn, self.ctx.property_id, room_type_id=type_id, arrival=plan.arrival,
            departure=plan.departure, adults=ask.adults, brackets=self._brackets(ask),
            rate_plan_id=plan_id, offer_id=None, discount_pct=None, price_override_cents=None)
        average = Decimal(priced.total_cents) / len(priced.nights)
        return from_cents(int(average * Decimal(str(round(factor, 4)))))

    def create(self, plan: BookingPlan, plan_code: str | None = None) -> int | None:
        """Book the plan; when its room type is full, offer the other types that fit; when
        they are full too, force the booking of the type asked for. `plan_code` replaces the
        plan's rate plan (the cashier's complimentary and house-use rooms, never marked up).

        The demand book sells no night beyond what the hotel holds in the end, so a type is
        full here only for rooms held by bookings that will still cancel (or out of order):
        the hotel takes the overbooking, as PMSs do with channel bookings, and it resolves
        itself before the arrival."""
        self.stats.requested += 1
        occupancy = self.occupancy(plan.arrival, plan.departure)
        factor = 1.0 + max(0.0, occupancy - MARKUP_FROM) / (1 - MARKUP_FROM) * MARKUP_MAX
        code = plan_code or plan.plan_code
        if code in ("COMP", "HOUSE"):
            factor = 1.0
        plan_id = self.hotel.plan_ids.get(code)
        first = plan.rooms[0]
        persons = first.adults + sum(1 for c in first.children if c != "INF")
        candidates = [first.type_code] + [
            code for code in self.hotel.profile.rooms_by_type
            if code != first.type_code and self.hotel.profile.max_pax.get(code, 0) >= persons]
        attempts = [(code, False) for code in candidates[:3]] + [(first.type_code, True)]
        for type_code, force in attempts:
            try:
                reservation_id = self._create(plan, type_code, plan_id, factor, force)
            except ApiError as error:
                key = f"{error.status} {error.field}"
                self.stats.refusals[key] = self.stats.refusals.get(key, 0) + 1
                continue
            self.stats.created += 1
            self.stats.overbooked += force
            self.reservation_of[plan.ref] = reservation_id
            return reservation_id
        self.stats.refused += 1
        return None

    def _create(self, plan: BookingPlan, first_type: str, plan_id: int | None,
                factor: float, force: bool) -> int:
        rooms = []
        for index, ask in enumerate(plan.rooms):
            type_code = first_type if index == 0 else ask.type_code
            type_id = self.hotel.type_ids[type_code]
            rooms.append(RoomRequest(
                room_type_id=type_id, arrival=plan.arrival, departure=plan.departure,
                adults=ask.adults, brackets=self._brackets(ask), quantity=ask.quantity,
                rate_plan_id=plan_id, arrival_time=plan.arrival_time,
                discount_pct=None if plan.discount_pct is None else Decimal(plan.discount_pct),
                price_override=None if plan.discount_pct is not None
                else self._override(plan, ask, type_id, plan_id, factor)))
        booker = plan.booker
        option = plan.option_until is not None
        body = ReservationCreate(
            rooms=rooms,
            new_party=NewParty(first_name=booker.first_name, last_name=booker.last_name,
                               country_code=booker.country,
                               email=f"{booker.first_name}.{plan.ref}@guest.example".lower()),
            status="option" if option else "confirmed",
            option_expires_on=plan.option_until if option else None,
            external_ref=plan.ref, booking_code=_booking_code(plan),
            channel=plan.channel, source=plan.source, market=plan.market,
            group_name=plan.group_name or None, force=force,
        )
        reservation_id, _ = create_reservation(self.ctx, body)
        return reservation_id

    def confirm(self, plan: BookingPlan) -> None:
        reservation_id = self.reservation_of.get(plan.ref)
        if reservation_id is None:
            return
        try:
            reservation_actions.confirm_all(self.ctx, reservation_id)
            self.stats.confirmed += 1
        except ApiError:
            pass  # lapsed already, or cancelled

    def cancel(self, plan: BookingPlan) -> None:
        reservation_id = self.reservation_of.get(plan.ref)
        if reservation_id is None:
            return
        try:
            reservation_actions.cancel_all(self.ctx, reservation_id, CancelledBy.GUEST)
            self.stats.cancelled += 1
        except ApiError:
            self.stats.cancel_refused += 1

    def modify(self, plan: BookingPlan, change: Modification) -> None:
        reservation_id = self.reservation_of.get(plan.ref)
        if reservation_id is None:
            return
        stays = all_rows(self.ctx.conn, "SELECT id, status FROM reservation_rooms WHERE "
                         "reservation_id = ? AND status IN (?, ?) ORDER BY id", reservation_id,
                         ReservationStatus.OPTION.value, ReservationStatus.CONFIRMED.value)
        if not stays:
            return
        try:
            if change.kind == "drop_rooms":
                for stay in stays[-change.drop_rooms:] if len(stays) > change.drop_rooms else []:
                    reservation_actions.cancel_room(self.ctx, reservation_id, stay["id"],
                                                    CancelledBy.GUEST)
            elif change.kind == "dates":
                patch_stay(self.ctx, reservation_id, stays[0]["id"],
                           StayPatch(arrival=change.arrival, departure=change.departure))
            elif change.kind == "room_type" and change.type_code is not None:
                patch_stay(self.ctx, reservation_id, stays[0]["id"],
                           StayPatch(room_type_id=self.hotel.type_ids[change.type_code]))
            elif change.kind == "adults" and change.adults is not None:
                patch_stay(self.ctx, reservation_id, stays[0]["id"],
                           StayPatch(adults=change.adults))
            self.stats.modified += 1
        except ApiError:
            pass  # the hotel could not take the change: the booking stays as it was


def _booking_code(plan: BookingPlan) -> str:
    prefix = {"booking_com": "BDC", "expedia": "EXP", "website": "WEB", "wholesale": "TO",
              "gds": "GDS"}.get(plan.channel)
    if prefix is None:
        return ""
    return f"{prefix}-{abs(hash_ref(plan.ref)) % 10**9:09d}"


def hash_ref(ref: str) -> int:
    """A stable number of a ref (not Python's salted hash())."""
    value = 0
    for char in ref:
        value = (value * 131 + ord(char)) % (2**61 - 1)
    return value
