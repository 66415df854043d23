"""No-shows do not depend on the event log's 30 days (issue 14, item 2; docs/kpi.md, No-show).

Property 1 of the sandbox, driven through API v1 on a simulated clock (Rome time, 2026; the
night audit of D at 02:00 of D + 1):

Day Mar 2 (BD Mar 2), bookings for the night of Mar 3:
  N1  STD Mar 3-5, 110.00/night, booking_com: never comes, a no-show at the audit of Mar 3
      (its room assigned, its first night 110.00 charged on its folio)
  N2  two STD Mar 3-4, 99.00 each, email: room a checked in on Mar 3, room b never assigned
      and never comes: a no-show whose charge has no room (a line of the reservation only)
  O1  STD Mar 4-5, phone, an OPTION until Mar 3: lapses at the audit of Mar 3, at 02:00 on
      its arrival date (cancelled by the hotel on its arrival date, nothing charged)
  O2  STD Mar 3-4, phone, an OPTION until Mar 5: lapses at the audit of Mar 3, its arrival
      date (cancelled by the hotel after its arrival, nothing charged)
  G1  STD Mar 3-4, website: cancelled by the guest on Mar 3 at 10:00
  S1  STD Mar 3-4, website: checked in on Mar 3
Warehouse A syncs at 22:00 on Mar 2 and Mar 3 and after the audit of Mar 3; the stayers
leave on Mar 4. Then 62 night audits (to BD May 6) and both warehouses load: A once more,
B for the first time, when the events of March are gone from the log.

By hand: the no-shows are N1 and N2b, nothing else (O1 and O2 are lapsed options, G1 a
guest cancellation). Expected arrivals: booking_com N1 (1, no-show 1) -> 1.0000; email N2a
and N2b (2, no-show 1) -> 0.5000; website S1 (1, none) -> 0.0000. On the night of Mar 3,
rooms sold 2 (N2a, S1), and the no-show charges 100.00 (N1) + 90.00 (N2b) net on the folios;
both warehouses give the same room revenue (where N2b's charge, a line of no room entry,
counts is item 4's, the revenue tie-out).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from pipelines.marts.build import build_marts
from pipelines.warehouse import connect
from sandbox.clock import SimulatedClock
from sandbox.http.server import running_sandbox
from sandbox.settings import SandboxSettings
from tests.conftest import UNLIMITED, auth
from tests.stored_rows import stored_rows

from .hotel import ROME, STD, Hotel, d

pytestmark = pytest.mark.slow


def at(hotel: Hotel, day: date, hhmm: str) -> None:
    hour, minute = (int(x) for x in hhmm.split(":"))
    hotel.clock.set(datetime(day.year, day.month, day.day, hour, minute, tzinfo=ROME))


def audit(hotel: Hotel, day: date) -> None:
    at(hotel, day + timedelta(days=1), "02:00")
    result = hotel.ok(httpx.post(f"{hotel.sandbox.root_url}/_sandbox/night-audit",
                                 json={"property_id": 1}, timeout=30))
    assert result["audits"][0]["business_date"] == day.isoformat()


def live(a: Hotel) -> None:
    a.at(2, "10:00")
    a.book("N1", STD, 3, 5, "110.00", "booking_com", "channel_manager", "leisure")
    a.book("N2", STD, 3, 4, "99.00", "email", "direct", "leisure", quantity=2)
    a.book("O1", STD, 4, 5, "110.00", "phone", "direct", "leisure", status="option",
           option_expires_on=d(3))
    a.book("O2", STD, 3, 4, "110.00", "phone", "direct", "leisure", status="option",
           option_expires_on=d(5))
    a.book("G1", STD, 3, 4, "110.00", "website", "booking_engine", "leisure")
    a.book("S1", STD, 3, 4, "110.00", "website", "booking_engine", "leisure")
    a.at(2, "22:00")
    a.sync()
    audit(a, date(2026, 3, 2))
    a.at(3, "09:00")
    rid, (room_a, _) = a.ids["N2"], a.rooms["N2"]
    a.ok(a.api.post(f"/reservations/{rid}/rooms/{room_a}/assign-room"))
    a.ok(a.api.post(f"/reservations/{rid}/rooms/{room_a}/check-in"))
    a.ok(a.api.post(f"/reservations/{a.ids['N1']}/assign-rooms"))
    a.check_in("S1")
    a.at(3, "10:00")
    a.cancel("G1")
    a.at(3, "22:00")
    a.sync()
    audit(a, date(2026, 3, 3))
    a.at(4, "02:30")
    a.sync()
    a.at(4, "09:00")
    a.check_out("S1")
    rid = a.ids["N2"]
    for folio in a.ok(a.api.get(f"/reservations/{rid}/folios"))["data"]:
        if folio["status"] == "open":
            a.ok(httpx.post(f"{a.sandbox.root_url}/_sandbox/folios/{folio['id']}/payments",
                            timeout=30))
    a.ok(a.api.post(f"/reservations/{rid}/rooms/{room_a}/check-out"))
    day = date(2026, 3, 4)
    while day < date(2026, 5, 6):
        audit(a, day)
        day += timedelta(days=1)


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Hotel]]:
    folder = tmp_path_factory.mktemp("no_shows")
    daily, once = folder / "daily.duckdb", folder / "once.duckdb"
    clock = SimulatedClock(datetime(2026, 3, 2, 8, 0, tzinfo=UTC))
    with running_sandbox(SandboxSettings(admin=True, rate_per_minute=UNLIMITED["rate_per_minute"],
                                         burst=UNLIMITED["burst"]), clock) as sandbox, \
            httpx.Client(base_url=sandbox.base_url, headers=auth(), timeout=30) as api:
        conn = connect(daily)
        hotel = Hotel(sandbox, clock, api, conn)
        with conn:
            live(hotel)
            hotel.sync()
            build_marts(conn, 1)
        with connect(once) as late:
            Hotel(sandbox, clock, api, late).sync()
            build_marts(late, 1)
        yield daily, once, hotel


def test_the_events_of_march_are_gone_from_the_late_load(
        warehouses: tuple[Path, Path, Hotel]) -> None:
    daily, once, _ = warehouses
    sql = ("SELECT count(*) FROM core.events WHERE type = 'stay.cancelled' "
           "AND created_at < TIMESTAMPTZ '2026-04-01 00:00:00+00'")
    assert stored_rows(daily, sql)[0][0] >= 5  # A saw them: G1, O1, O2, N1, N2b
    assert stored_rows(once, sql) == [(0,)]
    assert stored_rows(once, "SELECT count(*) FROM core.reservation_room_versions "
                             "WHERE status NOT IN ('cancelled', 'checked_out') "
                             "AND arrival < DATE '2026-03-05'") \
        == [(0,)]  # B never saw the March rooms before their end: checked out or cancelled


def test_same_no_shows_from_a_daily_warehouse_and_one_loaded_60_days_later(
        warehouses: tuple[Path, Path, Hotel]) -> None:
    daily, once, hotel = warehouses
    name = {entry: f"{key}{'ab'[i]}" if len(entries) > 1 else key
            for key, entries in hotel.rooms.items() for i, entry in enumerate(entries)}
    sql = ("SELECT DISTINCT reservation_room_id FROM mart.stay_nights WHERE is_no_show "
           "ORDER BY 1")
    for path in (daily, once):
        assert {name[r[0]] for r in stored_rows(path, sql)} == {"N1", "N2b"}
    kpis = ("SELECT channel, no_show_rate FROM mart.booking_kpis "
            "WHERE arrival_month = DATE '2026-03-01' AND no_show_rate IS NOT NULL ORDER BY 1")
    expected = [("booking_com", Decimal("1.0000")), ("email", Decimal("0.5000")),
                ("website", Decimal("0.0000"))]
    assert stored_rows(daily, kpis) == expected
    assert stored_rows(once, kpis) == expected
    night = ("SELECT rooms_sold, room_revenue_net FROM mart.occupancy_daily "
             "WHERE stay_date = DATE '2026-03-03'")
    assert stored_rows(daily, night) == stored_rows(once, night)
    assert stored_rows(once, night)[0][0] == 2
    fees = ("SELECT sum(amount_net) FROM core.folio_lines WHERE posted_on = DATE '2026-03-03' "
            "AND description LIKE 'No-show%'")
    assert stored_rows(once, fees) == [(Decimal("190.00"),)]  # N1 100.00 + N2b 90.00


def test_the_late_load_marks_the_books_it_rebuilt(warehouses: tuple[Path, Path, Hotel]) -> None:
    """Issue 14, item 8: B first saw the hotel on business date May 6; its books of Mar 2
    (the first booking) to May 5 are rebuilt from history, and say so; A saw every day from
    Mar 2 and rebuilt nothing. The figures agree where both have them: on the night of Mar 3,
    at the end of Mar 2, N1, N2a, N2b, G1 and S1 were on the books, O2 an option."""
    daily, once, _ = warehouses
    sql = ("SELECT min(snapshot_date), max(snapshot_date) FROM mart.otb_snapshots "
           "WHERE is_rebuilt")
    assert stored_rows(once, sql) == [(date(2026, 3, 2), date(2026, 5, 5))]
    assert stored_rows(daily, sql) == [(None, None)]
    night = ("SELECT rooms_otb, rooms_option, is_rebuilt FROM mart.otb_snapshots "
             "WHERE snapshot_date = DATE '2026-03-02' AND stay_date = DATE '2026-03-03'")
    assert stored_rows(daily, night) == [(5, 1, False)]
    # B rebuilds the options as they are last seen: O2, lapsed, counts as confirmed since its
    # creation until its cancellation (docs/kpi.md, what a rebuild cannot know).
    assert stored_rows(once, night) == [(6, 0, True)]
    pace = ("SELECT bool_and(is_rebuilt) FROM mart.pace WHERE stay_date = DATE '2026-03-03'")
    assert stored_rows(once, pace) == [(True,)]
    assert stored_rows(daily, pace) == [(False,)]
