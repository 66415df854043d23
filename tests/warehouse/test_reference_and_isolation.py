"""Property data replaced per property, availability snapshots, archive guests, sync state and
run log, and property_id isolation (issue 5: every warehouse table carries property_id; two
properties sync into one warehouse without mixing)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import duckdb
import pytest

from models import (
    AgeBracket,
    Classifications,
    Guest,
    Housekeeping,
    Item,
    Property,
    RatePlan,
    Room,
    RoomType,
    TypeAvailability,
)
from pipelines.ingest.store import (
    PropertyData,
    SyncRun,
    get_state,
    land_availability,
    land_events,
    land_folios,
    land_guests,
    land_reference,
    land_reservations,
    record_sync_run,
    require_full_resync,
    reset_cursor,
)

from .factories import event, folio, line, reservation, room, stay_guest, ts


def property_data(pid: int, rooms: int = 2) -> PropertyData:
    prop = Property(
        id=pid, code=f"P{pid}", name=f"Hotel {pid}", legal_name="Srl", activity="hotel",
        address="Via Roma 1", zip="00100", city="Roma", province="RM", country="IT",
        phone="", email="", website="", star_rating="4", latitude=Decimal("41.9"),
        longitude=None, currency="EUR", timezone="Europe/Rome", check_in_time="14:00",
        check_out_time="11:00", business_date=date(2026, 3, 1))
    return PropertyData(
        property=prop,
        room_types=[RoomType(id=1, code="STD", name="Standard", channel_code="STD", max_pax=2,
                             rooms=rooms)],
        rooms=[Room(id=i, code=str(100 + i), name="", room_type_id=1, floor="1", extra_beds=0,
                    housekeeping="clean", sellable=True) for i in range(1, rooms + 1)],
        rate_plans=[RatePlan(id=1, code="BAR", name="Best", discount_pct=Decimal("0"),
                             is_default=True, per_person=False, cadence="daily")],
        age_brackets=[AgeBracket(id=1, code="C", name="Child", age_from=0, age_to=11,
                                 counts_as_person=True)],
        items=[Item(id=1, code="ROOM", name="Room", department="accommodation", kind="room",
                    price=Decimal("150"), tax_pct=Decimal("10"))],
        classifications=Classifications(
            sources=["ota", "direct"], channels=["booking.com"], markets=["leisure"],
            required={"source": True, "channel": False, "market": False}),
    )


def test_reference_is_replaced_per_property(conn: duckdb.DuckDBPyConnection) -> None:
    land_reference(conn, 1, property_data(1, rooms=3), run_id="a", fetched_at=ts(1))
    land_reference(conn, 2, property_data(2, rooms=2), run_id="a", fetched_at=ts(1))
    written = land_reference(conn, 1, property_data(1, rooms=1), run_id="b", fetched_at=ts(2))
    assert written["rooms"] == 1
    assert conn.execute("SELECT property_id, count(*) FROM core.rooms GROUP BY 1 ORDER BY 1"
                        ).fetchall() == [(1, 1), (2, 2)]
    assert conn.execute("SELECT kind, value, required FROM core.classifications "
                        "WHERE property_id = 1 ORDER BY 1, 2").fetchall() == [
        ("channel", "booking.com", False), ("market", "leisure", False),
        ("source", "direct", True), ("source", "ota", True)]
    assert conn.execute("SELECT business_date, latitude, longitude FROM core.property "
                        "WHERE property_id = 1").fetchall() == [
        (date(2026, 3, 1), Decimal("41.9000000"), None)]


def test_property_data_read_again_unchanged_is_not_written_again(
        conn: duckdb.DuckDBPyConnection) -> None:
    """Issue 51: the property data is read every run; a row equal to the stored one (but for
    the run and fetch time) stays as landed, the row that changed is written."""
    land_reference(conn, 1, property_data(1, rooms=3), run_id="a", fetched_at=ts(1))
    tables = ("property", "room_types", "rooms", "rate_plans", "age_brackets", "items",
              "classifications")
    stored = {t: conn.execute(f"SELECT rowid, * FROM core.{t} ORDER BY ALL").fetchall()
              for t in tables}
    land_reference(conn, 1, property_data(1, rooms=3), run_id="b", fetched_at=ts(2))
    assert {t: conn.execute(f"SELECT rowid, * FROM core.{t} ORDER BY ALL").fetchall()
            for t in tables} == stored
    data = property_data(1, rooms=3)
    rooms = [r.model_copy(update={"housekeeping": Housekeeping.DIRTY}) if r.id == 2 else r
             for r in data.rooms]
    land_reference(conn, 1, replace(data, rooms=rooms), run_id="c", fetched_at=ts(3))
    assert conn.execute("SELECT room_id, housekeeping, last_seen_run FROM core.rooms "
                        "ORDER BY 1").fetchall() == [
        (1, "clean", "a"), (2, "dirty", "c"), (3, "clean", "a")]
    assert conn.execute("SELECT DISTINCT last_seen_run FROM core.room_types").fetchall() == [
        ("a",)]


def test_reference_of_another_property_is_refused(conn: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(ValueError, match=r"property\.id is 2"):
        land_reference(conn, 1, property_data(2), run_id="a", fetched_at=ts(1))


def _availability(total: int, days: int = 3) -> list[TypeAvailability]:
    start = date(2026, 3, 1)
    return [TypeAvailability(room_type_id=1, code="STD", name="Standard", days=[
        {"date": start + timedelta(days=d), "total": total, "occupied": 1, "out_of_order": 0,
         "available": total - 1} for d in range(days)])]


def test_availability_keeps_one_snapshot_per_business_date(
        conn: duckdb.DuckDBPyConnection) -> None:
    land_availability(conn, 1, _availability(10), snapshot_date=date(2026, 3, 1), run_id="a",
                      fetched_at=ts(1))
    land_availability(conn, 1, _availability(9), snapshot_date=date(2026, 3, 1), run_id="b",
                      fetched_at=ts(2))
    land_availability(conn, 1, _availability(8, days=1), snapshot_date=date(2026, 3, 2),
                      run_id="c", fetched_at=ts(3))
    assert conn.execute("SELECT snapshot_date, count(*), min(total), max(total) FROM "
                        "core.availability GROUP BY 1 ORDER BY 1").fetchall() == [
        (date(2026, 3, 1), 3, 9, 9), (date(2026, 3, 2), 1, 8, 8)]
    state = get_state(conn, 1, "availability")
    assert state is not None
    assert (state.cursor_value, state.cursor_kind) == ("2026-03-02", "date")


def _archive(gid: int) -> Guest:
    return Guest(id=gid, kind="private", display_name="Anna Rossi", first_name="Anna",
                 last_name="Rossi", country_code="IT", doc_number="AB123")


def test_archive_guests_only_for_guests_seen_on_stays(conn: duckdb.DuckDBPyConnection) -> None:
    land_reservations(conn, 1, [reservation(1, [room(11, guests=[stay_guest(1, 900)])])],
                      run_id="a", fetched_at=ts(1))
    assert land_guests(conn, 1, [_archive(900), _archive(901)], run_id="a",
                       fetched_at=ts(2)) == 1
    assert conn.execute("SELECT guest_id, kind, country_code FROM core.guests").fetchall() == [
        (900, "private", "IT")]
    assert conn.execute("SELECT count(*) FROM raw.payloads WHERE stream = 'guests'"
                        ).fetchone() == (1,)


def test_an_archive_record_read_twice_in_a_batch_lands_once_as_last_read(
        conn: duckdb.DuckDBPyConnection) -> None:
    """GET /guests/{id} answers the record as it is now: read twice (changed between the two
    reads), the later read is the guest; both payloads stay in raw.payloads as received."""
    land_reservations(conn, 1, [reservation(1, [room(11, guests=[stay_guest(1, 900)])])],
                      run_id="a", fetched_at=ts(1))
    first, later = _archive(900), _archive(900).model_copy(update={"country_code": "FR"})
    for batch, country in (([first, later], "FR"), ([later, first], "IT")):
        assert land_guests(conn, 1, batch, run_id="b", fetched_at=ts(2)) == 1
        assert conn.execute("SELECT guest_id, country_code FROM core.guests").fetchall() == [
            (900, country)]


def test_two_properties_with_the_same_ids_never_mix(conn: duckdb.DuckDBPyConnection) -> None:
    """The same ids in two properties (two PMS instances): each landing touches only its own."""
    for pid in (1, 2):
        land_reservations(conn, pid, [reservation(1)], run_id="a", fetched_at=ts(1),
                          new_cursor=ts(0))
        land_folios(conn, pid, [folio(70, 1, [line(1)])], run_id="a", fetched_at=ts(1))
        land_events(conn, pid, [event(1)], run_id="a", fetched_at=ts(1))
    cancelled = reservation(1, [room(11, status="cancelled", cancelled_by="guest",
                                     updated_at=ts(5))], status="cancelled")
    land_reservations(conn, 2, [cancelled], run_id="b", fetched_at=ts(6), new_cursor=ts(5))
    land_folios(conn, 2, [folio(70, 1, [])], run_id="b", fetched_at=ts(6))
    assert conn.execute("SELECT property_id, status FROM core.reservations ORDER BY 1"
                        ).fetchall() == [(1, "confirmed"), (2, "cancelled")]
    assert conn.execute("SELECT property_id, count(*) FROM core.reservation_room_versions "
                        "GROUP BY 1 ORDER BY 1").fetchall() == [(1, 1), (2, 2)]
    assert conn.execute("SELECT property_id, count(*) FROM core.folio_lines GROUP BY 1"
                        ).fetchall() == [(1, 1)]
    assert conn.execute("SELECT property_id, count(*) FROM core.events GROUP BY 1 ORDER BY 1"
                        ).fetchall() == [(1, 1), (2, 1)]
    assert conn.execute("SELECT property_id, cursor_value FROM meta.sync_state "
                        "WHERE stream = 'reservations' ORDER BY 1").fetchall() == [
        (1, "2026-03-01T09:00:00Z"), (2, "2026-03-01T09:05:00Z")]


def test_full_resync_flag_and_reset(conn: duckdb.DuckDBPyConnection) -> None:
    land_reservations(conn, 1, [reservation(1)], run_id="a", fetched_at=ts(1), new_cursor=ts(0))
    require_full_resync(conn, 1, "reservations", "event cursor 5 fell out of the 30-day log")
    state = get_state(conn, 1, "reservations")
    assert state is not None
    assert state.full_resync_required
    assert state.cursor_value == "2026-03-01T09:00:00Z"
    reset_cursor(conn, 1, "reservations", None, run_id="b", at=ts(2))
    land_reservations(conn, 1, [reservation(1)], run_id="b", fetched_at=ts(3),
                      new_cursor=ts(0), clear_resync=True)
    state = get_state(conn, 1, "reservations")
    assert state is not None
    assert (state.full_resync_required, state.full_resync_reason) == (False, None)


def test_sync_runs_are_recorded_and_updated(conn: duckdb.DuckDBPyConnection) -> None:
    record_sync_run(conn, SyncRun("r1", 1, "events", started_at=ts(0), status="running"))
    record_sync_run(conn, SyncRun("r1", 1, "events", started_at=ts(0), status="success",
                                  ended_at=ts(1), calls=3, rows=250, seconds=1.5))
    assert conn.execute('SELECT status, calls, "rows", seconds FROM meta.sync_runs').fetchall(
    ) == [("success", 3, 250, 1.5)]


def test_naive_fetched_at_is_refused(conn: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(ValueError, match="fetched_at must carry a time zone"):
        land_events(conn, 1, [event(1)], run_id="a", fetched_at=ts(1).replace(tzinfo=None))
