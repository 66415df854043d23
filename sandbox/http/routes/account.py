"""Routes of API v1: account and property (spec, Endpoints: Account and property)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from models.common import ListOf, Scope
from models.property import (
    AgeBracket,
    Classifications,
    Item,
    Me,
    Property,
    RatePlan,
    Room,
    RoomType,
)

from ...context import Ctx
from ...services import property_data
from ..deps import require
from .common import ERROR_RESPONSES

router = APIRouter(responses=ERROR_RESPONSES, tags=["account and property"])

AnyKey = Annotated[Ctx, Depends(require(None))]
PropertyRead = Annotated[Ctx, Depends(require(Scope.PROPERTY_READ))]


@router.get("/me", response_model=Me, status_code=200)
async def get_me(ctx: AnyKey) -> Me:
    """The calling key, its property and account (no scope needed)."""
    return property_data.me(ctx.conn, ctx.property_id, ctx.key_id)


@router.get("/property", response_model=Property, status_code=200)
async def get_property(ctx: PropertyRead) -> Property:
    return property_data.property_of(ctx.conn, ctx.property_id)


@router.get("/room-types", response_model=ListOf[RoomType], status_code=200)
async def list_room_types(ctx: PropertyRead) -> ListOf[RoomType]:
    """Room types without the virtual ones; `rooms` counts the rooms of the type on sale."""
    return ListOf[RoomType](data=property_data.room_types(ctx.conn, ctx.property_id))


@router.get("/rooms", response_model=ListOf[Room], status_code=200)
async def list_rooms(ctx: PropertyRead) -> ListOf[Room]:
    return ListOf[Room](data=property_data.rooms(ctx.conn, ctx.property_id))


@router.get("/rate-plans", response_model=ListOf[RatePlan], status_code=200)
async def list_rate_plans(ctx: PropertyRead) -> ListOf[RatePlan]:
    """Active plans only; negotiated contract plans are left out."""
    return ListOf[RatePlan](data=property_data.rate_plans(ctx.conn, ctx.property_id))


@router.get("/age-brackets", response_model=ListOf[AgeBracket], status_code=200)
async def list_age_brackets(ctx: PropertyRead) -> ListOf[AgeBracket]:
    return ListOf[AgeBracket](data=property_data.age_brackets(ctx.conn, ctx.property_id))


@router.get("/items", response_model=ListOf[Item], status_code=200)
async def list_items(
    ctx: PropertyRead,
    q: Annotated[str | None, Query(max_length=200,
                                   description="Part of the code or name (any case).")] = None,
) -> ListOf[Item]:
    return ListOf[Item](data=property_data.items(ctx.conn, ctx.property_id, q))


@router.get("/classifications", response_model=Classifications, status_code=200)
async def get_classifications(ctx: PropertyRead) -> Classifications:
    return property_data.classifications(ctx.conn, ctx.property_id)
