"""`pmsw report tieout` (issue 46, item 5) on the demo's warehouse: each department's folio
lines summed here, straight from core.folio_lines (the department of the line's item; a line
of no known item is `other`, an `accommodation` line rooms), equal the report's; rooms tie to
occupancy's room revenue (nights and fees), F&B and other to the revenue report; nothing
unexplained on the closed dates."""

from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
from click.testing import CliRunner

from pipelines.cli import main
from tests.stored_rows import stored_rows


def _report(warehouse: Path, name: str, *args: str) -> tuple[int, Any]:
    done = CliRunner().invoke(main, ["report", name, "--property", "ROMA01", "--warehouse",
                                     str(warehouse), "--format", "json", *args])
    return done.exit_code, json.loads(done.stdout) if done.exit_code == 0 else done.stderr


def test_the_tieout_of_the_closed_month_to_date_from_the_folio_lines(warehouse: Path) -> None:
    with duckdb.connect(str(warehouse), read_only=True) as conn:
        pid, bd = conn.execute("SELECT property_id, business_date FROM core.property WHERE "
                               "code = 'ROMA01'").fetchone() or (0, None)
        closed = bd - timedelta(days=1)
        first = closed.replace(day=1)
        by_hand = dict(conn.execute(
            "SELECT CASE WHEN i.department IN ('accommodation', 'food_beverage', 'other', "
            "'city_tax') THEN i.department WHEN l.type = 'accommodation' THEN "
            "'accommodation' ELSE 'other' END, sum(l.amount_net) FROM core.folio_lines l "
            "LEFT JOIN core.items i ON i.property_id = l.property_id AND "
            "i.item_id = l.service_item_id WHERE l.property_id = ? AND l.type <> 'payment' "
            "AND l.posted_on BETWEEN ? AND ? GROUP BY 1", [pid, first, closed]).fetchall())
    span = ("--from", str(first), "--to", str(closed))
    code, out = _report(warehouse, "tieout", *span)
    assert code == 0, out
    rows = {r["department"]: r for r in out["rows"]}
    assert set(rows) == {"accommodation", "food_beverage", "other", "city_tax"}
    for department, row in rows.items():
        assert Decimal(str(row["folio_lines_net"])) == by_hand.get(department, 0), department
        assert row["unexplained_net"] == 0, row
    occupancy = _report(warehouse, "occupancy", *span)[1]["total"]
    revenue = _report(warehouse, "revenue", *span)[1]["total"]
    assert rows["accommodation"]["reported_net"] == occupancy["room_revenue_net"]
    assert rows["food_beverage"]["reported_net"] == revenue["food_beverage_revenue_net"]
    assert rows["other"]["reported_net"] == revenue["other_revenue_net"]
    assert out["total"]["folio_lines_net"] == revenue["total_revenue_posted_net"]


def test_the_open_business_date_is_not_tied_out(warehouse: Path) -> None:
    [(bd,)] = stored_rows(warehouse, "SELECT business_date FROM core.property "
                                     "WHERE code = 'ROMA01'")
    code, err = _report(warehouse, "tieout", "--date", str(bd))
    assert code != 0
    assert "closed business dates" in err
    assert err.count("\n") == 1


def test_the_open_month_is_tied_out_to_date(warehouse: Path) -> None:
    """--month of the month holding the open business date: its closed dates, as the help
    says (was refused for reaching past the last closed date); a month not begun is refused."""
    [(bd,)] = stored_rows(warehouse, "SELECT business_date FROM core.property "
                                     "WHERE code = 'ROMA01'")
    closed = bd - timedelta(days=1)
    code, month = _report(warehouse, "tieout", "--month", f"{closed:%Y-%m}")
    assert code == 0, month
    span = _report(warehouse, "tieout", "--from", str(closed.replace(day=1)), "--to",
                   str(closed))[1]
    assert month["rows"] == span["rows"]
    next_month = (bd.replace(day=28) + timedelta(days=4)).replace(day=1)
    code, err = _report(warehouse, "tieout", "--month", f"{next_month:%Y-%m}")
    assert code == 1
    assert f"--month {next_month:%Y-%m}: no business date of it is closed yet" in err
