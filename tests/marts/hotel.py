"""The hand-built hotel: a dozen reservations of property 1 driven through API v1 over HTTP on
a simulated clock, with the night audit run through /_sandbox, synced after each day with the
real ingestion code (pipelines.ingest) into a DuckDB warehouse.

Calendar (Rome time, 2026; business date BD). Prices are `price_override`s in multiples of
11.00 so that net = gross / 1.1 is exact. Property 1 has 78 sellable rooms (STD 29, SUP 25,
DLX 15, JSU 9); the seed puts STD room 104 out of order on the nights Mar 2-5 and SUP room
309 on Mar 4-6.

Day Mar 2 (BD Mar 2)
  R1  09:30 STD Mar 2-4, 110.00/night, website/booking_engine/leisure, 2 adults; checked in
  R2  10:00 SUP Mar 2-5, 132.00/night, booking_com/channel_manager/business, 1 adult; checked in
  R3  11:00 DLX Mar 6-8, 165.00/night, email/direct/leisure, 2 adults (rate change Mar 4)
  R4  12:00 STD Mar 3-4, 99.00, booking_com/channel_manager/leisure, 2 adults, never assigned:
      a no-show at the audit of Mar 3 (first night 99.00 charged)
  R5  13:00 JSU Mar 7-9, 220.00/night, phone/direct/leisure, 2 adults, OPTION until Mar 10
  R6  14:00 STD Mar 2-3, 0.00 (complimentary), phone/direct/other, 1 adult; checked in
Day Mar 3 (BD Mar 3)
  R7  10:00 SUP Mar 3-6, 121.00/night, expedia/channel_manager/leisure, 2 adults + 1 child
      (CHD, a person); checked in
  R8  11:00 DLX Mar 8-10, 198.00/night, booking_com/channel_manager/leisure (cancelled Mar 4)
  R9  12:00 STD Mar 9-11, 110.00/night, website/booking_engine/leisure (moved Mar 5 to Mar 10-12)
  R10 15:00 two STD Mar 6-7, 88.00 each, email/tour_operator/groups (one cancelled Mar 5)
  R6 checks out (09:00)
Day Mar 4 (BD Mar 4)
  R3 10:00 price_override 165.00 -> 187.00 (a rate change)
  R8 11:00 cancelled by the guest
  R1 checks out (09:00, folio paid)
  R2 charges: breakfast 15.00 (10%), parking 25.00 (22%), city tax 7.50 (no VAT), posted Mar 4
  R11 14:00 STD Mar 12-13, 110.00, website, cancelled at 16:00 the same day
Day Mar 5 (BD Mar 5)
  R9 10:00 moved to Mar 10-12
  R10 11:00 its second room cancelled
  R2 checks out (09:00, folio paid)
  R12 12:00 DLX Mar 5-6, 154.00, gds/travel_agent/business, 1 adult; checked in 15:00
Every evening at 22:00 a sync; the night audit at 02:00; after the audit of Mar 5 a last sync
(BD Mar 6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import duckdb
import httpx

from pipelines.ingest import Endpoint, sync_property
from sandbox.clock import SimulatedClock
from sandbox.http.server import RunningSandbox
from tests.conftest import ALL_SCOPES_KEY

ROME = ZoneInfo("Europe/Rome")
STD, SUP, DLX, JSU = 1, 2, 3, 4
BRK, PARK, CTAX = 2, 6, 8
CHD = 2


def rome(day: int, hhmm: str) -> datetime:
    hour, minute = (int(x) for x in hhmm.split(":"))
    return datetime(2026, 3, day, hour, minute, tzinfo=ROME)


def d(day: int) -> str:
    return date(2026, 3, day).isoformat()


@dataclass
class Hotel:
    sandbox: RunningSandbox
    clock: SimulatedClock
    api: httpx.Client
    conn: duckdb.DuckDBPyConnection
    ids: dict[str, int] = field(default_factory=dict)
    """R1 ... R12 -> reservation id."""
    rooms: dict[str, list[int]] = field(default_factory=dict)
    """R1 ... R12 -> room entry ids."""
    syncs: int = 0

    def at(self, day: int, hhmm: str) -> None:
        self.clock.set(rome(day, hhmm))

    def ok(self, response: httpx.Response, status: int = 200) -> dict[str, Any]:
        assert response.status_code == status, response.text
        body: dict[str, Any] = response.json()
        return body

    def book(self, name: str, room_type: int, arrival: int, departure: int, price: str,
             channel: str, source: str, market: str, adults: int = 2, quantity: int = 1,
             **extra: Any) -> None:
        room: dict[str, Any] = {"room_type_id": room_type, "arrival": d(arrival),
                                "departure": d(departure), "adults": adults,
                                "price_override": price, "quantity": quantity}
        room.update(extra.pop("room", {}))
        body = {"rooms": [room], "new_party": {"first_name": "Guest", "last_name": name},
                "channel": channel, "source": source, "market": market, **extra}
        reservation = self.ok(self.api.post("/reservations", json=body), 201)["reservation"]
        self.ids[name] = reservation["id"]
        self.rooms[name] = [r["id"] for r in reservation["rooms"]]

    def check_in(self, name: str) -> None:
        rid = self.ids[name]
        self.ok(self.api.post(f"/reservations/{rid}/assign-rooms"))
        self.ok(self.api.post(f"/reservations/{rid}/check-in"))

    def check_out(self, name: str) -> None:
        rid = self.ids[name]
        for folio in self.ok(self.api.get(f"/reservations/{rid}/folios"))["data"]:
            if folio["status"] == "open":
                self.ok(httpx.post(f"{self.sandbox.root_url}/_sandbox/folios/{folio['id']}"
                                   "/payments", timeout=30))
        self.ok(self.api.post(f"/reservations/{rid}/check-out"))

    def patch_room(self, name: str, **fields: Any) -> None:
        rid, entry = self.ids[name], self.rooms[name][0]
        self.ok(self.api.patch(f"/reservations/{rid}/rooms/{entry}", json=fields))

    def cancel(self, name: str, entry: int | None = None) -> None:
        rid = self.ids[name]
        if entry is None:
            self.ok(self.api.post(f"/reservations/{rid}/cancel"))
        else:
            self.ok(self.api.post(f"/reservations/{rid}/rooms/{entry}/cancel"))

    def charge(self, name: str, item: int) -> None:
        rid, entry = self.ids[name], self.rooms[name][0]
        folio = self.ok(self.api.get(f"/reservations/{rid}/folios"))["data"][0]
        self.ok(self.api.post(f"/folios/{folio['id']}/charges",
                              json={"item_id": item, "reservation_room_id": entry}), 201)

    def sync(self) -> None:
        self.syncs += 1
        endpoint = Endpoint("hotel", self.sandbox.base_url, ALL_SCOPES_KEY, 1_000_000, 1_000_000)
        for result in sync_property(endpoint, self.conn, f"sync-{self.syncs}"):
            assert result.status == "success", (result.stream, result.message)

    def night_audit(self, day: int) -> None:
        """The audit of business date Mar `day`, at 02:00 of the next day."""
        self.at(day + 1, "02:00")
        result = self.ok(httpx.post(f"{self.sandbox.root_url}/_sandbox/night-audit",
                                    json={"property_id": 1}, timeout=30))
        assert result["audits"][0]["business_date"] == d(day)

    def end_of_day(self, day: int) -> None:
        self.at(day, "22:00")
        self.sync()
        self.night_audit(day)


def live_the_days(hotel: Hotel) -> None:
    """Play Mar 2 to Mar 5 as the module docstring says; end with the sync of BD Mar 6."""
    h = hotel
    h.at(2, "09:30")
    h.book("R1", STD, 2, 4, "110.00", "website", "booking_engine", "leisure")
    h.check_in("R1")
    h.at(2, "10:00")
    h.book("R2", SUP, 2, 5, "132.00", "booking_com", "channel_manager", "business", adults=1)
    h.check_in("R2")
    h.at(2, "11:00")
    h.book("R3", DLX, 6, 8, "165.00", "email", "direct", "leisure")
    h.at(2, "12:00")
    h.book("R4", STD, 3, 4, "99.00", "booking_com", "channel_manager", "leisure")
    h.at(2, "13:00")
    h.book("R5", JSU, 7, 9, "220.00", "phone", "direct", "leisure", status="option",
           option_expires_on=d(10))
    h.at(2, "14:00")
    h.book("R6", STD, 2, 3, "0.00", "phone", "direct", "other", adults=1)
    h.check_in("R6")
    h.end_of_day(2)

    h.at(3, "09:00")
    h.check_out("R6")
    h.at(3, "10:00")
    h.book("R7", SUP, 3, 6, "121.00", "expedia", "channel_manager", "leisure",
           room={"brackets": {str(CHD): 1}})
    h.check_in("R7")
    h.at(3, "11:00")
    h.book("R8", DLX, 8, 10, "198.00", "booking_com", "channel_manager", "leisure")
    h.at(3, "12:00")
    h.book("R9", STD, 9, 11, "110.00", "website", "booking_engine", "leisure")
    h.at(3, "15:00")
    h.book("R10", STD, 6, 7, "88.00", "email", "tour_operator", "groups", quantity=2,
           group_name="Choir")
    h.end_of_day(3)

    h.at(4, "09:00")
    h.check_out("R1")
    h.at(4, "10:00")
    h.patch_room("R3", price_override="187.00")
    h.at(4, "11:00")
    h.cancel("R8")
    h.at(4, "12:00")
    for item in (BRK, PARK, CTAX):
        h.charge("R2", item)
    h.at(4, "14:00")
    h.book("R11", STD, 12, 13, "110.00", "website", "booking_engine", "leisure")
    h.at(4, "16:00")
    h.cancel("R11")
    h.end_of_day(4)

    h.at(5, "09:00")
    h.check_out("R2")
    h.at(5, "10:00")
    h.patch_room("R9", arrival=d(10), departure=d(12))
    h.at(5, "11:00")
    h.cancel("R10", h.rooms["R10"][1])
    h.at(5, "12:00")
    h.book("R12", DLX, 5, 6, "154.00", "gds", "travel_agent", "business", adults=1)
    h.at(5, "15:00")
    h.check_in("R12")
    h.end_of_day(5)
    h.at(6, "02:30")
    h.sync()


def rows(db: duckdb.DuckDBPyConnection, sql: str) -> list[dict[str, Any]]:
    """The rows of a query on the hotel's warehouse, as dicts by column name."""
    cursor = db.execute(sql)
    names = [c[0] for c in cursor.description or []]
    return [dict(zip(names, r, strict=True)) for r in cursor.fetchall()]
