"""`pmsw report flash-ahead` of the hand-built hotel (tests/forecast/conftest.py), by hand:
business date 2026-03-16, so tomorrow of the flash (of Mar 15) is Mar 16 and the look ahead
is Mar 16-23. Each night: 4 rooms on the books for 400.00 (ADR 400 / 4 = 100.00), forecast
7 rooms for 700.00 (70.00 % as the forecast holds it, ADR 100.00). mart.occupancy_daily is
given the nights ahead with 12 rooms available (not the forecast's capacity, 10): 4 / 12 =
33.33 % on the books. On Mar 17 one of the 4 rooms on the books is complimentary (the mart
says 3 sold, 1 complimentary): occupancy and ADR leave it out as `occupancy` does, 3 / 12 =
25.00 % and 400.00 / 3 = 133.33. The forecast ends with Mar 31.

Arrivals and departures are mart.occupancy_daily's (docs/kpi.md, "Room statistics"; its
counting is worked by hand in tests/marts/test_room_statistics.py), given here as the room
entries confirmed Mar 16-18, checked in Mar 14-16, confirmed Mar 17-23 and Mar 23-25 make them
(an option and a cancelled entry count in neither): arrivals Mar 16, 17 and 23 one each;
departures Mar 16, 18 and 23 one each; none on the other nights. core.reservation_rooms is not
read: a room entry there the mart has not counted does not show."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pipelines.cli import main

from .conftest import OCCUPANCY, roma_report, write_and_publish

MOVES = {"2026-03-16": (1, 1), "2026-03-17": (1, 0), "2026-03-18": (0, 1),
         "2026-03-23": (1, 1)}
"""(arrivals, departures) of mart.occupancy_daily's nights that have any."""


def _add_stays(warehouse: Path) -> None:
    write_and_publish(warehouse, OCCUPANCY.format(first="2026-03-16", last="2026-03-31",
                                                  sold=4, rate=100)
                      + "; UPDATE mart.occupancy_daily SET rooms_available = 12 "
                      "WHERE stay_date >= DATE '2026-03-16'" + "".join(
                          f"; UPDATE mart.occupancy_daily SET arrivals = {a}, departures = {d} "
                          f"WHERE stay_date = DATE '{night}'"
                          for night, (a, d) in MOVES.items())
                      + "; UPDATE mart.occupancy_daily SET rooms_sold = 3, "
                      "rooms_complimentary = 1 WHERE stay_date = DATE '2026-03-17'"
                      # not counted by the mart: no arrival of its own
                      + "; INSERT INTO core.reservation_rooms VALUES (1, 9, 9, 'confirmed', "
                      "DATE '2026-03-19', DATE '2026-03-20', 1, NULL, 2, '[]', 0, 1, 'DBL', "
                      "NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, "
                      "NULL, 0, now(), 'individual', NULL, NULL, NULL, NULL, now(), 'test', "
                      "now())")


def test_tomorrow_and_the_7_nights_after(hotel: Path) -> None:
    _add_stays(hotel)
    body = roma_report(hotel, "flash-ahead")
    assert body["report"].startswith("Manager's flash ahead 2026-03-16 to 2026-03-23")
    rows = body["rows"]
    assert [r["stay_date"] for r in rows] == [f"2026-03-{d}" for d in range(16, 24)]
    assert rows[0]["weekday"] == "Mon"
    assert [r["arrivals"] for r in rows] == [1, 1, 0, 0, 0, 0, 0, 1]
    assert [r["departures"] for r in rows] == [1, 0, 1, 0, 0, 0, 0, 1]
    for row in rows:
        assert row["rooms_available"] == 12
        assert row["rooms_otb"] == 4
        comp = row["stay_date"] == "2026-03-17"
        assert float(row["occupancy_otb_pct"]) == (25.0 if comp else 33.33)
        assert float(row["adr_otb_net"]) == (133.33 if comp else 100.0)
        assert float(row["revenue_otb_net"]) == 400.0
        assert float(row["rooms_forecast"]) == 7.0
        assert float(row["occupancy_forecast_pct"]) == 70.0
        assert float(row["adr_forecast_net"]) == 100.0
        assert float(row["room_revenue_forecast_net"]) == 700.0


def test_nights_past_the_forecast_are_named(hotel: Path) -> None:
    body = roma_report(hotel, "flash-ahead", "--from", "2026-03-30", "--to", "2026-04-02")
    assert [r["stay_date"] for r in body["rows"]] == ["2026-03-30", "2026-03-31"]
    assert "2 of the 4 nights have no forecast (first 2026-04-01)" in body["report"]


def test_the_flash_carries_the_same_nights_ahead(hotel: Path) -> None:
    """The flash's section `ahead` is flash-ahead's table (one computation): the same title,
    columns and every figure to the cent, in JSON, CSV (its own block after the flash's) and
    the text."""
    _add_stays(hotel)
    flash = roma_report(hotel, "flash")
    assert flash["rows"][0]["metric"] == "rooms_sold"  # the flash's own rows first
    assert flash["sections"]["ahead"] == roma_report(hotel, "flash-ahead")
    assert [r["room_revenue_forecast_net"] for r in flash["sections"]["ahead"]["rows"]] \
        == [700] * 8
    csv_of = {}
    for report in ("flash", "flash-ahead"):
        done = CliRunner().invoke(main, ["report", report, "--warehouse", str(hotel),
                                         "--property", "ROMA01", "--format", "csv"])
        assert done.exit_code == 0, done.stderr
        csv_of[report] = done.stdout.strip().split("\n\n")
    assert len(csv_of["flash"]) == 2
    assert csv_of["flash"][0].startswith("metric,day,")
    ahead_lines = csv_of["flash-ahead"][0].split("\n")
    assert csv_of["flash"][1].split("\n") == [
        f"section,{ahead_lines[0]}", *(f"ahead,{line}" for line in ahead_lines[1:])]
