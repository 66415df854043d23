"""Reservations (the head), room entries (stays), stay guests and the operations on them."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import Field

from .availability import Brackets, NightlyPrice
from .common import (
    CancelledBy,
    FolioStatus,
    Input,
    Num,
    Page,
    Party,
    PartyKind,
    RatePlanRef,
    ReservationStatus,
    ReservationType,
    Resource,
    RoomRef,
    Timestamp,
)

HHMM = Annotated[str, Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")]


class StayGuest(Resource):
    id: int
    guest_id: int
    is_main: bool
    name: str
    first_name: str | None
    last_name: str | None
    email: str | None
    nationality: str | None
    birth_date: date | None


class ReservationRoom(Resource):
    id: int
    status: ReservationStatus
    arrival: date
    departure: date
    nights: int
    arrival_time: str
    adults: int
    brackets: dict[int, int]
    room_type: RoomRef
    room: RoomRef | None
    rate_plan: RatePlanRef | None
    offer_id: int | None
    discount_pct: Num
    price_override: Num | None
    option_expires_on: date | None
    cancelled_by: CancelledBy | None
    checked_in_at: Timestamp | None
    checked_out_at: Timestamp | None
    notes: str
    guests: list[StayGuest] | None = None
    total: Num
    updated_at: Timestamp


class FolioRef(Resource):
    id: int
    description: str
    status: FolioStatus
    charges: Num
    payments: Num
    balance: Num


class Reservation(Resource):
    id: int
    arrival: date
    departure: date
    nights: int
    status: ReservationStatus
    type: ReservationType
    booker: Party | None
    billing_party: Party | None
    booker_reference: str
    booking_code: str
    external_ref: str
    channel: str
    source: str
    market: str
    group_name: str
    notes: str
    voucher: str
    option_expires_on: date | None
    rooms: list[ReservationRoom]
    folios: list[FolioRef] | None = None
    total: Num
    created_at: Timestamp
    updated_at: Timestamp


class ReservationPage(Page):
    data: list[Reservation]


class NewParty(Input):
    kind: PartyKind = PartyKind.PRIVATE
    first_name: str | None = None
    last_name: str | None = None
    company_name: str | None = None
    email: str | None = None
    phone: str | None = None
    city: str | None = None
    country_code: Annotated[str, Field(pattern=r"^[A-Z]{2}$")] | None = None


class UnitGuest(Input):
    first_name: str | None = None
    last_name: str | None = None
    party_id: int | None = None


class Unit(Input):
    room_id: int | None = None
    guests: list[UnitGuest] = Field(default_factory=list)


class RoomRequest(Input):
    room_type_id: int
    arrival: date
    departure: date
    adults: Annotated[int, Field(ge=1)] = 1
    brackets: Brackets = Field(default_factory=dict)
    quantity: Annotated[int, Field(ge=1, le=100)] = 1
    room_id: int | None = None
    rate_plan_id: int | None = None
    offer_id: int | None = None
    discount_pct: Annotated[Num, Field(ge=0, le=100)] | None = None
    price_override: NightlyPrice | None = None
    arrival_time: HHMM | None = None
    notes: str | None = None
    units: list[Unit] | None = None


class ReservationCreate(Input):
    rooms: Annotated[list[RoomRequest], Field(min_length=1)]
    party_id: int | None = None
    new_party: NewParty | None = None
    billing_party_id: int | None = None
    booker_is_guest: bool | None = None
    status: Literal["confirmed", "option"] = "confirmed"
    option_expires_on: date | None = None
    external_ref: str | None = None
    booker_reference: str | None = None
    booking_code: str | None = None
    voucher: str | None = None
    group_name: str | None = None
    notes: str | None = None
    source: str | None = None
    channel: str | None = None
    market: str | None = None
    force: bool = False


class ReservationCreated(Resource):
    reservation: Reservation
    warnings: list[str]


class ReservationPatch(Input):
    billing_party_id: int | None = None
    booker_id: int | None = None
    booker_reference: str | None = None
    booking_code: str | None = None
    channel: str | None = None
    external_ref: str | None = None
    group_name: str | None = None
    market: str | None = None
    notes: str | None = None
    source: str | None = None
    voucher: str | None = None
    option_expires_on: date | Literal[""] | None = None


class StayPatch(Input):
    arrival: date | None = None
    departure: date | None = None
    adults: Annotated[int, Field(ge=1)] | None = None
    brackets: Brackets | None = None
    arrival_time: HHMM | None = None
    notes: str | None = None
    room_type_id: int | None = None
    rate_plan_id: int | None = None
    offer_id: int | None = None
    room_id: int | None = None
    discount_pct: Annotated[Num, Field(ge=0, le=100)] | None = None
    price_override: NightlyPrice | None = None
    clear_offer: bool = False
    clear_price_override: bool = False
    clear_room: bool = False


class AssignRoomsInput(Input):
    allow_other_type: bool = False


class AssignRoomInput(Input):
    room_id: int | None = None


class CancelInput(Input):
    by: CancelledBy = CancelledBy.GUEST


class CheckInInput(Input):
    charge_no_show: bool = False


class CheckOutOptions(Input):
    early_departure: bool = False
    charge_full_period: bool = False
    charge_remaining: bool | None = None


class SkippedRoom(Resource):
    room_id: int
    room: str
    reason: str


class OperationResult(Resource):
    reservation: Reservation
    done: list[int]
    skipped: list[SkippedRoom]
