"""Small hand-made core.* frames for the transform tests."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import polars as pl

MONEY = pl.Decimal(12, 2)


def d(text: str) -> date:
    return date.fromisoformat(text)


def ts(text: str) -> datetime:
    """A UTC timestamp from 'YYYY-MM-DDTHH:MM'."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def room(**fields: Any) -> dict[str, Any]:
    """One core.reservation_rooms row (with persons and is_no_show), defaults filled in."""
    row: dict[str, Any] = {"property_id": 1, "reservation_id": 1, "reservation_room_id": 1,
                           "status": "confirmed", "arrival": d("2025-03-01"),
                           "departure": d("2025-03-02"), "room_type_id": 1, "room_id": None,
                           "room_code": None, "rate_plan_id": 1, "rate_plan_code": "BAR",
                           "channel": "web", "source": "direct", "market": "leisure", "adults": 2,
                           "children": 0, "persons": 2, "total": Decimal("100.00"),
                           "is_no_show": False, "created_at": ts("2025-01-01T10:00")}
    row.update(fields)
    if isinstance(row["total"], str):
        row["total"] = Decimal(row["total"])
    return row


def rooms_frame(*rows: dict[str, Any]) -> pl.DataFrame:
    return pl.DataFrame(
        list(rows),
        schema_overrides={"total": MONEY, "room_id": pl.Int64, "room_code": pl.String,
                          "created_at": pl.Datetime("us", "UTC")},
    )


def version(**fields: Any) -> dict[str, Any]:
    """One core.reservation_room_versions row."""
    row: dict[str, Any] = {"property_id": 1, "reservation_room_id": 1, "status": "confirmed",
                           "arrival": d("2025-03-10"), "departure": d("2025-03-11"),
                           "total": Decimal("110.00"), "valid_from": ts("2025-03-01T10:00"),
                           "valid_to": None, "created_at": ts("2025-03-01T10:00")}
    row.update(fields)
    if isinstance(row["total"], str):
        row["total"] = Decimal(row["total"])
    return row


def versions_frame(*rows: dict[str, Any]) -> pl.DataFrame:
    ts_type = pl.Datetime("us", "UTC")
    return pl.DataFrame(
        list(rows),
        schema_overrides={"total": MONEY, "valid_from": ts_type, "valid_to": ts_type,
                          "created_at": ts_type},
    )


def line(**fields: Any) -> dict[str, Any]:
    """One core.folio_lines row (amounts as strings or Decimals)."""
    row: dict[str, Any] = {"property_id": 1, "folio_line_id": 1, "reservation_id": 1,
                           "reservation_room_id": 1, "type": "charge", "posted_on": d("2025-03-01"),
                           "service_item_id": 1, "amount_gross": Decimal("0"),
                           "amount_net": Decimal("0")}
    row.update(fields)
    for key in ("amount_gross", "amount_net"):
        row[key] = Decimal(row[key])
    return row


def lines_frame(*rows: dict[str, Any]) -> pl.DataFrame:
    schema: dict[str, Any] = {"property_id": pl.Int64, "folio_line_id": pl.Int64,
                              "reservation_id": pl.Int64, "reservation_room_id": pl.Int64,
                              "type": pl.String, "posted_on": pl.Date, "service_item_id": pl.Int64,
                              "amount_gross": MONEY, "amount_net": MONEY}
    return pl.DataFrame(list(rows), schema=schema)


ITEMS = pl.DataFrame(
    {"property_id": [1, 1, 1, 1, 1], "item_id": [1, 2, 3, 4, 5],
     "department": ["accommodation", "food_beverage", "other", "city_tax", "food_beverage"]}
)
NO_LINES = lines_frame()


def properties(business_date: str) -> pl.DataFrame:
    return pl.DataFrame({"property_id": [1], "business_date": [d(business_date)]})


def ranges(first: str, last: str) -> pl.DataFrame:
    return pl.DataFrame(
        {"property_id": [1], "first_snapshot": [d(first)], "last_snapshot": [d(last)]}
    )
