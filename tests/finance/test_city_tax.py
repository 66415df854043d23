"""`pmsw report city-tax --month` (issue 16, item 4) on the simulated stretch: the amount due
less the amount charged on folios is exactly the city tax the reconciliation finds missing
or blocked (the simulator's dropped city tax); the nights add up."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import polars as pl
from click.testing import CliRunner

from pipelines.cli import main

from .conftest import FIRST, World


def city_tax(world: World, *args: str) -> Any:
    result = CliRunner().invoke(main, ["report", "city-tax", "--warehouse",
                                       str(world.warehouse), "--format", "json", *args])
    return result


def test_due_less_charged_is_the_city_tax_not_on_the_folios(world: World) -> None:
    dry = world.run()
    result = city_tax(world, "--month", f"{FIRST:%Y-%m}")
    assert result.exit_code == 0, result.output + result.stderr
    [row] = json.loads(result.stdout)["rows"]
    ctax = dry.results.filter(pl.col("item_code") == "CTAX")
    unmatched = ctax.filter(pl.col("status").is_in(["missing", "blocked"]))
    assert unmatched.height > 0
    assert Decimal(str(row["amount_due"])) == sum(ctax["expected_amount"])
    assert Decimal(str(row["difference"])) == sum(unmatched["expected_amount"])
    assert Decimal(str(row["blocked_still_due"])) == sum(
        ctax.filter(pl.col("status") == "blocked")["expected_amount"])
    assert row["taxable_nights"] == int(sum(ctax["quantity"]))
    assert row["person_nights"] == (row["taxable_nights"] + row["exempt_age_nights"]
                                    + row["exempt_cap_nights"])
    assert row["exempt_age_nights"] > 0  # children of the INF and CHD brackets
    assert Decimal(str(row["rate"])) == Decimal("7.50")  # ROMA01 in the shipped rules


def test_a_bad_month_fails_in_one_line(world: World) -> None:
    result = city_tax(world, "--month", "2025/05")
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert "YYYY-MM" in result.stderr
