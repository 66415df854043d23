"""The analyst views (sql/views/) and example queries (sql/examples/) run on the hand-built
hotel (tests/marts/hotel.py), with the figures of March 2026 worked out by hand."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pytest

from pipelines.warehouse.migrate import sql_dir

from .hotel import rows

EXAMPLES = sorted((sql_dir() / "examples").glob("*.sql"))


def test_kpi_by_month(db: duckdb.DuckDBPyConnection) -> None:
    march = rows(db, "SELECT * FROM mart.v_kpi_by_month WHERE month = '2026-03-01'")[0]
    # Mar 2-31: 30 days x 80 rooms in the property = 2400 (the STR / USALI supply); net of
    # out of order: 30 x 78 sellable - (1+1+2+2+1 = 7) = 2333.
    # Sold: Mar 2: 2, 3: 3, 4: 2, 5: 2, 6: 2, 7: 1, 10: 1, 11: 1 = 14; revenue 220 + 420 +
    # 230 + 250 + 250 + 170 + 100 + 100 = 1740.00; other revenue 13.64 + 20.49.
    assert march == {
        "property_id": 1, "month": date(2026, 3, 1), "days": 30, "is_actual_days": 4,
        "rooms_available": 2400, "rooms_available_net_ooo": 2333, "rooms_sold": 14,
        # The month of the business date (Mar 6) apart: lived Mar 2-5, 2 + 3 + 2 + 2 = 9 sold
        # for 220 + 420 + 230 + 250 = 1120.00; on the books from Mar 6: 5 for 620.00.
        "rooms_sold_actual": 9, "rooms_sold_otb": 5,
        "room_revenue_net_actual": Decimal("1120.00"),
        "room_revenue_net_otb": Decimal("620.00"),
        "rooms_complimentary": 1,
        "occupancy_pct": pytest.approx(0.58),  # 1400 / 2400 = 0.5833
        "occupancy_net_ooo_pct": pytest.approx(0.60),  # 1400 / 2333 = 0.6001
        "room_revenue_net": Decimal("1740.00"),
        "adr_net": Decimal("117.86"),  # nights sold: (1740 - 90 no-show fee) / 14 = 117.857
        "revpar_net": Decimal("0.73"),  # 1740 / 2400 = 0.725 -> 0.73 half-up
        "total_revenue_net": Decimal("1774.13"),
        "trevpar_net": Decimal("0.74"),  # 1774.13 / 2400 = 0.7392
    }


def test_pace_and_pickup_views_say_what_is_rebuilt(db: duckdb.DuckDBPyConnection) -> None:
    """The hand-built hotel was synced from its first day (Mar 2, before any booking): no
    snapshot is rebuilt, and there is no last year. Pace of March at 4 days before: the nights
    Mar 6-31 (snapshots Mar 2-27 exist up to Mar 6 only: Mar 6-10 at 4 days: Mar 2..6)."""
    pace = rows(db, "SELECT * FROM mart.v_pace_by_month WHERE stay_month = '2026-03-01' "
                    "AND days_before = 4")[0]
    assert (pace["stay_dates"], pace["rebuilt_stay_dates"], pace["stly_rebuilt_stay_dates"],
            pace["ly_actual_stay_dates"], pace["ly_actual_rooms_sold"]) == (5, 0, 0, 0, None)
    flags = rows(db, "SELECT DISTINCT pickup_7d_is_rebuilt, pickup_30d_is_rebuilt "
                     "FROM mart.v_pickup_7_30")
    # As of Mar 6 the windows start before the first sync (Mar 2), but nothing before it was
    # rebuilt: the hotel had no booking yet.
    assert flags == [{"pickup_7d_is_rebuilt": False, "pickup_30d_is_rebuilt": False}]


def test_month_and_year_to_date(db: duckdb.DuckDBPyConnection) -> None:
    got = {r["period"]: r for r in rows(db, "SELECT * FROM mart.v_mtd_yoy")}
    assert set(got) == {"MTD", "YTD"}
    for period, first in (("MTD", date(2026, 3, 1)), ("YTD", date(2026, 1, 1))):
        row = got[period]
        # Nights lived Mar 2-5: sold 2 + 3 + 2 + 2 = 9 of 4 x 80 = 320 -> 2.8125 -> 2.81%;
        # revenue 220 + 420 + 230 + 250 = 1120.00 (R4's no-show fee 90.00 included); ADR on
        # the nights sold (1120 - 90) / 9 = 114.44; RevPAR 1120 / 320 = 3.50. No last year.
        assert (row["first_day"], row["last_day"], row["rooms_sold"], row["occupancy_pct"],
                row["adr_net"], row["revpar_net"], row["room_revenue_net"]) == (
            first, date(2026, 3, 5), 9, pytest.approx(2.81), Decimal("114.44"),
            Decimal("3.50"), Decimal("1120.00"))
        assert row["last_year_rooms_sold"] is None
        assert row["room_revenue_change_pct"] is None


def test_pickup_last_7_days(db: duckdb.DuckDBPyConnection) -> None:
    got = {r["stay_date"]: r for r in rows(db, "SELECT * FROM mart.v_pickup_last_7_days")}
    assert len(got) == 366  # every stay date of the snapshot of the business date Mar 6
    # Mar 9: R8 and R9 came, R8 cancelled and R9 moved away: nothing on the books.
    mar9 = got[date(2026, 3, 9)]
    assert (mar9["rooms_otb"], mar9["rooms_new_7d"], mar9["rooms_cancelled_7d"],
            mar9["rooms_net_7d"], mar9["revenue_net_7d"]) == (0, 2, 2, 0, Decimal("0.00"))
    mar6 = got[date(2026, 3, 6)]  # R3 170 + R10 80; R10b came and went
    assert (mar6["rooms_otb"], mar6["revenue_otb_net"], mar6["rooms_new_7d"],
            mar6["rooms_cancelled_7d"]) == (2, Decimal("250.00"), 3, 1)


def test_segments_by_channel(db: duckdb.DuckDBPyConnection) -> None:
    got = {r["channel"]: (r["rooms_sold"], r["room_revenue_net"], r["adr_net"],
                          r["rooms_share_pct"])
           for r in rows(db, "SELECT * FROM mart.v_segments_by_channel")}
    assert got == {
        # R2 3 nights x 120 + the no-show R4's 90.00 fee = 450.00; ADR on the nights sold:
        # 360.00 / 3 = 120.00.
        "booking_com": (3, Decimal("450.00"), Decimal("120.00"), pytest.approx(21.43)),
        "expedia": (3, Decimal("330.00"), Decimal("110.00"), pytest.approx(21.43)),
        "website": (4, Decimal("400.00"), Decimal("100.00"), pytest.approx(28.57)),
        "gds": (1, Decimal("140.00"), Decimal("140.00"), pytest.approx(7.14)),
        # R3 2 x 170 + R10 80 = 420.00 over 3.
        "email": (3, Decimal("420.00"), Decimal("140.00"), pytest.approx(21.43)),
    }


def test_cancellation_by_lead_time_reads_the_booking_outcomes(
        db: duckdb.DuckDBPyConnection) -> None:
    """Guest cancellations over firm bookings by lead time (local booking date), no-shows
    beside. 0-1 days: R1, R2, R4 (a no-show), R6, R7, R12; 2-7: R3, R8 (cancelled), R9, R10;
    8-14: R11 (cancelled). R5 is still an option: not a booking."""
    got = [(r["lead_time_bucket"], r["bookings"], r["cancelled_bookings"], r["cancellation_pct"],
            r["no_shows"], r["lapsed_options"])
           for r in rows(db, "SELECT * FROM mart.v_cancellation_by_lead_time "
                             "ORDER BY bucket_order")]
    assert got == [("0-1", 6, 0, pytest.approx(0.0), 1, 0),
                   ("2-7", 4, 1, pytest.approx(25.0), 0, 0),
                   ("8-14", 1, 1, pytest.approx(100.0), 0, 0)]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_query_runs_and_says_what_it_answers(
        db: duckdb.DuckDBPyConnection, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("-- Answers:"), "each example opens with the question it answers"
    assert rows(db, text), f"{path.name} returned nothing on the hand-built hotel"


def test_examples_figures(db: duckdb.DuckDBPyConnection) -> None:
    """A few figures of the examples, by hand."""
    def run(stem: str) -> list[dict[str, Any]]:
        return rows(db, (sql_dir() / "examples" / f"{stem}.sql").read_text(encoding="utf-8"))

    ahead = run("01_next_30_nights_on_the_books")
    assert len(ahead) == 30
    # Mar 6: R3 and R10 on the books, neither complimentary: 2 sold of the 80 rooms of the
    # property, 2.50 % (occupancy_pct's basis, as every report; not of the 77 net of OOO).
    assert (ahead[0]["stay_date"], ahead[0]["rooms_otb"], ahead[0]["rooms_sold"],
            ahead[0]["rooms_available"], ahead[0]["occupancy_pct"]) == (
        date(2026, 3, 6), 2, 2, 80, Decimal("2.50"))
    by_type = {r["room_type"]: r for r in run("02_adr_by_room_type_last_30_nights")}
    # STD, nights lived Mar 2-5: R1 sold on Mar 2 and 3 (100.00 each); the no-show R4's fee
    # 90.00. ADR on the nights sold 200 / 2 = 100.00; RevPAR (200 + 90) / (4 x 30 rooms in
    # the property) = 2.4167 -> 2.42; occupancy 2 / (4 x (29 sellable - 1 OOO)) = 1.79%.
    std = by_type["STD"]
    assert (std["rooms_sold"], std["adr_net"], std["revpar_net"],
            std["occupancy_net_ooo_pct"]) == (2, Decimal("100.00"), Decimal("2.42"),
                                              pytest.approx(1.79))
    assert len(run("03_cancellations_by_channel")) == 6
    (mix,) = run("05_revenue_mix_by_month")
    # Rooms 220 + 420 + 230 + 250; VAT 22 + 42 + 23 + 1.36 + 4.51 + 25 = 117.87.
    assert (mix["accommodation_net"], mix["food_beverage_revenue_net"], mix["other_revenue_net"],
            mix["total_revenue_posted_net"], mix["vat"], mix["city_tax_charged"]) == (
        Decimal("1120.00"), Decimal("13.64"), Decimal("20.49"), Decimal("1154.13"),
        Decimal("117.87"), Decimal("7.50"))


def test_money_ratio_is_half_up_to_the_cent(db: duckdb.DuckDBPyConnection) -> None:
    """The views' ADR/RevPAR helper rounds like the marts: half away from zero, exactly."""
    got = rows(db, """SELECT mart.money_ratio(0.05, 2) AS tie, mart.money_ratio(-0.05, 2) AS neg,
                             mart.money_ratio(1740.00, 14) AS adr, mart.money_ratio(1, 0) AS none
                   """)[0]
    assert got == {"tie": Decimal("0.03"), "neg": Decimal("-0.03"),
                   "adr": Decimal("124.29"), "none": None}
