"""Availability counts and free rooms (sandbox/services/availability.py) on a seeded database.

Stays are written straight into reservation_rooms: the reservation service is not under test.
"""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta

from sandbox.db import insert
from sandbox.services.availability import (
    first_free_room,
    room_is_free,
    type_availability,
    type_has_rooms,
)

TODAY = date(2026, 3, 2)  # the seed's business date with this clock


def type_id(conn: sqlite3.Connection, code: str) -> int:
    return int(conn.execute("SELECT id FROM room_types WHERE code = ? AND property_id = 1",
                            (code,)).fetchone()["id"])


def rooms_of(conn: sqlite3.Connection, code: str, sellable: int = 1) -> list[int]:
    return [row["id"] for row in conn.execute(
        "SELECT id FROM rooms WHERE room_type_id = ? AND sellable = ? ORDER BY id",
        (type_id(conn, code), sellable))]


def blocked_rooms(conn: sqlite3.Connection) -> dict[int, tuple[date, date]]:
    return {row["room_id"]: (date.fromisoformat(row["from_date"]),
                             date.fromisoformat(row["to_date"]))
            for row in conn.execute("SELECT * FROM room_blocks WHERE property_id = 1")}


def add_stay(conn: sqlite3.Connection, code: str, arrival: date, nights: int, *,
             room_id: int | None = None, status: str = "confirmed") -> int:
    stamp = "2026-03-01T00:00:00Z"
    reservation = insert(conn, "reservations", {"property_id": 1, "created_at": stamp,
                                                "updated_at": stamp})
    return insert(conn, "reservation_rooms", {
        "reservation_id": reservation, "property_id": 1, "status": status,
        "arrival": arrival.isoformat(),
        "departure": (arrival + timedelta(days=nights)).isoformat(),
        "room_type_id": type_id(conn, code), "room_id": room_id,
        "created_at": stamp, "updated_at": stamp,
    })


def day(conn: sqlite3.Connection, code: str, night: date) -> tuple[int, int, int, int]:
    counts = type_availability(conn, 1, night, night + timedelta(days=1))[type_id(conn, code)][0]
    return counts.total, counts.occupied, counts.out_of_order, counts.available


def test_totals_are_sellable_rooms_of_non_virtual_types(conn: sqlite3.Connection) -> None:
    result = type_availability(conn, 1, TODAY, TODAY + timedelta(days=3))
    assert list(result) == [type_id(conn, c) for c in ("STD", "SUP", "DLX", "JSU")]
    for code in ("STD", "SUP", "DLX", "JSU"):
        days = result[type_id(conn, code)]
        assert [d.night for d in days] == [TODAY + timedelta(days=n) for n in range(3)]
        assert {d.total for d in days} == {len(rooms_of(conn, code))}
    assert rooms_of(conn, "STD", sellable=0)  # the seed keeps some rooms off sale


def test_out_of_order_rooms_are_subtracted_on_their_nights(conn: sqlite3.Connection) -> None:
    blocks = blocked_rooms(conn)
    assert blocks
    for room, (first, end) in blocks.items():
        code = conn.execute("SELECT t.code FROM rooms r JOIN room_types t ON t.id = "
                            "r.room_type_id WHERE r.id = ?", (room,)).fetchone()["code"]
        total = len(rooms_of(conn, code))
        assert day(conn, code, first) == (total, 0, 1, total - 1)
        assert day(conn, code, end - timedelta(days=1))[2] == 1
        assert day(conn, code, end) == (total, 0, 0, total)  # to_date is exclusive


def test_a_stay_counts_on_the_assigned_rooms_type_else_the_requested_one(
    conn: sqlite3.Connection,
) -> None:
    night = TODAY + timedelta(days=20)
    add_stay(conn, "STD", night, 2)  # unassigned: counts on STD
    add_stay(conn, "STD", night, 2, room_id=rooms_of(conn, "SUP")[0])  # upgraded: counts on SUP
    add_stay(conn, "DLX", night, 2, status="cancelled")  # cancelled: not counted
    add_stay(conn, "DLX", night - timedelta(days=2), 2)  # departs on `night`: not counted
    std, sup = len(rooms_of(conn, "STD")), len(rooms_of(conn, "SUP"))
    assert day(conn, "STD", night) == (std, 1, 0, std - 1)
    assert day(conn, "SUP", night) == (sup, 1, 0, sup - 1)
    assert day(conn, "DLX", night)[1] == 0
    assert day(conn, "STD", night + timedelta(days=1))[1] == 1
    assert day(conn, "STD", night + timedelta(days=2))[1] == 0


