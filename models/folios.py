"""Folios (guest accounts), their lines, and the charge input."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Annotated

from pydantic import Field

from .common import FolioStatus, Input, Num, Resource


class FolioLine(Resource):
    id: int
    description: str
    posted_on: date
    quantity: Num
    unit_price: Num
    discount: Num
    tax_pct: Num
    total: Num
    room: str
    service_item_id: int | None
    reversal_of: int | None
    type: str  # `charge`, `payment`, ...: the spec does not close the list.


class Folio(Resource):
    id: int
    reservation_id: int | None
    guest_id: int | None
    guest_name: str
    description: str
    status: FolioStatus
    document: str | None
    issue_date: date | None
    prices_include_vat: bool
    charges: Num
    payments: Num
    balance: Num
    lines: list[FolioLine]


class ChargeInput(Input):
    item_id: int
    reservation_room_id: int | None = None
    quantity: Annotated[Num, Field(gt=0, le=10000)] = Decimal("1")
    unit_price: Annotated[Num, Field(ge=-1000000, le=1000000)] | None = None
    discount_pct: Annotated[Num, Field(ge=0, le=100)] | None = None
    description: Annotated[str, Field(max_length=500)] | None = None
    posted_on: date | None = None
