"""Land reservations: raw payloads, current heads and rooms, room versions (SCD2), stay guests.

Rules (issue 5; docs/warehouse.md):
- A head and its rooms are replaced only by a state whose `updated_at` is at least as recent,
  so an older answer landed late never overwrites a newer one.
- A room's version is identified by the hash of the tracked fields (`version_hash`: status,
  dates, nights, persons, room type, room, rate plan, total, type, channel, source, market).
  The same hash adds nothing. A new hash closes the current version at the change time and
  opens one there. The change time is the room's `updated_at`, or the head's when only a head
  field tracked here (type, channel, source, market) changed. A change stamped exactly at the
  current version's start (two changes within the same second of the API's clock) replaces
  that version in place, so versions never overlap and never have zero length.
- Only the rows that changed are written (`write_difference`): a re-read of an unchanged state
  (the overlap window) writes no row.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

import duckdb

from models import Reservation, ReservationRoom
from pipelines.ingest.store.raw import Payload, append_raw, payloads_of
from pipelines.ingest.store.sync_state import advance_cursor, clear_full_resync
from pipelines.warehouse import (
    BOOL,
    DATE,
    DEC,
    INT,
    JSON,
    STR,
    TS,
    dec,
    drop,
    require_aware,
    stage,
    transaction,
    write_difference,
)

STREAM = "reservations"

_HEAD = {
    "property_id": INT, "reservation_id": INT, "arrival": DATE, "departure": DATE,
    "nights": INT, "status": STR, "reservation_type": STR, "booker_id": INT,
    "booker_kind": STR, "booker_name": STR, "booker_email": STR, "booker_phone": STR,
    "billing_party_id": INT, "billing_party_kind": STR, "billing_party_name": STR,
    "booker_reference": STR, "booking_code": STR, "external_ref": STR, "channel": STR,
    "source": STR, "market": STR, "group_name": STR, "notes": STR, "voucher": STR,
    "option_expires_on": DATE, "rooms_count": INT, "total": DEC, "created_at": TS,
    "updated_at": TS, "last_seen_run": STR, "fetched_at": TS,
}
_ROOM = {
    "property_id": INT, "reservation_room_id": INT, "reservation_id": INT, "status": STR,
    "arrival": DATE, "departure": DATE, "nights": INT, "arrival_time": STR, "adults": INT,
    "brackets": JSON, "children": INT, "room_type_id": INT, "room_type_code": STR,
    "room_id": INT, "room_code": STR, "rate_plan_id": INT, "rate_plan_code": STR,
    "rate_plan_name": STR, "offer_id": INT, "discount_pct": DEC, "price_override": DEC,
    "option_expires_on": DATE, "cancelled_by": STR, "checked_in_at": TS, "checked_out_at": TS,
    "notes": STR, "total": DEC, "updated_at": TS, "reservation_type": STR, "channel": STR,
    "source": STR, "market": STR, "group_name": STR, "created_at": TS, "last_seen_run": STR,
    "fetched_at": TS,
    # staging only:
    "version_hash": STR, "head_updated_at": TS, "has_guests": BOOL,
}
_STAY_GUEST = {
    "property_id": INT, "stay_guest_id": INT, "reservation_room_id": INT, "reservation_id": INT,
    "guest_id": INT, "is_main": BOOL, "name": STR, "first_name": STR, "last_name": STR,
    "email": STR, "nationality": STR, "birth_date": DATE, "last_seen_run": STR, "fetched_at": TS,
}
_VERSION_COLUMNS = (
    "property_id, reservation_room_id, reservation_id, version_hash, status, arrival, departure, "
    "nights, adults, brackets, children, room_type_id, room_type_code, room_id, room_code, "
    "rate_plan_id, rate_plan_code, total, reservation_type, channel, source, market, created_at")


@dataclass(frozen=True)
class ReservationLanding:
    received: int
    """Reservations in the batch (after removing repeats within the batch)."""
    written: int
    """Reservations whose state was at least as recent as the stored one, so became the current
    state (its rows written where they changed); the others were older than stored."""
    rooms: int
    versions_opened: int
    versions_closed: int
    stay_guests: int
    cursor: str | None


def brackets_json(brackets: dict[int, int]) -> str:
    """Canonical form of a brackets map: string keys in ascending id order, zero counts dropped."""
    if not brackets:
        return "{}"
    return "{" + ",".join(f'"{k}":{v}' for k, v in sorted(brackets.items()) if v) + "}"


def version_hash(room: ReservationRoom, head: Reservation) -> str:
    """SHA-256 of the tracked fields of a room entry: those whose change makes a new version
    (what OTB, pickup and pace use)."""
    total: Decimal = room.total
    tracked = (
        str(room.status), room.arrival.isoformat(), room.departure.isoformat(), room.nights,
        room.adults, brackets_json(room.brackets), room.room_type.id,
        room.room.id if room.room else None, room.rate_plan.id if room.rate_plan else None,
        format(total.quantize(Decimal("0.01")), "f"), str(head.type), head.channel,
        head.source, head.market,
    )  # repr keeps None apart from "None" and 1 apart from "1"
    return hashlib.sha256(repr(tracked).encode()).hexdigest()


def max_updated_at(reservations: Sequence[Reservation]) -> datetime | None:
    """The cursor a complete batch allows: the largest server `updated_at` in it."""
    return max((r.updated_at for r in reservations), default=None)


def _latest(reservations: Sequence[Reservation]) -> list[Reservation]:
    # A paged read may return a reservation twice when it changes mid-read: keep its newest state.
    by_id: dict[int, Reservation] = {}
    for r in reservations:
        seen = by_id.get(r.id)
        if seen is None or r.updated_at >= seen.updated_at:
            by_id[r.id] = r
    return list(by_id.values())


def _head_row(p: int, r: Reservation, run_id: str, fetched_at: datetime) -> dict[str, Any]:
    booker, billing = r.booker, r.billing_party
    return {
        "property_id": p, "reservation_id": r.id, "arrival": r.arrival,
        "departure": r.departure, "nights": r.nights, "status": str(r.status),
        "reservation_type": str(r.type),
        "booker_id": booker.id if booker else None,
        "booker_kind": str(booker.kind) if booker else None,
        "booker_name": booker.name if booker else None,
        "booker_email": booker.email if booker else None,
        "booker_phone": booker.phone if booker else None,
        "billing_party_id": billing.id if billing else None,
        "billing_party_kind": str(billing.kind) if billing else None,
        "billing_party_name": billing.name if billing else None,
        "booker_reference": r.booker_reference, "booking_code": r.booking_code,
        "external_ref": r.external_ref, "channel": r.channel, "source": r.source,
        "market": r.market, "group_name": r.group_name, "notes": r.notes, "voucher": r.voucher,
        "option_expires_on": r.option_expires_on, "rooms_count": len(r.rooms),
        "total": dec(r.total), "created_at": r.created_at, "updated_at": r.updated_at,
        "last_seen_run": run_id, "fetched_at": fetched_at,
    }


def _room_row(p: int, r: Reservation, s: ReservationRoom, run_id: str,
              fetched_at: datetime) -> dict[str, Any]:
    return {
        "property_id": p, "reservation_room_id": s.id, "reservation_id": r.id,
        "status": str(s.status), "arrival": s.arrival, "departure": s.departure,
        "nights": s.nights, "arrival_time": s.arrival_time, "adults": s.adults,
        "brackets": brackets_json(s.brackets), "children": sum(s.brackets.values()),
        "room_type_id": s.room_type.id, "room_type_code": s.room_type.code,
        "room_id": s.room.id if s.room else None, "room_code": s.room.code if s.room else None,
        "rate_plan_id": s.rate_plan.id if s.rate_plan else None,
        "rate_plan_code": s.rate_plan.code if s.rate_plan else None,
        "rate_plan_name": s.rate_plan.name if s.rate_plan else None,
        "offer_id": s.offer_id, "discount_pct": dec(s.discount_pct),
        "price_override": dec(s.price_override), "option_expires_on": s.option_expires_on,
        "cancelled_by": str(s.cancelled_by) if s.cancelled_by else None,
        "checked_in_at": s.checked_in_at, "checked_out_at": s.checked_out_at,
        "notes": s.notes, "total": dec(s.total), "updated_at": s.updated_at,
        "reservation_type": str(r.type), "channel": r.channel, "source": r.source,
        "market": r.market, "group_name": r.group_name, "created_at": r.created_at,
        "last_seen_run": run_id, "fetched_at": fetched_at,
        "version_hash": version_hash(s, r), "head_updated_at": r.updated_at,
        "has_guests": s.guests is not None,
    }


def land_reservations(
    conn: duckdb.DuckDBPyConnection,
    property_id: int,
    reservations: Sequence[Reservation],
    *,
    run_id: str,
    fetched_at: datetime,
    payloads: Sequence[Payload] | None = None,
    new_cursor: datetime | None = None,
    clear_resync: bool = False,
) -> ReservationLanding:
    """Land a batch of reservations and move the cursor, all in one transaction.

    `payloads` are the JSON objects as received (default: the models dumped). `fetched_at` is
    the server's time of the fetch (HTTP Date header). `new_cursor` is stored only when given
    and only if it moves the cursor forward: pass it with the last batch of a window (e.g.
    `max_updated_at` of everything read), never with an intermediate page, since the API lists
    newest first and a crash after a partial window must re-read it. `clear_resync` clears the
    stream's full-resync flag in the same transaction (the end of a full resync).
    """
    require_aware(fetched_at, "fetched_at")
    batch = _latest(reservations)
    heads = [_head_row(property_id, r, run_id, fetched_at) for r in batch]
    rooms = [_room_row(property_id, r, s, run_id, fetched_at) for r in batch for s in r.rooms]
    guests = [{
        "property_id": property_id, "stay_guest_id": g.id, "reservation_room_id": s.id,
        "reservation_id": r.id, "guest_id": g.guest_id, "is_main": g.is_main, "name": g.name,
        "first_name": g.first_name, "last_name": g.last_name, "email": g.email,
        "nationality": g.nationality, "birth_date": g.birth_date, "last_seen_run": run_id,
        "fetched_at": fetched_at,
    } for r in batch for s in r.rooms for g in (s.guests or [])]

    with transaction(conn):
        append_raw(conn, property_id, STREAM, payloads_of(reservations, payloads),
                   run_id=run_id, fetched_at=fetched_at)
        stage(conn, "_stg_res", _HEAD, heads)
        stage(conn, "_stg_rooms", _ROOM, rooms)
        stage(conn, "_stg_guests", _STAY_GUEST, guests)
        written = _merge_current(conn, property_id)
        opened, closed = _write_versions(conn)
        stay_guests = _merge_stay_guests(conn, property_id)
        cursor = None
        if new_cursor is not None:
            cursor = advance_cursor(conn, property_id, STREAM, new_cursor,
                                    run_id=run_id, at=fetched_at)
        if clear_resync:
            clear_full_resync(conn, property_id, STREAM)
        room_count = _count(conn, "SELECT count(*) FROM _stg_rooms WHERE reservation_id IN "
                                  "(SELECT reservation_id FROM _acc)")
        drop(conn, "_stg_res", "_stg_rooms", "_stg_guests", "_acc", "_vchg")
    return ReservationLanding(len(batch), written, room_count, opened, closed, stay_guests, cursor)


def _count(conn: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> int:
    row = conn.execute(sql, params or []).fetchone()
    return 0 if row is None else int(row[0])


def _merge_current(conn: duckdb.DuckDBPyConnection, p: int) -> int:
    conn.execute(
        "CREATE OR REPLACE TEMP TABLE _acc AS SELECT s.reservation_id FROM _stg_res s "
        "LEFT JOIN core.reservations t ON t.property_id = s.property_id "
        "AND t.reservation_id = s.reservation_id "
        "WHERE t.reservation_id IS NULL OR s.updated_at >= t.updated_at")
    accepted = "reservation_id IN (SELECT reservation_id FROM _acc)"
    write_difference(conn, "core.reservations", f"SELECT * FROM _stg_res WHERE {accepted}",
                     f"t.property_id = ? AND t.{accepted}", [p])
    write_difference(conn, "core.reservation_rooms",
                     "SELECT * EXCLUDE (version_hash, head_updated_at, has_guests) "
                     f"FROM _stg_rooms WHERE {accepted}",
                     f"t.property_id = ? AND t.{accepted}", [p])
    return _count(conn, "SELECT count(*) FROM _acc")


def _write_versions(conn: duckdb.DuckDBPyConnection) -> tuple[int, int]:
    conn.execute("""
        CREATE OR REPLACE TEMP TABLE _vchg AS
        SELECT s.*, c.valid_from AS cur_from,
            CASE WHEN c.valid_from IS NULL THEN 'new'
                 WHEN c.version_hash = s.version_hash THEN 'same'
                 WHEN s.updated_at > c.valid_from OR s.head_updated_at > c.valid_from
                     THEN 'close'
                 WHEN s.head_updated_at = c.valid_from THEN 'replace'
                 ELSE 'stale' END AS action,
            CASE WHEN c.valid_from IS NULL THEN s.updated_at
                 WHEN s.updated_at > c.valid_from THEN s.updated_at
                 WHEN s.head_updated_at > c.valid_from THEN s.head_updated_at
                 ELSE c.valid_from END AS eff
        FROM _stg_rooms s
        LEFT JOIN core.reservation_room_versions c ON c.property_id = s.property_id
            AND c.reservation_room_id = s.reservation_room_id AND c.valid_to IS NULL
        WHERE s.reservation_id IN (SELECT reservation_id FROM _acc)
    """)
    # Written by difference: the current versions a change closes (valid_to set) or replaces
    # are the scope, so a version holding the key of another stored one is refused.
    write_difference(conn, "core.reservation_room_versions", f"""
        SELECT v.* REPLACE (x.eff AS valid_to) FROM core.reservation_room_versions v
        JOIN _vchg x ON v.property_id = x.property_id
            AND v.reservation_room_id = x.reservation_room_id AND v.valid_to IS NULL
        WHERE x.action = 'close'
        UNION ALL BY NAME
        SELECT {_VERSION_COLUMNS}, eff AS valid_from, NULL AS valid_to,
               last_seen_run AS first_seen_run
        FROM _vchg WHERE action IN ('new', 'close', 'replace')
    """, "t.valid_to IS NULL AND EXISTS (SELECT 1 FROM _vchg x WHERE x.action IN ('close', "
         "'replace') AND x.property_id = t.property_id "
         "AND x.reservation_room_id = t.reservation_room_id)")
    closed = _count(conn, "SELECT count(*) FROM _vchg WHERE action = 'close'")
    opened = _count(conn, "SELECT count(*) FROM _vchg WHERE action IN ('new', 'close')")
    return opened, closed


def _merge_stay_guests(conn: duckdb.DuckDBPyConnection, p: int) -> int:
    # Only rooms whose state carried a guest list (the detail endpoint) replace their guests.
    conn.execute(
        "CREATE OR REPLACE TEMP TABLE _guest_rooms AS SELECT reservation_room_id FROM _stg_rooms "
        "WHERE has_guests AND reservation_id IN (SELECT reservation_id FROM _acc)")
    listed = "reservation_room_id IN (SELECT reservation_room_id FROM _guest_rooms)"
    write_difference(conn, "core.stay_guests", f"SELECT * FROM _stg_guests WHERE {listed}",
                     f"t.property_id = ? AND t.{listed}", [p])
    # A guest placed in several rooms of the batch is one archive record read several times:
    # the latest placement (highest StayGuest id) wins. A field the stay guest leaves null
    # keeps the stored value; the archive's own columns (land_guests) are kept.
    write_difference(conn, "core.guests", f"""
        SELECT g.* REPLACE (s.property_id AS property_id, s.guest_id AS guest_id,
            s.name AS display_name,
            coalesce(s.first_name, g.first_name) AS first_name,
            coalesce(s.last_name, g.last_name) AS last_name,
            coalesce(s.email, g.email) AS email,
            coalesce(s.nationality, g.nationality) AS nationality,
            coalesce(s.birth_date, g.birth_date) AS birth_date,
            s.last_seen_run AS last_seen_run, s.fetched_at AS fetched_at)
        FROM _stg_guests s LEFT JOIN core.guests g
            ON g.property_id = s.property_id AND g.guest_id = s.guest_id
        WHERE s.{listed}
        QUALIFY row_number() OVER (PARTITION BY s.guest_id ORDER BY s.stay_guest_id DESC) = 1
    """)
    count = _count(conn, f"SELECT count(*) FROM _stg_guests WHERE {listed}")
    drop(conn, "_guest_rooms")
    return count
