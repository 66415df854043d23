"""`pmsw report city-tax --month` (issue 16, item 4) on the simulated stretch: the amount due
less the amount charged on folios is exactly the city tax the reconciliation finds missing
or blocked (the simulator's dropped city tax), each in its column; the nights add up. Before
any reconciliation the whole difference is unexplained, and the title says so."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

import polars as pl
from click.testing import CliRunner

from pipelines.cli import main
from pipelines.recon import Mode
from tests.report_json import report_json
from tests.stored_rows import stored_rows

from .conftest import FIRST, World


def city_tax(world: World, *args: str) -> Any:
    result = CliRunner().invoke(main, ["report", "city-tax", "--warehouse",
                                       str(world.warehouse), "--format", "json", *args])
    return result


def _return(world: World) -> tuple[str, dict[str, Any]]:
    body = report_json(world.warehouse, "city-tax", "--month", f"{FIRST:%Y-%m}")
    [row] = body["rows"]
    return body["report"], {k: Decimal(str(v)) if isinstance(v, float) else v
                            for k, v in row.items()}


def test_due_less_charged_is_the_city_tax_not_on_the_folios(world: World) -> None:
    title, before = _return(world)
    assert title.endswith("; the difference by the reconciliation of 0 of its 10 dates")
    assert before["unexplained"] == before["difference"] > 0
    assert before["missing_still_due"] == before["blocked_still_due"] == 0
    dry = world.run()
    title, row = _return(world)
    assert title.endswith("; the difference by the reconciliation of 10 of its 10 dates")
    ctax = dry.results.filter(pl.col("item_code") == "CTAX")
    unmatched = ctax.filter(pl.col("status").is_in(["missing", "blocked"]))
    assert unmatched.height > 0
    assert set(ctax["status"]) <= {"matched", "missing", "blocked"}
    assert Decimal(str(row["city_tax_due"])) == sum(ctax["expected_amount"])
    assert Decimal(str(row["difference"])) == sum(unmatched["expected_amount"])
    assert row["missing_still_due"] == sum(
        ctax.filter(pl.col("status") == "missing")["expected_amount"])
    assert Decimal(str(row["blocked_still_due"])) == sum(
        ctax.filter(pl.col("status") == "blocked")["expected_amount"])
    assert (row["mismatch_still_due"], row["unexplained"]) == (0, 0)
    assert row["taxable_nights"] == int(sum(ctax["quantity"]))
    assert row["person_nights"] == (row["taxable_nights"] + row["exempt_age_nights"]
                                    + row["exempt_cap_nights"])
    assert row["exempt_age_nights"] > 0  # children of the INF and CHD brackets
    assert Decimal(str(row["rate"])) == Decimal("7.50")  # ROMA01 in the shipped rules


def test_a_bad_month_fails_in_one_line(world: World) -> None:
    result = city_tax(world, "--month", "2025/05")
    assert result.exit_code == 2  # a usage error, as every bad date or month
    assert result.stderr.count("\n") == 1
    assert "YYYY-MM" in result.stderr


def test_a_month_or_a_date_not_lived_yet_fails_in_one_line(world: World) -> None:
    [(code, business_date)] = stored_rows(world.warehouse,
                                          "SELECT code, business_date FROM core.property")
    after = business_date + timedelta(days=40)
    result = city_tax(world, "--month", f"{after:%Y-%m}")
    assert (result.exit_code, result.stderr) == (1, (
        f"Error: --month {after:%Y-%m}: none of its nights is closed yet; the last closed "
        f"business date of {code} is {business_date - timedelta(days=1)}\n"))
    result = CliRunner().invoke(main, ["report", "ledger", "--warehouse", str(world.warehouse),
                                       "--date", f"{after}"])
    assert (result.exit_code, result.stderr) == (1, (
        f"Error: --date {after}: business date {after} of {code} is not closed (the last "
        f"closed one is {business_date - timedelta(days=1)}); without --date the ledger is as "
        "of the last sync\n"))


def test_what_the_reconciliation_posts_leaves_only_the_blocked_due(world: World) -> None:
    """docs/reconciliation.md: an apply posts each missing charge on its own date
    (posted_on = the night), so after the sync that lands the lines the month's charged
    amount holds them and what is still due is the city tax blocked on closed folios."""
    _, before = _return(world)
    applied = world.run(Mode.APPLY)
    world.sync(["folios"])
    _, row = _return(world)
    ctax = applied.results.filter(pl.col("item_code") == "CTAX")
    posted = sum(ctax.filter(pl.col("status") == "posted")["expected_amount"])
    assert posted > 0
    assert row["city_tax_charged"] == before["city_tax_charged"] + posted
    assert row["missing_still_due"] == sum(
        ctax.filter(pl.col("status").is_in(["missing", "failed"]))["expected_amount"])
    assert row["difference"] == row["missing_still_due"] + row["blocked_still_due"] > 0
    assert (row["mismatch_still_due"], row["unexplained"]) == (0, 0)
