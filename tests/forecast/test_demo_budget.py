"""The demo's budget (pipelines/demo/budget.py; issue 48: the flash's budget columns filled on
`make demo`), on the hand-built hotel (tests/forecast/conftest.py: business date 2026-03-16,
10 rooms), imported through `pmsw budget import`'s path. By hand:

- run rate, the 365 closed nights before the business date the warehouse holds (2026-01-01
  to 03-15, 74 nights): 255 rooms sold of 740 (34.46 %), 21,960.00 (ADR 86.1176...), F&B
  300.00, other 30.00. Occupancy +2 points: 36.4595 %; ADR x 1.04 = 89.56.
  A 31-night month: 310 x 36.4595 % = 113.02 -> 113 rooms, 113 x 89.56 = 10,120.28, F&B
  300 / 255 x 113 = 132.94, other 13.29; a 30-night month 109.38 -> 109 rooms, 9,762.04,
  128.24, 12.82; February 102.09 -> 102 rooms, 9,135.12, 120.00, 12.00.
- January 2025, held whole (4 rooms at 90.00 a night, no F&B): January 2026 starts from it,
  40.00 % + 2 = 42.00 % x 310 = 130.2 -> 130 rooms at 93.60 = 12,168.00, F&B and other 0.00.
- March's budget replaces the one imported before (186 rooms); the flash's YTD budget on
  Mar 15: 130 + 102 + 113 x 15 / 31 (March 2025 not held whole: pro rata) = 286.68 -> 287;
  the year 130 + 102 + 6 x 113 + 4 x 109 = 1,346.
FIRE01 has no night sold: no budget."""

from __future__ import annotations

import csv
from pathlib import Path

from pipelines.demo import import_demo_budget
from pipelines.warehouse import connect
from tests.report_json import report_json

from .conftest import OCCUPANCY, write_and_publish


def test_the_demo_budgets_the_year_from_last_year_else_the_run_rate(hotel: Path,
                                                                     tmp_path: Path) -> None:
    write_and_publish(hotel, OCCUPANCY.format(first="2025-01-01", last="2025-01-31", sold=4,
                                              rate=90))
    done = import_demo_budget(hotel, tmp_path)
    assert done == (tmp_path / "budget-2026.csv", 12)
    with (tmp_path / "budget-2026.csv").open(encoding="utf-8") as handle:
        rows = {r["month"]: r for r in csv.DictReader(handle)}
    assert list(rows) == [f"2026-{m:02d}" for m in range(1, 13)]
    figures = ("rooms_sold", "room_revenue_net", "food_beverage_revenue_net",
               "other_revenue_net")
    assert [rows["2026-01"][c] for c in figures] == ["130", "12168.00", "0.00", "0.00"]
    assert [rows["2026-02"][c] for c in figures] == ["102", "9135.12", "120.00", "12.00"]
    for month, days in (("2026-03", 31), ("2026-04", 30), ("2026-12", 31)):
        assert [rows[month][c] for c in figures] == (
            ["113", "10120.28", "132.94", "13.29"] if days == 31
            else ["109", "9762.04", "128.24", "12.82"]), month
    assert {r["property"] for r in rows.values()} == {"ROMA01"}
    with connect(hotel) as conn:
        stored = conn.execute("SELECT budget_rooms_sold, budget_room_revenue_net, source_file FROM "
                              "mart.budget_monthly WHERE property_id = 1 AND month = "
                              "DATE '2026-03-01'").fetchall()
    assert [(r, float(v), f) for r, v, f in stored] == [(113, 10120.28, "budget-2026.csv")]
    # published with the import: the flash reads it
    flash = report_json(hotel, "flash", "--property", "ROMA01")
    got = {row["metric"]: row for row in flash["rows"]}
    assert (got["rooms_sold"]["ytd_budget"], got["rooms_sold"]["year_budget"]) == (287, 1346)
