"""Everything else on the group layout (issue 51): the commands other than `pmsw sync` on a
warehouse given as a directory (one file a property, docs/scaling.md "A group: one file per
property"), over real HTTP on two hotels of the sandbox's group.

A writer for property P opens DIR/<P>.duckdb and publishes only P's read copy: `pmsw reconcile
--property P` (dry run, apply, `--backlog`, `--close`), Dagster's close (its sensor and the
job `reconcile` in process), the app's resolve form, `pmsw budget import` (each property's
rows in its own file), `pmsw warehouse publish`. A command that needs a property and is given
none is refused in one line naming --property, and writes nothing. Readers read the group as
one: `pmsw report`, `pmsw warehouse info`, `pmsw export parquet`, `pmsw app`. Figures are held
against the same commands on a single file synced from the same PMS state, served by a second
sandbox (so that the closes of both post): the dry run's counts and amounts, the backlog's and
the close's, the lines the close posted, the worklist, the budget's rows.

The group is synced by `pmsw sync --warehouse DIR --no-marts` (a process a property), the one
file in process by the same ingestion code. 158-336 s on 2 cores at a load of 18-30 (the
simulation 28-43 s of it; 71 s of CPU in the test's processes), 2026-11-29; the backlog and
closes add 12.5 s, 4.1 CPU-s (load 15, 2026-12-06).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import ExitStack, closing
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import dagster as dg
import duckdb
import httpx
import pytest
from click.testing import CliRunner

from pipelines.cli import main
from pipelines.ingest import Endpoint, SyncSettings, sync_property
from pipelines.warehouse import connect, publish
from sandbox.http.server import serving_simulation
from sandbox.seed import GROUP_FIRST_ID, group_code, group_key
from sandbox.simulator.params import PosParams, SimParams
from sandbox.simulator.run import simulate_database
from tests.app.conftest import running_app, tables
from tests.pipeline.helpers import UNLIMITED, pmsw, write_properties

NUMBERS = (1, 2)
"""Hotels 1 and 2 of the sandbox's group (80 and 40 rooms)."""
CODES = [group_code(n) for n in NUMBERS]
IDS = tuple(GROUP_FIRST_ID + n - 1 for n in NUMBERS)
START, DAYS = date(2025, 5, 1), 4
FIRST, LAST = START, START + timedelta(days=DAYS - 2)
"""The business dates reconciled: every day played but the last, still open."""
PARAMS = replace(SimParams(), warmup_days=21, pos=replace(PosParams(), drop_share=0.06))
"""Six postings in a hundred lost (tests/lost_postings.py): charges for the run to find."""


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("group_commands")
    db, pos = folder / "group.sqlite", folder / "pos"
    report = simulate_database(str(db), days=DAYS, seed=35, start=START, group=len(NUMBERS),
                               params=PARAMS, property_ids=IDS, pos_export=pos)
    assert report.failures == {}
    return db, pos


def _env(tmp_path: Path, base_url: str, pos: Path) -> dict[str, str]:
    variables = {code: f"KEY_{code}" for code in CODES}
    written = write_properties(tmp_path / "properties.yaml", base_url, codes=variables)
    return {"PMSW_PROPERTIES_FILE": str(written), "PMS_POS_LEDGER_DIR": str(pos),
            "BASE_URL": base_url,
            **{variables[group_code(n)]: group_key(n) for n in NUMBERS}}


def _cli(args: list[str], env: dict[str, str], code: int = 0) -> str:
    """`pmsw ARGS` in this process (click's runner); its stdout, or its stderr when it fails."""
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == code, (args, result.output, result.stderr)
    return result.stdout if code == 0 else result.stderr


