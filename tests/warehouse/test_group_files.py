"""The group layout's pieces that need no sandbox (issue 51; docs/scaling.md, "A group: one
file per property"): where each property's writer goes, what a writer given the directory
says, what the group's Dagster instance settings hold, a reader of two members, and a
member's writer killed inside its transaction.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from datetime import date
from decimal import Decimal
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from pipelines.defs.resources import WarehouseResource
from pipelines.warehouse import (
    WarehouseError,
    WarehouseMissingError,
    connect,
    open_read_copy,
    publish,
)
from pipelines.warehouse.command.warehouse import info_facts

REPO = Path(__file__).resolve().parents[2]


def _member(group: Path, code: str, pid: int, business_date: date) -> None:
    with connect(group / f"{code}.duckdb") as conn:
        conn.execute("INSERT INTO core.property (property_id, code, name, currency, "
                     "business_date, timezone, last_seen_run, fetched_at) VALUES "
                     "(?, ?, ?, 'EUR', ?, 'Europe/Rome', 'r1', now())",
                     [pid, code, f"Hotel {code}", business_date])
        publish(conn, group / f"{code}.duckdb")


def test_a_writer_opens_its_propertys_file_and_never_the_directory(tmp_path: Path) -> None:
    group = tmp_path / "group"
    group.mkdir()
    resource = WarehouseResource(path=str(group))
    assert resource.grouped()
    assert resource.file("GRP001") == group / "GRP001.duckdb"
    with pytest.raises(WarehouseError, match="is a group directory"):
        resource.file()
    with pytest.raises(WarehouseError, match="is a group directory"):
        connect(group)
    with pytest.raises(WarehouseError, match="cannot name a file"):
        resource.file("../x")
    with resource.connect("GRP001") as conn:  # created and migrated where the writer goes
        assert conn.execute("SELECT count(*) FROM core.property").fetchone() == (0,)
    assert sorted(p.name for p in group.iterdir()) == ["GRP001.duckdb"]
    single = WarehouseResource(path=str(tmp_path / "one.duckdb"))
    assert not single.grouped()
    assert single.file("GRP001") == tmp_path / "one.duckdb"


def test_the_group_reads_every_published_member_as_one(tmp_path: Path) -> None:
    group = tmp_path / "group"
    group.mkdir()
    with pytest.raises(WarehouseMissingError, match="no read copy in the group"):
        open_read_copy(group)
    _member(group, "GRP001", 901, date(2026, 3, 1))
    _member(group, "GRP002", 902, date(2026, 3, 2))
    connect(group / "GRP003.duckdb").close()  # a member whose first run has not published
    with open_read_copy(group) as conn:
        assert conn.execute("SELECT property_id, code, business_date FROM core.property "
                            "ORDER BY 1").fetchall() == [
            (901, "GRP001", date(2026, 3, 1)), (902, "GRP002", date(2026, 3, 2))]
        # the departments are the same in each member: read once, not once per member
        assert conn.execute("SELECT count(*) FROM mart.departments").fetchone() == \
            conn.execute("SELECT count(DISTINCT department) FROM mart.departments").fetchone()
        # a publish after the reader opened does not change what it reads
        _member(group, "GRP004", 904, date(2026, 3, 4))
        assert conn.execute("SELECT count(*) FROM core.property").fetchone() == (2,)
    with open_read_copy(group) as again:
        assert again.execute("SELECT count(*) FROM core.property").fetchone() == (3,)
    facts = info_facts(group)  # `pmsw warehouse info --warehouse DIR`
    assert facts["error"] is None
    assert facts["read_copy"] == f"{group}/<CODE>.read.duckdb (3 of 4 members published)"
    assert facts["read_copy_bytes"] == sum(
        (group / f"GRP00{n}.read.duckdb").stat().st_size for n in (1, 2, 4))


def test_the_group_instance_runs_one_run_per_property_at_a_time(tmp_path: Path) -> None:
    shutil.copy(REPO / "dagster.group.yaml", tmp_path / "dagster.yaml")
    with dg.DagsterInstance.from_config(str(tmp_path)) as instance:
        config = instance.get_concurrency_config()
        assert config.pool_config.default_pool_limit is not None
        assert config.pool_config.default_pool_limit > 1  # not one writer for the group
        assert config.run_queue_config is not None
        # the daemon's run queue (the instance's QueuedRunCoordinator): a 50-property group's
        # runs all at once, not Dagster's default 10 (dagster.group.yaml says why)
        assert isinstance(instance.run_coordinator, dg.QueuedRunCoordinator)
        assert config.run_queue_config.max_concurrent_runs == 50
        assert config.run_queue_config.tag_concurrency_limits == [
            {"key": "dagster/partition", "value": {"applyLimitPerUniqueValue": True},
             "limit": 1}]


KILLED = """
import sys, time
from pathlib import Path
from pipelines.warehouse import connect, transaction

