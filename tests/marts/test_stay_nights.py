"""mart.stay_nights on hand-made stays and folio lines; every figure computed by hand."""

from __future__ import annotations

from decimal import Decimal

import polars as pl
import pytest

from pipelines.marts.logic.room_fees import room_fees
from pipelines.marts.logic.stay_nights import stay_nights

from .builders import ITEMS, NO_LINES, d, line, lines_frame, properties, room, rooms_frame


def _money(frame: pl.DataFrame, column: str) -> list[str]:
    return [str(v) for v in frame[column].to_list()]


def test_future_nights_split_the_total_with_the_cents_on_the_last_night() -> None:
    rooms = rooms_frame(room(arrival=d("2025-03-01"), departure=d("2025-03-04"), total="100.00"))
    out = stay_nights(rooms, properties("2025-02-01"), NO_LINES, ITEMS)
    assert out["stay_date"].to_list() == [d("2025-03-01"), d("2025-03-02"), d("2025-03-03")]
    # 100.00 / 3 = 33.333 -> 33.33, 33.33, last 100.00 - 66.66 = 33.34
    assert _money(out, "room_revenue_gross") == ["33.33", "33.33", "33.34"]
    # 33.33 / 1.10 = 30.30; 33.34 / 1.10 = 30.309 -> 30.31
    assert _money(out, "room_revenue_net") == ["30.30", "30.30", "30.31"]
    assert out["room_revenue_source"].to_list() == ["stay"] * 3
    assert out["is_actual"].to_list() == [False] * 3


def test_half_up_on_the_split_and_vat_per_property() -> None:
    rooms = rooms_frame(room(arrival=d("2025-03-01"), departure=d("2025-03-03"), total="100.05"))
    out = stay_nights(rooms, properties("2025-02-01"), NO_LINES, ITEMS, vat_pct={1: Decimal("22")})
    # 100.05 / 2 = 50.025 -> 50.03 (half-up), last 50.02
    assert _money(out, "room_revenue_gross") == ["50.03", "50.02"]
    # 50.03 / 1.22 = 41.008 -> 41.01; 50.02 / 1.22 = 41.0 -> 41.00
    assert _money(out, "room_revenue_net") == ["41.01", "41.00"]


def test_lived_nights_take_the_posted_accommodation_net_of_reversals() -> None:
    rooms = rooms_frame(
        room(status="checked_in", arrival=d("2025-03-01"), departure=d("2025-03-04"),
             total="300.00", room_id=5, room_code="101")
    )
    lines = lines_frame(
        line(folio_line_id=1, posted_on=d("2025-03-01"), amount_gross="100.00", amount_net="90.91"),
        line(
            folio_line_id=2, posted_on=d("2025-03-02"), amount_gross="120.00", amount_net="109.09"
        ),
        line(
            folio_line_id=3, posted_on=d("2025-03-02"), amount_gross="-20.00", amount_net="-18.18"
        ),
        # breakfast and a payment are not room revenue
        line(folio_line_id=4, service_item_id=2, amount_gross="15.00", amount_net="13.64"),
        line(folio_line_id=5, type="payment", service_item_id=None, amount_gross="50.00",
             amount_net="50.00"),
    )
    out = stay_nights(rooms, properties("2025-03-03"), lines, ITEMS)
    # 03-01 from folio 100.00 / 90.91;
    # 03-02 from folio 120 - 20 = 100.00, 109.09 - 18.18 = 90.91;
    # 03-03 is the business date: from the stay, 300.00 / 3 = 100.00,
    # net 100 / 1.1 = 90.909 -> 90.91
    assert _money(out, "room_revenue_gross") == ["100.00", "100.00", "100.00"]
    assert _money(out, "room_revenue_net") == ["90.91", "90.91", "90.91"]
    assert out["room_revenue_source"].to_list() == ["folio", "folio", "stay"]
    assert out["is_actual"].to_list() == [True, True, False]


def test_a_lived_night_without_a_posting_has_no_revenue() -> None:
    rooms = rooms_frame(
        room(status="checked_in", arrival=d("2025-03-01"), departure=d("2025-03-02"))
    )
    out = stay_nights(rooms, properties("2025-03-02"), NO_LINES, ITEMS)
    assert _money(out, "room_revenue_gross") == ["0.00"]


def test_an_early_departure_charge_is_a_fee_not_the_last_night() -> None:
    """Issue 14 item 3: a night sold at 195.50 once showed 688.50 because the nights charged at
    an early check-out were added to it. The stay now ends 03-02; the remaining nights were
    charged on 03-02 (on the departure date): fees (mart.room_fees), not the last night."""
    rooms = rooms_frame(
        room(status="checked_out", arrival=d("2025-03-01"), departure=d("2025-03-02"),
             total="195.50")
    )
    lines = lines_frame(
        line(folio_line_id=1, posted_on=d("2025-03-01"), amount_gross="195.50",
             amount_net="177.73"),
        line(folio_line_id=2, posted_on=d("2025-03-02"), amount_gross="195.50",
             amount_net="177.73"),
        line(folio_line_id=3, posted_on=d("2025-03-02"), amount_gross="297.50",
             amount_net="270.45"),
    )
    out = stay_nights(rooms, properties("2025-03-05"), lines, ITEMS)
    # the one night sold keeps what it was sold for: 195.50 gross, 177.73 net
    assert _money(out, "room_revenue_gross") == ["195.50"]
    assert _money(out, "room_revenue_net") == ["177.73"]
    fees = room_fees(lines, ITEMS, rooms)
    # 195.50 + 297.50 = 493.00 gross of early-departure fees (688.50 - 195.50)
    assert fees["fee_kind"].to_list() == ["early_departure", "early_departure"]
    assert sum(fees["fee_revenue_gross"].to_list()) == Decimal("493.00")


def test_cancelled_no_show_and_complimentary_flags() -> None:
    rooms = rooms_frame(
        room(reservation_room_id=1, status="cancelled", total="150.00", is_no_show=True),
        room(reservation_room_id=2, status="cancelled", total="150.00", arrival=d("2025-04-01"),
             departure=d("2025-04-02")),
        room(reservation_room_id=3, total="0.00"),
        room(reservation_room_id=4, status="option"),
    )
    noshow_line = line(folio_line_id=1, reservation_room_id=1, posted_on=d("2025-03-01"),
                       amount_gross="150.00", amount_net="136.36")
    out = stay_nights(rooms, properties("2025-03-02"), lines_frame(noshow_line), ITEMS)
    by_id = {r["reservation_room_id"]: r for r in out.iter_rows(named=True)}
    # the no-show's charged night is not the revenue of a night sold: it is a fee
    assert str(by_id[1]["room_revenue_gross"]) == "0.00"
    fees = room_fees(lines_frame(noshow_line), ITEMS, rooms).row(0, named=True)
    assert (fees["fee_kind"], str(fees["fee_revenue_net"])) == ("no_show", "136.36")
    assert by_id[1]["is_no_show"]
    assert by_id[1]["is_cancelled"]
    # a cancelled future night earns nothing
    assert str(by_id[2]["room_revenue_gross"]) == "0.00"
    assert by_id[3]["is_complimentary"]
    assert not by_id[1]["is_complimentary"]
    assert by_id[4]["is_option"]


def test_missing_columns_are_named() -> None:
    rooms = rooms_frame(room()).drop("persons", "is_no_show")
    with pytest.raises(ValueError, match="rooms lacks column\\(s\\) persons, is_no_show"):
        stay_nights(rooms, properties("2025-03-02"), NO_LINES, ITEMS)
