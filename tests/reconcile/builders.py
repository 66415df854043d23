"""Hand-made frames shaped like the warehouse's core.* rows, for the pure reconciliation."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import polars as pl

D = date.fromisoformat
MONEY = pl.Decimal(12, 2)
QTY = pl.Decimal(12, 3)

ITEMS = pl.DataFrame({
    "property_id": [1, 1, 1, 1, 1],
    "item_id": [1, 2, 3, 4, 8],
    "code": ["ROOM", "BRK", "BAR", "RST", "CTAX"],
    "name": ["Accommodation", "Breakfast", "Bar", "Restaurant", "City tax"],
    "price": pl.Series([Decimal("0"), Decimal("15.00"), Decimal("8.00"), Decimal("35.00"),
                        Decimal("7.50")], dtype=MONEY),
})
ITEM_ID = dict(zip(ITEMS["code"], ITEMS["item_id"], strict=True))

BRACKETS = pl.DataFrame({"property_id": [1, 1, 1], "age_bracket_id": [1, 2, 3],
                         "age_to": [2, 11, 17]})
INF, CHD, TEEN = 1, 2, 3


def stays(*rows: dict[str, Any]) -> pl.DataFrame:
    """Room entries; each row gives at least reservation_room_id, arrival and departure."""
    defaults = {"property_id": 1, "status": "checked_out", "adults": 2, "brackets": "{}",
                "rate_plan_code": "BAR", "room_code": "101", "total": Decimal("300.00")}
    full = [{**defaults, "reservation_id": r["reservation_room_id"] * 10, **r} for r in rows]
    return pl.DataFrame(full, schema={
        "property_id": pl.Int64, "reservation_room_id": pl.Int64, "reservation_id": pl.Int64,
        "status": pl.String, "arrival": pl.Date, "departure": pl.Date, "adults": pl.Int64,
        "brackets": pl.String, "rate_plan_code": pl.String, "room_code": pl.String,
        "total": MONEY})


def ledger(*rows: dict[str, Any]) -> pl.DataFrame:
    """POS ledger lines: ticket_id, line, business_date, reservation_room_id, item_code,
    quantity, unit_price (total = quantity x unit price unless given)."""
    full = []
    for r in rows:
        quantity = Decimal(r.get("quantity", 1))
        unit = Decimal(r["unit_price"])
        full.append({"property_id": 1, "line": 1, "reservation_id": r["reservation_room_id"] * 10,
                     "quantity": quantity, "total": quantity * unit, **r, "unit_price": unit})
    return pl.DataFrame(full, schema={
        "property_id": pl.Int64, "ticket_id": pl.String, "line": pl.Int64,
        "business_date": pl.Date, "reservation_id": pl.Int64, "reservation_room_id": pl.Int64,
        "item_code": pl.String, "quantity": QTY, "unit_price": MONEY, "total": MONEY})


def folios(*rows: dict[str, Any]) -> pl.DataFrame:
    full = [{"property_id": 1, "status": "open", **r} for r in rows]
    return pl.DataFrame(full, schema={"property_id": pl.Int64, "folio_id": pl.Int64,
                                      "reservation_id": pl.Int64, "status": pl.String})


def lines(*rows: dict[str, Any]) -> pl.DataFrame:
    """Folio lines: folio_line_id, folio_id, reservation_room_id, item (code), posted_on,
    quantity, total; description and type optional."""
    full = []
    for r in rows:
        item = r.pop("item", None)
        full.append({
            "property_id": 1, "reservation_id": r["reservation_room_id"] * 10
            if r.get("reservation_room_id") else r.get("reservation_id"),
            "type": "charge", "description": "", "quantity": Decimal(1),
            "service_item_id": ITEM_ID[item] if item else None, "reversal_of": None, **r})
        full[-1]["total"] = Decimal(str(full[-1]["total"]))
        full[-1]["quantity"] = Decimal(str(full[-1]["quantity"]))
    return pl.DataFrame(full, schema={
        "property_id": pl.Int64, "folio_line_id": pl.Int64, "folio_id": pl.Int64,
        "reservation_id": pl.Int64, "reservation_room_id": pl.Int64, "type": pl.String,
        "description": pl.String, "posted_on": pl.Date, "quantity": QTY, "total": MONEY,
        "service_item_id": pl.Int64, "reversal_of": pl.Int64})


def rows_of(frame: pl.DataFrame, *columns: str) -> list[tuple[Any, ...]]:
    return sorted(frame.select(columns).iter_rows())