member, ready = sys.argv[1:3]
conn = connect(member)
with transaction(conn):
    conn.execute("UPDATE core.property SET business_date = DATE '2026-03-09'")
    conn.execute("INSERT INTO core.property (property_id, code, name, currency, business_date, "
                 "timezone, last_seen_run, fetched_at) VALUES (999, 'HALF', 'Half', 'EUR', "
                 "DATE '2026-03-09', 'Europe/Rome', 'r2', now())")
    Path(ready).write_text("in the transaction")
    time.sleep(600)
"""


def test_a_member_killed_mid_write_leaves_nothing_visible(tmp_path: Path) -> None:
    """One property's writer killed (SIGKILL) inside its transaction: the group's readers and
    that member's next writer see its last commit, the other member is untouched."""
    group = tmp_path / "group"
    group.mkdir()
    _member(group, "GRP001", 901, date(2026, 3, 1))
    _member(group, "GRP002", 902, date(2026, 3, 2))
    ready = tmp_path / "ready"
    child = subprocess.Popen([sys.executable, "-c", KILLED, str(group / "GRP001.duckdb"),
                              str(ready)], cwd=REPO)
    try:
        deadline = time.monotonic() + 240
        while not ready.exists():
            assert child.poll() is None, "the writer ended before its transaction"
            assert time.monotonic() < deadline, "the writer never reached its transaction"
            time.sleep(0.1)
        with open_read_copy(group) as during:  # a reader while the write is under way: never waits
            assert during.execute("SELECT code, business_date FROM core.property ORDER BY 1"
                                  ).fetchall() == [("GRP001", date(2026, 3, 1)),
                                                   ("GRP002", date(2026, 3, 2))]
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL
    with connect(group / "GRP001.duckdb") as conn:  # the next writer of that property
        assert conn.execute("SELECT property_id, business_date FROM core.property").fetchall() \
            == [(901, date(2026, 3, 1))]
    with open_read_copy(group) as after:
        assert after.execute("SELECT code, business_date FROM core.property ORDER BY 1"
                             ).fetchall() == [("GRP001", date(2026, 3, 1)),
                                              ("GRP002", date(2026, 3, 2))]


def test_the_budget_asset_on_a_group_writes_each_property_its_own_file(tmp_path: Path) -> None:
    """Dagster's `mart/budget_monthly` with the warehouse resource on a directory: the file
    checked whole first (a property of no member fails the run in one line, nothing written),
    then each property's rows in its own file and read copy."""
    from pipelines.defs.forecast.budget import budget_monthly

    group = tmp_path / "group"
    group.mkdir()
    _member(group, "GRP001", 901, date(2026, 3, 1))
    _member(group, "GRP002", 902, date(2026, 3, 2))
    good, bad = tmp_path / "budget.csv", tmp_path / "bad.csv"
    good.write_text("property,month,rooms_sold,room_revenue_net\nGRP001,2026-04,1500,150000\n"
                    "grp002,2026-04,700,63000.5\nGRP002,2026-05,720,64800\n", encoding="utf-8")
    bad.write_text(good.read_text(encoding="utf-8") + "GRP003,2026-04,1,1\n", encoding="utf-8")

    def run(file: Path) -> dg.ExecuteInProcessResult:
        return dg.materialize(
            [budget_monthly], resources={"warehouse": WarehouseResource(path=str(group))},
            run_config={"ops": {"mart__budget_monthly": {"config": {"file": str(file)}}}},
            raise_on_error=False)

    before = {p.name: p.stat().st_mtime_ns for p in group.iterdir()}
    failed = run(bad)
    assert not failed.success
    assert {p.name: p.stat().st_mtime_ns for p in group.iterdir()} == before
    assert run(good).success
    held = {}
    for code in ("GRP001", "GRP002"):
        with duckdb.connect(str(group / f"{code}.read.duckdb"), read_only=True) as copy:
            held[code] = copy.execute("SELECT property_id, month, budget_rooms_sold, "
                                      "budget_room_revenue_net FROM mart.budget_monthly "
                                      "ORDER BY ALL").fetchall()
    assert held == {
        "GRP001": [(901, date(2026, 4, 1), 1500, Decimal("150000.00"))],
        "GRP002": [(902, date(2026, 4, 1), 700, Decimal("63000.50")),
                   (902, date(2026, 5, 1), 720, Decimal("64800.00"))]}
