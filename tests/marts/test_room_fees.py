"""Fees apart from the nights sold, and the tie-out (issue 14 items 3 and 4), by hand."""

from __future__ import annotations

from decimal import Decimal

import polars as pl

from pipelines.marts.logic.occupancy import occupancy_daily
from pipelines.marts.logic.room_fees import room_fees
from pipelines.marts.logic.stay_nights import stay_nights
from pipelines.marts.logic.tieout import revenue_tieout
from pipelines.vocabulary.line_rooms import with_single_room_entries

from .builders import ITEMS, d, line, lines_frame, properties, room, rooms_frame

ROOMS = pl.DataFrame({"property_id": [1, 1], "room_id": [101, 102], "room_type_id": [1, 1],
                      "sellable": [True, True]})
NO_AVAILABILITY = pl.DataFrame(schema={
    "property_id": pl.Int64, "snapshot_date": pl.Date, "stay_date": pl.Date,
    "room_type_id": pl.Int64, "total": pl.Int64, "out_of_order": pl.Int64})
NO_OTHER = pl.DataFrame(schema={"property_id": pl.Int64, "date": pl.Date,
                                "revenue_net": pl.Decimal(18, 2)})

# A group of three rooms (reservation 7), 03-01..03-02: entries 11 and 12 never came (no-shows,
# charged 110.00 / 100.00 net and 99.00 / 90.00 net at the audit of 03-01, no room number, so
# the lines carry no entry); entry 13 stayed in room 101 and paid 121.00 / 110.00.
# Entry 14 (reservation 8) paid 55.00 / 50.00 on 02-27 for its night of 03-01 (before arrival).
GROUP = rooms_frame(
    room(reservation_id=7, reservation_room_id=11, status="cancelled", is_no_show=True,
         total="110.00"),
    room(reservation_id=7, reservation_room_id=12, status="cancelled", is_no_show=True,
         total="99.00"),
    room(reservation_id=7, reservation_room_id=13, status="checked_out", room_id=101,
         total="121.00"),
    room(reservation_id=8, reservation_room_id=14, status="checked_out", room_id=102,
         total="55.00"),
)
LINES = lines_frame(
    line(folio_line_id=1, reservation_id=7, reservation_room_id=None, amount_gross="110.00",
         amount_net="100.00"),
    line(folio_line_id=2, reservation_id=7, reservation_room_id=None, amount_gross="99.00",
         amount_net="90.00"),
    line(folio_line_id=3, reservation_id=7, reservation_room_id=13, amount_gross="121.00",
         amount_net="110.00"),
    line(folio_line_id=4, reservation_id=8, reservation_room_id=14, posted_on=d("2025-02-27"),
         amount_gross="55.00", amount_net="50.00"),
)
PROPS = properties("2025-03-02")


def test_no_show_lines_of_a_group_pair_with_their_entries() -> None:
    lines = with_single_room_entries(LINES, GROUP)
    fees = room_fees(lines, ITEMS, GROUP)
    # lines 1, 2 (by id) pair with no-show entries 11, 12 (by id)
    assert [(r["folio_line_id"], r["reservation_room_id"], r["fee_kind"],
             r["fee_revenue_net"]) for r in fees.iter_rows(named=True)] == [
        (1, 11, "no_show", Decimal("100.00")), (2, 12, "no_show", Decimal("90.00"))]


def test_the_tieout_ties_each_date_and_explains_a_shifted_charge() -> None:
    lines = with_single_room_entries(LINES, GROUP)
    nights = stay_nights(GROUP, PROPS, lines, ITEMS)
    fees = room_fees(lines, ITEMS, GROUP)
    occ = occupancy_daily(nights, ROOMS, NO_AVAILABILITY, PROPS, NO_OTHER, fees)
    out = revenue_tieout(lines, ITEMS, GROUP, nights, occ, PROPS)
    rows = {r["date"]: (str(r["folio_accommodation_net"]), str(r["room_revenue_nights_net"]),
                        str(r["room_revenue_fees_net"]), str(r["difference_net"]),
                        str(r["shifted_net"]), str(r["unexplained_net"]), r["reason"])
            for r in out.iter_rows(named=True)}
    shifted = "night charges posted on another date than the night they pay"
    assert rows == {
        # 02-27: 50.00 posted, counted on 03-01 (the first night of entry 14)
        d("2025-02-27"): ("50.00", "0.00", "0.00", "50.00", "50.00", "0.00", shifted),
        # 03-01: folio 100 + 90 + 110 = 300.00; nights 110 (13) + 50 (14, posted 02-27) =
        # 160.00; fees 190.00; difference 300 - 160 - 190 = -50.00, the 14's shifted charge
        d("2025-03-01"): ("300.00", "160.00", "190.00", "-50.00", "-50.00", "0.00", shifted),
    }
