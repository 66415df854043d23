"""A real Dagster daemon on a group directory (issue 51, item 3; docs/scaling.md, "A group:
one file per property"): one run per property partition, concurrently, never two of one.

`dagster-daemon run -w workspace.yaml` (the real definitions, pipelines.definitions, served by
the code server the daemon starts) with a temporary DAGSTER_HOME whose dagster.yaml is the
shipped dagster.group.yaml, PMSW_WAREHOUSE a directory, two hotels of the sandbox's group over
HTTP on loopback. The definitions' own `properties_sensor` adds the two partitions; the
`pms_events_sensor`, started with `dagster sensor start`, requests one run per property (the
whole event backlog read in one tick, each run in one process: `ONE_PROCESS`); a second run
of hotel 1 is launched with `dagster job launch` while its first is in progress.

To make "while its first is in progress" certain rather than a matter of speed, the test
holds hotel 1's file open read-write (DuckDB's lock: the run's steps wait for it in
pipelines.warehouse.connect) until hotel 2's run has ended and the second run of hotel 1 has
been seen queued. Then it lets go. From the run records: hotel 2's run started and ended
while hotel 1's first was in progress (different properties at once), the second of hotel 1
started only after its first ended (the run queue's limit on `dagster/partition`), all three
succeeded, each file holds its own property only, equal to the API, with its read copy.

Several minutes under load (three runs of every step of `pms_sync`, a process each, plus the
daemon, the code server and the CLI): `make verify`.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import dagster as dg
import duckdb
import pytest

from pipelines.defs.automation import ONE_PROCESS
from pipelines.warehouse import connect
from sandbox.http.server import RunningSandbox, serving_simulation
from sandbox.seed import GROUP_FIRST_ID, group_code, group_key
from sandbox.simulator.params import SimParams
from sandbox.simulator.run import simulate_database

from .helpers import REPO, UNLIMITED, Api, assert_core_equals_api, write_properties

NUMBERS = range(1, 3)
"""Hotels 1 and 2 of the sandbox's group (80 and 40 rooms)."""
CODES = [group_code(n) for n in NUMBERS]
BIN = Path(sys.executable).parent
FINISHED = {dg.DagsterRunStatus.SUCCESS, dg.DagsterRunStatus.FAILURE,
            dg.DagsterRunStatus.CANCELED}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSandbox]:
    db = tmp_path_factory.mktemp("group_daemon") / "group.sqlite"
    report = simulate_database(str(db), days=3, seed=51, group=len(NUMBERS),
                               params=replace(SimParams(), warmup_days=30),
                               property_ids=tuple(GROUP_FIRST_ID + n - 1 for n in NUMBERS))
    assert report.failures == {}
    with serving_simulation(db, UNLIMITED, UNLIMITED) as sandbox:
        yield sandbox


