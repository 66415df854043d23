"""The Manager Flash's room statistics in mart.occupancy_daily (docs/kpi.md, "Room
statistics"), of a hand-built day, 2025-03-01, each counted by hand.

A 10-room hotel (one type), business date 03-02, availability read on 03-01: 9 on sale,
1 out of order. Room entries:
- A: walk_in channel, 03-01..03-03, 2 persons, 200.00: an arrival, a walk-in, sold.
- B: plan COMP, 03-01..03-02, 1 person, 0.00: an arrival, complimentary.
- C: plan HOUSE, 02-28..03-02, 1 person, 0.00: in house (arrived the day before), house use
  (and so complimentary).
- D: a no-show due 03-01 (cancelled by the hotel): not an arrival, one no-show.
- E: cancelled by the guest, due 03-01: nothing.
- F: checked out, 02-27..03-01: a departure on 03-01.
- G: an option for 03-01: nothing but rooms_option.
- H: an OTA booking made on 03-01 for 03-01..03-02, 2 persons: an arrival, not a walk-in.
03-01: arrivals 3 (A, B, H), departures 1 (F), sold 2 (A, H), complimentary 2 (B, C), house
use 1 (C), in house 2 + 2 = 4, persons 2 + 1 + 1 + 2 = 6, no-shows 1 (D), walk-ins 1 (A), out
of order 1. 02-28: C and F in house (2), C an arrival, no walk-in, no no-show. 03-02: A still
in house (1), departures B, C and H (3).
"""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.occupancy import occupancy_daily, other_revenue_daily
from pipelines.marts.logic.revenue import revenue_daily
from pipelines.marts.logic.stay_nights import stay_nights

from .builders import ITEMS, NO_LINES, d, properties, room, rooms_frame, ts

ROOMS = pl.DataFrame({"property_id": [1] * 10, "room_id": list(range(101, 111)),
                      "room_type_id": [1] * 10, "sellable": [True] * 10})
AVAILABILITY = pl.DataFrame({"property_id": [1], "snapshot_date": [d("2025-03-01")],
                             "stay_date": [d("2025-03-01")], "room_type_id": [1],
                             "total": [9], "out_of_order": [1]})
STAYS = rooms_frame(
    room(reservation_room_id=1, reservation_id=1, status="checked_in", channel="walk_in",
         source="walk_in", departure=d("2025-03-03"), total="200.00"),
    room(reservation_room_id=2, reservation_id=2, status="checked_in", channel="phone",
         rate_plan_code="COMP", total="0.00", persons=1),
    room(reservation_room_id=3, reservation_id=3, status="checked_in", channel="email",
         rate_plan_code="HOUSE", arrival=d("2025-02-28"), total="0.00", persons=1),
    room(reservation_room_id=4, reservation_id=4, status="cancelled", is_no_show=True),
    room(reservation_room_id=5, reservation_id=5, status="cancelled"),
    room(reservation_room_id=6, reservation_id=6, status="checked_out",
         arrival=d("2025-02-27"), departure=d("2025-03-01")),
    room(reservation_room_id=7, reservation_id=7, status="option"),
    room(reservation_room_id=8, reservation_id=8, status="checked_in", channel="booking_com",
         created_at=ts("2025-03-01T08:00")),
)
COUNTS = ("arrivals", "departures", "rooms_sold", "rooms_complimentary", "rooms_house_use",
          "rooms_in_house", "persons", "no_shows", "walk_ins", "rooms_out_of_order",
          "rooms_option")


def _by_date() -> dict[str, dict[str, object]]:
    props = properties("2025-03-02")
    other = other_revenue_daily(revenue_daily(NO_LINES, ITEMS))
    out = occupancy_daily(stay_nights(STAYS, props, NO_LINES, ITEMS), ROOMS, AVAILABILITY,
                          props, other)
    return {str(r["stay_date"]): {c: r[c] for c in COUNTS} for r in out.iter_rows(named=True)}


def test_room_statistics_of_the_day() -> None:
    assert _by_date()["2025-03-01"] == {
        "arrivals": 3, "departures": 1, "rooms_sold": 2, "rooms_complimentary": 2,
        "rooms_house_use": 1, "rooms_in_house": 4, "persons": 6, "no_shows": 1,
        "walk_ins": 1, "rooms_out_of_order": 1, "rooms_option": 1}


def test_room_statistics_of_the_days_around() -> None:
    days = _by_date()
    before, after = days["2025-02-28"], days["2025-03-02"]
    assert (before["rooms_in_house"], before["arrivals"], before["rooms_house_use"],
            before["walk_ins"], before["no_shows"]) == (2, 1, 1, 0, 0)
    assert (after["rooms_in_house"], after["departures"], after["walk_ins"]) == (1, 3, 0)