def _json(args: list[str], env: dict[str, str]) -> Any:
    return json.loads(_cli([*args, "--format", "json"], env))


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file of the folder: size and time written (a read copy's generations as its link,
    which names the one just published)."""
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.endswith((".read.duckdb.a", ".read.duckdb.b"))}


def _rows(file: Path, sql: str) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(file), read_only=str(file) != ":memory:") as conn:
        return conn.execute(sql).fetchall()


def _counts(run: dict[str, Any]) -> dict[str, tuple[int, Decimal]]:
    return {status: (figures["charges"], Decimal(str(figures["amount"])))
            for status, figures in run["statuses"].items()}


BUDGET_SQL = ("SELECT property_id, month, segment, budget_rooms_sold, budget_room_revenue_net, "
              "budget_food_beverage_revenue_net, budget_other_revenue_net "
              "FROM mart.budget_monthly ORDER BY ALL")


def _sync_one_file(single: Path, env: dict[str, str]) -> None:
    """Both properties synced into one file by the ingestion code `pmsw sync` runs (the
    streams in process, without Dagster's start), then its read copy published."""
    with connect(single) as conn:
        for number, code in zip(NUMBERS, CODES, strict=True):
            endpoint = Endpoint(code, env["BASE_URL"], group_key(number), UNLIMITED, UNLIMITED,
                                Path(env["PMS_POS_LEDGER_DIR"]))
            sync_property(endpoint, conn, f"single-{code}", SyncSettings())
        publish(conn, single)


@pytest.fixture
def sandbox_env(simulated: tuple[Path, Path], tmp_path: Path
                ) -> Iterator[tuple[dict[str, str], dict[str, str]]]:
    """Two sandboxes serving the same simulated PMS, the group's and the single file's: what
    one side posts, the other side's PMS does not hold (the closes below are compared)."""
    db, pos = simulated
    with ExitStack() as stack:
        envs = []
        for side in ("group", "single"):
            folder = tmp_path / f"pms-{side}"
            folder.mkdir()
            shutil.copy(db, folder / "pms.sqlite")
            served = stack.enter_context(
                serving_simulation(folder / "pms.sqlite", UNLIMITED, UNLIMITED))
            envs.append(_env(folder, served.base_url, pos))
        yield envs[0], envs[1]


def _lines(env: dict[str, str], property_id: int) -> list[tuple[Any, ...]]:
    """Every folio line of the property in the PMS behind `env` (the sandbox's database)."""
    pms = Path(env["PMSW_PROPERTIES_FILE"]).with_name("pms.sqlite")
    with closing(sqlite3.connect(pms)) as conn:
        return conn.execute(
            "SELECT l.folio_id, l.posted_on, l.description, l.service_item_id, l.quantity, "
            "l.total_cents FROM folio_lines l JOIN folios f ON f.id = l.folio_id "
            "WHERE f.property_id = ? ORDER BY 1, 2, 3, 4, 5, 6", [property_id]).fetchall()


def _closes_and_backlog(group: Path, single: Path, env: dict[str, str],
                        single_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The daily close and the backlog of the second property on the group: its own file
    only, the single file's figures, the close run twice (the CLI, then Dagster's job as its
    sensor asks it) posting each charge once."""
    from pipelines.defs.partitions import instance_with
    from pipelines.defs.recon.jobs import reconcile_close_sensor, reconcile_folios
    from pipelines.defs.resources import PmsApiResource, WarehouseResource

    other = CODES[1]
    span = ["--from", str(FIRST), "--to", str(LAST), "--chunk-days", "2"]

    def statuses(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith("  ")]

    # --backlog: the property's file alone, the single file's figures; again, nothing redone.
    before = _files(group)
    backlog = _cli(["reconcile", "--property", other, "--backlog", *span,
                    "--warehouse", str(group)], env)
    assert "2 chunks of 2 days, 2 run now" in backlog, backlog
    assert statuses(backlog) == statuses(_cli(
        ["reconcile", "--property", other, "--backlog", *span, "--warehouse", str(single)],
        single_env))
    after = _files(group)
    assert {name for name in after if after[name] != before.get(name)} == {
        f"{other}.duckdb", f"{other}.read.duckdb"}
    again = _cli(["reconcile", "--property", other, "--backlog", *span,
                  "--warehouse", str(group)], env)
    assert "0 run now (runs none), 2 done before" in again, again
    assert statuses(again) == statuses(backlog)

    # Dagster's close sensor on the group reads each member's read copy: a close a property.
    resources = {"pms": PmsApiResource(properties_file=env["PMSW_PROPERTIES_FILE"]),
                 "warehouse": WarehouseResource(path=str(group))}
    for name, value in env.items():
        monkeypatch.setenv(name, value)  # the keys, for the run in this process
    with instance_with(CODES) as instance:
        with dg.build_sensor_context(resources=resources, instance=instance) as context:
            sensed = reconcile_close_sensor(context)
        assert isinstance(sensed, dg.SensorResult)
        requests = {r.partition_key: r for r in sensed.run_requests or []}
        assert sorted(requests) == CODES

        # The close by the CLI: the property's file alone, the single file's runs and lines.
        pid, before = IDS[1], _files(group)
        had = _lines(env, pid)
        assert had == _lines(single_env, pid)
        closed = _json(["reconcile", "--property", other, "--close", "--warehouse", str(group)],
                       env)
        alone = _json(["reconcile", "--property", other, "--close", "--warehouse", str(single)],
                      single_env)
        assert closed["closed"]["posted"]["charges"] > 0
        assert closed["pre_departure"] is not None
        for part in ("closed", "pre_departure"):
            assert _counts(closed[part]) == _counts(alone[part])
            assert closed[part]["posted"] == alone[part]["posted"]
        after = _files(group)
        assert {name for name in after if after[name] != before.get(name)} == {
            f"{other}.duckdb", f"{other}.read.duckdb"}
        posted = _lines(env, pid)
        assert posted == _lines(single_env, pid)
        assert len(posted) - len(had) == sum(
            closed[part]["posted"]["charges"] for part in ("closed", "pre_departure"))

        # The close again, by Dagster's job on the group as the sensor asked: nothing posted.
        before = _files(group)
        done = dg.materialize([reconcile_folios], resources=resources, instance=instance,
                              partition_key=other,
                              run_config=requests[other].run_config)
        assert done.success
        [materialized] = done.asset_materializations_for_node("reconcile_folios")
        facts = {k: v.value for k, v in materialized.metadata.items()}
        assert (facts["mode"], facts["property"], facts["posted_count"],
                facts["pre_departure_posted"]) == ("close", other, 0, 0)
        assert _lines(env, pid) == posted
        after = _files(group)
        assert {name for name in after if after[name] != before.get(name)} == {
            f"{other}.duckdb", f"{other}.read.duckdb"}
    assert _rows(group / f"{other}.read.duckdb", "SELECT mode, count(*) FROM recon.runs "
                 "GROUP BY ALL ORDER BY ALL") == [("apply", 4), ("dry_run", 2)]


@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_a_groups_writers_write_each_property_its_own_file_and_readers_read_it_as_one(
        sandbox_env: tuple[dict[str, str], dict[str, str]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    env, single_env = sandbox_env
    group, single = tmp_path / "group", tmp_path / "single.duckdb"
    group.mkdir()
    synced = pmsw(["sync", "--no-progress", "--no-marts", "--warehouse", str(group)], env,
                  timeout=1200)  # one process a property, each into its own file
    assert synced.returncode == 0, synced.stderr[-3000:]
    _sync_one_file(single, single_env)  # the same PMS state in one file, both properties
    one, other = CODES
    span = ["--from", str(FIRST), "--to", str(LAST)]

    # A writer with no property on a group: one line naming --property, nothing written.
    before = _files(group)
    said = _cli(["reconcile", *span, "--warehouse", str(group)], env, code=1)
    assert said.strip().endswith("name the property with --property"), said
    assert len(said.strip().splitlines()) == 1
    said = _cli(["reconcile", "--property", "GRP099", *span, "--warehouse", str(group)], env,
                code=1)
    assert f"property GRP099 has no file in the group {group} (members: {one}, {other})" in said
    assert _files(group) == before

    # The dry run of one property: its own file and read copy only, the single file's figures.
    dry = _json(["reconcile", "--property", one, *span, "--warehouse", str(group)], env)
    alone = _json(["reconcile", "--property", one, *span, "--warehouse", str(single)], env)
    assert _counts(dry) == _counts(alone)
    assert dry["statuses"]["missing"]["charges"] > 0  # lost postings for the apply to post
    after = _files(group)
    changed = {name for name in after if after[name] != before.get(name)}
    assert changed == {f"{one}.duckdb", f"{one}.read.duckdb"}, changed
    assert _rows(group / f"{other}.read.duckdb", "SELECT count(*) FROM recon.runs") == [(0,)]

    # Readers read the group: the report of each property equals the single file's.
    work = _json(["report", "worklist", "--property", one, "--state", "all",
                  "--warehouse", str(group)], env)
    assert work["rows"], "the dry run left no charge that cannot be posted"
    assert work["rows"] == _json(["report", "worklist", "--property", one, "--state", "all",
                                  "--warehouse", str(single)], env)["rows"]
    runs = _json(["report", "reconciliation", "--property", one, *span,
                  "--warehouse", str(group)], env)
    assert [r["run_id"] for r in runs["rows"]] == [dry["run_id"]]

    # The app on the group: the worklist page is the report; a resolution from its form is
    # written to that property's file alone.
    with running_app(group, tmp_path / "app.log") as url:
        shown = tables(httpx.get(f"{url}/worklist?property={one}&state=all",
                                 timeout=60).text)["report"]
        assert [r["item"] for r in shown.body] == [r["item"] for r in work["rows"]]
        item = work["rows"][0]["item"]
        before = _files(group)
        done = httpx.post(f"{url}/worklist/resolve", timeout=120, data={
            "property": one, "item": item, "state": "written_off", "note": "group test",
            "by": "anna"})
        assert done.status_code == 303, done.text[-2000:]
        after = _files(group)
        assert {name for name in after if after[name] != before.get(name)} == {
            f"{one}.duckdb", f"{one}.read.duckdb"}
    resolved = _json(["report", "worklist", "--property", one, "--state", "all",
                      "--warehouse", str(group)], env)
    assert [(r["state"], r["resolved_by"]) for r in resolved["rows"] if r["item"] == item] == [
        ("written_off", "anna")]

    # The apply of one property posts what the dry run found missing, in its own file.
    before = _files(group)
    applied = _json(["reconcile", "--property", one, *span, "--apply",
                     "--warehouse", str(group)], env)
    assert applied["posted"]["charges"] == dry["statuses"]["missing"]["charges"]
    assert _counts(applied)["posted"] == _counts(dry)["missing"]
    after = _files(group)
    assert {name for name in after if after[name] != before.get(name)} == {
        f"{one}.duckdb", f"{one}.read.duckdb"}
    assert _rows(group / f"{one}.read.duckdb",
                 "SELECT mode FROM recon.runs ORDER BY run_id") == [("dry_run",), ("apply",)]

    # The budget: checked whole, then each property's rows in its own file; a bad file is
    # refused in one line naming the row and field and writes nothing.
    budget = tmp_path / "budget.csv"
    budget.write_text("property,month,rooms_sold,room_revenue_net\n"
                      f"{one},2025-06,1800,216000.00\n{one},2025-07,1900,247000.50\n"
                      f"{other},2025-06,900,81000\n", encoding="utf-8")
    bad = tmp_path / "bad.csv"
    bad.write_text(budget.read_text(encoding="utf-8") + "GRP099,2025-06,10,100\n",
                   encoding="utf-8")
    before = _files(group)
    said = _cli(["budget", "import", str(bad), "--warehouse", str(group)], env, code=1)
    assert "row 5, field property" in said, said
    assert len(said.strip().splitlines()) == 1, said
    assert _files(group) == before
    for target in (group, single):
        assert "3 budget rows imported (3 property-months replaced)" in _cli(
            ["budget", "import", str(budget), "--warehouse", str(target)], env)
    held = {code: _rows(group / f"{code}.read.duckdb", BUDGET_SQL) for code in CODES}
    assert [(r[0], str(r[1]), r[3], r[4]) for r in held[one]] == [
        (IDS[0], "2025-06-01", 1800, Decimal("216000.00")),
        (IDS[0], "2025-07-01", 1900, Decimal("247000.50"))]
    assert [(r[0], r[3], r[4]) for r in held[other]] == [(IDS[1], 900, Decimal("81000.00"))]
    assert held[one] + held[other] == _rows(single.with_name("single.read.duckdb"), BUDGET_SQL)

    # `pmsw warehouse publish` publishes each member (or the one named); info tells the group.
    published = _cli(["warehouse", "publish", "--warehouse", str(group)], env)
    assert [line.split()[1] for line in published.splitlines()] == [
        str(group / f"{code}.read.duckdb") for code in CODES]
    before = _files(group)
    _cli(["warehouse", "publish", "--property", other, "--warehouse", str(group)], env)
    after = _files(group)
    assert {name for name in after if after[name] != before.get(name)} == {
        f"{other}.duckdb", f"{other}.read.duckdb"}
    info = _json(["warehouse", "info", "--warehouse", str(group)], env)
    assert info["error"] is None
    assert [p["code"] for p in info["properties"]] == CODES
    parts = {p["code"]: {r["part"] for r in p["runs"]} for p in info["properties"]}
    assert "reconciliation" in parts[one]
    assert "reconciliation" not in parts[other]

    # `pmsw export parquet` of the group: every member's rows, partitioned by property.
    out = tmp_path / "parquet"
    _cli(["export", "parquet", str(out), "--warehouse", str(group)], env)
    assert sorted(p.name for p in (out / "budget_monthly").iterdir()) == [
        f"property_id={pid}" for pid in IDS]
    assert _rows(Path(":memory:"), f"SELECT count(*) FROM read_parquet("
                 f"'{out}/recon/runs/*/*.parquet')") == [(2,)]
    assert os.listdir(out / "recon" / "runs") == [f"property_id={IDS[0]}"]
    # The export after a member's publish (PMSW_EXPORT_PARQUET) replaces that member's
    # partitions only: the other member's stay.
    kept = (out / "recon" / "runs" / f"property_id={IDS[0]}" / "data_0.parquet").read_bytes()
    _cli(["warehouse", "publish", "--property", other, "--warehouse", str(group)],
         {**env, "PMSW_EXPORT_PARQUET": str(out)})
    assert sorted(p.name for p in (out / "budget_monthly").iterdir()) == [
        f"property_id={pid}" for pid in IDS]
    assert (out / "recon" / "runs" / f"property_id={IDS[0]}" / "data_0.parquet"
            ).read_bytes() == kept
    assert _rows(Path(":memory:"), f"SELECT property_id, budget_rooms_sold FROM read_parquet("
                 f"'{out}/budget_monthly/*/*.parquet', hive_partitioning = true) "
                 "ORDER BY ALL") == [(IDS[0], 1800), (IDS[0], 1900), (IDS[1], 900)]

    _closes_and_backlog(group, single, env, single_env, monkeypatch)
