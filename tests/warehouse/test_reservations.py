"""Reservations: merge of the current state, room versions (SCD2), stay guests, cursor.

Issue 5: core.reservations / core.reservation_rooms hold the current state; versions hold every
distinct state with valid_from = the room's updated_at and valid_to = the next version's;
overlapping re-fetches add no duplicates; the cursor is the largest server updated_at landed.
"""

from __future__ import annotations

import itertools
from datetime import date
from decimal import Decimal
from typing import Any

import duckdb
import pytest

from pipelines.ingest.store import get_timestamp_cursor, land_reservations, max_updated_at

from .factories import reservation, room, stay_guest, ts

P = 1


def versions(conn: duckdb.DuckDBPyConnection, room_id: int) -> list[tuple[Any, ...]]:
    return conn.execute(
        "SELECT valid_from, valid_to, status, arrival, departure, total FROM "
        "core.reservation_room_versions WHERE property_id = ? AND reservation_room_id = ? "
        "ORDER BY valid_from", [P, room_id]).fetchall()


def count(conn: duckdb.DuckDBPyConnection, table: str) -> int:
    row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()
    assert row is not None
    return int(row[0])


def test_head_is_flattened_and_rooms_carry_the_head_fields(
        conn: duckdb.DuckDBPyConnection) -> None:
    r = reservation(1, [room(11, brackets={3: 1, 2: 0}, room={"id": 7, "code": "101"})],
                    channel="website", source="direct", market="business")
    land_reservations(conn, P, [r], run_id="run-1", fetched_at=ts(1))
    head = conn.execute(
        "SELECT booker_id, booker_kind, booker_name, booker_email, total, status, nights, "
        "rooms_count, last_seen_run FROM core.reservations").fetchall()
    assert head == [(501, "private", "Anna Rossi", "anna@example.com", Decimal("450.00"),
                     "confirmed", 3, 1, "run-1")]
    stay = conn.execute(
        "SELECT reservation_id, channel, source, market, created_at, brackets, children, "
        "room_code, rate_plan_code FROM core.reservation_rooms").fetchall()
    assert stay == [(1, "website", "direct", "business", ts(-60 * 24), '{"3":1}', 1, "101",
                     "BAR")]


def test_refetch_of_unchanged_state_adds_nothing(conn: duckdb.DuckDBPyConnection) -> None:
    r = reservation(1, [room(11), room(12)])
    land_reservations(conn, P, [r], run_id="run-1", fetched_at=ts(1))
    before = conn.execute("SELECT * FROM core.reservation_room_versions ORDER BY ALL").fetchall()
    # An overlapping re-fetch (same state, twice in one batch and again in a later run).
    result = land_reservations(conn, P, [r, r], run_id="run-2", fetched_at=ts(2))
    assert result.versions_opened == 0
    assert conn.execute(
        "SELECT * FROM core.reservation_room_versions ORDER BY ALL").fetchall() == before
    assert count(conn, "core.reservations") == 1
    assert count(conn, "core.reservation_rooms") == 2
    # The rows equal to the stored ones are not written again (issue 51): they keep the run
    # that landed them; the re-fetch is in raw.payloads.
    assert conn.execute("SELECT DISTINCT last_seen_run FROM core.reservations").fetchall() == [
        ("run-1",)]
    assert conn.execute("SELECT DISTINCT last_seen_run FROM core.reservation_rooms"
                        ).fetchall() == [("run-1",)]
    assert conn.execute("SELECT run_id, count(*) FROM raw.payloads GROUP BY 1 ORDER BY 1"
                        ).fetchall() == [("run-1", 1), ("run-2", 2)]


