"""No-shows from the state the warehouse keeps for ever (docs/kpi.md, No-show;
pipelines/marts/logic/no_shows.py): cancelled by the hotel, on or after the arrival, and firm
(the version before was not an option; first seen cancelled: a charge on the arrival date)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import polars as pl

from pipelines.marts.logic.no_shows import no_shows, with_no_show_flag

from .builders import d, lines_frame, ts

ARRIVAL = d("2025-03-03")
ITEMS = pl.DataFrame({"property_id": [1, 1], "item_id": [1, 2],
                      "department": ["accommodation", "food_beverage"]})


def entry(rid: int, cancelled_at: str, by: str | None = "hotel", reservation: int | None = None,
          status: str = "cancelled") -> dict[str, Any]:
    return {"property_id": 1, "reservation_id": reservation or rid * 10,
            "reservation_room_id": rid, "status": status, "cancelled_by": by,
            "arrival": ARRIVAL, "updated_at": ts(cancelled_at)}


def version(rid: int, status: str, valid_from: str) -> dict[str, Any]:
    return {"property_id": 1, "reservation_room_id": rid, "status": status,
            "valid_from": ts(valid_from)}


def line(lid: int, rid: int | None, reservation: int, item: int = 1,
         gross: str = "110.00", posted_on: str = "2025-03-03") -> dict[str, Any]:
    return {"property_id": 1, "folio_line_id": lid, "reservation_id": reservation,
            "reservation_room_id": rid, "type": "charge", "posted_on": d(posted_on),
            "service_item_id": item, "amount_gross": Decimal(gross),
            "amount_net": Decimal(gross) / Decimal("1.1")}


def frames(entries: list[dict[str, Any]], versions: list[dict[str, Any]],
           lines: list[dict[str, Any]]) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    rooms = pl.DataFrame(entries, schema_overrides={"updated_at": pl.Datetime("us", "UTC"),
                                                    "cancelled_by": pl.String})
    vs = pl.DataFrame(versions or None, schema={
        "property_id": pl.Int64, "reservation_room_id": pl.Int64, "status": pl.String,
        "valid_from": pl.Datetime("us", "UTC")})
    return rooms, vs, lines_frame(*lines)


def flags(entries: list[dict[str, Any]], versions: list[dict[str, Any]],
          lines: list[dict[str, Any]]) -> dict[int, bool]:
    got = no_shows(*frames(entries, versions, lines), ITEMS, "Europe/Rome")
    return dict(zip(got["reservation_room_id"], got["is_no_show"], strict=True))


def test_synced_daily_the_version_before_tells_a_no_show_from_a_lapsed_option() -> None:
    """The audit of Mar 3 runs at 02:00 on Mar 4 (01:00Z). Room 1 was confirmed: a no-show,
    charged or not. Room 2 was an option: lapsed, though cancelled after its arrival. Room 3,
    confirmed, cancelled by the hotel on Mar 1, before its arrival: not a no-show. Room 4,
    cancelled by the guest after its arrival: not a no-show."""
    entries = [entry(1, "2025-03-04T01:00"), entry(2, "2025-03-04T01:00"),
               entry(3, "2025-03-01T09:00"), entry(4, "2025-03-03T18:00", by="guest")]
    versions = [version(1, "confirmed", "2025-02-01T10:00"),
                version(1, "cancelled", "2025-03-04T01:00"),
                version(2, "option", "2025-02-01T10:00"),
                version(2, "cancelled", "2025-03-04T01:00"),
                version(3, "confirmed", "2025-02-01T10:00"),
                version(3, "cancelled", "2025-03-01T09:00"),
                version(4, "confirmed", "2025-02-01T10:00"),
                version(4, "cancelled", "2025-03-03T18:00")]
    assert flags(entries, versions, []) == {1: True, 2: False, 3: False}


def test_first_seen_cancelled_the_no_show_charge_decides() -> None:
    """A warehouse loaded weeks later sees each room only cancelled (one version). Room 1 has
    a room charge on its arrival date: a no-show. Room 2 has none (an option that lapsed at the
    audit of Mar 2, 01:00Z on Mar 3 = 02:00 on its arrival date in Rome): not. Room 3, in a
    reservation of two rooms, was never assigned: its charge is a line of the reservation
    without a room entry. Room 4 has only a breakfast line on its arrival date: not a room
    charge."""
    entries = [entry(1, "2025-03-04T01:00"), entry(2, "2025-03-03T01:00"),
               entry(3, "2025-03-04T01:00", reservation=30),
               entry(5, "2025-03-04T01:00", reservation=30, by=None, status="checked_out"),
               entry(4, "2025-03-04T01:00")]
    versions = [version(1, "cancelled", "2025-03-04T01:00"),
                version(2, "cancelled", "2025-03-03T01:00"),
                version(3, "cancelled", "2025-03-04T01:00"),
                version(4, "cancelled", "2025-03-04T01:00")]
    lines = [line(1, 1, 10), line(2, None, 30, gross="99.00"), line(3, 5, 30, gross="99.00"),
             line(4, 4, 40, item=2, gross="15.00")]
    assert flags(entries, versions, lines) == {1: True, 2: False, 3: True, 4: False}


def test_cancelled_on_the_arrival_date_in_local_time_counts() -> None:
    """Cancelled at 2025-03-02 23:30Z = 00:30 on Mar 3 in Rome, the arrival date: on or after
    the arrival. Without versions at all the room's updated_at is the cancellation time."""
    rooms, _, ls = frames([entry(1, "2025-03-02T23:30")], [], [line(1, 1, 10)])
    empty = pl.DataFrame(schema={"property_id": pl.Int64, "reservation_room_id": pl.Int64,
                                 "status": pl.String, "valid_from": pl.Datetime("us", "UTC")})
    flagged = with_no_show_flag(rooms, empty, ls, ITEMS, "Europe/Rome")
    assert flagged["is_no_show"].to_list() == [True]
    rooms_utc, _, _ = frames([entry(1, "2025-03-02T22:30")], [], [])
    assert with_no_show_flag(rooms_utc, empty, ls, ITEMS, "Europe/Rome")[
        "is_no_show"].to_list() == [False]  # 23:30 on Mar 2 in Rome: before the arrival
