"""The group layout (issue 51): a warehouse directory holding one DuckDB file per property.

`pmsw sync --warehouse DIR` runs each property in its own process into DIR/<CODE>.duckdb, at
the same time; each publishes its own read copy; a reader opens the group
(pipelines.warehouse.open_read_copy on a directory: every member's read copy attached
read-only, each relation a view over all of them). Checked here on two hotels of the sandbox's
group over HTTP: each file holds its property only, equal to the API; the two runs overlapped
in time; a reader process holding the group open through the next day's parallel runs never
failed a query and kept seeing the day it opened, while a reader opening afterwards sees the
next day; `pmsw report` on the group reads each property. And the Dagster definitions in
process (pipelines.materialize) on a directory: each property's streams, marts, checks and
read copy in its own file (51 s at load 4).

About 10 min at load 10 on 2 cores (four `pmsw sync` processes, each starting Dagster): in
`make verify`; `make test` keeps the layout's pieces (tests/warehouse/test_group_files.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import duckdb
import httpx
import pytest

from pipelines.warehouse import open_read_copy
from sandbox.http.server import RunningSandbox, serving_simulation
from sandbox.seed import GROUP_FIRST_ID, group_code, group_key
from sandbox.simulator.params import SimParams
from sandbox.simulator.run import simulate_database
from tests.stored_rows import stored_rows

from .helpers import REPO, UNLIMITED, Api, assert_core_equals_api, pmsw, write_properties

NUMBERS = range(1, 3)
"""Hotels 1 and 2 of the sandbox's group (80 and 40 rooms)."""
PARAMS = replace(SimParams(), warmup_days=30)

READER = """
import json, sys, time
from pathlib import Path
from pipelines.warehouse import open_read_copy

group, stop, out = sys.argv[1:4]
QUERY = '''SELECT p.code, p.business_date,
    (SELECT count(*) FROM core.reservations r WHERE r.property_id = p.property_id),
    (SELECT count(*) FROM mart.occupancy_daily o WHERE o.property_id = p.property_id)
    FROM core.property p ORDER BY 1'''
held = open_read_copy(group)
first = held.execute(QUERY).fetchall()
Path(out + ".ready").write_text("ready")
queries, errors, held_changed = 0, [], 0
while not Path(stop).exists():
    try:
        if held.execute(QUERY).fetchall() != first:
            held_changed += 1
        fresh = open_read_copy(group)
        fresh.execute(QUERY).fetchall()
        fresh.close()
        queries += 2
    except Exception as error:
        errors.append(repr(error))
    time.sleep(0.05)
json.dump({"first": [[str(v) for v in row] for row in first], "queries": queries,
           "errors": errors, "held_changed": held_changed}, open(out, "w"))
"""


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("group_layout") / "group.sqlite"
    report = simulate_database(str(db), days=3, seed=51, group=len(NUMBERS), params=PARAMS,
                               property_ids=tuple(GROUP_FIRST_ID + n - 1 for n in NUMBERS))
    assert report.failures == {}
    return db


@pytest.fixture
def served(simulated: Path, tmp_path: Path) -> Iterator[RunningSandbox]:
    db = tmp_path / "pms.sqlite"
    shutil.copy(simulated, db)
    with serving_simulation(db, UNLIMITED, UNLIMITED) as sandbox:
        yield sandbox


def _env(tmp_path: Path, base_url: str) -> dict[str, str]:
    variables = {group_code(n): f"KEY_{group_code(n)}" for n in NUMBERS}
    written = write_properties(tmp_path / "properties.yaml", base_url, codes=variables)
    return {"PMSW_PROPERTIES_FILE": str(written),
            **{variables[group_code(n)]: group_key(n) for n in NUMBERS}}


def _span(member: Path) -> tuple[object, object]:
    [row] = stored_rows(member, "SELECT min(started_at), max(ended_at) FROM meta.sync_runs "
                        "WHERE run_id = (SELECT max(run_id) FROM meta.sync_runs)")
    return row[0], row[1]