def test_a_change_closes_the_previous_version(conn: duckdb.DuckDBPyConnection) -> None:
    land_reservations(conn, P, [reservation(1, [room(11)])], run_id="a", fetched_at=ts(1))
    moved = room(11, arrival=date(2026, 4, 11), departure=date(2026, 4, 14),
                 total=Decimal("480.00"), updated_at=ts(10))
    result = land_reservations(conn, P, [reservation(1, [moved])], run_id="b",
                               fetched_at=ts(11))
    assert (result.versions_opened, result.versions_closed) == (1, 1)
    cancelled = room(11, arrival=date(2026, 4, 11), departure=date(2026, 4, 14),
                     total=Decimal("480.00"), status="cancelled", cancelled_by="guest",
                     updated_at=ts(20))
    land_reservations(conn, P, [reservation(1, [cancelled], status="cancelled")], run_id="c",
                      fetched_at=ts(21))
    assert versions(conn, 11) == [
        (ts(0), ts(10), "confirmed", date(2026, 4, 10), date(2026, 4, 13), Decimal("450.00")),
        (ts(10), ts(20), "confirmed", date(2026, 4, 11), date(2026, 4, 14), Decimal("480.00")),
        (ts(20), None, "cancelled", date(2026, 4, 11), date(2026, 4, 14), Decimal("480.00")),
    ]
    assert conn.execute("SELECT status FROM core.reservation_rooms").fetchall() == [
        ("cancelled",)]


def test_an_untracked_change_updates_current_state_but_adds_no_version(
        conn: duckdb.DuckDBPyConnection) -> None:
    land_reservations(conn, P, [reservation(1, [room(11)])], run_id="a", fetched_at=ts(1))
    noted = room(11, notes="late arrival", arrival_time="22:00", updated_at=ts(5))
    land_reservations(conn, P, [reservation(1, [noted])], run_id="b", fetched_at=ts(6))
    assert len(versions(conn, 11)) == 1
    assert conn.execute("SELECT notes, arrival_time, updated_at FROM core.reservation_rooms"
                        ).fetchall() == [("late arrival", "22:00", ts(5))]


def test_a_head_only_change_opens_a_version_at_the_head_time(
        conn: duckdb.DuckDBPyConnection) -> None:
    """A tracked head field (channel) changed; the room's own updated_at did not move."""
    land_reservations(conn, P, [reservation(1, [room(11)])], run_id="a", fetched_at=ts(1))
    land_reservations(conn, P, [reservation(1, [room(11)], channel="expedia",
                                            updated_at=ts(30))], run_id="b", fetched_at=ts(31))
    rows = conn.execute("SELECT valid_from, valid_to, channel FROM "
                        "core.reservation_room_versions ORDER BY valid_from").fetchall()
    assert rows == [(ts(0), ts(30), "booking.com"), (ts(30), None, "expedia")]


def test_a_change_within_the_same_second_replaces_the_current_version(
        conn: duckdb.DuckDBPyConnection) -> None:
    land_reservations(conn, P, [reservation(1, [room(11)])], run_id="a", fetched_at=ts(0))
    same_second = room(11, adults=3, total=Decimal("500.00"))  # updated_at still ts(0)
    land_reservations(conn, P, [reservation(1, [same_second])], run_id="b", fetched_at=ts(1))
    assert conn.execute("SELECT valid_from, valid_to, adults, total FROM "
                        "core.reservation_room_versions").fetchall() == [
        (ts(0), None, 3, Decimal("500.00"))]


def test_an_older_state_landed_late_changes_nothing(conn: duckdb.DuckDBPyConnection) -> None:
    old = reservation(1, [room(11)])
    new = reservation(1, [room(11, status="cancelled", cancelled_by="hotel", updated_at=ts(9))],
                      status="cancelled")
    land_reservations(conn, P, [new], run_id="a", fetched_at=ts(10))
    result = land_reservations(conn, P, [old], run_id="b", fetched_at=ts(11))
    assert result.written == 0
    assert conn.execute("SELECT status, last_seen_run FROM core.reservations").fetchall() == [
        ("cancelled", "a")]
    assert [v[2] for v in versions(conn, 11)] == ["cancelled"]