def test_forced_overbooking_goes_negative(conn: sqlite3.Connection) -> None:
    night = TODAY + timedelta(days=30)
    jsu = len(rooms_of(conn, "JSU"))
    for _ in range(jsu + 2):
        add_stay(conn, "JSU", night, 1)
    assert day(conn, "JSU", night) == (jsu, jsu + 2, 0, -2)


def test_type_has_rooms_counts_every_night_and_can_leave_stays_out(
    conn: sqlite3.Connection,
) -> None:
    night = TODAY + timedelta(days=10)
    jsu = type_id(conn, "JSU")
    total = len(rooms_of(conn, "JSU"))
    stays = [add_stay(conn, "JSU", night + timedelta(days=1), 1) for _ in range(total)]
    assert type_has_rooms(conn, 1, jsu, night, night + timedelta(days=1), needed=total)
    assert not type_has_rooms(conn, 1, jsu, night, night + timedelta(days=2))
    assert type_has_rooms(conn, 1, jsu, night, night + timedelta(days=2),
                          exclude_stay_ids=stays[:1])


def test_room_is_free_unless_held_blocked_or_off_sale(conn: sqlite3.Connection) -> None:
    night = TODAY + timedelta(days=5)
    room = rooms_of(conn, "DLX")[0]
    assert room_is_free(conn, 1, room, night, night + timedelta(days=3))
    stay = add_stay(conn, "DLX", night + timedelta(days=1), 1, room_id=room)
    assert not room_is_free(conn, 1, room, night, night + timedelta(days=3))
    assert room_is_free(conn, 1, room, night, night + timedelta(days=3), exclude_stay_id=stay)
    assert room_is_free(conn, 1, room, night, night + timedelta(days=1))  # ends when it starts
    assert room_is_free(conn, 1, room, night + timedelta(days=2), night + timedelta(days=4))
    blocked, (first, end) = next(iter(blocked_rooms(conn).items()))
    assert not room_is_free(conn, 1, blocked, first, end)
    assert room_is_free(conn, 1, blocked, end, end + timedelta(days=1))
    assert not room_is_free(conn, 1, rooms_of(conn, "STD", sellable=0)[0], night,
                            night + timedelta(days=1))
    assert not room_is_free(conn, 2, room, night, night + timedelta(days=1))  # other property


def test_first_free_room_takes_the_lowest_free_id(conn: sqlite3.Connection) -> None:
    night = TODAY + timedelta(days=40)
    dlx_rooms = rooms_of(conn, "DLX")
    dlx = type_id(conn, "DLX")
    assert first_free_room(conn, 1, dlx, night, night + timedelta(days=2)) == dlx_rooms[0]
    stay = add_stay(conn, "DLX", night, 1, room_id=dlx_rooms[0])
    assert first_free_room(conn, 1, dlx, night, night + timedelta(days=2)) == dlx_rooms[1]
    assert first_free_room(conn, 1, dlx, night, night + timedelta(days=2),
                           exclude_stay_id=stay) == dlx_rooms[0]
    for room in dlx_rooms[1:]:
        add_stay(conn, "DLX", night, 1, room_id=room)
    assert first_free_room(conn, 1, dlx, night, night + timedelta(days=1)) is None


def test_first_free_room_skips_blocked_rooms(conn: sqlite3.Connection) -> None:
    blocked, (first, end) = next(iter(blocked_rooms(conn).items()))
    type_of = conn.execute("SELECT room_type_id FROM rooms WHERE id = ?",
                           (blocked,)).fetchone()["room_type_id"]
    for room in conn.execute("SELECT id FROM rooms WHERE room_type_id = ? AND id <> ? "
                             "AND sellable = 1", (type_of, blocked)).fetchall():
        add_stay(conn, "STD", first, (end - first).days, room_id=room["id"])
    assert first_free_room(conn, 1, type_of, first, end) is None
    assert first_free_room(conn, 1, type_of, end, end + timedelta(days=1)) is not None


def test_ids_beyond_sqlite_integers_belong_to_no_room_or_type(conn: sqlite3.Connection) -> None:
    huge = 2**64
    night = TODAY + timedelta(days=3)
    assert not room_is_free(conn, 1, huge, night, night + timedelta(days=1))
    assert first_free_room(conn, 1, huge, night, night + timedelta(days=1)) is None
    assert not type_has_rooms(conn, 1, huge, night, night + timedelta(days=1))
    assert type_availability(conn, 1, night, night + timedelta(days=1), [huge]) == {}
