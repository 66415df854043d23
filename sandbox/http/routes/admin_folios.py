"""Admin endpoints of the folio lifecycle, under `/_sandbox` when the server runs with --admin.

They stand for the front desk (payments, settlement, putting a folio on hold); API v1 has no
such operations. No key: the folio id says which property it belongs to.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import Field

from models.common import Input, Num
from models.folios import Folio

from ...context import system_ctx
from ...db import one, to_cents, transaction
from ...errors import not_found
from ...services.folio_lifecycle import close_folio, post_payment, reopen_folio, suspend_folio
from ...services.folios import folio_model, folio_totals
from ...services.stay_transitions import new_room_folio
from ..deps import get_state
from ..state import ServerState
from .common import ERROR_RESPONSES

router = APIRouter(responses=ERROR_RESPONSES, tags=["sandbox admin"])

State = Annotated[ServerState, Depends(get_state)]


class FolioInput(Input):
    description: Annotated[str, Field(min_length=1, max_length=200)] = "Late charges"


class PaymentInput(Input):
    amount: Annotated[Num, Field(ge=-1000000, le=1000000)] | None = None
    """Omitted: the folio's balance (settles it)."""
    description: Annotated[str, Field(max_length=500)] = "Payment"


def _property_of(state: ServerState, folio_id: int) -> int:
    row = one(
        state.conn, "SELECT property_id FROM folios WHERE id = ?", folio_id)
    if row is None:
        raise not_found(f"folio {folio_id}")
    return int(row["property_id"])


@router.post("/folios/{id}/payments", response_model=Folio, status_code=200)
async def pay(id: int, state: State, body: PaymentInput | None = None) -> Folio:
    body = body or PaymentInput()
    property_id = _property_of(state, id)
    if body.amount is None:
        amount_cents = folio_totals(state.conn, id).balance_cents
    else:
        amount_cents = to_cents(body.amount)
    if body.amount is not None or amount_cents != 0:
        post_payment(state.conn, property_id, id, amount_cents, body.description,
                     state.clock.now())
    return folio_model(state.conn, property_id, id)


@router.post("/folios/{id}/close", response_model=Folio, status_code=200)
async def close(id: int, state: State) -> Folio:
    property_id = _property_of(state, id)
    close_folio(state.conn, property_id, id, state.clock.now())
    return folio_model(state.conn, property_id, id)


@router.post("/folios/{id}/suspend", response_model=Folio, status_code=200)
async def suspend(id: int, state: State) -> Folio:
    property_id = _property_of(state, id)
    suspend_folio(state.conn, property_id, id, state.clock.now())
    return folio_model(state.conn, property_id, id)


@router.post("/folios/{id}/reopen", response_model=Folio, status_code=200)
async def reopen(id: int, state: State) -> Folio:
    property_id = _property_of(state, id)
    reopen_folio(state.conn, property_id, id, state.clock.now())
    return folio_model(state.conn, property_id, id)


@router.post("/stays/{rid}/folios", response_model=Folio, status_code=201)
async def open_room_folio(rid: int, state: State, body: FolioInput | None = None) -> Folio:
    """A new open folio on a room of a reservation (any status): where the desk posts a late
    charge once the room's folios are closed."""
    body = body or FolioInput()
    stay = one(state.conn, "SELECT * FROM reservation_rooms WHERE id = ?", rid)
    if stay is None:
        raise not_found(f"reservation room {rid}")
    property_id = int(stay["property_id"])
    with transaction(state.conn):
        folio_id = new_room_folio(system_ctx(state, property_id), stay, body.description)
    return folio_model(state.conn, property_id, folio_id)
