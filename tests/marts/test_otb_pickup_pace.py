"""On the books, pickup and pace on a hand-made history of room versions.

Property time zone Europe/Rome (UTC+1 in early March). Stay dates 10 and 11 March 2025.
- entry 1: booked 03-01 10:00Z for 10-11 March, 220.00 (110.00 a night, net 100.00);
  rate change 03-03 12:00Z to 242.00 (121.00 a night, net 110.00);
  cancelled 03-05 23:30Z, which is 03-06 00:30 in Rome: it goes off the books on 03-06.
- entry 2: option 03-02 08:00Z for the night of 11 March, 55.00 (net 50.00); confirmed 03-04 08:00Z.
- entry 3: booked 03-04 09:00Z for the 10th and cancelled 03-04 15:00Z: never on the books at the
  end of a day.
- entry 4: booked 03-01 23:30Z = 03-02 00:30 Rome for the 10th, 110.00 (net 100.00):
  counts from 03-02.
"""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic.otb import otb_snapshots
from pipelines.marts.logic.pace import pace
from pipelines.marts.logic.pickup import pickup

from .builders import d, ranges, ts, version, versions_frame

TENTH, ELEVENTH = d("2025-03-10"), d("2025-03-11")

VERSIONS = versions_frame(
    version(reservation_room_id=1, arrival=TENTH, departure=d("2025-03-12"), total="220.00",
            valid_from=ts("2025-03-01T10:00"), valid_to=ts("2025-03-03T12:00")),
    version(reservation_room_id=1, arrival=TENTH, departure=d("2025-03-12"), total="242.00",
            valid_from=ts("2025-03-03T12:00"), valid_to=ts("2025-03-05T23:30")),
    version(reservation_room_id=1, status="cancelled", arrival=TENTH, departure=d("2025-03-12"),
            total="242.00", valid_from=ts("2025-03-05T23:30")),
    version(reservation_room_id=2, status="option", arrival=ELEVENTH, departure=d("2025-03-12"),
            total="55.00", valid_from=ts("2025-03-02T08:00"), valid_to=ts("2025-03-04T08:00")),
    version(reservation_room_id=2, arrival=ELEVENTH, departure=d("2025-03-12"), total="55.00",
            valid_from=ts("2025-03-04T08:00")),
    version(reservation_room_id=3, arrival=TENTH, departure=ELEVENTH, total="100.00",
            valid_from=ts("2025-03-04T09:00"), valid_to=ts("2025-03-04T15:00")),
    version(reservation_room_id=3, status="cancelled", arrival=TENTH, departure=ELEVENTH,
            total="100.00", valid_from=ts("2025-03-04T15:00")),
    version(reservation_room_id=4, arrival=TENTH, departure=ELEVENTH, total="110.00",
            valid_from=ts("2025-03-01T23:30")),
)
RANGES = ranges("2025-03-01", "2025-03-07")


def _series(frame: pl.DataFrame, stay_date: object) -> list[tuple[int, str, int]]:
    rows = frame.filter(pl.col("stay_date") == stay_date).sort("snapshot_date")
    return [
        (r["rooms_otb"], str(r["revenue_otb_net"]), r["rooms_option"])
        for r in rows.iter_rows(named=True)
    ]


def test_otb_by_snapshot_date() -> None:
    otb = otb_snapshots(VERSIONS, RANGES, horizon_days=10)
    # 10th: 03-01 entry 1 (100.00); 03-02 + entry 4 (200.00); 03-03 rate change 110 + 100 = 210.00;
    # entry 3 never counts; 03-06 entry 1 cancelled -> entry 4 alone, 100.00
    assert _series(otb, TENTH) == [
        (1, "100.00", 0),
        (2, "200.00", 0),
        (2, "210.00", 0),
        (2, "210.00", 0),
        (2, "210.00", 0),
        (1, "100.00", 0),
        (1, "100.00", 0),
    ]
    # 11th: entry 1 night 2; entry 2 an option from 03-02, on the books from 03-04 (+50.00)
    assert _series(otb, ELEVENTH) == [
        (1, "100.00", 0),
        (1, "100.00", 1),
        (1, "110.00", 1),
        (2, "160.00", 0),
        (2, "160.00", 0),
        (1, "50.00", 0),
        (1, "50.00", 0),
    ]


