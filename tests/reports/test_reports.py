"""`pmsw report ...` on a warehouse built by the real pipeline (tests/demo_warehouse.py).

Each report is checked against the marts it reads, by an independent query, and against the
definitions it states in its help (docs/kpi.md): totals divide sums, never average ratios.
"""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipelines.cli import main
from tests.report_json import report_json as report
from tests.stored_rows import stored_rows as query


def business_date(warehouse: Path, code: str) -> tuple[int, date]:
    pid, bd = query(warehouse, "SELECT property_id, business_date FROM core.property "
                               "WHERE code = ?", [code])[0]
    return int(pid), bd


def test_occupancy_rows_are_the_mart_and_the_total_divides_the_sums(warehouse: Path) -> None:
    pid, bd = business_date(warehouse, "ROMA01")
    first, last = bd - timedelta(days=10), bd + timedelta(days=4)
    out = report(warehouse, "occupancy", "--property", "ROMA01", "--from", str(first),
                 "--to", str(last))
    expected = query(warehouse, "SELECT stay_date, rooms_available, rooms_sold, "
                     "room_revenue_net, room_revenue_nights_net FROM mart.occupancy_daily "
                     "WHERE property_id = ? AND stay_date BETWEEN ? AND ? ORDER BY 1",
                     [pid, first, last])
    assert len(out["rows"]) == 15 == len(expected)
    for row, (day, available, sold, revenue, nights) in zip(out["rows"], expected,
                                                               strict=True):
        assert (row["stay_date"], row["rooms_available"], row["rooms_sold"]) == (
            day.isoformat(), available, sold)
        assert Decimal(str(row["room_revenue_net"])) == revenue
        # the arithmetic shows: nights + fees = room revenue; the nights give the ADR printed
        assert Decimal(str(row["room_revenue_nights_net"])) == nights
        assert Decimal(str(row["room_revenue_nights_net"])) + Decimal(
            str(row["room_revenue_fees_net"])) == revenue
        if sold:
            assert Decimal(str(row["adr_net"])) == (nights / sold).quantize(
                Decimal("0.01"), ROUND_HALF_UP)
        assert row["basis"] == ("actual" if day < bd else "on the books")
    sold = sum(r[2] for r in expected)
    available = sum(r[1] for r in expected)
    revenue = sum(r[3] for r in expected)
    nights = sum(r[4] for r in expected)  # ADR is on the nights sold, fees apart (kpi.md)
    total = out["total"]
    assert total["rooms_sold"] == sold > 0
    assert Decimal(str(total["occupancy_pct"])) == (Decimal(100 * sold) / available).quantize(
        Decimal("0.01"))
    assert Decimal(str(total["adr_net"])) == (nights / sold).quantize(Decimal("0.01"))
    assert Decimal(str(total["room_revenue_nights_net"])) == nights
    assert Decimal(str(total["room_revenue_fees_net"])) == revenue - nights
    assert Decimal(str(total["revpar_net"])) == (revenue / available).quantize(Decimal("0.01"))


def test_occupancy_default_range_is_the_last_30_nights(warehouse: Path) -> None:
    _, bd = business_date(warehouse, "FIRE01")
    out = report(warehouse, "occupancy", "--property", "fire01")
    days = [r["stay_date"] for r in out["rows"]]
    assert days[0] == str(bd - timedelta(days=30))
    assert days[-1] == str(bd - timedelta(days=1))
    assert all(r["basis"] == "actual" for r in out["rows"])


def test_pickup_lists_every_stay_date_with_the_mart_figures_or_zero(warehouse: Path) -> None:
    """As of the last closed business date by default (docs/kpi.md, "As of"), said so."""
    pid, bd = business_date(warehouse, "ROMA01")
    out = report(warehouse, "pickup", "--property", "1", "--window", "7")
    closed = bd - timedelta(days=1)
    assert out["as_of"] == f"{closed} (closed)"
    assert [r["stay_date"] for r in out["rows"]] == [
        str(bd + timedelta(days=n)) for n in range(30)]  # zero-pickup dates are listed too
    found = {d.isoformat(): (new, cancelled, net) for d, new, cancelled, net in query(
        warehouse, "SELECT stay_date, rooms_new, rooms_cancelled, rooms_net FROM mart.pickup "
        "WHERE property_id = ? AND window_days = 7 AND as_of_date = ?", [pid, closed])}
    for row in out["rows"]:
        assert (row["rooms_new"], row["rooms_cancelled"], row["rooms_net"]) == found.get(
            row["stay_date"], (0, 0, 0))
        assert row["rooms_net"] == row["rooms_new"] - row["rooms_cancelled"]
    assert any(row["rooms_new"] for row in out["rows"])
    assert out["total"]["rooms_net"] == sum(r["rooms_net"] for r in out["rows"])


