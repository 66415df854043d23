"""The deterministic seed: two hotels, four small properties for account states, and the keys.

Property 1 is a 4-star city hotel in Rome of 80 rooms; property 2 a 40-room hotel in
Florence. Properties 3 to 6 exist so that each account or property state has a key that
meets it (API switched off, account suspended, subscription expired, seasonal pause).

On request (`group`), a hotel group beside them: properties 101, 102, ... alternately a copy
of the Rome and of the Florence hotel (codes GRP001, GRP002, ...), each its own account and
its own key `sbx_group_001`, ... (so its own rate limit), for the group benchmarks and tests.
The group's size is kept in the `settings` table, so a reset seeds the same group again.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from models.common import Scope

from .clock import Clock
from .db import insert, one, transaction, ts
from .services.city_tax import rule_on

ALL_SCOPES = [scope.value for scope in Scope]
READ_SCOPES = [scope.value for scope in Scope if scope.value.endswith(":read")]


def hash_key(api_key: str) -> str:
    """What the database keeps of an API key (api_keys.key_hash)."""
    return hashlib.sha256(api_key.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class SeedKey:
    key: str
    property_id: int
    scopes: tuple[str, ...]
    revoked: bool = False


KEYS: tuple[SeedKey, ...] = (
    SeedKey("sbx_test_all_scopes", 1, tuple(ALL_SCOPES)),
    SeedKey("sbx_test_read_only", 1, tuple(READ_SCOPES)),
    SeedKey("sbx_test_revoked", 1, tuple(ALL_SCOPES), revoked=True),
    SeedKey("sbx_test_other_property", 2, tuple(ALL_SCOPES)),
    SeedKey("sbx_test_api_disabled", 3, tuple(ALL_SCOPES)),
    SeedKey("sbx_test_suspended", 4, tuple(ALL_SCOPES)),
    SeedKey("sbx_test_expired", 5, tuple(ALL_SCOPES)),
    SeedKey("sbx_test_paused", 6, tuple(ALL_SCOPES)),
)

# Rate engine: seasons of an Italian city hotel (domain.md occupancy by month) and weekday shape.
SEASON_OF_MONTH = {1: "low", 2: "low", 3: "mid", 4: "high", 5: "high", 6: "mid", 7: "mid",
                   8: "low", 9: "high", 10: "high", 11: "low", 12: "low"}
SEASON_FACTOR = {"low": Decimal("0.85"), "mid": Decimal("1.00"), "high": Decimal("1.25")}
WEEKDAY_FACTOR = [Decimal(f) for f in ("1.00", "1.00", "1.00", "1.05", "1.12", "1.15", "0.90")]

AgeBracketSeed = tuple[str, str, int, int, int, str]
AGE_BRACKETS: tuple[AgeBracketSeed, ...] = (
    # code, name, age_from, age_to, counts_as_person, price_pct
    ("INF", "Infants", 0, 2, 0, "0"),
    ("CHD", "Children", 3, 11, 1, "50"),
    ("TEEN", "Teens", 12, 17, 1, "80"),
)
ROME_AGE_BRACKETS: tuple[AgeBracketSeed, ...] = (
    # Rome's city tax exempts children up to 10, so its children's bracket ends at 10.
    ("INF", "Infants", 0, 2, 0, "0"),
    ("CHD", "Children", 3, 10, 1, "50"),
    ("TEEN", "Teens", 11, 17, 1, "80"),
)


@dataclass(frozen=True)
class TypeSeed:
    code: str
    name: str
    max_pax: int
    rooms: int
    base_price: int
    virtual: bool = False


@dataclass(frozen=True)
class HotelSeed:
    property_id: int
    code: str
    name: str
    legal_name: str
    city: str
    province: str
    zip: str
    address: str
    stars: str
    lat: str
    lon: str
    types: tuple[TypeSeed, ...]
    floors_of: int
    """Rooms per floor; room codes are floor * 100 + n."""
    not_sellable: tuple[int, ...] = ()
    """Indexes (0-based, in creation order) of rooms kept out of availability."""
    out_of_order: tuple[tuple[int, int, int], ...] = ()
    """(room index, first night offset from the business date, nights)."""
    age_brackets: tuple[AgeBracketSeed, ...] = AGE_BRACKETS


ROME = HotelSeed(
    property_id=1, code="ROMA01", name="Hotel Aurelia Roma", legal_name="Aurelia Hotels S.r.l.",
    city="Roma", province="RM", zip="00186", address="Via dei Coronari 12", stars="4",
    lat="41.9000", lon="12.4700",
    types=(
        TypeSeed("STD", "Standard Double", 2, 30, 150),
        TypeSeed("SUP", "Superior Double", 3, 25, 185),
        TypeSeed("DLX", "Deluxe", 3, 15, 235),
        TypeSeed("JSU", "Junior Suite", 4, 10, 320),
        TypeSeed("DUS", "Double for single use", 1, 0, 130, virtual=True),
    ),
    floors_of=16, not_sellable=(15, 79), out_of_order=((3, 0, 4), (40, 2, 3)),
    age_brackets=ROME_AGE_BRACKETS,
)

FLORENCE = HotelSeed(
    property_id=2, code="FIRE01", name="Albergo Laguna Firenze", legal_name="Laguna S.p.A.",
    city="Firenze", province="FI", zip="50123", address="Via dei Calzaiuoli 7", stars="4",
    lat="43.7710", lon="11.2540",
    types=(
        TypeSeed("DBL", "Double", 2, 20, 140),
        TypeSeed("TRP", "Triple", 3, 12, 175),
        TypeSeed("STE", "Suite", 4, 8, 290),
    ),
    floors_of=10, not_sellable=(9,), out_of_order=((5, 1, 2),),
)


def _small(property_id: int, code: str, name: str) -> HotelSeed:
    return HotelSeed(
        property_id=property_id, code=code, name=name, legal_name=f"{name} S.r.l.",
        city="Milano", province="MI", zip="20121", address="Via Manzoni 1", stars="3",
        lat="45.4700", lon="9.1900", types=(TypeSeed("DBL", "Double", 2, 4, 120),), floors_of=4,
    )


SMALL = (
    _small(3, "MILA03", "Hotel API Off"),
    _small(4, "MILA04", "Hotel Suspended"),
    _small(5, "MILA05", "Hotel Expired"),
    _small(6, "MILA06", "Hotel In Pause"),
)

CLASSIFICATIONS = {
    "source": ["direct", "booking_engine", "channel_manager", "travel_agent", "tour_operator",
               "corporate", "walk_in"],
    "channel": ["booking_com", "expedia", "website", "phone", "email", "walk_in", "wholesale",
                "corporate", "gds"],
    "market": ["leisure", "business", "groups", "wholesale", "corporate", "mice", "other"],
}

RATE_PLANS = (
    # code, name, discount_pct, is_default, per_person, cadence, active, contract, refundable, bb
    ("BAR", "Best Available Rate", "0", 1, 0, "daily", 1, 0, 1, 0),
    ("NREF", "Non-refundable", "15", 0, 0, "daily", 1, 0, 0, 0),
    ("BB", "Bed and Breakfast", "0", 0, 0, "daily", 1, 0, 1, 1),
    ("PP", "Per person", "0", 0, 1, "daily", 1, 0, 1, 0),
    ("LONG", "Long stay weekly", "10", 0, 0, "weekly", 1, 0, 1, 0),
    ("OLD", "Summer 2019 (inactive)", "5", 0, 0, "daily", 0, 0, 1, 0),
    ("CORP", "Corporate contract ACME", "12", 0, 0, "daily", 1, 1, 1, 0),
)

HOUSE_PLANS = (
    # code, name: plans the hotel never sells (contract plans, so GET /rate-plans hides them),
    # a 100% discount: the simulator's complimentary and house-use rooms (docs/sandbox.md,
    # "Money"). Seeded after every hotel so that the ids of the other rows stay as they were.
    ("COMP", "Complimentary"),
    ("HOUSE", "House use"),
)

ITEMS = (
    # code, name, department, kind, price, tax_pct
    ("ROOM", "Accommodation", "accommodation", "accommodation", "0", "10"),
    ("BRK", "Breakfast", "food_beverage", "breakfast", "15.00", "10"),
    ("RST", "Restaurant", "food_beverage", "restaurant", "35.00", "10"),
    ("BAR", "Bar", "food_beverage", "bar", "8.00", "10"),
    ("MINI", "Minibar", "food_beverage", "minibar", "6.00", "10"),
    ("PARK", "Parking", "other", "parking", "25.00", "22"),
    ("LAUN", "Laundry", "other", "service", "12.00", "22"),
    ("CTAX", "City tax", "city_tax", "city_tax", "7.50", "0"),
)

OFFERS = (("EARLY", "Early booking", "10"), ("LASTMIN", "Last minute", "5"))


GROUP_FIRST_ID = 101
"""Property id of the first hotel of a seeded group."""
GROUP_MAX = 99


def group_code(number: int) -> str:
    """The PMS code of the group's hotel `number` (1-based): GRP001."""
    return f"GRP{number:03d}"


