"""Safety of the reconciliation against the sandbox's simulated hotel (issue 7, Safety).

A fortnight is simulated once for the module with a raised share of lost postings
(simulator ground truth: sim_dropped_postings), served, and synced into a template warehouse
by the ingestion code. Each test serves its own copy of the database and works on its own
copy of the warehouse, over real HTTP.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import duckdb
import httpx
import polars as pl
import pytest

from pipelines.api import PmsClient, RetryPolicy
from pipelines.recon import Mode, ReconReport, run_reconciliation
from pipelines.recon.logic import load_rules
from sandbox.http.server import RunningSandbox
from tests.conftest import ALL_SCOPES_KEY
from tests.lost_postings import START, Stretch, serving_copy, simulate_stretch, sync
from tests.stored_rows import stored_rows

pytestmark = pytest.mark.slow

DAYS = 14
FIRST, LAST = START, START + timedelta(days=DAYS - 1)
RULES = load_rules()

Charge = tuple[int, str, str, str]
"""(reservation room, business date, item code, source reference)."""


@dataclass(frozen=True)
class Lost:
    stretch: Stretch
    truth: frozenset[Charge]
    """The postings the simulator lost (its ground truth: sim_dropped_postings)."""


@dataclass
class World:
    sandbox: RunningSandbox
    warehouse: Path
    pos: Path
    client: PmsClient

    def run(self, mode: Mode = Mode.DRY_RUN, client: PmsClient | None = None) -> ReconReport:
        return run_reconciliation(self.warehouse, RULES, mode=mode, first=FIRST, last=LAST,
                                  client=(client or self.client) if mode is Mode.APPLY else None)

    def sync(self, streams: list[str] | None = None) -> None:
        sync(self.sandbox, self.warehouse, self.pos, streams)


def _charge(row: dict[str, object]) -> Charge:
    return (int(str(row["reservation_room_id"])), str(row["business_date"]),
            str(row["item_code"]), str(row["source_ref"]))


@pytest.fixture(scope="module")
def lost(tmp_path_factory: pytest.TempPathFactory) -> Lost:
    stretch = simulate_stretch(tmp_path_factory.mktemp("recon"), days=DAYS, warmup_days=21,
                               seed=5)
    conn = sqlite3.connect(stretch.db)
    truth = frozenset(
        (rrid, day, item, f"{ticket}/{line}" if kind == "pos" else "rule:city_tax")
        for kind, rrid, day, item, ticket, line in conn.execute(
            "SELECT kind, reservation_room_id, business_date, item_code, ticket_id, line "
            "FROM sim_dropped_postings"))
    conn.close()
    assert len(truth) >= 30, "the stretch should lose enough postings to be a test"
    return Lost(stretch, truth)


@pytest.fixture
def world(lost: Lost, tmp_path: Path) -> Iterator[World]:
    with serving_copy(lost.stretch, tmp_path) as (sandbox, warehouse, client):
        yield World(sandbox, warehouse, lost.stretch.pos, client)


def not_matched(report: ReconReport) -> pl.DataFrame:
    return report.results.filter(pl.col("status") != "matched")


def lines_on_folios(client: PmsClient, rows: pl.DataFrame) -> dict[str, int]:
    """Per key: lines of the reservation's folios carrying the charge (description, item,
    date) as the API shows them now."""
    counts: dict[str, int] = {}
    for reservation_id in set(rows["reservation_id"].to_list()):
        lines = [ln for f in client.list_folios(reservation_id) for ln in f.lines
                 if ln.reversal_of is None]
        for row in rows.filter(pl.col("reservation_id") == reservation_id).iter_rows(
                named=True):
            counts[row["key"]] = sum(
                1 for ln in lines if ln.description == row["description"]
                and ln.service_item_id == row["item_id"]
                and ln.posted_on == row["business_date"])
    return counts


def test_dry_run_finds_exactly_the_dropped_postings(lost: Lost, world: World) -> None:
    """Issue 7, Safety: the dry run finds exactly the charges the simulator dropped and
    nothing else; it posts nothing and writes one run with its results."""
    report = world.run()
    found = {_charge(r) for r in not_matched(report).iter_rows(named=True)}
    assert found == lost.truth
    summary = report.summary
    assert summary["amount_mismatch"] == (0, 0)
    assert summary["posted"] == (0, 0)
    assert summary["missing"][0] > 0
    assert summary["blocked"][0] > 0  # lost on stays that left: their folios are closed
    blocked = report.results.filter(pl.col("status") == "blocked")
    assert all(r.startswith("no open folio for the room entry (folio ")
               and "closed" in r for r in blocked["reason"])
    sources = set(report.results["source"])
    assert {"pos", "rule:city_tax", "rule:room_nights"} <= sources
    # The simulator rings every B&B breakfast at the POS: the ledger covers the package.
    assert "rule:breakfast" not in sources
    assert report.apply is None  # a dry run has no API client: it cannot post
    with duckdb.connect(str(world.warehouse), read_only=True) as conn:
        runs = conn.execute("SELECT run_id, mode, first_date, last_date, missing_count, "
                            "blocked_count, expected_count FROM recon.runs").fetchall()
        stored = conn.execute("SELECT count(*), count(DISTINCT key) FROM recon.results "
                              "WHERE run_id = ?", [report.run_id]).fetchone()
    assert runs == [(report.run_id, "dry_run", FIRST, LAST, summary["missing"][0],
                     summary["blocked"][0], report.results.height)]
    assert stored == (report.results.height, report.results.height)


def test_apply_posts_each_once_and_a_second_apply_posts_nothing(world: World) -> None:
    """Issue 7, Safety: apply posts each missing charge once (seen on the folio after);
    a second apply, before or after a sync, posts nothing."""
    dry = world.run()
    missing = dry.results.filter(pl.col("status") == "missing")
    reservations = sorted(set(missing["reservation_id"].to_list()))
    assert _folio_reads(world, reservations) == reservations  # each read by the last sync
    first = world.run(Mode.APPLY)
    posted = first.results.filter(pl.col("status") == "posted")
    assert sorted(posted["key"]) == sorted(missing["key"])
    # docs/ingestion.md, Folios: a post makes the reservation's folios unread, so the next
    # sync reads them first (in the run's own transaction with its results).
    assert _folio_reads(world, reservations) == []
    assert posted["posted_line_id"].null_count() == 0
    assert first.summary["failed"] == (0, 0)
    assert set(lines_on_folios(world.client, posted).values()) == {1}
    again = world.run(Mode.APPLY)  # the warehouse has not seen the posts yet
    assert again.apply is not None
    assert again.apply.posts == 0
    assert set(again.results.filter(pl.col("key").is_in(posted["key"].to_list()))["status"]) \
        == {"matched"}
    world.sync(["folios"])
    assert _folio_reads(world, reservations) == reservations
    [(landed,)] = stored_rows(world.warehouse, "SELECT count(*) FROM core.folio_lines WHERE "
                              "folio_line_id IN (SELECT unnest(?::BIGINT[]))",
                              [posted["posted_line_id"].to_list()])
    assert landed == posted.height  # the posted lines landed with the next sync
    after_sync = world.run(Mode.APPLY)
    assert after_sync.apply is not None
    assert after_sync.apply.posts == 0
    assert after_sync.summary["missing"] == (0, 0)
    assert set(lines_on_folios(world.client, posted).values()) == {1}


def _folio_reads(world: World, reservations: list[int]) -> list[int]:
    """The reservations among `reservations` whose folios the warehouse records as read."""
    rows = stored_rows(world.warehouse, "SELECT DISTINCT reservation_id FROM meta.folio_reads "
                       "WHERE reservation_id IN (SELECT unnest(?::BIGINT[])) ORDER BY 1",
                       [reservations])
    return [int(r) for (r,) in rows]


KILLED_APPLY = """
import pathlib, sys, time
from datetime import date
from pipelines.api import PmsClient
from pipelines.recon.logic import load_rules
from pipelines.recon import Mode, run_reconciliation
base, key, warehouse, first, last, flag = sys.argv[1:7]