def test_pickup_30_days_is_at_least_the_7_day_new_bookings(warehouse: Path) -> None:
    """docs/kpi.md, Pickup: new room nights are counted per day, so the 30-day window holds
    the 7-day window's (the stretch synced covers both)."""
    week = report(warehouse, "pickup", "--property", "ROMA01", "--window", "7")
    month = report(warehouse, "pickup", "--property", "ROMA01", "--window", "30")
    assert month["total"]["rooms_new"] >= week["total"]["rooms_new"] > 0


def test_pace_reads_the_days_before_of_each_stay_date_as_of_the_last_closed_day(
        warehouse: Path) -> None:
    """Default: the last closed business date; the open one only asked, and said partial.
    Beside STLY, whether it was rebuilt and last year's actual (mart.pace)."""
    pid, bd = business_date(warehouse, "ROMA01")
    for asked, as_of, said in ((), bd - timedelta(days=1), "closed"), (
            ("--as-of", str(bd)), bd, "the open business date: partial, still moving"):
        out = report(warehouse, "pace", "--property", "ROMA01", "--from", str(bd),
                     "--to", str(bd + timedelta(days=9)), *asked)
        assert out["as_of"] == f"{as_of} ({said})"
        assert len(out["rows"]) == 10
        for row in out["rows"]:
            stay = date.fromisoformat(row["stay_date"])
            assert row["days_before"] == (stay - as_of).days
            [(otb, rebuilt, ly_sold)] = query(
                warehouse, "SELECT o.rooms_otb, p.stly_is_rebuilt, p.ly_actual_rooms_sold "
                "FROM mart.otb_snapshots o JOIN mart.pace p USING (property_id, stay_date) "
                "WHERE o.property_id = ? AND o.snapshot_date = ? AND o.stay_date = ? AND "
                "p.days_before = ?", [pid, as_of, stay, (stay - as_of).days])
            assert row["rooms_otb"] == otb
            assert (row["stly_is_rebuilt"], row["ly_actual_rooms_sold"]) == (rebuilt, ly_sold)


def test_segments_by_channel_sum_to_the_occupancy_rooms_sold(warehouse: Path) -> None:
    """docs/kpi.md, Segments: summed over the segments they give occupancy's figures."""
    args = ["--property", "ROMA01"]
    segments = report(warehouse, "segments", *args)
    occupancy = report(warehouse, "occupancy", *args)
    assert segments["total"]["rooms_sold"] == occupancy["total"]["rooms_sold"]
    assert Decimal(str(segments["total"]["room_revenue_net"])) == Decimal(
        str(occupancy["total"]["room_revenue_net"]))
    assert {r["channel"] for r in segments["rows"]} >= {"booking_com", "website"}
    share = sum(Decimal(str(r["rooms_share_pct"])) for r in segments["rows"])
    assert abs(share - 100) <= Decimal("0.01") * len(segments["rows"])


@pytest.mark.parametrize("by", ["source", "market", "rate_plan", "room_type"])
def test_segments_by_each_dimension_keep_the_total(warehouse: Path, by: str) -> None:
    base = report(warehouse, "segments", "--property", "FIRE01")
    other = report(warehouse, "segments", "--property", "FIRE01", "--by", by)
    assert other["columns"][0] == by
    assert other["total"]["rooms_sold"] == base["total"]["rooms_sold"]


def test_revenue_total_is_the_departments_and_city_tax_is_apart(warehouse: Path) -> None:
    pid, bd = business_date(warehouse, "ROMA01")
    out = report(warehouse, "revenue", "--property", "ROMA01")
    assert out["rows"]
    for row in out["rows"]:
        parts = sum(Decimal(str(row[c])) for c in (
            "accommodation_net", "food_beverage_revenue_net", "other_revenue_net"))
        assert Decimal(str(row["total_revenue_posted_net"])) == parts
    # Each department's column is the mart's own figure (issue 14 item 1: F&B was 0.00 because
    # the report spelled the department differently from the mart).
    by_department = dict(query(
        warehouse, "SELECT department, sum(department_revenue_net) FROM mart.revenue_daily "
        "WHERE "
        "property_id = ? AND date BETWEEN ? AND ? GROUP BY 1",
        [pid, bd - timedelta(days=30), bd - timedelta(days=1)]))
    for column, department in (("accommodation_net", "accommodation"),
                               ("food_beverage_revenue_net", "food_beverage"),
                               ("other_revenue_net", "other")):
        assert Decimal(str(out["total"][column])) == by_department[department], column
    assert by_department["food_beverage"] > 0
    [(city_tax,)] = query(warehouse, "SELECT sum(revenue_gross) FROM mart.revenue_daily WHERE "
                          "property_id = ? AND NOT is_revenue AND date BETWEEN ? AND ?",
                          [pid, bd - timedelta(days=30), bd - timedelta(days=1)])
    assert Decimal(str(out["total"]["city_tax_charged"])) == city_tax
    assert city_tax > 0