def _until(what: str, done: Callable[[], bool], log: Path, seconds: float = 900) -> None:
    """Wait until `done()`; fail naming `what`, with the daemon's last lines, past `seconds`."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not seen in {seconds:.0f} s; daemon log:\n"
                        + log.read_text(errors="replace")[-4000:])
        time.sleep(1)


def _cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(BIN / "dagster"), *args, "-w", "workspace.yaml"], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return done


def _runs(instance: dg.DagsterInstance) -> list[Any]:
    """The run records of `pms_sync`, oldest first."""
    return sorted(instance.get_run_records(dg.RunsFilter(job_name="pms_sync")),
                  key=lambda r: r.create_timestamp)


def _stop(daemon: subprocess.Popen[bytes]) -> None:
    """Stop the daemon and its session (the code server, run workers), SIGKILL past 60 s."""
    try:
        os.killpg(daemon.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        daemon.poll()
        try:
            os.killpg(daemon.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.5)
    os.killpg(daemon.pid, signal.SIGKILL)
    daemon.wait(timeout=60)


@pytest.mark.verify
@pytest.mark.timeout(1800)
def test_the_daemon_runs_each_property_at_once_and_one_run_of_a_property_at_a_time(
        served: RunningSandbox, tmp_path: Path) -> None:
    home, group = tmp_path / "dagster_home", tmp_path / "group"
    home.mkdir()
    group.mkdir()
    shutil.copy(REPO / "dagster.group.yaml", home / "dagster.yaml")
    variables = {code: f"KEY_{code}" for code in CODES}
    properties = write_properties(tmp_path / "properties.yaml", served.base_url,
                                  codes=variables)
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("PMS_", "PMSW_", "DAGSTER_"))}
    env = {**clean, "DAGSTER_HOME": str(home), "PMSW_WAREHOUSE": str(group),
           "PMSW_PROPERTIES_FILE": str(properties), "PMSW_WAREHOUSE_WAIT": "1500",
           **{variables[group_code(n)]: group_key(n) for n in NUMBERS}}
    first, second = CODES
    held = connect(group / f"{first}.duckdb")  # hotel 1's file, held until let go below
    log = tmp_path / "daemon.log"
    with log.open("w") as out:
        daemon = subprocess.Popen([str(BIN / "dagster-daemon"), "run", "-w", "workspace.yaml"],
                                  cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    instance = dg.DagsterInstance.from_config(str(home))
    try:
        _until("the two property partitions (properties_sensor)",
               lambda: sorted(instance.get_dynamic_partitions("properties")) == sorted(CODES),
               log)
        _cli(["sensor", "start", "pms_events_sensor"], env)
        _until("one run per property requested by pms_events_sensor",
               lambda: sorted(r.dagster_run.tags.get("dagster/partition", "")
                              for r in _runs(instance)) == sorted(CODES), log)
        by_code = {r.dagster_run.tags["dagster/partition"]: r.dagster_run.run_id
                   for r in _runs(instance)}
        for record in _runs(instance):  # the sensor's, each in its own one process
            assert "dagster/sensor_name" in record.dagster_run.tags
            assert record.dagster_run.run_config == ONE_PROCESS

        def status(run_id: str) -> dg.DagsterRunStatus:
            run = instance.get_run_by_id(run_id)
            assert run is not None
            return run.status

        _until(f"{first}'s first run started",
               lambda: status(by_code[first]) == dg.DagsterRunStatus.STARTED, log)
        _cli(["job", "launch", "-j", "pms_sync", "--config-json", json.dumps(ONE_PROCESS),
              "--tags", json.dumps({"dagster/partition": first})], env)
        again = _runs(instance)[-1].dagster_run
        assert again.tags["dagster/partition"] == first
        assert again.run_id not in by_code.values()
        _until(f"{second}'s run ended", lambda: status(by_code[second]) in FINISHED, log)
        # The queue has had every dequeue since the launch to start the second run of
        # hotel 1, and has not: its first is still in progress.
        assert status(by_code[first]) == dg.DagsterRunStatus.STARTED
        assert status(again.run_id) == dg.DagsterRunStatus.QUEUED
        held.close()  # let hotel 1's first run write its file
        _until("every run ended",
               lambda: all(status(r.dagster_run.run_id) in FINISHED
                           for r in _runs(instance)), log, seconds=1500)
        records = {r.dagster_run.run_id: r for r in _runs(instance)}
    finally:
        held.close()
        _stop(daemon)
        instance.dispose()

    assert len(records) == 3, sorted(records)
    assert {rid: r.dagster_run.status for rid, r in records.items()} == dict.fromkeys(
        records, dg.DagsterRunStatus.SUCCESS), log.read_text()[-4000:]
    one, two, three = (records[by_code[first]], records[by_code[second]],
                       records[again.run_id])
    # Different properties at once: hotel 2's run lay inside hotel 1's first.
    assert one.start_time < two.start_time < two.end_time < one.end_time, (one, two)
    # One property one run at a time: the second of hotel 1 was asked while its first ran
    # and started after it ended.
    assert three.create_timestamp.timestamp() < one.end_time
    assert three.start_time >= one.end_time, (one, three)
    for number in NUMBERS:  # each file: its own property only, equal to the API, published
        code, pid = group_code(number), GROUP_FIRST_ID + number - 1
        assert (group / f"{code}.read.duckdb").is_file()
        with duckdb.connect(str(group / f"{code}.duckdb"), read_only=True) as conn, \
                Api(served.base_url, group_key(number)) as api:
            assert conn.execute("SELECT DISTINCT property_id FROM core.reservations"
                                ).fetchall() == [(pid,)]
            assert assert_core_equals_api(conn, api, pid, guests=False)["reservations"] > 50
    load = os.getloadavg()
    print(f"\ngroup under dagster-daemon, load {load[0]:.1f}: "
          f"{first} first run {one.end_time - one.start_time:.0f} s (held), "
          f"{second} run {two.end_time - two.start_time:.0f} s, {first} second run "
          f"{three.end_time - three.start_time:.0f} s, queued "
          f"{three.start_time - three.create_timestamp.timestamp():.0f} s")