def test_otb_grid_is_dense_up_to_the_horizon() -> None:
    otb = otb_snapshots(VERSIONS, RANGES, horizon_days=10)
    # 7 snapshot dates x 11 stay dates (S .. S + 10)
    assert otb.height == 7 * 11
    # 03-01 + 10 days = 03-11
    assert otb.filter(pl.col("snapshot_date") == d("2025-03-01"))["stay_date"].max() == ELEVENTH
    assert otb.filter(pl.col("snapshot_date") == d("2025-03-01"), pl.col("stay_date") == TENTH)[
        "rooms_otb"
    ].to_list() == [1]


def _pickup_row(frame: pl.DataFrame, as_of: str, window: int, stay: object) -> tuple[object, ...]:
    rows = frame.filter(pl.col("as_of_date") == d(as_of), pl.col("window_days") == window,
                        pl.col("stay_date") == stay)
    if rows.height == 0:
        return ()
    r = rows.row(0, named=True)
    return (r["rooms_new"], r["rooms_cancelled"], r["rooms_net"], str(r["revenue_net"]))


def test_pickup_parts() -> None:
    pu = pickup(VERSIONS, RANGES, horizon_days=10)
    # 7 days to 03-07 for the 10th: new entries 1 and 4, entry 1 cancelled; net 1 - 0 = 1,
    # revenue OTB(03-07) - OTB(02-28) = 100.00 - 0
    assert _pickup_row(pu, "2025-03-07", 7, TENTH) == (2, 1, 1, "100.00")
    # the day of the cancellation: -1 room, 100.00 - 210.00 = -110.00
    assert _pickup_row(pu, "2025-03-06", 1, TENTH) == (0, 1, -1, "-110.00")
    # the rate change is revenue pickup with no room nights: 210.00 - 200.00
    assert _pickup_row(pu, "2025-03-03", 1, TENTH) == (0, 0, 0, "10.00")
    # the option confirmed is new business on 03-04: +1 room, +50.00
    assert _pickup_row(pu, "2025-03-04", 1, ELEVENTH) == (1, 0, 1, "50.00")
    # nothing moved on 03-05: no row
    assert _pickup_row(pu, "2025-03-05", 1, TENTH) == ()


def test_pace_sets_stly_364_days_earlier() -> None:
    money = pl.Decimal(18, 2)
    otb = pl.DataFrame(
        {
            "property_id": [1, 1],
            "snapshot_date": [d("2025-03-01"), d("2024-03-02")],
            # 2025-03-10 is a Monday; 364 days earlier is Monday 2024-03-11 (2024 is a leap year)
            "stay_date": [TENTH, d("2024-03-11")],
            "rooms_otb": [5, 4],
            "revenue_otb_net": ["500.00", "400.00"],
        }
    ).with_columns(pl.col("revenue_otb_net").cast(money))
    out = pace(otb)
    this_year = out.filter(pl.col("stay_date") == TENTH).row(0, named=True)
    assert this_year["days_before"] == 9
    assert (this_year["rooms_otb"], this_year["stly_rooms_otb"]) == (5, 4)
    assert str(this_year["stly_revenue_otb_net"]) == "400.00"
    last_year = out.filter(pl.col("stay_date") == d("2024-03-11")).row(0, named=True)
    assert last_year["stly_rooms_otb"] is None


def test_pickup_is_the_same_for_two_properties_with_the_same_history() -> None:
    # the window arithmetic relies on row order per (property, stay date); a second property
    # must not disturb it (found by benchmarks/bench_marts.py's cross-check with DuckDB)
    both = pl.concat([VERSIONS, VERSIONS.with_columns(property_id=pl.lit(2, dtype=pl.Int64))])
    two_ranges = pl.concat([RANGES, RANGES.with_columns(property_id=pl.lit(2, dtype=pl.Int64))])
    pu = pickup(both, two_ranges, horizon_days=10)
    one = pu.filter(pl.col("property_id") == 1).drop("property_id")
    two = pu.filter(pl.col("property_id") == 2).drop("property_id")
    assert one.equals(two)
    assert _pickup_row(one.with_columns(property_id=pl.lit(1)), "2025-03-07", 7, TENTH) == (
        2,
        1,
        1,
        "100.00",
    )