def test_versions_never_overlap_and_only_the_last_is_open(
        conn: duckdb.DuckDBPyConnection) -> None:
    for step in range(6):
        stay = room(11, adults=1 + step % 3, total=Decimal(400 + step), updated_at=ts(step * 7))
        # Every state is fetched twice, as an overlap window would.
        for run in ("x", "y"):
            land_reservations(conn, P, [reservation(1, [stay])], run_id=f"{run}{step}",
                              fetched_at=ts(step * 7 + 1))
    rows = versions(conn, 11)
    assert len(rows) == 6
    assert all(a[1] == b[0] for a, b in itertools.pairwise(rows))
    assert all(r[0] < r[1] for r in rows[:-1])
    assert rows[-1][1] is None
    overlaps = conn.execute("""
        SELECT count(*) FROM core.reservation_room_versions a
        JOIN core.reservation_room_versions b USING (property_id, reservation_room_id)
        WHERE a.valid_from < b.valid_from
          AND coalesce(a.valid_to, 'infinity'::TIMESTAMPTZ) > b.valid_from
    """).fetchone()
    assert overlaps == (0,)


def test_cursor_is_the_largest_updated_at_and_never_moves_back(
        conn: duckdb.DuckDBPyConnection) -> None:
    batch = [reservation(1, [room(11, updated_at=ts(5))]),
             reservation(2, [room(21, updated_at=ts(9))])]
    assert max_updated_at(batch) == ts(9)
    land_reservations(conn, P, batch, run_id="a", fetched_at=ts(10),
                      new_cursor=max_updated_at(batch))
    assert get_timestamp_cursor(conn, P) == ts(9)
    land_reservations(conn, P, batch[:1], run_id="b", fetched_at=ts(11), new_cursor=ts(5))
    assert get_timestamp_cursor(conn, P) == ts(9)
    land_reservations(conn, P, [], run_id="c", fetched_at=ts(12))
    assert get_timestamp_cursor(conn, P) == ts(9)


def test_stay_guests_come_from_the_detail_and_list_answers_leave_them(
        conn: duckdb.DuckDBPyConnection) -> None:
    detail = reservation(1, [room(11, guests=[stay_guest(1, 900, "Anna Rossi"),
                                              stay_guest(2, 901, "Marco Bianchi", False)])])
    land_reservations(conn, P, [detail], run_id="a", fetched_at=ts(1))
    listed = reservation(1, [room(11)])  # list answer: guests not included (None)
    land_reservations(conn, P, [listed], run_id="b", fetched_at=ts(2))
    assert conn.execute("SELECT stay_guest_id, guest_id, is_main FROM core.stay_guests "
                        "ORDER BY 1").fetchall() == [(1, 900, True), (2, 901, False)]
    one_left = reservation(1, [room(11, guests=[stay_guest(1, 900, "Anna Rossi")])])
    land_reservations(conn, P, [one_left], run_id="c", fetched_at=ts(3))
    assert conn.execute("SELECT stay_guest_id FROM core.stay_guests").fetchall() == [(1,)]
    assert conn.execute("SELECT guest_id, display_name, first_name FROM core.guests "
                        "ORDER BY 1").fetchall() == [(900, "Anna Rossi", "Anna"),
                                                     (901, "Marco Bianchi", "Marco")]


def test_raw_payloads_are_appended_as_received(conn: duckdb.DuckDBPyConnection) -> None:
    r = reservation(1)
    received = {**r.model_dump(mode="json"), "field_from_the_future": 1}
    land_reservations(conn, P, [r], run_id="a", fetched_at=ts(1), payloads=[received])
    land_reservations(conn, P, [r], run_id="b", fetched_at=ts(2))
    rows = conn.execute("SELECT stream, entity_id, payload->>'field_from_the_future', run_id, "
                        "fetched_at FROM raw.payloads ORDER BY run_id").fetchall()
    assert rows == [("reservations", 1, "1", "a", ts(1)), ("reservations", 1, None, "b", ts(2))]


@pytest.mark.slow
def test_a_year_of_reservations_lands_in_one_call(conn: duckdb.DuckDBPyConnection) -> None:
    """Bulk landing, not row by row: 10k reservations in one batch, then a re-fetch of all."""
    batch = [reservation(i, [room(i * 10 + 1, updated_at=ts(i % 500))]) for i in range(1, 10_001)]
    first = land_reservations(conn, P, batch, run_id="a", fetched_at=ts(600))
    again = land_reservations(conn, P, batch, run_id="b", fetched_at=ts(601))
    assert (first.written, first.versions_opened) == (10_000, 10_000)
    assert (again.written, again.versions_opened) == (10_000, 0)
    assert count(conn, "core.reservation_room_versions") == 10_000
