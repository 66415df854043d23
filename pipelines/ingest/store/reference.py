"""Land property data: the property, room types, rooms, rate plans, brackets, items and
classifications, replaced per property in one transaction (only the rows that changed are
written: `write_difference`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import duckdb
from pydantic import BaseModel

from models import AgeBracket, Classifications, Item, Property, RatePlan, Room, RoomType
from pipelines.ingest.store.raw import Payload, append_raw, payloads_of
from pipelines.warehouse import (
    BOOL,
    DATE,
    DEC,
    INT,
    STR,
    TS,
    dec,
    drop,
    require_aware,
    stage,
    transaction,
    write_difference,
)

_SEEN = {"last_seen_run": STR, "fetched_at": TS}
_SCHEMAS: dict[str, dict[str, Any]] = {
    "property": {
        "property_id": INT, "code": STR, "name": STR, "legal_name": STR, "activity": STR,
        "address": STR, "zip": STR, "city": STR, "province": STR, "country": STR,
        "phone": STR, "email": STR, "website": STR, "star_rating": STR, "latitude": DEC,
        "longitude": DEC, "currency": STR, "timezone": STR, "check_in_time": STR,
        "check_out_time": STR, "business_date": DATE, **_SEEN},
    "room_types": {"property_id": INT, "room_type_id": INT, "code": STR, "name": STR,
                   "channel_code": STR, "max_pax": INT, "rooms": INT, **_SEEN},
    "rooms": {"property_id": INT, "room_id": INT, "code": STR, "name": STR,
              "room_type_id": INT, "floor": STR, "extra_beds": INT, "housekeeping": STR,
              "sellable": BOOL, **_SEEN},
    "rate_plans": {"property_id": INT, "rate_plan_id": INT, "code": STR, "name": STR,
                   "discount_pct": DEC, "is_default": BOOL, "per_person": BOOL,
                   "cadence": STR, **_SEEN},
    "age_brackets": {"property_id": INT, "age_bracket_id": INT, "code": STR, "name": STR,
                     "age_from": INT, "age_to": INT, "counts_as_person": BOOL, **_SEEN},
    "items": {"property_id": INT, "item_id": INT, "code": STR, "name": STR,
              "department": STR, "kind": STR, "price": DEC, "tax_pct": DEC, **_SEEN},
    "classifications": {"property_id": INT, "kind": STR, "value": STR, "required": BOOL,
                        **_SEEN},
}


@dataclass(frozen=True)
class PropertyData:
    """Everything GET /property, /room-types, /rooms, /rate-plans, /age-brackets, /items and
    /classifications answered for one property."""

    property: Property
    room_types: Sequence[RoomType]
    rooms: Sequence[Room]
    rate_plans: Sequence[RatePlan]
    age_brackets: Sequence[AgeBracket]
    items: Sequence[Item]
    classifications: Classifications


def _rows(p: int, data: PropertyData, seen: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    pr = data.property
    cl = data.classifications
    return {
        "property": [{
            **pr.model_dump(exclude={"id", "latitude", "longitude"}), "property_id": p,
            "latitude": dec(pr.latitude), "longitude": dec(pr.longitude), **seen}],
        "room_types": [{**t.model_dump(exclude={"id"}), "property_id": p,
                        "room_type_id": t.id, **seen} for t in data.room_types],
        "rooms": [{**r.model_dump(exclude={"id"}), "property_id": p, "room_id": r.id,
                   "housekeeping": r.housekeeping.value, **seen} for r in data.rooms],
        "rate_plans": [{**rp.model_dump(exclude={"id"}), "property_id": p,
                        "rate_plan_id": rp.id, "discount_pct": dec(rp.discount_pct),
                        "cadence": rp.cadence.value, **seen} for rp in data.rate_plans],
        "age_brackets": [{**b.model_dump(exclude={"id"}), "property_id": p,
                          "age_bracket_id": b.id, **seen} for b in data.age_brackets],
        "items": [{**i.model_dump(exclude={"id"}), "property_id": p, "item_id": i.id,
                   "price": dec(i.price), "tax_pct": dec(i.tax_pct), **seen}
                  for i in data.items],
        "classifications": [
            {"property_id": p, "kind": kind, "value": value,
             "required": getattr(cl.required, kind), **seen}
            for kind, values in (("source", cl.sources), ("channel", cl.channels),
                                 ("market", cl.markets))
            for value in dict.fromkeys(values)],
    }


def land_reference(
    conn: duckdb.DuckDBPyConnection,
    property_id: int,
    data: PropertyData,
    *,
    run_id: str,
    fetched_at: datetime,
    payloads: Mapping[str, Sequence[Payload]] | None = None,
) -> dict[str, int]:
    """Replace the property data of `property_id`; return the rows received per table.

    `payloads` maps a stream name (property, room_types, ...) to the JSON records received.
    """
    require_aware(fetched_at, "fetched_at")
    if data.property.id != property_id:
        raise ValueError(f"property.id is {data.property.id}, but the data is landed for "
                         f"property_id {property_id}: the key belongs to another property")
    tables = _rows(property_id, data, {"last_seen_run": run_id, "fetched_at": fetched_at})
    models: dict[str, Sequence[BaseModel]] = {
        "property": [data.property], "room_types": data.room_types, "rooms": data.rooms,
        "rate_plans": data.rate_plans, "age_brackets": data.age_brackets, "items": data.items,
        "classifications": [data.classifications]}
    given = payloads or {}
    with transaction(conn):
        for stream, records in models.items():
            append_raw(conn, property_id, stream, payloads_of(records, given.get(stream)),
                       run_id=run_id, fetched_at=fetched_at)
        for table, rows in tables.items():
            stage(conn, "_stg_ref", _SCHEMAS[table], rows)
            write_difference(conn, f"core.{table}", "SELECT * FROM _stg_ref",
                             "t.property_id = ?", [property_id])
        drop(conn, "_stg_ref")
    return {table: len(rows) for table, rows in tables.items()}


class UnknownPropertyError(ValueError):
    """The warehouse does not hold the property asked (the message names those it holds)."""


def property_row(conn: duckdb.DuckDBPyConnection,
                 wanted: int | str | None = None) -> tuple[int, str, date]:
    """(property_id, code, business_date) of core.property: the property of id or PMS code
    `wanted` (case-insensitive), or the warehouse's only one when None."""
    rows = [(int(r[0]), str(r[1]), r[2]) for r in conn.execute(
        "SELECT property_id, code, business_date FROM core.property ORDER BY 1").fetchall()]
    known = ", ".join(f"{code} ({pid})" for pid, code, _ in rows) or "none: sync first"
    if wanted is None and len(rows) == 1:
        return rows[0]
    if wanted is None:
        raise UnknownPropertyError(f"the warehouse holds several properties: give --property, "
                                   f"one of {known}" if rows else "no property in the "
                                   "warehouse: sync first")
    for row in rows:
        if str(wanted).lower() in (str(row[0]), row[1].lower()):
            return row
    raise UnknownPropertyError(f"property {wanted} is not in the warehouse: it holds {known}")
