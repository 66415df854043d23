"""The as-of rule and last year's basis, on a hotel whose marts are written by hand.

ROMA01, business date 2026-03-16: the last closed business date is 2026-03-15, the open one
2026-03-16 (docs/kpi.md, "As of"). The marts:

- mart.pickup as of Mar 15, 1-day window, night Mar 20: 3 new, 1 cancelled, net 2, +200.00;
  nothing as of Mar 16 (the open day: no pickup yet). On the books of Mar 20: 6 rooms at the
  end of Mar 15, 7 at the end of Mar 16.
- mart.pace, Mar 20 at 5 days before (as of Mar 15): 6 rooms, 600.00; STLY 9 rooms, 810.00,
  rebuilt; last year's actual 10 rooms, 950.00. At 4 days before (as of Mar 16): 7 rooms,
  700.00; STLY 9, 810.00, observed; same last year. Mar 21 at 6 days before: 2 rooms, 200.00,
  no STLY and no last year.
- mart.alerts as of Mar 15: Mar 20 pace_below_stly, 6 / 9 - 1 = -0.3333 against -0.2.

So by hand: pickup by default 3 / 1 / +2 (as of Mar 15, closed), as of Mar 16 0 / 0 / 0 and
partial; pace by default 2 nights, 8 rooms against STLY 9, 1 of 2 STLY rebuilt, last year 10
rooms and 950.00; the alert on Mar 20 says STLY rebuilt, last year 10 rooms and 950.00.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pipelines.cli import main
from pipelines.warehouse import connect, publish
from tests.report_json import report_json

CLOSED = "2026-03-15 (closed)"
OPEN = "2026-03-16 (the open business date: partial, still moving)"


@pytest.fixture(scope="module")
def hotel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("as_of") / "warehouse.duckdb"
    with connect(path) as conn:
        conn.execute(
            "INSERT INTO core.property (property_id, code, name, currency, timezone, "
            "business_date, last_seen_run, fetched_at) VALUES (1, 'ROMA01', 'Hotel Aurelia "
            "Roma', 'EUR', 'Europe/Rome', DATE '2026-03-16', 'test', now())")
        conn.execute(
            "INSERT INTO mart.otb_snapshots (property_id, snapshot_date, stay_date, rooms_otb, "
            "revenue_otb_net, rooms_option, is_rebuilt) VALUES "
            "(1, DATE '2026-03-15', DATE '2026-03-20', 6, 600, 0, false), "
            "(1, DATE '2026-03-16', DATE '2026-03-20', 7, 700, 0, false), "
            "(1, DATE '2026-03-15', DATE '2026-03-21', 2, 200, 0, false), "
            "(1, DATE '2026-03-16', DATE '2026-03-21', 2, 200, 0, false)")
        conn.execute(
            "INSERT INTO mart.pickup (property_id, as_of_date, stay_date, window_days, "
            "rooms_new, rooms_cancelled, rooms_net, revenue_net, is_rebuilt) VALUES "
            "(1, DATE '2026-03-15', DATE '2026-03-20', 1, 3, 1, 2, 200, false)")
        conn.execute(
            "INSERT INTO mart.pace (property_id, stay_date, days_before, rooms_otb, "
            "revenue_otb_net, stly_rooms_otb, stly_revenue_otb_net, is_rebuilt, "
            "stly_is_rebuilt, ly_actual_rooms_sold, ly_actual_room_revenue_net) VALUES "
            "(1, DATE '2026-03-20', 5, 6, 600, 9, 810, false, true, 10, 950), "
            "(1, DATE '2026-03-20', 4, 7, 700, 9, 810, false, false, 10, 950), "
            "(1, DATE '2026-03-21', 6, 2, 200, NULL, NULL, false, NULL, NULL, NULL)")
        conn.execute(
            "INSERT INTO mart.alerts (property_id, as_of_date, stay_date, alert, value, "
            "threshold, message) VALUES (1, DATE '2026-03-15', DATE '2026-03-20', "
            "'pace_below_stly', -0.3333, -0.2, '6 rooms on the books, 9 at the same time "
            "last year (-33.3%)')")
        publish(conn, path)  # the reports read the read copy
    return path


def _report(warehouse: Path, *args: str) -> Any:
    return report_json(warehouse, *args, "--property", "ROMA01")


def test_pickup_defaults_to_the_last_closed_day_and_says_so(hotel: Path) -> None:
    out = _report(hotel, "pickup", "--window", "1")
    assert out["as_of"] == CLOSED
    assert CLOSED in out["report"]
    assert [(r["rooms_new"], r["rooms_cancelled"], r["rooms_net"])
            for r in out["rows"] if r["stay_date"] == "2026-03-20"] == [(3, 1, 2)]
    total = out["total"]
    assert (total["rooms_new"], total["rooms_cancelled"], total["rooms_net"]) == (3, 1, 2)
    assert Decimal(str(total["revenue_net"])) == Decimal("200")


def test_the_open_day_only_when_asked_and_said_partial(hotel: Path) -> None:
    out = _report(hotel, "pickup", "--window", "1", "--as-of", "2026-03-16")
    assert out["as_of"] == OPEN
    assert "partial" in out["report"]
    total = out["total"]
    assert (total["rooms_new"], total["rooms_cancelled"], total["rooms_net"]) == (0, 0, 0)
    rows = {r["stay_date"]: r for r in out["rows"]}
    assert rows["2026-03-20"]["rooms_otb"] == 7  # the books at the end of the open day


def test_the_as_of_line_names_the_date_and_its_basis(hotel: Path) -> None:
    done = CliRunner().invoke(main, ["report", "pace", "--warehouse", str(hotel),
                                     "--property", "ROMA01"])
    assert done.exit_code == 0, done.output
    assert f"figures as of {CLOSED}" in done.output
    done = CliRunner().invoke(main, ["report", "pickup", "--warehouse", str(hotel),
                                     "--property", "ROMA01", "--as-of", "2026-03-16",
                                     "--format", "csv"])
    assert done.exit_code == 0, done.output
    assert f"figures as of {OPEN}" in done.stderr


def test_pace_flags_rebuilt_stly_and_shows_last_years_actual(hotel: Path) -> None:
    out = _report(hotel, "pace")
    assert out["as_of"] == CLOSED
    assert "on 1 of 2 nights" in out["report"]
    got = [(r["stay_date"], r["days_before"], r["rooms_otb"], r["stly_rooms_otb"],
            r["stly_is_rebuilt"], r["ly_actual_rooms_sold"],
            None if r["ly_actual_room_revenue_net"] is None
            else Decimal(str(r["ly_actual_room_revenue_net"]))) for r in out["rows"]]
    assert got == [("2026-03-20", 5, 6, 9, True, 10, Decimal("950")),
                   ("2026-03-21", 6, 2, None, None, None, None)]
    total = out["total"]
    assert (total["rooms_otb"], total["stly_rooms_otb"], total["stly_is_rebuilt"],
            total["ly_actual_rooms_sold"]) == (8, 9, 1, 10)
    partial = _report(hotel, "pace", "--as-of", "2026-03-16")
    assert partial["as_of"] == OPEN
    assert [(r["days_before"], r["rooms_otb"], r["stly_is_rebuilt"])
            for r in partial["rows"]] == [(4, 7, False)]


def test_alerts_flag_rebuilt_stly_and_show_last_years_actual(hotel: Path) -> None:
    out = _report(hotel, "alerts")
    assert out["as_of"] == CLOSED
    assert "STLY rebuilt" in out["report"]
    assert "on 1 of 1 alerts" in out["report"]
    [row] = out["rows"]
    # one alert of one night (a stretch of 1): its books and STLY from mart.pace at 5 days before
    assert (row["first_night"], row["last_night"], row["alert_nights"], row["alert"],
            row["value"], row["rooms_otb"], row["stly_rooms_otb"], row["stly_is_rebuilt"],
            row["ly_actual_rooms_sold"]) == ("2026-03-20", "2026-03-20", 1, "pace_below_stly",
                                             -0.3333, 6, 9, True, 10)
    assert Decimal(str(row["ly_actual_room_revenue_net"])) == Decimal("950")


def test_alerts_name_their_as_of_date_with_no_alert(hotel: Path, tmp_path: Path) -> None:
    """mart.alerts is built as of the last closed business date: with no alert in it (a
    quiet week, a young warehouse), the report still says which day it stands on."""
    quiet = tmp_path / "warehouse.duckdb"
    quiet.write_bytes(hotel.read_bytes())
    with connect(quiet) as conn:
        conn.execute("DELETE FROM mart.alerts")
        publish(conn, quiet)
    out = _report(quiet, "alerts")
    assert out["rows"] == []
    assert out["as_of"] == CLOSED
    assert f"as of {CLOSED}" in out["report"]