@pytest.mark.verify
@pytest.mark.timeout(1500)
def test_a_group_directory_syncs_its_properties_in_parallel_files_and_reads_as_one(
        served: RunningSandbox, tmp_path: Path) -> None:
    env = _env(tmp_path, served.base_url)
    group = tmp_path / "group"
    group.mkdir()
    pmsw(["sync", "--no-progress", "--warehouse", str(group)], env, ok=True)
    codes = [group_code(n) for n in NUMBERS]
    assert sorted(p.name for p in group.glob("*.duckdb")) == sorted(
        [f"{c}.duckdb" for c in codes] + [f"{c}.read.duckdb" for c in codes])
    for number in NUMBERS:  # each file: its own property only, equal to the API
        pid = GROUP_FIRST_ID + number - 1
        with duckdb.connect(str(group / f"{group_code(number)}.duckdb"), read_only=True) as conn, \
                Api(served.base_url, group_key(number)) as api:
            held = conn.execute("SELECT DISTINCT property_id FROM core.reservations").fetchall()
            assert held == [(pid,)]
            assert assert_core_equals_api(conn, api, pid, guests=False)["reservations"] > 50
    spans = [_span(group / f"{code}.duckdb") for code in codes]
    assert max(s[0] for s in spans) < min(s[1] for s in spans), spans  # the runs overlapped

    # A reader holds the group open through the next day's runs of both properties.
    stop, out = tmp_path / "stop", tmp_path / "reader.json"
    reader = subprocess.Popen([sys.executable, "-c", READER, str(group), str(stop), str(out)],
                              cwd=REPO)
    try:
        deadline = time.monotonic() + 300
        while not Path(str(out) + ".ready").exists():
            assert reader.poll() is None, "the reader ended before opening the group"
            assert time.monotonic() < deadline, "the reader did not open the group"
            time.sleep(0.2)
        httpx.post(f"{served.root_url}/_sandbox/advance", timeout=300, json={
            "days": 1, "property_ids": [GROUP_FIRST_ID + n - 1 for n in NUMBERS]}
                   ).raise_for_status()
        pmsw(["sync", "--no-progress", "--warehouse", str(group)], env, ok=True)
    finally:
        stop.write_text("stop")
        reader.wait(timeout=120)
    seen = json.loads(out.read_text())
    assert seen["errors"] == [], seen
    assert seen["queries"] > 0, seen
    assert seen["held_changed"] == 0, seen  # the held reader kept the state it opened
    with open_read_copy(group) as now:
        after = now.execute("SELECT code, business_date FROM core.property ORDER BY 1").fetchall()
    before = {row[0]: date.fromisoformat(row[1]) for row in seen["first"]}
    assert sorted(before) == codes
    assert dict(after) == {
        code: day + timedelta(days=1) for code, day in before.items()}

    for code in codes:  # the report of each property, read from the group
        report = pmsw(["report", "occupancy", "--property", code, "--warehouse", str(group),
                       "--format", "json"], env, ok=True)
        assert code in report.stdout


@pytest.mark.verify
@pytest.mark.timeout(1500)
def test_a_dagster_run_over_a_group_directory_writes_each_property_its_own_file(
        served: RunningSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Dagster definitions (pipelines.materialize: the assets, checks and read copy of
    `pmsw sync`, in process) with the warehouse resource on a directory: each property's
    streams, marts, checks and publish go to its own file."""
    from pipelines.ingest import STREAMS
    from pipelines.materialize import materialize

    for name, value in _env(tmp_path, served.base_url).items():
        monkeypatch.setenv(name, value)
    group = tmp_path / "group"
    group.mkdir()
    codes = [group_code(n) for n in NUMBERS]
    runs = materialize(codes, group, list(STREAMS))
    assert [(r.code, r.error) for r in runs] == [(code, None) for code in codes]
    for run in runs:
        assert {n: why for n, (passed, why) in run.checks.items() if not passed} == {}, run
        assert run.marts["occupancy_daily"] > 0, run
    for number in NUMBERS:
        with duckdb.connect(str(group / f"{group_code(number)}.read.duckdb"),
                            read_only=True) as copy:
            assert copy.execute("SELECT DISTINCT property_id FROM mart.occupancy_daily"
                                ).fetchall() == [(GROUP_FIRST_ID + number - 1,)]
            with Api(served.base_url, group_key(number)) as api:
                assert assert_core_equals_api(copy, api, GROUP_FIRST_ID + number - 1,
                                              guests=False)["reservations"] > 50
