"""Routes of API v1: folios (spec, Endpoints, Folios)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from models.common import ListOf, Scope
from models.folios import ChargeInput, Folio

from ...context import Ctx
from ...services.folios import folio_model, post_charge, reservation_folios
from ..deps import require
from .common import ERROR_RESPONSES

router = APIRouter(responses=ERROR_RESPONSES, tags=["folios"])

Reader = Annotated[Ctx, Depends(require(Scope.FOLIOS_READ))]
Writer = Annotated[Ctx, Depends(require(Scope.FOLIOS_WRITE))]


@router.get("/reservations/{id}/folios", response_model=ListOf[Folio], status_code=200)
async def list_reservation_folios(id: int, ctx: Reader) -> ListOf[Folio]:
    return ListOf[Folio](data=reservation_folios(ctx.conn, ctx.property_id, id))


@router.get("/folios/{id}", response_model=Folio, status_code=200)
async def get_folio(id: int, ctx: Reader) -> Folio:
    return folio_model(ctx.conn, ctx.property_id, id)


@router.post("/folios/{id}/charges", response_model=Folio, status_code=201)
async def post_folio_charge(id: int, body: ChargeInput, ctx: Writer) -> Folio:
    post_charge(ctx.conn, ctx.property_id, id, body, ctx.business_date(), ctx.now())
    return folio_model(ctx.conn, ctx.property_id, id)