def test_rows_before_the_first_sync_are_marked_rebuilt() -> None:
    """Issue 14, item 8. The warehouse first saw the hotel on business date 03-04
    (`first_observed`): the books at the end of 03-01, 03-02 and 03-03 are rebuilt from
    history, those from 03-04 observed. A pickup is rebuilt when its window starts before
    03-04: as of 03-06 over 1 day (from 03-05) it is observed; over 7 days (from 02-27) not."""
    observed = RANGES.with_columns(first_observed=pl.lit(d("2025-03-04")))
    otb = otb_snapshots(VERSIONS, observed, horizon_days=10)
    flags = otb.filter(pl.col("stay_date") == TENTH).sort("snapshot_date")
    assert list(zip(flags["snapshot_date"], flags["is_rebuilt"], strict=True)) == [
        (d("2025-03-01"), True), (d("2025-03-02"), True), (d("2025-03-03"), True),
        (d("2025-03-04"), False), (d("2025-03-05"), False), (d("2025-03-06"), False),
        (d("2025-03-07"), False)]
    assert not otb_snapshots(VERSIONS, RANGES, horizon_days=10)["is_rebuilt"].any()
    pu = pickup(VERSIONS, observed, horizon_days=10)

    def rebuilt(as_of: str, window: int) -> bool:
        row = pu.filter(pl.col("as_of_date") == d(as_of), pl.col("window_days") == window,
                        pl.col("stay_date") == TENTH)
        return bool(row["is_rebuilt"][0])

    assert rebuilt("2025-03-06", 1) is False  # 03-05 to 03-06
    assert rebuilt("2025-03-03", 1) is True  # 03-02 to 03-03
    assert rebuilt("2025-03-07", 7) is True  # 02-28 to 03-07
    pc = pace(otb).filter(pl.col("stay_date") == TENTH).sort("days_before")
    # days before 9 = snapshot 03-01 (rebuilt) ... 3 = 03-07 (observed)
    assert dict(zip(pc["days_before"], pc["is_rebuilt"], strict=True)) == {
        3: False, 4: False, 5: False, 6: False, 7: True, 8: True, 9: True}


def test_pace_puts_last_years_final_actual_beside_stly() -> None:
    """STLY of 2025-03-10 at 9 days is 2024-03-11 at 9 days: 4 rooms, 400.00, its snapshot
    rebuilt. What 2024-03-11 finally sold (mart.occupancy_daily, a lived night): 6 rooms,
    630.00 net: beside STLY, never instead. A night not lived (is_actual false) gives null."""
    money = pl.Decimal(18, 2)
    otb = pl.DataFrame({
        "property_id": [1, 1, 1],
        "snapshot_date": [d("2025-03-01"), d("2024-03-02"), d("2025-03-02")],
        "stay_date": [TENTH, d("2024-03-11"), ELEVENTH],
        "rooms_otb": [5, 4, 2],
        "revenue_otb_net": ["500.00", "400.00", "200.00"],
        "is_rebuilt": [False, True, False],
    }).with_columns(pl.col("revenue_otb_net").cast(money))
    occupancy = pl.DataFrame({
        "property_id": [1, 1],
        "stay_date": [d("2024-03-11"), d("2024-03-12")],
        "rooms_sold": [6, 7],
        "room_revenue_net": ["630.00", "700.00"],
        "is_actual": [True, False],
    }).with_columns(pl.col("room_revenue_net").cast(money))
    out = pace(otb, occupancy)
    row = out.filter(pl.col("stay_date") == TENTH).row(0, named=True)
    assert (row["rooms_otb"], row["is_rebuilt"], row["stly_rooms_otb"], row["stly_is_rebuilt"],
            row["ly_actual_rooms_sold"], str(row["ly_actual_room_revenue_net"])) == (
        5, False, 4, True, 6, "630.00")
    eleventh = out.filter(pl.col("stay_date") == ELEVENTH).row(0, named=True)
    assert (eleventh["stly_rooms_otb"], eleventh["ly_actual_rooms_sold"]) == (None, None)
