"""`make verify`: the calendar on a simulated year (issue 49 item 1). `pmsw demo`'s own code
(a process of its own: the sandbox over HTTP, the Dagster definitions, the marts) plays the
smaller demo hotel, Florence (40 rooms), alone, seed 42, for 401 days to Sunday 27 December
2026; the demo writes its events.yaml from the simulator's events (the simulator's factors
are not in it: the forecast learns them from December 2025).

As of Saturday 28 November 2026, with the calendar the marts use (the property's holidays and
events.yaml), the forecast of 24 and 25 December 2026 (the simulator's "Christmas", demand x
0.70) is nearer the rooms the nights ended with than without it (364 days back: 24 and 25
December 2026 against 25 and 26 December 2025, nights of the usual level). Issue 49's goal,
within 15 %, is not reached on this draw: the effect is learned from one Christmas, whose own
luck (the simulator's noise) it carries (docs/forecast.md, "Holidays and events": +23.1 and
+18.5 % here night by night, +18.1 and +23.6 % with the effect pooled over the two nights,
against +52.1 and +59.1 % without the calendar; last year's nights ended 18 and 17 on levels
of 14.98 and 15.44).

And `pace_below_stly` on Christmas Day, as of the closed day 27 November, by the share of
STLY alone: the pace without the calendar compares it with 26 December 2025 and the alert
fires (2 rooms against 5); mart.pace as the demo built it (with the calendar) compares it
with Christmas Day 2025, and it does not. With the gap a pace alert needs (issue 49 item 4)
neither Christmas Eve (4 against 6 with the calendar) nor Christmas Day fires.

Minutes on two cores: marker `verify`, deselected by default (`make verify` runs it).
"""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from pathlib import Path

import duckdb
import polars as pl
import pytest

from pipelines.forecast import (
    AlertSettings,
    alerts,
    forecast_daily,
    load_events,
    property_calendars,
)
from pipelines.marts.logic.pace import pace as pace_of

pytestmark = [pytest.mark.verify, pytest.mark.timeout(3600)]

REPO = Path(__file__).resolve().parents[2]
AS_OF, CLOSED = date(2026, 11, 28), date(2026, 11, 27)
EVE, DAY = date(2026, 12, 24), date(2026, 12, 25)
RUN = """
import sys
from datetime import date
from pathlib import Path
from pipelines.demo import DemoConfig, run_demo
from pipelines.demo.config import HOTELS
warehouse = Path(sys.argv[1])
run_demo(DemoConfig(data_dir=warehouse.parent, warehouse=warehouse, days=400, daily_syncs=1,
                    seed=42, end=date(2026, 12, 27), hotels=(HOTELS[1],), progress=False))
"""


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("christmas") / "warehouse.duckdb"
    done = subprocess.run([sys.executable, "-c", RUN, str(path)], cwd=REPO,
                          capture_output=True, text=True, timeout=3000, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return path


def test_christmas_is_forecast_by_last_christmas(warehouse: Path) -> None:
    with duckdb.connect(str(warehouse), read_only=True) as conn:
        otb = conn.sql("SELECT * FROM mart.otb_snapshots").pl()
        pace = conn.sql("SELECT * FROM mart.pace").pl()
        places = conn.sql("SELECT property_id::BIGINT AS property_id, code, country, province "
                          "FROM core.property WHERE code = 'FIRE01'").pl()
        occupancy = conn.sql("SELECT * FROM mart.occupancy_daily").pl()
        rooms = conn.sql("SELECT property_id, count(*) FILTER (WHERE sellable) AS rooms, "
                         "count(*) AS rooms_available FROM core.rooms GROUP BY 1").pl()
    events = load_events(warehouse.parent / "demo" / "events.yaml")
    assert any(e.name == "Christmas" for e in events)
    calendar = property_calendars(places, date(2025, 1, 1), date(2027, 12, 31), events)
    finals = dict(otb.filter(pl.col("snapshot_date") == pl.col("stay_date")).select(
        "stay_date", "rooms_otb").iter_rows())
    with_calendar = forecast_daily(otb, rooms, as_of_date=AS_OF, calendar=calendar)
    without = forecast_daily(otb, rooms, as_of_date=AS_OF)
    for night in (EVE, DAY):
        ended = finals[night]
        aligned = with_calendar.filter(pl.col("stay_date") == night)["rooms_forecast"][0]
        plain = without.filter(pl.col("stay_date") == night)["rooms_forecast"][0]
        assert abs(aligned - ended) < abs(plain - ended), (night, aligned, plain, ended)
    # the stored pace (built by the demo's marts with the calendar): Christmas Day's STLY is
    # Christmas Day 2025's books at the same days before
    day_pace = pace.filter(pl.col("stay_date") == DAY, pl.col("days_before") == 28)
    last_christmas = otb.filter(pl.col("snapshot_date") == date(2025, 11, 27),
                                pl.col("stay_date") == date(2025, 12, 25))["rooms_otb"]
    assert day_pace["stly_rooms_otb"].to_list() == last_christmas.to_list()

    def christmas_alerts(pace: pl.DataFrame, settings: AlertSettings) -> pl.DataFrame:
        return alerts(otb, pace, rooms, settings, as_of=CLOSED).filter(
            pl.col("stay_date").is_in([EVE, DAY]), pl.col("alert") == "pace_below_stly")

    # by the share of STLY alone, the calendar is what keeps Christmas Day quiet...
    share_only = AlertSettings(min_gap_rooms=0, min_gap_share=0.0, min_stly_share=0.0)
    assert christmas_alerts(pace_of(otb, occupancy), share_only).filter(
        pl.col("stay_date") == DAY).height == 1
    assert christmas_alerts(pace, share_only).filter(pl.col("stay_date") == DAY).is_empty()
    # ...and with the gap the alerts need (5 rooms and 15 % of the 39), neither night fires:
    # a few rooms behind a month out are no pace to act on (docs/alerts.md)
    assert christmas_alerts(pace, AlertSettings()).is_empty()