def stop_here() -> None:
    pathlib.Path(flag).write_text("posted, results not written")
    time.sleep(120)

with PmsClient(base, key) as client:
    run_reconciliation(warehouse, load_rules(), mode=Mode.APPLY, client=client,
                       first=date.fromisoformat(first), last=date.fromisoformat(last),
                       before_write=stop_here)
"""


def test_apply_killed_before_writing_its_results_posts_nothing_twice(
        world: World, tmp_path: Path) -> None:
    """Issue 7, Safety: an apply SIGKILLed after its posts and before its results were
    written, then run again, posts nothing twice."""
    flag = tmp_path / "posted.flag"
    process = subprocess.Popen(
        [sys.executable, "-c", KILLED_APPLY, world.sandbox.base_url, ALL_SCOPES_KEY,
         str(world.warehouse), FIRST.isoformat(), LAST.isoformat(), str(flag)])
    try:
        deadline = time.monotonic() + 120
        while not flag.exists():
            assert process.poll() is None, "the apply ended before its crash point"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    [row] = stored_rows(world.warehouse, "SELECT count(*) FROM recon.runs")
    assert row == (0,)  # the killed run wrote nothing
    rerun = world.run(Mode.APPLY)
    assert rerun.apply is not None
    assert rerun.apply.posts == 0
    was_missing = world.run().results  # stale warehouse: these are the ones run 1 posted
    posted_by_killed = was_missing.filter(pl.col("status") == "missing")
    assert posted_by_killed.height > 0
    assert set(lines_on_folios(world.client, posted_by_killed).values()) == {1}
    assert set(rerun.results.filter(pl.col("key").is_in(posted_by_killed["key"].to_list()))
               ["status"]) == {"matched"}


def test_two_applies_at_once_post_each_charge_once(world: World, tmp_path: Path) -> None:
    """Issue 7, Safety: two `pmsw reconcile --apply` at the same time post each charge once
    (same Idempotency-Keys; the warehouse file is waited for, not fought over)."""
    missing = world.run().results.filter(pl.col("status") == "missing")
    env = {k: v for k, v in os.environ.items() if k != "PMSW_PROPERTIES_FILE"}
    env.update(PMS_API_BASE_URL=world.sandbox.base_url, PMS_API_KEY=ALL_SCOPES_KEY)
    command = [sys.executable, "-m", "pipelines.cli", "reconcile", "--apply",
               "--from", FIRST.isoformat(), "--to", LAST.isoformat(),
               "--warehouse", str(world.warehouse)]
    processes = [subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [p.communicate(timeout=180) for p in processes]
    for process, (out, err) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, err[-2000:]
        assert "Reconciliation run" in out
        assert re.search(r"^\s+failed\s+0\s", out, re.MULTILINE), out
    assert set(lines_on_folios(world.client, missing).values()) == {1}
    runs = stored_rows(world.warehouse, "SELECT mode, posted_count + missing_count "
                       "FROM recon.runs WHERE mode = 'apply'")
    assert len(runs) == 2


def test_faults_during_apply_still_post_each_charge_once(world: World) -> None:
    """Issue 7, Safety: 5xx answers and connections dropped before and after the work
    during apply; after the runs each charge is on its folio exactly once."""
    missing = world.run().results.filter(pl.col("status") == "missing")
    with httpx.Client(base_url=world.sandbox.root_url, timeout=30) as admin:
        faults = {"error_rate": 0.2, "drop_before_rate": 0.1, "drop_after_rate": 0.25,
                  "truncate_rate": 0.05, "seed": 11}
        assert admin.put("/_sandbox/faults", json=faults).status_code == 200
        with PmsClient(world.sandbox.base_url, ALL_SCOPES_KEY, rate_per_minute=1_000_000,
                       burst=1_000_000,
                       retry=RetryPolicy(max_attempts=8, backoff_base=0.02, backoff_cap=0.1)
                       ) as retrying:
            runs = [world.run(Mode.APPLY, retrying)]
            while runs[-1].summary["failed"][0] and len(runs) < 4:
                runs.append(world.run(Mode.APPLY, retrying))
            counts = admin.get("/_sandbox/faults").json()["counts"]
            assert admin.put("/_sandbox/faults", json={}).status_code == 200
    assert counts.get("drop_after", 0) > 0
    assert counts.get("error_500", 0) + counts.get("error_502", 0) > 0
    assert runs[-1].summary["failed"] == (0, 0)
    assert set(lines_on_folios(world.client, missing).values()) == {1}


def test_a_closed_folio_yields_blocked_not_an_error(world: World) -> None:
    """Issue 7, Statuses: a charge whose folio was closed since the sync is `blocked` with
    the reason; the other charges are posted."""
    missing = world.run().results.filter(pl.col("status") == "missing")
    victim = missing.row(0, named=True)
    with httpx.Client(base_url=world.sandbox.root_url, timeout=30) as admin:
        folio_id = victim["folio_id"]
        assert admin.post(f"/_sandbox/folios/{folio_id}/payments", json={}).status_code == 200
        assert admin.post(f"/_sandbox/folios/{folio_id}/close").status_code == 200
    report = world.run(Mode.APPLY)
    by_key = {r["key"]: r for r in report.results.iter_rows(named=True)}
    closed = {k for k in missing["key"] if k != victim["key"]
              and missing.filter(pl.col("key") == k)["folio_id"][0] == folio_id}
    for key in {victim["key"], *closed}:
        assert by_key[key]["status"] == "blocked"
        assert f"folio {folio_id} closed" in by_key[key]["reason"]
        assert by_key[key]["error_code"] is None
    others = [k for k in missing["key"] if k not in closed and k != victim["key"]]
    assert others
    assert {by_key[k]["status"] for k in others} == {"posted"}
    world.sync(["folios"])
    assert world.run().results.filter(pl.col("key") == victim["key"])["status"].to_list() \
        == ["blocked"]


def test_dagster_job_dry_run_then_apply_with_dates_as_run_config(world: World) -> None:
    """Issue 7, Modes: the job `reconcile` (one property partition) runs a dry run by
    default, without the API (issue 13: its resource here points nowhere), and apply with
    the business dates given as run config. Each run materializes the asset recon/results
    (issue 47, item 4: the reconciliation in the asset graph), its metadata the run's
    figures as recon.runs holds them."""
    import dagster as dg

    from pipelines.defs.partitions import instance_with
    from pipelines.defs.recon.jobs import reconcile_folios
    from pipelines.defs.resources import PmsApiResource, WarehouseResource

    resources = {"pms": PmsApiResource(base_url=world.sandbox.base_url, api_key=ALL_SCOPES_KEY),
                 "warehouse": WarehouseResource(path=str(world.warehouse))}
    dates = {"first_date": FIRST.isoformat(), "last_date": LAST.isoformat()}
    nowhere = PmsApiResource(base_url="http://127.0.0.1:9/v1", api_key="unused")

    def run(config: dict[str, str], pms: PmsApiResource) -> dict[str, object]:
        with instance_with(["default"]) as instance:
            done = dg.materialize(  # what the job `reconcile` runs: the asset alone
                [reconcile_folios], run_config={"ops": {"reconcile_folios": {"config": config}}},
                resources={**resources, "pms": pms}, partition_key="default", instance=instance)
        assert done.success
        (materialized,) = done.asset_materializations_for_node("reconcile_folios")
        assert materialized.asset_key == dg.AssetKey(["recon", "results"])
        assert materialized.partition == "default"
        return {k: v.value for k, v in materialized.metadata.items()}

    dry = run(dates, nowhere)
    missing = dry["missing_count"]
    assert isinstance(missing, int)
    assert missing > 0
    assert dry["posted_count"] == 0
    applied = run({**dates, "mode": "apply"}, resources["pms"])
    assert applied["posted_count"] == missing
    assert applied["missing_count"] == 0
    assert applied["run_id"] == int(str(dry["run_id"])) + 1
    [stored] = stored_rows(world.warehouse, "SELECT posted_count, posted_amount FROM recon.runs "
                           "WHERE run_id = ?", [applied["run_id"]])
    assert (stored[0], Decimal(str(applied["posted_amount"])).quantize(Decimal("0.01"))) == (
        missing, stored[1])


def test_command_line_dry_run_and_refusals(world: World) -> None:
    """`pmsw reconcile` prints the summary table; a date not closed, or --date with --from,
    is refused with a message naming it."""
    from click.testing import CliRunner

    from pipelines.cli import main

    runner = CliRunner(env={"PMS_API_BASE_URL": None, "PMS_API_KEY": None,
                            "PMSW_PROPERTIES_FILE": None})
    wh = ["--warehouse", str(world.warehouse)]
    ok = runner.invoke(main, ["reconcile", "--from", FIRST.isoformat(), "--to",
                              LAST.isoformat(), *wh])
    assert ok.exit_code == 0, ok.output
    assert f"business dates {FIRST} to {LAST}, dry_run" in ok.output
    by_code = runner.invoke(main, ["reconcile", "--property", "roma01", "--from",
                                   FIRST.isoformat(), "--to", LAST.isoformat(), *wh])
    assert by_code.exit_code == 0, by_code.output  # --property: the PMS code (issue 13)
    assert "property ROMA01" in by_code.output
    unknown = runner.invoke(main, ["reconcile", "--property", "PARIS01", *wh])
    assert unknown.exit_code == 1
    assert "property PARIS01 is not in the warehouse: it holds ROMA01 (1)" in unknown.output
    assert re.search(r"^\s+matched\s+\d+\s+\d+\.\d\d$", ok.output, re.MULTILINE)
    later = LAST + timedelta(days=2)
    refused = runner.invoke(main, ["reconcile", "--date", later.isoformat(), *wh])
    assert refused.exit_code == 1
    assert f"business date {later} is not closed in the warehouse" in refused.output
    both = runner.invoke(main, ["reconcile", "--date", FIRST.isoformat(), "--from",
                                FIRST.isoformat(), "--to", LAST.isoformat(), *wh])
    assert both.exit_code == 2
    assert "not both" in both.output
    bad = runner.invoke(main, ["reconcile", "--date", "2026-13-01", *wh])
    assert bad.exit_code == 2  # one line naming the option, as every pmsw command (issue 13)
    assert bad.output.strip().splitlines() == [
        "Error: Invalid value for '--date': '2026-13-01' is not a date: use YYYY-MM-DD, e.g. "
        "2026-03-01 (see --help)"]
    apply_without_api = runner.invoke(main, ["reconcile", "--apply", *wh])
    assert apply_without_api.exit_code == 1
    assert "PMS_API_BASE_URL" in apply_without_api.output
