"""Account and property data: /me, /property, room types, rooms, rate plans, brackets, items."""

from __future__ import annotations

from datetime import date

from .common import Cadence, Housekeeping, Num, Resource, Timestamp


class KeyInfo(Resource):
    id: int
    name: str
    prefix: str
    scopes: list[str]
    created_at: Timestamp


class PropertyRef(Resource):
    id: int
    code: str
    name: str


class AccountInfo(Resource):
    name: str
    plan: str
    sandbox: bool


class Me(Resource):
    key: KeyInfo
    property: PropertyRef
    account: AccountInfo


class Property(Resource):
    id: int
    code: str
    name: str
    legal_name: str
    activity: str
    address: str
    zip: str
    city: str
    province: str
    country: str
    phone: str
    email: str
    website: str
    star_rating: str
    latitude: Num | None
    longitude: Num | None
    currency: str
    timezone: str
    check_in_time: str
    check_out_time: str
    business_date: date


class RoomType(Resource):
    id: int
    code: str
    name: str
    channel_code: str
    max_pax: int
    rooms: int


class Room(Resource):
    id: int
    code: str
    name: str
    room_type_id: int
    floor: str | None
    extra_beds: int
    housekeeping: Housekeeping
    sellable: bool


class RatePlan(Resource):
    id: int
    code: str
    name: str
    discount_pct: Num
    is_default: bool
    per_person: bool
    cadence: Cadence


class AgeBracket(Resource):
    id: int
    code: str
    name: str
    age_from: int | None
    age_to: int | None
    counts_as_person: bool


class Item(Resource):
    id: int
    code: str
    name: str
    department: str
    kind: str
    price: Num
    tax_pct: Num


class RequiredClassifications(Resource):
    source: bool
    channel: bool
    market: bool


class Classifications(Resource):
    sources: list[str]
    channels: list[str]
    markets: list[str]
    required: RequiredClassifications
