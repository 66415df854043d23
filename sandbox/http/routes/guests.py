"""Routes of API v1: the guest archive (spec, Endpoints, Guests)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from models.common import ListOf, PartyKind, Scope
from models.guests import Guest, GuestInput

from ...context import Ctx
from ...db import transaction
from ...services.guests import create_guest, guest_model, guest_row, search_guests, update_guest
from ..deps import require
from .common import ERROR_RESPONSES

router = APIRouter(responses=ERROR_RESPONSES, tags=["guests"])

Reader = Annotated[Ctx, Depends(require(Scope.GUESTS_READ))]
Writer = Annotated[Ctx, Depends(require(Scope.GUESTS_WRITE))]

SEARCH_LIMIT_MAX = 200


@router.get("/guests", response_model=ListOf[Guest], status_code=200)
async def list_guests(
    ctx: Reader,
    q: Annotated[str | None, Query(max_length=200,
                                   description="part of name, e-mail, phone or document number")]
    = None,
    kind: PartyKind | None = None,
    limit: Annotated[int, Query(ge=1, le=SEARCH_LIMIT_MAX)] = 50,
) -> ListOf[Guest]:
    return ListOf[Guest](data=search_guests(ctx.conn, ctx.property_id, q=q, kind=kind,
                                            limit=limit))


@router.post("/guests", response_model=Guest, status_code=201)
async def create(body: GuestInput, ctx: Writer) -> Guest:
    with transaction(ctx.conn):
        guest_id = create_guest(ctx.conn, ctx.property_id,
                                body.model_dump(mode="json", exclude_unset=True), ctx.now())
    return guest_model(guest_row(ctx.conn, ctx.property_id, guest_id))


@router.get("/guests/{id}", response_model=Guest, status_code=200)
async def read(id: int, ctx: Reader) -> Guest:
    return guest_model(guest_row(ctx.conn, ctx.property_id, id))


@router.patch("/guests/{id}", response_model=Guest, status_code=200)
async def patch(id: int, body: GuestInput, ctx: Writer) -> Guest:
    with transaction(ctx.conn):
        update_guest(ctx.conn, ctx.property_id, id,
                     body.model_dump(mode="json", exclude_unset=True), ctx.now())
    return guest_model(guest_row(ctx.conn, ctx.property_id, id))