def test_reconciliation_lists_the_dry_run_and_the_apply_that_posted_what_it_found(
        warehouse: Path) -> None:
    out = report(warehouse, "reconciliation", "--property", "ROMA01")
    modes = [r["mode"] for r in out["rows"]]
    # the demo's daily close (apply runs, one or two a day), then the final dry run and apply
    assert modes[-2:] == ["dry_run", "apply"]
    assert len(modes) > 2
    assert set(modes[:-2]) == {"apply"}
    dry, applied = out["rows"][-2:]
    assert applied["posted"] + applied["failed"] + applied["missing"] == dry["missing"]
    assert applied["matched"] == dry["matched"]


def test_csv_and_table_formats_carry_the_same_rows(warehouse: Path) -> None:
    runner = CliRunner()
    args = ["report", "occupancy", "--property", "ROMA01", "--warehouse", str(warehouse)]
    as_json = report(warehouse, "occupancy", "--property", "ROMA01")
    as_csv = runner.invoke(main, [*args, "--format", "csv"])
    assert as_csv.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert [r["stay_date"] for r in rows] == [r["stay_date"] for r in as_json["rows"]]
    assert [int(r["rooms_sold"]) for r in rows] == [r["rooms_sold"] for r in as_json["rows"]]
    table = runner.invoke(main, args)
    assert table.exit_code == 0
    assert "Hotel Aurelia Roma (ROMA01)" in table.stdout
    assert table.stdout.rstrip().splitlines()[-1].startswith("total")


def test_every_report_has_examples_in_its_help() -> None:
    runner = CliRunner()
    for name in ("occupancy", "pickup", "pace", "segments", "revenue", "reconciliation"):
        result = runner.invoke(main, ["report", name, "--help"])
        assert result.exit_code == 0
        assert "Examples:" in result.stdout
        assert f"pmsw report {name} --property" in result.stdout


def test_segments_by_rate_plan_name_every_plan_by_its_code(warehouse: Path) -> None:
    """Issue 14 item 6: negotiated plans (CORP) are left out of GET /rate-plans, so a join on
    core.rate_plans showed their stays as "(none)". Every night carries its plan's code."""
    pid, bd = business_date(warehouse, "ROMA01")
    out = report(warehouse, "segments", "--property", "ROMA01", "--by", "rate_plan")
    codes = query(warehouse, "SELECT rate_plan_code, sum(rooms_sold) FROM mart.segment_daily "
                             "WHERE property_id = ? AND stay_date BETWEEN ? AND ? GROUP BY 1",
                  [pid, bd - timedelta(days=30), bd - timedelta(days=1)])
    by_plan = {r["rate_plan"]: r["rooms_sold"] for r in out["rows"]}
    assert by_plan == {code or "(none)": sold for code, sold in codes}
    assert by_plan.get("CORP", 0) > 0  # the simulator sells the corporate contract
    assert "(none)" not in by_plan
    # Every room entry that has a plan has its code in the mart, listed or not.
    [(missing,)] = query(warehouse, "SELECT count(*) FROM mart.stay_nights WHERE property_id = ? "
                                    "AND rate_plan_id IS NOT NULL AND rate_plan_code IS NULL",
                         [pid])
    assert missing == 0


def test_the_demo_room_revenue_ties_to_its_folios(warehouse: Path) -> None:
    """Issue 14 item 4 on the demo: every closed date of both hotels ties to the cent, and the
    fees (no-show, early departure) are in room revenue, apart from the nights."""
    [(dates, unexplained, folio, rooms)] = query(
        warehouse, "SELECT count(*), count(*) FILTER (WHERE unexplained_net <> 0), "
        "sum(folio_accommodation_net), sum(room_revenue_nights_net + room_revenue_fees_net "
        "+ shifted_net) FROM mart.revenue_tieout", [])
    assert dates > 0
    assert unexplained == 0
    assert folio == rooms
    kinds = dict(query(warehouse, "SELECT fee_kind, count(*) FROM mart.room_fees GROUP BY 1",
                       []))
    assert kinds.get("no_show", 0) > 0
    assert kinds.get("early_departure", 0) > 0


def test_a_forecast_range_beyond_its_nights_says_which_it_covers(warehouse: Path) -> None:
    pid, bd = business_date(warehouse, "ROMA01")
    [(as_of, first, last)] = query(warehouse, "SELECT max(as_of_date), min(stay_date), "
                                   "max(stay_date) FROM mart.forecast_daily WHERE "
                                   "property_id = ?", [pid])
    far = last + timedelta(days=400)
    out = report(warehouse, "forecast", "--property", "ROMA01", "--from", str(far), "--to",
                 str(far + timedelta(days=2)))
    assert out["rows"] == []
    assert out["report"].startswith(f"Forecast as of {as_of} (")
    assert out["report"].endswith(f"; it covers the nights {first} to {last}")
    assert as_of == bd
