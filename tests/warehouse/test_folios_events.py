"""Folios (current state, net and gross) and the event log (each event once, cursor).

Issue 5: core.folio_lines carry a line's type, item, net and gross amounts; core.events by
event id, never twice; events cursor `after` the last landed id.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import duckdb

from pipelines.ingest.store import get_int_cursor, land_events, land_folios, land_reservations

from .factories import event, folio, line, reservation, room, ts

P = 1


def test_net_is_total_over_one_plus_vat_rounded_to_the_cent(
        conn: duckdb.DuckDBPyConnection) -> None:
    lines = [
        line(1, total=Decimal("150.00"), tax_pct=Decimal("10")),   # 136.3636 -> 136.36
        line(2, total=Decimal("12.35"), tax_pct=Decimal("22")),    # 10.1229 -> 10.12
        line(3, total=Decimal("0.11"), tax_pct=Decimal("10")),     # 0.1 exactly
        line(4, total=Decimal("1.155"), tax_pct=Decimal("10")),    # 1.05 exactly, half-up
        line(5, total=Decimal("7.50"), tax_pct=Decimal("0"), service_item_id=9,
             description="City tax"),
        line(6, total=Decimal("-150.00"), reversal_of=1),
        line(7, type="payment", total=Decimal("100"), tax_pct=Decimal("0"),
             service_item_id=None),
    ]
    land_folios(conn, P, [folio(70, 1, lines)], run_id="a", fetched_at=ts(1))
    rows = conn.execute("SELECT folio_line_id, type, amount_gross, amount_net, reversal_of "
                        "FROM core.folio_lines ORDER BY 1").fetchall()
    assert rows == [
        (1, "charge", Decimal("150.00"), Decimal("136.36"), None),
        (2, "charge", Decimal("12.35"), Decimal("10.12"), None),
        (3, "charge", Decimal("0.11"), Decimal("0.10"), None),
        (4, "charge", Decimal("1.16"), Decimal("1.05"), None),
        (5, "charge", Decimal("7.50"), Decimal("7.50"), None),
        (6, "charge", Decimal("-150.00"), Decimal("-136.36"), 1),
        (7, "payment", Decimal("100.00"), Decimal("100.00"), None),
    ]


def test_prices_without_vat_make_total_the_net(conn: duckdb.DuckDBPyConnection) -> None:
    land_folios(conn, P, [folio(71, 1, [line(1, total=Decimal("100.00"))],
                                prices_include_vat=False)], run_id="a", fetched_at=ts(1))
    assert conn.execute("SELECT amount_net, amount_gross FROM core.folio_lines").fetchall() == [
        (Decimal("100.00"), Decimal("110.00"))]


def test_refetch_replaces_the_folio_and_its_lines(conn: duckdb.DuckDBPyConnection) -> None:
    land_folios(conn, P, [folio(70, 1, [line(1), line(2)])], run_id="a", fetched_at=ts(1))
    land_folios(conn, P, [folio(70, 1, [line(1), line(2)])], run_id="b", fetched_at=ts(2))
    closed = folio(70, 1, [line(1), line(2), line(3, type="payment", tax_pct=Decimal("0"),
                                                  total=Decimal("300.00"))],
                   status="closed", document="2026/17", issue_date=date(2026, 4, 13))
    land_folios(conn, P, [closed], run_id="c", fetched_at=ts(3))
    assert conn.execute("SELECT status, document, balance, last_seen_run FROM core.folios"
                        ).fetchall() == [("closed", "2026/17", Decimal("0.00"), "c")]
    assert conn.execute("SELECT folio_line_id FROM core.folio_lines ORDER BY 1").fetchall() == [
        (1,), (2,), (3,)]


def test_a_refetch_writes_only_the_lines_that_changed(conn: duckdb.DuckDBPyConnection) -> None:
    """Issue 51: a line read again unchanged is not written again (same rowid, the run that
    landed it); a changed line is rewritten, a new one inserted, one gone from the folio
    deleted, and the folio row rewritten only because its totals moved."""
    land_folios(conn, P, [folio(70, 1, [line(1), line(2), line(3)])], run_id="a",
                fetched_at=ts(1))
    land_folios(conn, P, [folio(71, 2, [line(9)])], run_id="a", fetched_at=ts(1))
    stored = dict(conn.execute("SELECT folio_line_id, rowid FROM core.folio_lines").fetchall())
    land_folios(conn, P, [folio(71, 2, [line(9)])], run_id="b", fetched_at=ts(2))
    land_folios(conn, P, [folio(70, 1, [line(1), line(2, total=Decimal("99.00")), line(4)])],
                run_id="c", fetched_at=ts(3))
    assert conn.execute("SELECT folio_line_id, last_seen_run, total FROM core.folio_lines "
                        "ORDER BY 1").fetchall() == [
        (1, "a", Decimal("150.00")), (2, "c", Decimal("99.00")), (4, "c", Decimal("150.00")),
        (9, "a", Decimal("150.00"))]
    assert conn.execute("SELECT folio_line_id, rowid FROM core.folio_lines WHERE "
                        "folio_line_id IN (1, 9) ORDER BY 1").fetchall() == [
        (1, stored[1]), (9, stored[9])]
    assert conn.execute("SELECT folio_id, last_seen_run, charges FROM core.folios ORDER BY 1"
                        ).fetchall() == [(70, "c", Decimal("399.00")), (71, "a", Decimal("150.00"))]


def test_room_entry_of_a_line_is_derived_from_the_room_number(
        conn: duckdb.DuckDBPyConnection) -> None:
    # Two stays of one reservation in room 101 (different dates) and one in room 102.
    land_reservations(conn, P, [reservation(1, [
        room(11, room={"id": 1, "code": "101"}),
        room(12, room={"id": 1, "code": "101"}, arrival=date(2026, 4, 20),
             departure=date(2026, 4, 22), nights=2),
        room(13, room={"id": 2, "code": "102"}),
    ])], run_id="a", fetched_at=ts(1))
    lines = [line(1, room="102"), line(2, room="101", posted_on=date(2026, 4, 21)),
             line(3, room="101", posted_on=date(2026, 4, 16)), line(4, room="")]
    land_folios(conn, P, [folio(70, 1, lines)], run_id="a", fetched_at=ts(2))
    assert conn.execute("SELECT folio_line_id, reservation_room_id FROM core.folio_lines "
                        "ORDER BY 1").fetchall() == [(1, 13), (2, 12), (3, None), (4, None)]


def test_events_are_landed_once_by_id(conn: duckdb.DuckDBPyConnection) -> None:
    first = land_events(conn, P, [event(1), event(2), event(3)], run_id="a", fetched_at=ts(5))
    # A re-read overlapping the first (after a crash before the cursor was read, say).
    second = land_events(conn, P, [event(2), event(3), event(3), event(4)], run_id="b",
                         fetched_at=ts(6))
    assert (first.inserted, second.inserted) == (3, 1)
    assert conn.execute("SELECT event_id, run_id FROM core.events ORDER BY 1").fetchall() == [
        (1, "a"), (2, "a"), (3, "a"), (4, "b")]
    assert get_int_cursor(conn, P) == 4


def test_event_cursor_takes_next_after_and_never_rewinds(
        conn: duckdb.DuckDBPyConnection) -> None:
    land_events(conn, P, [event(8)], run_id="a", fetched_at=ts(1), new_cursor=10)
    assert get_int_cursor(conn, P) == 10
    land_events(conn, P, [event(9)], run_id="b", fetched_at=ts(2))
    assert get_int_cursor(conn, P) == 10
    land_events(conn, P, [], run_id="c", fetched_at=ts(3))
    assert get_int_cursor(conn, P) == 10


def test_event_data_is_kept_as_json(conn: duckdb.DuckDBPyConnection) -> None:
    land_events(conn, P, [event(1)], run_id="a", fetched_at=ts(1))
    assert conn.execute("SELECT data->>'status', type, entity, entity_id, created_at "
                        "FROM core.events").fetchall() == [
        ("confirmed", "reservation.updated", "reservation", 1, ts(1))]
