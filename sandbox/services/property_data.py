"""Read-only property data of API v1: the key and account, the property and its catalogues."""

from __future__ import annotations

import json
import sqlite3
from datetime import date
from decimal import Decimal
from typing import Any

from models.property import (
    AccountInfo,
    AgeBracket,
    Classifications,
    Item,
    KeyInfo,
    Me,
    Property,
    PropertyRef,
    RatePlan,
    RequiredClassifications,
    Room,
    RoomType,
)

from ..db import all_rows, from_cents, one
from ..errors import not_found


def _must(row: sqlite3.Row | None) -> sqlite3.Row:
    assert row is not None  # the authenticated key guarantees its property and account exist
    return row


def me(conn: sqlite3.Connection, property_id: int, key_id: int) -> Me:
    key = _must(one(conn, "SELECT * FROM api_keys WHERE id = ?", key_id))
    prop = _must(one(conn, "SELECT id, code, name, account_id FROM properties WHERE id = ?",
                     property_id))
    account = _must(one(conn, "SELECT * FROM accounts WHERE id = ?", prop["account_id"]))
    return Me(
        key=KeyInfo(id=key["id"], name=key["name"], prefix=key["prefix"],
                    scopes=json.loads(key["scopes"]), created_at=key["created_at"]),
        property=PropertyRef(id=prop["id"], code=prop["code"], name=prop["name"]),
        account=AccountInfo(name=account["name"], plan=account["plan"],
                            sandbox=bool(account["sandbox"])),
    )


def _num(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)


def property_of(conn: sqlite3.Connection, property_id: int) -> Property:
    row = _must(one(conn, "SELECT * FROM properties WHERE id = ?", property_id))
    fields: dict[str, Any] = {name: row[name] for name in Property.model_fields
                              if name not in ("latitude", "longitude", "business_date")}
    return Property(**fields, latitude=_num(row["latitude"]), longitude=_num(row["longitude"]),
                    business_date=date.fromisoformat(row["business_date"]))


def room_types(conn: sqlite3.Connection, property_id: int) -> list[RoomType]:
    """Non-virtual types; `rooms` counts the rooms of the type on sale (sellable)."""
    rows = all_rows(
        conn, "SELECT t.*, (SELECT COUNT(*) FROM rooms r WHERE r.room_type_id = t.id "
        "AND r.sellable = 1) AS on_sale FROM room_types t WHERE t.property_id = ? "
        "AND t.is_virtual = 0 ORDER BY t.sort, t.id", property_id)
    return [RoomType(id=r["id"], code=r["code"], name=r["name"], channel_code=r["channel_code"],
                     max_pax=r["max_pax"], rooms=r["on_sale"]) for r in rows]


def rooms(conn: sqlite3.Connection, property_id: int) -> list[Room]:
    rows = all_rows(conn, "SELECT * FROM rooms WHERE property_id = ? ORDER BY id", property_id)
    return [Room(id=r["id"], code=r["code"], name=r["name"], room_type_id=r["room_type_id"],
                 floor=r["floor"], extra_beds=r["extra_beds"], housekeeping=r["housekeeping"],
                 sellable=bool(r["sellable"])) for r in rows]


def rate_plans(conn: sqlite3.Connection, property_id: int) -> list[RatePlan]:
    """Active plans only; negotiated contract plans are left out (spec, Property data)."""
    rows = all_rows(conn, "SELECT * FROM rate_plans WHERE property_id = ? AND active = 1 "
                    "AND is_contract = 0 ORDER BY id", property_id)
    return [RatePlan(id=r["id"], code=r["code"], name=r["name"],
                     discount_pct=Decimal(r["discount_pct"]), is_default=bool(r["is_default"]),
                     per_person=bool(r["per_person"]), cadence=r["cadence"]) for r in rows]


def age_brackets(conn: sqlite3.Connection, property_id: int) -> list[AgeBracket]:
    rows = all_rows(conn, "SELECT * FROM age_brackets WHERE property_id = ? ORDER BY sort, id",
                    property_id)
    return [AgeBracket(id=r["id"], code=r["code"], name=r["name"], age_from=r["age_from"],
                       age_to=r["age_to"], counts_as_person=bool(r["counts_as_person"]))
            for r in rows]


def items(conn: sqlite3.Connection, property_id: int, q: str | None = None) -> list[Item]:
    """Chargeable items; `q` matches part of the code or the name, ignoring case."""
    rows = all_rows(conn, "SELECT * FROM items WHERE property_id = ? ORDER BY id", property_id)
    needle = (q or "").casefold()
    return [Item(id=r["id"], code=r["code"], name=r["name"], department=r["department"],
                 kind=r["kind"], price=from_cents(r["price_cents"]),
                 tax_pct=Decimal(r["tax_pct"]))
            for r in rows
            if needle in r["code"].casefold() or needle in r["name"].casefold()]


def classifications(conn: sqlite3.Connection, property_id: int) -> Classifications:
    values: dict[str, list[str]] = {"source": [], "channel": [], "market": []}
    for row in all_rows(conn, "SELECT kind, value FROM classifications WHERE property_id = ? "
                        "ORDER BY sort, value", property_id):
        values[row["kind"]].append(row["value"])
    prop = _must(one(conn, "SELECT required_source, required_channel, required_market "
                     "FROM properties WHERE id = ?", property_id))
    return Classifications(
        sources=values["source"], channels=values["channel"], markets=values["market"],
        required=RequiredClassifications(source=bool(prop["required_source"]),
                                         channel=bool(prop["required_channel"]),
                                         market=bool(prop["required_market"])),
    )


def require_room_type(conn: sqlite3.Connection, property_id: int, room_type_id: int) -> None:
    """404 `not_found` unless the room type exists in the property (virtual ones included)."""
    if one(
        conn, "SELECT 1 FROM room_types WHERE id = ? AND property_id = ?",
        room_type_id, property_id,
    ) is None:
        raise not_found(f"room type {room_type_id}")
