"""Routes of API v1: availability and quotes (spec, Endpoints: Availability and quotes)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, Query

from models.availability import (
    Availability,
    AvailabilityDay,
    Quote,
    QuoteNight,
    QuoteRequest,
    TypeAvailability,
)
from models.common import Scope

from ...context import Ctx
from ...db import all_rows, from_cents
from ...errors import invalid_request
from ...services import property_data
from ...services.availability import type_availability
from ...services.pricing import override_cents, price_stay
from ..deps import require
from .common import ERROR_RESPONSES

router = APIRouter(responses=ERROR_RESPONSES, tags=["availability and quotes"])

AvailabilityRead = Annotated[Ctx, Depends(require(Scope.AVAILABILITY_READ))]
DEFAULT_NIGHTS = 14
MAX_NIGHTS = 62


@router.get("/availability", response_model=Availability, status_code=200,
            response_model_by_alias=True)
async def get_availability(
    ctx: AvailabilityRead,
    from_: Annotated[date | None, Query(alias="from",
                                        description="First night; default the business date.")]
    = None,
    to: Annotated[date | None, Query(description="Exclusive end; default `from` + 14 nights; "
                                     "at most 62 nights after `from`.")] = None,
) -> Availability:
    first = from_ or ctx.business_date()
    try:
        end = to or first + timedelta(days=DEFAULT_NIGHTS)
    except OverflowError:
        raise invalid_request("from is too late for a 14-night default period",
                              field="from") from None
    if end <= first:
        raise invalid_request("to must be after from", field="to")
    if (end - first).days > MAX_NIGHTS:
        raise invalid_request(f"the period is at most {MAX_NIGHTS} nights", field="to")
    counts = type_availability(ctx.conn, ctx.property_id, first, end)
    names = {row["id"]: row for row in all_rows(
        ctx.conn, "SELECT id, code, name FROM room_types WHERE property_id = ?", ctx.property_id)}
    data = [
        TypeAvailability(
            room_type_id=type_id, code=names[type_id]["code"], name=names[type_id]["name"],
            days=[AvailabilityDay(date=d.night, total=d.total, occupied=d.occupied,
                                  out_of_order=d.out_of_order, available=d.available)
                  for d in days])
        for type_id, days in counts.items()
    ]
    return Availability.model_validate({"data": data, "from": first, "to": end})


@router.post("/quotes", response_model=Quote, status_code=200)
async def create_quote(ctx: AvailabilityRead, body: QuoteRequest) -> Quote:
    """Price a stay night by night with the rate engine; nothing is booked."""
    # An unknown type is a missing record (404); what the engine refuses is 422.
    property_data.require_room_type(ctx.conn, ctx.property_id, body.room_type_id)
    priced = price_stay(
        ctx.conn, ctx.property_id, room_type_id=body.room_type_id, arrival=body.arrival,
        departure=body.departure, adults=body.adults, brackets=dict(body.brackets),
        rate_plan_id=body.rate_plan_id, offer_id=body.offer_id, discount_pct=body.discount_pct,
        price_override_cents=override_cents(body.price_override),
    )
    return Quote(
        total=from_cents(priced.total_cents),
        nights=[QuoteNight(date=n.night, list_price=from_cents(n.list_price_cents),
                           discount_pct=n.discount_pct, price=from_cents(n.price_cents))
                for n in priced.nights],
    )
