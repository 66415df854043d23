"""Occupancy, revenue, segments and booking KPIs of a hand-built hotel, figured by hand.

Rooms: type 1 = 101, 102, 103 on sale and 104 kept out of sale; type 2 = 201.
Availability read on 03-01 for 03-01: type 1 total 3 with 1 out of order, type 2 total 1.
No availability for 03-02 and 03-03: the rooms list gives type 1 = 3, type 2 = 1.
Business date 03-02 (03-01 is lived: its room revenue comes from the folios).
- A: entry 1, confirmed, type 1 room 101, 03-01..03-03, 220.00 (110.00 / net 100.00 a night),
  2 persons; folio: 03-01 room 110.00 / 100.00, breakfast 22.00 / 20.00.
- B: entry 2, complimentary (0.00), type 2 unassigned, 03-01..03-02, 1 person.
- C: entry 3, option, type 1, 03-01..03-02, 100.00.
- D: entry 4, no-show (cancelled), type 1, 03-01..03-02; folio 03-01 150.00 / 136.36.
- E: entry 5, booked type 1 but in room 201 (type 2), 03-02..03-03, 99.00 (net 90.00), 3 persons,
  channel ota.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import polars as pl

from pipelines.marts.logic.booking_kpis import booking_kpis
from pipelines.marts.logic.booking_outcomes import booking_outcomes
from pipelines.marts.logic.occupancy import (
    occupancy_by_room_type,
    occupancy_daily,
    other_revenue_by_room_type,
    other_revenue_daily,
)
from pipelines.marts.logic.revenue import revenue_daily
from pipelines.marts.logic.room_fees import room_fees
from pipelines.marts.logic.segments import segment_daily
from pipelines.marts.logic.stay_nights import stay_nights

from .builders import ITEMS, d, line, lines_frame, properties, room, rooms_frame, ts

ROOMS = pl.DataFrame(
    {"property_id": [1] * 5, "room_id": [101, 102, 103, 104, 201], "room_type_id": [1, 1, 1, 1, 2],
     "sellable": [True, True, True, False, True]}
)
AVAILABILITY = pl.DataFrame(
    {"property_id": [1, 1], "snapshot_date": [d("2025-03-01")] * 2,
     "stay_date": [d("2025-03-01")] * 2, "room_type_id": [1, 2], "total": [3, 1],
     "out_of_order": [1, 0]}
)
STAYS = rooms_frame(
    room(reservation_id=1, reservation_room_id=1, status="checked_in", room_id=101,
         departure=d("2025-03-03"), total="220.00"),
    room(reservation_id=2, reservation_room_id=2, room_type_id=2, total="0.00", persons=1),
    room(reservation_id=3, reservation_room_id=3, status="option"),
    room(reservation_id=4, reservation_room_id=4, status="cancelled", is_no_show=True,
         total="150.00"),
    room(reservation_id=5, reservation_room_id=5, room_id=201, arrival=d("2025-03-02"),
         departure=d("2025-03-03"), total="99.00", persons=3, channel="ota"),
)
LINES = lines_frame(
    line(folio_line_id=1, reservation_room_id=1, amount_gross="110.00", amount_net="100.00"),
    line(folio_line_id=2, reservation_room_id=1, service_item_id=2, amount_gross="22.00",
         amount_net="20.00"),
    line(folio_line_id=3, reservation_id=4, reservation_room_id=4, amount_gross="150.00",
         amount_net="136.36"),
    line(folio_line_id=4, reservation_room_id=1, service_item_id=4, amount_gross="7.50",
         amount_net="7.50"),
    line(folio_line_id=5, reservation_room_id=1, service_item_id=3, amount_gross="24.40",
         amount_net="20.00"),
    line(folio_line_id=6, type="payment", service_item_id=None, amount_gross="313.90",
         amount_net="313.90"),
    # 03-02: the breakfast reversed, a minibar 6.00 (net 6 / 1.1 = 5.4545 -> 5.45)
    line(folio_line_id=7, reservation_room_id=1, service_item_id=2, posted_on=d("2025-03-02"),
         amount_gross="-22.00", amount_net="-20.00"),
    line(folio_line_id=8, reservation_room_id=1, service_item_id=5, posted_on=d("2025-03-02"),
         amount_gross="6.00", amount_net="5.45"),
)
PROPS = properties("2025-03-02")


def _nights() -> pl.DataFrame:
    return stay_nights(STAYS, PROPS, LINES, ITEMS)


def _fees() -> pl.DataFrame:
    return room_fees(LINES, ITEMS, STAYS)


def _as_text(row: dict[str, object]) -> dict[str, object]:
    return {k: str(v) if isinstance(v, Decimal) else v for k, v in row.items()}


def test_revenue_daily_by_department() -> None:
    out = revenue_daily(LINES, ITEMS)
    rows = {(r["date"], r["department"]): _as_text(r) for r in out.iter_rows(named=True)}
    first = d("2025-03-01")
    assert rows[(first, "accommodation")]["department_revenue_net"] == "236.36"  # 100.00 + 136.36
    assert rows[(first, "accommodation")]["revenue_gross"] == "260.00"  # 110.00 + 150.00
    assert rows[(first, "accommodation")]["vat"] == "23.64"  # 260.00 - 236.36
    assert (
        rows[(first, "food_beverage")]["department_revenue_net"],
        rows[(first, "food_beverage")]["vat"],
    ) == ("20.00", "2.00")
    assert rows[(first, "other")]["vat"] == "4.40"  # parking 24.40 at 22%: 20.00 + 4.40
    assert rows[(first, "city_tax")]["is_revenue"] is False
    assert rows[(first, "city_tax")]["revenue_gross"] == "7.50"
    # 03-02: -20.00 + 5.45 = -14.55 net; -22.00 + 6.00 = -16.00 gross; VAT -1.45
    fb2 = rows[(d("2025-03-02"), "food_beverage")]
    assert (fb2["department_revenue_net"], fb2["revenue_gross"], fb2["vat"]) == (
        "-14.55", "-16.00", "-1.45")
    assert out.height == 5  # the payment is not revenue


def test_occupancy_daily() -> None:
    other = other_revenue_daily(revenue_daily(LINES, ITEMS))
    out = occupancy_daily(_nights(), ROOMS, AVAILABILITY, PROPS, other, _fees())
    rows = {r["stay_date"]: _as_text(r) for r in out.iter_rows(named=True)}
    assert sorted(rows) == [d("2025-03-01"), d("2025-03-02"), d("2025-03-03")]
    first = rows[d("2025-03-01")]
    # supply (STR / USALI): the rooms in the property, 4 + 1 = 5 (104 kept out of sale
    # counts); sellable from the availability read: 3 + 1 = 4, out of order 1, net 3
    # sold: A only (B complimentary, C option, D no-show)
    # nights: A 100.00; fees: D's no-show charge 136.36 net (150.00 gross); room revenue
    # 236.36 net, 110 + 150 = 260.00 gross. ADR on the nights sold 100.00 / 1; with fees
    # 236.36 / 1. Other: breakfast 20.00 + parking 20.00 (city tax never) -> total 276.36
    assert first == {
        "property_id": 1,
        "stay_date": d("2025-03-01"),
        "rooms_in_property": 5,
        "rooms_sellable": 4,
        "rooms_available": 5,
        "rooms_out_of_order": 1,
        "rooms_available_net_ooo": 3,
        "rooms_sold": 1,
        "rooms_complimentary": 1,
        "rooms_option": 1,
        "occupancy_pct": 20.0,  # 1 / 5
        "occupancy_net_ooo_pct": 33.33,  # 1 / 3
        "room_revenue_nights_net": "100.00",
        "room_revenue_fees_net": "136.36",
        "room_revenue_net": "236.36",
        "room_revenue_gross": "260.00",
        "adr_net": "100.00",  # 100.00 / 1
        "adr_incl_fees_net": "236.36",  # 236.36 / 1
        "revpar_net": "47.27",  # 236.36 / 5 = 47.272
        "total_revenue_net": "276.36",
        "trevpar_net": "55.27",  # 276.36 / 5 = 55.272
        "arrivals": 2,  # A and B
        "departures": 0,
        "persons": 3,  # A 2 + B 1
        "rooms_house_use": 0,
        "rooms_in_house": 2,  # A sold + B complimentary
        "no_shows": 1,  # D
        "walk_ins": 0,
        "is_actual": True,
    }
    second = rows[d("2025-03-02")]
    # rooms in the property 5, sellable from the rooms list 3 + 1; sold A + E; room revenue
    # from the stays 100.00 + 90.00; other: minibar 5.45 - breakfast reversed 20.00 = -14.55
    # -> total 175.45
    assert (second["rooms_available"], second["rooms_sellable"], second["rooms_out_of_order"],
            second["rooms_sold"]) == (5, 4, 0, 2)
    assert (second["occupancy_pct"], second["room_revenue_net"], second["room_revenue_gross"]) == (
        40.0,
        "190.00",
        "209.00",  # gross 110.00 + 99.00
    )
    assert (second["adr_net"], second["revpar_net"]) == ("95.00", "38.00")  # 190/2, 190/5
    assert (second["total_revenue_net"], second["trevpar_net"]) == ("175.45", "35.09")  # /5
    assert (second["arrivals"], second["departures"], second["persons"]) == (1, 1, 5)  # E; B; 2+3
    assert second["is_actual"] is False
    third = rows[d("2025-03-03")]
    assert (third["rooms_sold"], third["departures"], third["adr_net"], third["revpar_net"]) == (
        0,
        2,
        None,
        "0.00",  # A and E leave
    )


def test_occupancy_by_room_type() -> None:
    nights = _nights()
    other = other_revenue_by_room_type(LINES, ITEMS, nights, ROOMS)
    out = occupancy_by_room_type(nights, ROOMS, AVAILABILITY, PROPS, other, _fees())
    rows = {(r["stay_date"], r["room_type_id"]): _as_text(r) for r in out.iter_rows(named=True)}
    t1 = rows[(d("2025-03-01"), 1)]
    assert (
        t1["rooms_available"],
        t1["rooms_out_of_order"],
        t1["rooms_sold"],
        t1["rooms_option"],
        t1["room_revenue_net"],
        t1["total_revenue_net"],
    ) == (
        4,  # 101-104 in the property (104 kept out of sale still counts)
        1,
        1,
        1,
        "236.36",
        "276.36",  # A + D's no-show fee; + breakfast 20.00 + parking 20.00
    )
    assert (t1["room_revenue_nights_net"], t1["room_revenue_fees_net"], t1["adr_net"]) == (
        "100.00", "136.36", "100.00")
    t2 = rows[(d("2025-03-01"), 2)]
    assert (t2["rooms_available"], t2["rooms_sold"], t2["rooms_complimentary"]) == (1, 0, 1)
    # E is booked as type 1 but sleeps in 201: it counts on type 2
    assert rows[(d("2025-03-02"), 2)]["rooms_sold"] == 1
    assert rows[(d("2025-03-02"), 2)]["room_revenue_net"] == "90.00"
    assert rows[(d("2025-03-02"), 1)]["rooms_sold"] == 1


def test_segment_daily_adds_up_to_occupancy() -> None:
    out = segment_daily(_nights(), _fees())
    first = out.filter(pl.col("stay_date") == d("2025-03-01"))
    # one segment carries A (sold, 100.00) and D (no-show fee 136.36, not sold); B is comp;
    # ADR on the nights sold: 100.00
    web1 = first.filter(pl.col("room_type_id") == 1).row(0, named=True)
    assert (web1["rooms_sold"], str(web1["room_revenue_net"]), str(web1["adr_net"]),
            str(web1["room_revenue_fees_net"]), web1["rate_plan_code"]) == (
        1,
        "236.36",
        "100.00",
        "136.36",
        "BAR",
    )
    second = out.filter(pl.col("stay_date") == d("2025-03-02")).sort("channel")
    assert second["channel"].to_list() == ["ota", "web"]
    assert [str(v) for v in second["adr_net"].to_list()] == ["90.00", "100.00"]


def test_booking_kpis_by_arrival_month_and_channel() -> None:
    """Cancellations one way (docs/kpi.md, Booking outcomes): guest cancellations over firm
    bookings made; the no-show and the lapsed option are counted beside, not inside."""
    def entry(
        res: int, rid: int, arrival: str, nights: int, created: str, **kw: object
    ) -> dict[str, object]:
        start = date.fromisoformat(arrival)
        return room(reservation_id=res, reservation_room_id=rid, arrival=start,
                    departure=date.fromordinal(start.toordinal() + nights), created_at=ts(created),
                    **{"cancelled_by": None, "is_lapsed_option": False, **kw})

    guest = {"status": "cancelled", "cancelled_by": "guest"}
    hotel = {"status": "cancelled", "cancelled_by": "hotel"}
    rooms = rooms_frame(
        entry(1, 1, "2025-03-05", 2, "2025-02-03T10:00"),  # lead 30
        entry(2, 2, "2025-03-10", 3, "2025-03-01T23:30"),  # made 03-02 in Rome: lead 8
        entry(2, 3, "2025-03-10", 3, "2025-03-01T23:30", **guest),
        entry(3, 4, "2025-03-20", 1, "2025-03-20T08:00", **hotel, is_no_show=True),  # lead 0
        entry(4, 5, "2025-03-25", 4, "2025-03-01T10:00", **guest),  # lead 24
        entry(5, 6, "2025-03-15", 2, "2025-03-01T10:00", status="option"),  # not a booking yet
        entry(6, 7, "2025-04-01", 2, "2025-03-22T10:00", channel="ota"),  # lead 10
        entry(7, 8, "2025-03-12", 2, "2025-03-01T10:00", **hotel, is_lapsed_option=True),
    )
    outcomes = booking_outcomes(rooms)
    assert dict(zip(outcomes["reservation_id"], outcomes["outcome"], strict=True)) == {
        1: "on_the_books", 2: "on_the_books", 3: "no_show", 4: "cancelled", 5: "option",
        6: "on_the_books", 7: "lapsed_option"}
    assert dict(zip(outcomes["reservation_id"], outcomes["lead_time_bucket"], strict=True)) \
        == {1: "15-30", 2: "8-14", 3: "0-1", 4: "15-30", 5: "8-14", 6: "8-14", 7: "8-14"}
    out = booking_kpis(outcomes)
    march = out.filter(pl.col("channel") == "web").row(0, named=True)
    assert march["arrival_month"] == d("2025-03-01")
    assert (march["bookings"], march["room_nights"]) == (4, 13)  # 2 + 3 + 3 + 1 + 4
    # Only reservation 4 was cancelled by its guest (3 is a no-show, 2 kept a room): 1 of 4.
    assert (march["cancelled_bookings"], march["cancellation_rate_bookings"]) == (
        1, Decimal("0.25"))
    # Nights cancelled by the guest: room 3 (3) + room 5 (4) = 7 of 13 = 0.5385.
    assert march["cancelled_room_nights"] == 7
    assert march["cancellation_rate_room_nights"] == Decimal("0.5385")
    assert march["avg_lead_time_days"] == Decimal("15.50")  # (30 + 8 + 0 + 24) / 4
    assert march["alos"] == Decimal("2.5")  # (2 + 3) room nights / 2 rooms on the books
    assert (march["no_shows"], march["no_show_rate"]) == (1, Decimal("0.3333"))  # 1 / (2 + 1)
    assert march["lapsed_options"] == 1  # reservation 7, beside the bookings
    april = out.filter(pl.col("channel") == "ota").row(0, named=True)
    assert (
        april["bookings"],
        april["alos"],
        april["no_show_rate"],
        april["avg_lead_time_days"],
    ) == (1, Decimal("2"), Decimal("0"), Decimal("10"))


def test_lead_time_buckets_use_the_local_booking_date() -> None:
    """Booked 2025-03-01 23:30Z, 00:30 on 03-02 in Rome, for 03-03: lead 1 (bucket 0-1), where
    the UTC date would say 2 (bucket 2-7)."""
    rooms = rooms_frame(room(arrival=d("2025-03-03"), departure=d("2025-03-04"),
                             created_at=ts("2025-03-01T23:30"), cancelled_by=None,
                             is_lapsed_option=False))
    (row,) = booking_outcomes(rooms, "Europe/Rome").iter_rows(named=True)
    assert (row["booked_on"], row["lead_time_days"], row["lead_time_bucket"],
            row["lead_time_order"]) == (d("2025-03-02"), 1, "0-1", 1)
