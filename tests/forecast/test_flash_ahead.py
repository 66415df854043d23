"""`pmsw report flash-ahead` of the hand-built hotel (tests/forecast/conftest.py), by hand:
business date 2026-03-16, so tomorrow of the flash (of Mar 15) is Mar 16 and the look ahead
is Mar 16-23. Each night: 4 rooms on the books for 400.00 (ADR 400 / 4 = 100.00), forecast
7 rooms for 700.00 (70.00 % as the forecast holds it, ADR 100.00). mart.occupancy_daily is
given the nights ahead with 12 rooms available (not the forecast's capacity, 10): 4 / 12 =
33.33 % on the books. The forecast ends with Mar 31.

Room entries added (`STAYS`): confirmed Mar 16-18, checked in Mar 14-16, an option Mar 17-19
and a cancelled one Mar 17-20 (neither counted), confirmed Mar 17-23 and Mar 23-25, and one of
FIRE01 Mar 16-17 (another hotel). Arrivals: Mar 16, 17 and 23 one each; departures: Mar 16,
18 and 23 one each; none on the other nights."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from pipelines.cli import main

from .conftest import OCCUPANCY, write_and_publish

STAYS = (
    (1, 1, "confirmed", "2026-03-16", "2026-03-18"), (1, 2, "checked_in", "2026-03-14",
                                                       "2026-03-16"),
    (1, 3, "option", "2026-03-17", "2026-03-19"), (1, 4, "cancelled", "2026-03-17",
                                                   "2026-03-20"),
    (1, 5, "confirmed", "2026-03-17", "2026-03-23"), (1, 6, "confirmed", "2026-03-23",
                                                      "2026-03-25"),
    (2, 7, "confirmed", "2026-03-16", "2026-03-17"))


def _add_stays(warehouse: Path) -> None:
    write_and_publish(warehouse, "INSERT INTO core.reservation_rooms VALUES " + ", ".join(
        f"({pid}, {rid}, {rid}, '{status}', DATE '{arrival}', DATE '{departure}', "
        f"DATE '{departure}' - DATE '{arrival}', NULL, 2, '[]', 0, 1, 'DBL', NULL, NULL, "
        "NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0, now(), "
        "'individual', NULL, NULL, NULL, NULL, now(), 'test', now())"
        for pid, rid, status, arrival, departure in STAYS))
    write_and_publish(warehouse, OCCUPANCY.format(first="2026-03-16", last="2026-03-31",
                                                  sold=4, rate=100)
                      + "; UPDATE mart.occupancy_daily SET rooms_available = 12 "
                      "WHERE stay_date >= DATE '2026-03-16'")


def _report(warehouse: Path, *args: str) -> dict[str, Any]:
    done = CliRunner().invoke(main, ["report", "flash-ahead", "--warehouse", str(warehouse),
                                     "--property", "ROMA01", "--format", "json", *args])
    assert done.exit_code == 0, done.stderr
    body: dict[str, Any] = json.loads(done.stdout)
    return body


def test_tomorrow_and_the_7_nights_after(hotel: Path) -> None:
    _add_stays(hotel)
    body = _report(hotel)
    assert body["report"].startswith("Manager's flash ahead 2026-03-16 to 2026-03-23")
    rows = body["rows"]
    assert [r["stay_date"] for r in rows] == [f"2026-03-{d}" for d in range(16, 24)]
    assert rows[0]["weekday"] == "Mon"
    assert [r["arrivals"] for r in rows] == [1, 1, 0, 0, 0, 0, 0, 1]
    assert [r["departures"] for r in rows] == [1, 0, 1, 0, 0, 0, 0, 1]
    for row in rows:
        assert row["rooms_available"] == 12
        assert row["rooms_otb"] == 4
        assert float(row["occupancy_otb_pct"]) == 33.33
        assert float(row["adr_otb_net"]) == 100.0
        assert float(row["room_revenue_otb_net"]) == 400.0
        assert float(row["rooms_forecast"]) == 7.0
        assert float(row["occupancy_forecast_pct"]) == 70.0
        assert float(row["adr_forecast_net"]) == 100.0
        assert float(row["room_revenue_forecast_net"]) == 700.0


def test_nights_past_the_forecast_are_named(hotel: Path) -> None:
    body = _report(hotel, "--from", "2026-03-30", "--to", "2026-04-02")
    assert [r["stay_date"] for r in body["rows"]] == ["2026-03-30", "2026-03-31"]
    assert "2 of the 4 nights have no forecast (first 2026-04-01)" in body["report"]
