"""`pmsw report interface-loss` (issue 16, item 5): the POS ticket lines lost per business
date and item are exactly the ones the simulator dropped (its ground truth,
sim_dropped_postings); apply recovers the ones with an open folio, the rest stay open until
finance resolves them."""

from __future__ import annotations

import sqlite3
from collections import Counter
from decimal import Decimal
from typing import Any

import duckdb
import polars as pl
from click.testing import CliRunner

from pipelines.cli import main
from pipelines.recon import Mode
from tests.report_json import report_json

from .conftest import FIRST, LAST, Stretch, World


def loss(world: World) -> dict[str, Any]:
    return report_json(world.warehouse, "interface-loss", "--from", str(FIRST), "--to", str(LAST))


def test_lost_lines_are_the_dropped_tickets_and_apply_recovers_the_open_ones(
        stretch: Stretch, world: World) -> None:
    conn = sqlite3.connect(stretch.db)
    truth = Counter(
        (day, item) for day, item in conn.execute(
            "SELECT business_date, item_code FROM sim_dropped_postings WHERE kind = 'pos' "
            "AND business_date BETWEEN ? AND ?", [str(FIRST), str(LAST)]))
    conn.close()
    assert sum(truth.values()) > 0
    dry = world.run()
    out = loss(world)
    got = Counter({(r["business_date"], r["item_code"]): r["lost_lines"] for r in out["rows"]
                   if r["lost_lines"]})
    assert got == truth
    pos = dry.results.filter(pl.col("source") == "pos")
    assert out["total"]["ticket_lines"] == pos.height
    assert out["total"]["recovered_lines"] == 0
    assert out["total"]["open_lines"] == sum(truth.values())

    applied = world.run(Mode.APPLY)
    posted = applied.results.filter((pl.col("source") == "pos")
                                    & (pl.col("status") == "posted"))
    blocked = applied.results.filter((pl.col("source") == "pos")
                                     & (pl.col("status") == "blocked"))
    world.sync(["folios"])
    world.run()  # the reposted lines are matched now: they stay lost, and recovered
    after = loss(world)
    assert after["total"]["lost_lines"] == sum(truth.values())
    assert after["total"]["recovered_lines"] == posted.height > 0
    assert Decimal(str(after["total"]["recovered_amount"])) == sum(posted["expected_amount"])
    assert after["total"]["open_lines"] == blocked.height

    # Finance writes one blocked line off (`pmsw reconcile resolve`): it leaves the open lines
    # of the interface loss as it leaves the worklist's open items (one definition of
    # resolved, recon.v_latest_resolution), and stays lost.
    key = blocked["key"][0]
    [(item, gross)] = duckdb.connect(str(world.warehouse.with_suffix(".read.duckdb")),
                                     read_only=True).execute(
        "SELECT item, gross FROM recon.v_worklist WHERE key = ?", [key]).fetchall()
    done = CliRunner().invoke(main, ["reconcile", "resolve", item, "--as", "written_off",
                                     "--note", "the guest left", "--by", "anna",
                                     "--warehouse", str(world.warehouse)])
    assert done.exit_code == 0, done.output + done.stderr
    resolved = loss(world)
    assert resolved["total"]["open_lines"] == blocked.height - 1
    assert Decimal(str(resolved["total"]["open_amount"])) == Decimal(
        str(after["total"]["open_amount"])) - gross
    assert resolved["total"]["lost_lines"] == after["total"]["lost_lines"]