def group_key(number: int) -> str:
    """The API key of the group's hotel `number` (1-based): sbx_group_001."""
    return f"sbx_group_{number:03d}"


def group_hotels(size: int) -> tuple[HotelSeed, ...]:
    """The `size` hotels of a group: odd numbers copy Rome (80 rooms), even ones Florence (40)."""
    if not 0 <= size <= GROUP_MAX:
        raise ValueError(f"group: {size} hotels asked, at most {GROUP_MAX}")
    hotels = []
    for number in range(1, size + 1):
        template = ROME if number % 2 else FLORENCE
        hotels.append(replace(
            template, property_id=GROUP_FIRST_ID + number - 1, code=group_code(number),
            name=f"{template.name} {number:03d}", legal_name=f"Group Hotel {number:03d} S.r.l."))
    return tuple(hotels)


def business_date_today(clock: Clock, timezone: str = "Europe/Rome") -> date:
    return clock.now().astimezone(ZoneInfo(timezone)).date()


def seed_if_empty(conn: sqlite3.Connection, clock: Clock, group: int = 0) -> None:
    if one(conn, "SELECT id FROM properties LIMIT 1") is not None:
        return
    with transaction(conn):
        seed(conn, clock, group)


def stored_group(conn: sqlite3.Connection) -> int:
    """The size of the group the database was seeded with (0: none)."""
    row = one(conn, "SELECT value FROM settings WHERE name = 'group_size'")
    return 0 if row is None else int(row["value"])


