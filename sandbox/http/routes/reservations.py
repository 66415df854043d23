"""Routes of API v1: reservations, their rooms and the guests placed in them."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query

from models.common import CancelledBy, ListOf, ReservationStatus, Scope
from models.guests import StayGuestAdd
from models.reservations import (
    AssignRoomInput,
    AssignRoomsInput,
    CancelInput,
    CheckInInput,
    CheckOutOptions,
    OperationResult,
    Reservation,
    ReservationCreate,
    ReservationCreated,
    ReservationPage,
    ReservationPatch,
    StayGuest,
    StayPatch,
)

from ...context import Ctx
from ...errors import invalid_request
from ...services import reservation_actions as actions
from ...services import stay_guests
from ...services.reservation_create import create_reservation
from ...services.reservation_list import ReservationFilters, list_reservations
from ...services.reservation_patch import patch_reservation
from ...services.reservation_view import reservation_model
from ...services.stay_patch import patch_stay
from ..deps import require
from .common import ERROR_RESPONSES

router = APIRouter(responses=ERROR_RESPONSES, tags=["reservations"])

Read = Annotated[Ctx, Depends(require(Scope.RESERVATIONS_READ))]
Write = Annotated[Ctx, Depends(require(Scope.RESERVATIONS_WRITE))]
GuestsWrite = Annotated[Ctx, Depends(require(Scope.GUESTS_WRITE))]
ROOM = "/reservations/{id}/rooms/{rid}"
Sort = Literal["arrival", "arrival_desc", "created_desc", "updated_desc"]


def _instant(value: str | None, field: str) -> datetime | None:
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00").replace(" ", "+"))
    except ValueError:
        raise invalid_request(f"{field} must be an RFC 3339 date-time", field=field) from None
    if parsed.tzinfo is None:
        raise invalid_request(f"{field} must carry a time zone (e.g. Z)", field=field)
    return parsed


@router.get("/reservations", response_model=ReservationPage, status_code=200,
            response_model_exclude_unset=True,
            summary="List reservations (rooms included; guests and folios absent)")
async def list_(
    ctx: Read,
    arrival_from: date | None = None,
    arrival_to: date | None = None,
    departure_from: date | None = None,
    departure_to: date | None = None,
    stay_on: date | None = None,
    created_since: Annotated[str | None, Query(description="RFC 3339 date-time",
                                               json_schema_extra={"format": "date-time"})] = None,
    updated_since: Annotated[str | None, Query(description="RFC 3339 date-time",
                                               json_schema_extra={"format": "date-time"})] = None,
    status: ReservationStatus | None = None,
    room_id: int | None = None,
    external_ref: str | None = None,
    booking_code: str | None = None,
    voucher: str | None = None,
    q: str | None = None,
    sort: Sort = "arrival",
    page: Annotated[int, Query(ge=1)] = 1,
    page_size: Annotated[int, Query(ge=1, le=200)] = 50,
) -> ReservationPage:
    filters = ReservationFilters(
        arrival_from=arrival_from, arrival_to=arrival_to, departure_from=departure_from,
        departure_to=departure_to, stay_on=stay_on,
        created_since=_instant(created_since, "created_since"),
        updated_since=_instant(updated_since, "updated_since"), status=status, room_id=room_id,
        external_ref=external_ref, booking_code=booking_code, voucher=voucher, q=q)
    result = list_reservations(ctx, filters, sort, page, page_size)
    return ReservationPage(data=result.data, page=result.page, page_size=result.page_size,
                           total=result.total, pages=result.pages)


@router.post("/reservations", response_model=ReservationCreated, status_code=201)
async def create(ctx: Write, body: ReservationCreate) -> ReservationCreated:
    reservation_id, warnings = create_reservation(ctx, body)
    return ReservationCreated(reservation=reservation_model(ctx.conn, ctx.property_id,
                                                            reservation_id), warnings=warnings)


@router.get("/reservations/{id}", response_model=Reservation, status_code=200)
async def detail(ctx: Read, id: int) -> Reservation:
    return reservation_model(ctx.conn, ctx.property_id, id)


@router.patch("/reservations/{id}", response_model=Reservation, status_code=200)
async def patch(ctx: Write, id: int, body: ReservationPatch) -> Reservation:
    patch_reservation(ctx, id, body)
    return reservation_model(ctx.conn, ctx.property_id, id)


def _result(ctx: Ctx, reservation_id: int, outcome: actions.Outcome) -> OperationResult:
    return OperationResult(reservation=reservation_model(ctx.conn, ctx.property_id,
                                                         reservation_id),
                           done=outcome.done, skipped=outcome.skipped)


@router.post("/reservations/{id}/assign-rooms", response_model=OperationResult, status_code=200)
async def assign_rooms(ctx: Write, id: int,
                       body: AssignRoomsInput | None = None) -> OperationResult:
    allow = body.allow_other_type if body is not None else False
    return _result(ctx, id, actions.assign_all(ctx, id, allow))


@router.post("/reservations/{id}/confirm", response_model=OperationResult, status_code=200)
async def confirm(ctx: Write, id: int) -> OperationResult:
    return _result(ctx, id, actions.confirm_all(ctx, id))


@router.post("/reservations/{id}/cancel", response_model=OperationResult, status_code=200)
async def cancel(ctx: Write, id: int,
                 body: CancelInput | None = None) -> OperationResult:
    by = body.by if body is not None else CancelledBy.GUEST
    return _result(ctx, id, actions.cancel_all(ctx, id, by))


@router.post("/reservations/{id}/check-in", response_model=OperationResult, status_code=200)
async def check_in(ctx: Write, id: int,
                   body: CheckInInput | None = None) -> OperationResult:
    charge = body.charge_no_show if body is not None else False
    return _result(ctx, id, actions.check_in_all(ctx, id, charge))


@router.post("/reservations/{id}/check-out", response_model=OperationResult, status_code=200)
async def check_out(ctx: Write, id: int,
                    body: CheckOutOptions | None = None) -> OperationResult:
    return _result(ctx, id, actions.check_out_all(ctx, id, body or CheckOutOptions()))


@router.patch("/reservations/{id}/rooms/{rid}", response_model=Reservation, status_code=200)
async def patch_room(ctx: Write, id: int, rid: int,
                     body: StayPatch) -> Reservation:
    patch_stay(ctx, id, rid, body)
    return reservation_model(ctx.conn, ctx.property_id, id)


@router.post(f"{ROOM}/assign-room", response_model=Reservation, status_code=200)
async def assign_room(ctx: Write, id: int, rid: int,
                      body: AssignRoomInput | None = None) -> Reservation:
    actions.assign_room(ctx, id, rid, body.room_id if body is not None else None)
    return reservation_model(ctx.conn, ctx.property_id, id)


@router.post("/reservations/{id}/rooms/{rid}/confirm", response_model=Reservation, status_code=200)
async def confirm_room(ctx: Write, id: int, rid: int) -> Reservation:
    actions.confirm_room(ctx, id, rid)
    return reservation_model(ctx.conn, ctx.property_id, id)


@router.post("/reservations/{id}/rooms/{rid}/cancel", response_model=Reservation, status_code=200)
async def cancel_room(ctx: Write, id: int, rid: int,
                      body: CancelInput | None = None) -> Reservation:
    actions.cancel_room(ctx, id, rid, body.by if body is not None else CancelledBy.GUEST)
    return reservation_model(ctx.conn, ctx.property_id, id)


@router.post("/reservations/{id}/rooms/{rid}/check-in", response_model=Reservation, status_code=200)
async def check_in_room(ctx: Write, id: int, rid: int,
                        body: CheckInInput | None = None) -> Reservation:
    actions.check_in_room(ctx, id, rid, body.charge_no_show if body is not None else False)
    return reservation_model(ctx.conn, ctx.property_id, id)


@router.post(f"{ROOM}/check-out", response_model=Reservation, status_code=200)
async def check_out_room(ctx: Write, id: int, rid: int,
                         body: CheckOutOptions | None = None) -> Reservation:
    actions.check_out_room(ctx, id, rid, body or CheckOutOptions())
    return reservation_model(ctx.conn, ctx.property_id, id)


@router.get(f"{ROOM}/guests", response_model=ListOf[StayGuest], status_code=200)
async def list_stay_guests(ctx: Read, id: int, rid: int) -> ListOf[StayGuest]:
    return ListOf[StayGuest](data=stay_guests.list_guests(ctx, id, rid))


@router.post("/reservations/{id}/rooms/{rid}/guests", response_model=ListOf[StayGuest],
             status_code=201)
async def add_stay_guest(ctx: GuestsWrite, id: int, rid: int,
                         body: StayGuestAdd) -> ListOf[StayGuest]:
    return ListOf[StayGuest](data=stay_guests.add_guest(ctx, id, rid, body))


@router.delete(f"{ROOM}/guests/{{gid}}", response_model=ListOf[StayGuest], status_code=200)
async def remove_stay_guest(ctx: GuestsWrite, id: int, rid: int,
                            gid: int) -> ListOf[StayGuest]:
    return ListOf[StayGuest](data=stay_guests.remove_guest(ctx, id, rid, gid))
