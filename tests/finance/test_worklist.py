"""The worklist of charges that cannot be posted and their resolutions (issue 16, item 2),
on a simulated stretch of the 40-room hotel served over real HTTP (tests/finance/conftest.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from click.testing import CliRunner

from pipelines.cli import main
from pipelines.recon import Mode

from .conftest import World

pytestmark = pytest.mark.slow


def rows(warehouse: Path, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
    with duckdb.connect(str(warehouse), read_only=True) as conn:
        cur = conn.execute(sql, params or [])
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def worklist(warehouse: Path, *args: str) -> list[dict[str, Any]]:
    result = cli("report", "worklist", "--warehouse", str(warehouse), "--format", "json",
                 *args)
    assert result.exit_code == 0, result.output + result.stderr
    out: list[dict[str, Any]] = json.loads(result.stdout)["rows"]
    return out


def test_blocked_charges_keep_their_closed_folio_and_its_document(world: World) -> None:
    """Issue 16: every blocked row named folio NULL; now the folio it belongs to (closed,
    document issued) is kept, and the worklist shows its number and fiscal document."""
    report = world.run()
    blocked = report.results.filter(pl.col("status") == "blocked")
    assert blocked.height > 0
    assert set(blocked["reason_code"]) == {"folio_closed"}
    assert blocked["folio_id"].null_count() == 0
    folios = {r["folio_id"]: r for r in rows(
        world.warehouse, "SELECT folio_id, reservation_id, status, document, issue_date "
        "FROM core.folios")}
    for row in blocked.iter_rows(named=True):
        folio = folios[row["folio_id"]]
        assert folio["status"] == "closed"
        assert folio["reservation_id"] == row["reservation_id"]
        assert folio["document"]
        assert f"folio {row['folio_id']} closed" in row["reason"]
    listed = worklist(world.warehouse, "--property", "ROMA01")
    assert {r["item"] for r in listed} == {k[6:18] for k in blocked["idempotency_key"]}
    for r in listed:
        folio = folios[r["folio_id"]]
        assert r["fiscal_document_number"] == folio["document"]
        assert r["fiscal_document_date"] == folio["issue_date"].isoformat()
        assert r["folio_number"] >= 1
        assert r["room"]
        assert r["bill_to"]
        assert r["state"] == "open"
        assert r["age_days"] >= 1
        assert round(r["net"] + r["vat"], 2) == r["gross"]
        if r["item_code"] == "CTAX":
            assert r["vat"] == 0  # outside VAT
    matched = report.results.filter(pl.col("status") == "matched")
    assert matched["reason_code"].null_count() == matched.height


def test_resolutions_are_appended_and_survive_later_runs_and_syncs(world: World) -> None:
    """Issue 16: `pmsw reconcile resolve ITEM --as STATE --note TEXT` records who, when and
    a note; the worklist shows the latest state; a later run and a sync keep it."""
    world.run()
    first, second = worklist(world.warehouse)[:2]
    wh = ["--warehouse", str(world.warehouse)]
    result = cli("reconcile", "resolve", first["item"], "--as", "written_off", "--note",
                 "guest left, two coffees", "--by", "anna", *wh)
    assert result.exit_code == 0, result.output + result.stderr
    # published at once: the worklist, which reads the read copy, shows it before any run
    now = {r["item"]: r for r in worklist(world.warehouse)}
    assert (now[first["item"]]["state"], now[first["item"]]["resolved_by"]) == (
        "written_off", "anna")
    result = cli("reconcile", "resolve", second["item"], "--as", "invoiced_separately",
                 "--note", "invoice 2025/118", "--by", "marco", *wh)
    assert result.exit_code == 0, result.output + result.stderr
    result = cli("reconcile", "resolve", second["item"], "--as", "credited", "--note",
                 "credit note 2025/7", "--by", "anna", *wh)
    assert result.exit_code == 0, result.output + result.stderr
    world.run()
    world.sync(["folios", "reservations"])
    world.run()
    after = {r["item"]: r for r in worklist(world.warehouse)}
    assert (after[first["item"]]["state"], after[first["item"]]["resolved_by"],
            after[first["item"]]["resolution_note"]) == (
        "written_off", "anna", "guest left, two coffees")
    assert (after[second["item"]]["state"], after[second["item"]]["resolution_note"]) == (
        "credited", "credit note 2025/7")
    assert {r["item"] for r in worklist(world.warehouse, "--state", "open")}.isdisjoint(
        {first["item"], second["item"]})
    history = rows(world.warehouse, "SELECT resolution_id, state, resolved_by FROM "
                   "recon.resolutions ORDER BY 1")
    assert [(h["state"], h["resolved_by"]) for h in history] == [
        ("written_off", "anna"), ("invoiced_separately", "marco"), ("credited", "anna")]


def test_unknown_item_or_state_fails_in_one_line_and_writes_nothing(world: World) -> None:
    world.run()
    item = worklist(world.warehouse)[0]["item"]
    wh = ["--warehouse", str(world.warehouse)]
    for args, words in (
            (["nosuchitem00", "--as", "written_off", "--note", "x"], "unknown item"),
            ([item, "--as", "forgiven", "--note", "x"], "unknown state"),
            ([item, "--as", "written_off", "--note", "  "], "needs a note")):
        result = cli("reconcile", "resolve", *args, *wh)
        assert result.exit_code == 1, result.output
        assert result.stderr.count("\n") == 1, result.stderr
        assert words in result.stderr
    assert rows(world.warehouse, "SELECT count(*) AS n FROM recon.resolutions") == [{"n": 0}]


def test_a_resolved_missing_charge_is_never_posted(world: World) -> None:
    """A charge finance resolved (here: not due) is not posted by a later apply: it stays
    off the folio and shows `blocked` with reason code `resolved`; the others are posted."""
    dry = world.run()
    missing = dry.results.filter(pl.col("status") == "missing").sort("key")
    assert missing.height >= 2
    held = missing.row(0, named=True)
    result = cli("reconcile", "resolve", held["key"], "--as", "not_due", "--note",
                 "guest exempt (resident)", "--warehouse", str(world.warehouse))
    assert result.exit_code == 0, result.output + result.stderr
    applied = world.run(Mode.APPLY)
    got = applied.results.filter(pl.col("key") == held["key"]).row(0, named=True)
    assert (got["status"], got["reason_code"]) == ("blocked", "resolved")
    assert "not_due" in got["reason"]
    others = applied.results.filter(pl.col("key").is_in(missing["key"][1:].to_list()))
    assert set(others["status"]) == {"posted"}
    lines = [ln for f in world.client.list_folios(held["reservation_id"]) for ln in f.lines
             if ln.description == held["description"] and ln.posted_on == held["business_date"]]
    assert lines == []