def seed(conn: sqlite3.Connection, clock: Clock, group: int = 0) -> None:
    today = business_date_today(clock)
    grouped = group_hotels(group)
    for hotel in (ROME, FLORENCE, *SMALL, *grouped):
        insert(conn, "accounts", {
            "id": hotel.property_id, "name": hotel.legal_name,
            "plan": "sandbox", "sandbox": 1,
            "suspended": int(hotel.property_id == 4),
            "subscription_expired": int(hotel.property_id == 5),
        })
        _seed_hotel(conn, hotel, today)
    for hotel in (ROME, FLORENCE, *SMALL, *grouped):
        for code, name in HOUSE_PLANS:
            insert(conn, "rate_plans", {
                "property_id": hotel.property_id, "code": code, "name": name,
                "discount_pct": "100", "is_default": 0, "per_person": 0, "cadence": "daily",
                "active": 1, "is_contract": 1, "refundable": 1, "includes_breakfast": 0,
                "adult_price_pct": "55",
            })
    conn.execute("UPDATE properties SET api_enabled = 0 WHERE id = 3")
    conn.execute("UPDATE properties SET read_only = 1 WHERE id = 6")
    created = ts(clock.now())
    for number, seed_key in enumerate(KEYS, start=1):
        insert(conn, "api_keys", {
            "id": number, "property_id": seed_key.property_id,
            "name": seed_key.key.removeprefix("sbx_").replace("_", " "),
            "key_hash": hash_key(seed_key.key), "prefix": seed_key.key[:8],
            "scopes": json.dumps(list(seed_key.scopes)), "created_at": created,
            "revoked_at": created if seed_key.revoked else None,
        })
    for number, hotel in enumerate(grouped, start=1):
        key = group_key(number)
        insert(conn, "api_keys", {
            "property_id": hotel.property_id, "name": key.removeprefix("sbx_"),
            "key_hash": hash_key(key), "prefix": key[:8], "scopes": json.dumps(ALL_SCOPES),
            "created_at": created, "revoked_at": None,
        })
    if group:
        conn.execute("INSERT INTO settings (name, value) VALUES ('group_size', ?) ON CONFLICT "
                     "(name) DO UPDATE SET value = excluded.value", (str(group),))


