"""The ids and prices of one hotel the simulator needs, read once from its data."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from ..db import all_rows, one
from .demand import HotelProfile


@dataclass(frozen=True)
class Item:
    id: int
    code: str
    name: str
    price_cents: int


@dataclass(frozen=True)
class HotelData:
    profile: HotelProfile
    timezone: str
    city: str
    stars: int
    type_ids: dict[str, int]
    plan_ids: dict[str, int]
    bracket_ids: dict[str, int]
    bracket_codes: dict[int, str]
    bracket_age_to: dict[int, int]
    items: dict[str, Item]

    @property
    def property_id(self) -> int:
        return self.profile.property_id


def load_hotel(conn: sqlite3.Connection, property_id: int) -> HotelData:
    prop = one(conn, "SELECT code, timezone, city, star_rating FROM properties WHERE id = ?",
               property_id)
    if prop is None:
        raise ValueError(f"property {property_id} does not exist")
    types = all_rows(conn, "SELECT id, code, max_pax FROM room_types WHERE property_id = ? AND "
                     "is_virtual = 0 ORDER BY sort, id", property_id)
    counts = {row["room_type_id"]: row["n"] for row in all_rows(
        conn, "SELECT room_type_id, COUNT(*) AS n FROM rooms WHERE property_id = ? AND "
        "sellable = 1 GROUP BY room_type_id", property_id)}
    profile = HotelProfile(
        property_id=property_id, code=prop["code"],
        rooms_by_type={t["code"]: counts.get(t["id"], 0) for t in types if counts.get(t["id"])},
        max_pax={t["code"]: t["max_pax"] for t in types}, city=prop["city"],
    )
    plans = all_rows(conn, "SELECT id, code FROM rate_plans WHERE property_id = ? AND active = 1",
                     property_id)
    brackets = all_rows(conn, "SELECT id, code, age_to FROM age_brackets WHERE property_id = ?",
                        property_id)
    items = all_rows(conn, "SELECT id, code, name, price_cents FROM items WHERE property_id = ?",
                     property_id)
    return HotelData(
        profile=profile, timezone=prop["timezone"], city=prop["city"],
        stars=int(prop["star_rating"] or 0),
        type_ids={t["code"]: t["id"] for t in types},
        plan_ids={p["code"]: p["id"] for p in plans},
        bracket_ids={b["code"]: b["id"] for b in brackets},
        bracket_codes={b["id"]: b["code"] for b in brackets},
        bracket_age_to={b["id"]: b["age_to"] for b in brackets},
        items={i["code"]: Item(i["id"], i["code"], i["name"], i["price_cents"]) for i in items},
    )