def _seed_hotel(conn: sqlite3.Connection, hotel: HotelSeed, today: date) -> None:
    pid = hotel.property_id
    insert(conn, "properties", {
        "id": pid, "account_id": pid, "code": hotel.code, "name": hotel.name,
        "legal_name": hotel.legal_name, "activity": "hotel", "address": hotel.address,
        "zip": hotel.zip, "city": hotel.city, "province": hotel.province, "country": "IT",
        "phone": "+39 06 0000000", "email": f"frontdesk@{hotel.code.lower()}.example",
        "website": f"https://{hotel.code.lower()}.example", "star_rating": hotel.stars,
        "latitude": hotel.lat, "longitude": hotel.lon, "currency": "EUR",
        "timezone": "Europe/Rome", "check_in_time": "14:00", "check_out_time": "11:00",
        "business_date": today.isoformat(),
    })
    for kind, values in CLASSIFICATIONS.items():
        for sort, value in enumerate(values):
            insert(conn, "classifications",
                   {"property_id": pid, "kind": kind, "value": value, "sort": sort})
    for month, season in SEASON_OF_MONTH.items():
        insert(conn, "seasons", {"property_id": pid, "month": month, "season": season})

    room_ids: list[int] = []
    for sort, type_seed in enumerate(hotel.types):
        type_id = insert(conn, "room_types", {
            "property_id": pid, "code": type_seed.code, "name": type_seed.name,
            "channel_code": f"{type_seed.code}-{pid}", "max_pax": type_seed.max_pax,
            "is_virtual": int(type_seed.virtual), "base_price_cents": type_seed.base_price * 100,
            "sort": sort,
        })
        for season, season_factor in SEASON_FACTOR.items():
            for weekday, weekday_factor in enumerate(WEEKDAY_FACTOR):
                price = (type_seed.base_price * season_factor * weekday_factor).quantize(Decimal(1))
                insert(conn, "price_grid", {
                    "property_id": pid, "room_type_id": type_id, "season": season,
                    "weekday": weekday, "price_cents": int(price) * 100,
                })
        for _ in range(type_seed.rooms):
            index = len(room_ids)
            floor = index // hotel.floors_of + 1
            code = str(floor * 100 + index % hotel.floors_of + 1)
            room_ids.append(insert(conn, "rooms", {
                "property_id": pid, "room_type_id": type_id, "code": code,
                "name": f"{type_seed.name} {code}", "floor": str(floor),
                "extra_beds": 1 if type_seed.max_pax >= 3 else 0, "housekeeping": "clean",
                "sellable": int(index not in hotel.not_sellable),
            }))
    for index, offset, nights in hotel.out_of_order:
        start = today + timedelta(days=offset)
        insert(conn, "room_blocks", {
            "property_id": pid, "room_id": room_ids[index], "from_date": start.isoformat(),
            "to_date": (start + timedelta(days=nights)).isoformat(), "reason": "maintenance",
        })
    for code, name, discount, default, per_person, cadence, active, contract, refundable, bb in (
        RATE_PLANS
    ):
        insert(conn, "rate_plans", {
            "property_id": pid, "code": code, "name": name, "discount_pct": discount,
            "is_default": default, "per_person": per_person, "cadence": cadence,
            "active": active, "is_contract": contract, "refundable": refundable,
            "includes_breakfast": bb, "adult_price_pct": "55",
        })
    for sort, (code, name, age_from, age_to, counts, price_pct) in enumerate(hotel.age_brackets):
        insert(conn, "age_brackets", {
            "property_id": pid, "code": code, "name": name, "age_from": age_from,
            "age_to": age_to, "counts_as_person": counts, "price_pct": price_pct, "sort": sort,
        })
    for code, name, department, kind, list_price, tax_pct in ITEMS:
        cents = int(Decimal(list_price) * 100)
        if code == "CTAX" and (tax := rule_on(hotel.city, today)) is not None:
            cents = tax.rate_cents(int(hotel.stars))  # the list price: today's rate
        insert(conn, "items", {
            "property_id": pid, "code": code, "name": name, "department": department,
            "kind": kind, "price_cents": cents, "tax_pct": tax_pct,
        })
    for code, name, discount in OFFERS:
        insert(conn, "offers",
               {"property_id": pid, "code": code, "name": name, "discount_pct": discount})
