"""Compaction of a warehouse file (pipelines.warehouse.compact), on real DuckDB files: the rewrite
keeps every row and definition and shrinks the file, a compaction killed (SIGKILL) at any point
leaves a whole file under the name, `pmsw warehouse compact` on a file and a group, and the
Dagster asset of the weekly upkeep job."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import dagster as dg
import duckdb
import pytest
from click.testing import CliRunner

from pipelines.cli import main
from pipelines.defs.partitions import instance_with
from pipelines.warehouse import (
    compact,
    connect,
    files_of,
    open_read_copy,
    read_copy_path,
    writer,
)

ROWS = 300_000
ROW_GROUP = 122_880
"""DuckDB's rows per row group: a delete frees blocks only where it empties whole row groups."""
KEPT = ROWS - 2 * ROW_GROUP  # the rows of the third row group on


def _fill(path: Path, rows: int = ROWS, deleted_below: int = 2 * ROW_GROUP) -> None:
    """`rows` payloads landed, then those of entity_id below `deleted_below` deleted (what a
    rebuild or a retention does), each committed and checkpointed."""
    with writer(path, publish=False) as conn:
        conn.execute("""
            INSERT INTO raw.payloads
            SELECT 1, 'folios', i, json_object('id', i, 'note', md5(i::VARCHAR)),
                   TIMESTAMPTZ '2026-11-01 00:00:00+00', 'run-' || (i // 1000)
            FROM range($rows) t(i)""", {"rows": rows})
        conn.execute("CHECKPOINT")
        conn.execute("DELETE FROM raw.payloads WHERE entity_id < $below",
                     {"below": deleted_below})
        conn.execute("CHECKPOINT")


def _catalog(conn: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[Any, ...]]]:
    """Every definition of the open database: tables, columns with their comments, views,
    macros, constraints."""
    here = "database_name = current_database()"
    queries = {
        "tables": f"SELECT schema_name, table_name, comment FROM duckdb_tables() WHERE {here}",
        "columns": "SELECT schema_name, table_name, column_name, data_type, is_nullable, "
                   f"column_default, comment FROM duckdb_columns() WHERE {here}",
        "views": "SELECT schema_name, view_name, sql, comment FROM duckdb_views() "
                 f"WHERE NOT internal AND {here}",
        "macros": "SELECT schema_name, function_name, macro_definition FROM duckdb_functions() "
                  f"WHERE function_type LIKE '%macro%' AND {here}",
        "constraints": "SELECT schema_name, table_name, constraint_type, constraint_text "
                       f"FROM duckdb_constraints() WHERE {here}"}
    return {name: conn.execute(f"{sql} ORDER BY ALL").fetchall()
            for name, sql in queries.items()}


def _state(path: Path) -> tuple[int, int, dict[str, list[tuple[Any, ...]]]]:
    """Rows of raw.payloads, a digest of their content, and the catalog of the file."""
    with connect(path, create=False, wait=30) as conn:
        row = conn.execute("SELECT count(*), coalesce(sum(hash(entity_id, payload::VARCHAR, "
                           "run_id)), 0) FROM raw.payloads").fetchone()
        assert row is not None
        return int(row[0]), int(row[1]), _catalog(conn)


def test_a_file_with_free_blocks_is_rewritten_smaller_with_every_row_and_definition(
        db_path: Path) -> None:
    _fill(db_path)
    rows, digest, catalog = _state(db_path)
    assert rows == KEPT
    size = db_path.stat().st_size

    done = compact(db_path, threshold=0.2)

    assert done.rewritten
    # Two of the three row groups were emptied: their blocks are free, most of the file.
    assert done.before.free_share >= 0.5
    assert done.before.file_bytes == size
    assert done.after_bytes == db_path.stat().st_size < size - done.before.free_bytes // 2
    assert _state(db_path) == (KEPT, digest, catalog)
    assert not list(db_path.parent.glob(".*compact*"))
    # The read copy is the compacted file's, and readers open it.
    assert read_copy_path(db_path).stat().st_mtime >= db_path.stat().st_mtime
    with open_read_copy(db_path) as reader:
        assert reader.execute("SELECT count(*) FROM raw.payloads").fetchone() == (KEPT,)

    copied = read_copy_path(db_path).stat().st_mtime_ns
    again = compact(db_path, threshold=0.2)  # nothing free now: nothing written
    assert not again.rewritten
    assert read_copy_path(db_path).stat().st_mtime_ns == copied  # nor published
    assert again.before.free_share < 0.2
    assert again.after_bytes == db_path.stat().st_size == done.after_bytes


def test_below_the_threshold_the_file_is_left_and_forced_it_is_rewritten(db_path: Path) -> None:
    _fill(db_path, deleted_below=ROW_GROUP)  # one row group of three emptied
    before = _state(db_path)
    left = compact(db_path, threshold=0.9)
    assert not left.rewritten
    assert 0 < left.before.free_share < 0.9
    assert not read_copy_path(db_path).exists()  # nothing published either
    forced = compact(db_path, threshold=0.9, force=True)
    assert forced.rewritten
    assert forced.after_bytes < left.before.file_bytes
    assert _state(db_path) == before


def _compact_process(path: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "pipelines.cli", "warehouse", "compact", "--warehouse",
         str(path), "--force"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_a_compaction_killed_midway_leaves_the_old_file_whole_and_the_next_one_cleans_up(
        db_path: Path) -> None:
    _fill(db_path)
    expected = _state(db_path)
    size = db_path.stat().st_size
    child = _compact_process(db_path)
    deadline = time.monotonic() + 120
    temporary: list[Path] = []
    while not temporary and child.poll() is None and time.monotonic() < deadline:
        temporary = list(db_path.parent.glob(f".{db_path.name}.compact-*"))
        time.sleep(0.001)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL
    # Killed while the rewrite was being written: its temporary file is left, the name still
    # the old file, whole.
    assert temporary
    assert temporary[0].exists()
    assert db_path.stat().st_size == size
    assert _state(db_path) == expected

    done = compact(db_path)  # the next compaction removes the leftover and does the work
    assert done.rewritten
    assert not temporary[0].exists()
    assert _state(db_path) == expected


def test_a_writer_arriving_during_a_compaction_waits_and_writes_the_new_file(
        db_path: Path) -> None:
    """The compaction holds the writer's lock from its copy to its rename: a sync arriving
    meanwhile waits, then commits to the compacted file; nothing it writes is lost."""
    _fill(db_path)
    _, _, catalog = _state(db_path)
    child = _compact_process(db_path)
    deadline = time.monotonic() + 120
    while child.poll() is None and time.monotonic() < deadline and not list(
            db_path.parent.glob(f".{db_path.name}.compact-*")):
        time.sleep(0.001)
    assert child.poll() is None  # the rewrite is under way
    with writer(db_path, wait=120, publish=False) as conn:
        # Opened after the rename: the temporary file is gone, the name is the new file.
        assert not list(db_path.parent.glob(f".{db_path.name}.compact-*"))
        conn.execute("INSERT INTO raw.payloads VALUES (1, 'events', -1, '{\"id\": -1}', "
                     "TIMESTAMPTZ '2026-11-02 00:00:00+00', 'late-run')")
    assert child.wait(timeout=120) == 0
    rows, _, after = _state(db_path)
    assert rows == KEPT + 1
    assert after == catalog
    with connect(db_path, create=False, wait=30) as conn:
        assert conn.execute("SELECT run_id FROM raw.payloads WHERE entity_id = -1"
                            ).fetchall() == [("late-run",)]


@pytest.mark.verify  # make verify: five kills; make test keeps the kill mid-rewrite above
@pytest.mark.parametrize("delay", [0.0, 0.3, 0.8, 1.5, 3.0])
def test_a_compaction_killed_at_any_moment_leaves_a_whole_file_under_the_name(
        db_path: Path, delay: float) -> None:
    """Wherever the kill lands (opening, measuring, copying, renaming, publishing), the name
    holds a whole warehouse: the old file or the compacted one, with the same rows."""
    _fill(db_path)
    expected = _state(db_path)
    child = _compact_process(db_path)
    time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=60)
    assert _state(db_path) == expected
    if read_copy_path(db_path).exists():  # published before the kill: it is the new file's
        with open_read_copy(db_path) as reader:
            assert reader.execute("SELECT count(*) FROM raw.payloads").fetchone() == (KEPT,)


def test_the_command_compacts_every_member_of_a_group_or_one_and_errors_in_one_line(
        tmp_path: Path, migrated_template: Path) -> None:
    group = tmp_path / "group"
    group.mkdir()
    for code in ("ROMA01", "FIRE01"):
        member = group / f"{code}.duckdb"
        member.write_bytes(migrated_template.read_bytes())
        _fill(member)
    assert files_of(group) == [group / "FIRE01.duckdb", group / "ROMA01.duckdb"]
    runner = CliRunner()

    one = runner.invoke(main, ["warehouse", "compact", "--warehouse", str(group),
                               "--property", "ROMA01"])
    assert one.exit_code == 0, one.output
    assert one.output.startswith(f"compacted {group / 'ROMA01.duckdb'}: ")
    assert (group / "ROMA01.read.duckdb").exists()
    assert not (group / "FIRE01.read.duckdb").exists()

    both = runner.invoke(main, ["warehouse", "compact", "--warehouse", str(group)])
    assert both.exit_code == 0, both.output
    lines = both.output.splitlines()
    assert lines[0].startswith(f"compacted {group / 'FIRE01.duckdb'}: ")
    assert lines[1].startswith(f"left {group / 'ROMA01.duckdb'} as it is: ")  # done above
    assert len(lines) == 2

    missing = runner.invoke(main, ["warehouse", "compact", "--warehouse", str(group),
                                   "--property", "NAPL01"])
    assert missing.exit_code == 1
    assert missing.output.strip().splitlines() == [
        f"Error: property NAPL01 has no file in the group {group} (members: FIRE01, "
        f"ROMA01): sync it first, `pmsw sync --property NAPL01 --warehouse {group}`"]
    not_group = runner.invoke(main, ["warehouse", "compact", "--warehouse",
                                     str(group / "ROMA01.duckdb"), "--property", "ROMA01"])
    assert not_group.exit_code == 2  # a usage error
    assert "--property is for a group directory" in not_group.output
    bad = runner.invoke(main, ["warehouse", "compact", "--warehouse", str(group),
                               "--threshold", "1.5"])
    assert bad.exit_code == 2
    assert "--threshold" in bad.output


def test_the_weekly_upkeep_job_compacts_the_partition_s_file(tmp_path: Path,
                                                             migrated_template: Path) -> None:
    from pipelines.definitions import defs
    from pipelines.defs.keys import COMPACTION_KEY
    from pipelines.defs.resources import WarehouseResource

    group = tmp_path / "group"
    group.mkdir()
    for code in ("ROMA01", "FIRE01"):
        member = group / f"{code}.duckdb"
        member.write_bytes(migrated_template.read_bytes())
        _fill(member)
    sizes = {p.name: p.stat().st_size for p in group.glob("*.duckdb")}
    job = defs.resolve_job_def("warehouse_upkeep")
    assert job.asset_layer.executable_asset_keys == {COMPACTION_KEY}
    schedule = defs.resolve_schedule_def("warehouse_upkeep_weekly")
    assert schedule.cron_schedule == "0 4 * * 0"
    assert schedule.job_name == "warehouse_upkeep"

    resources: dict[str, Any] = dict(defs.resources or {})
    resources["warehouse"] = WarehouseResource(path=str(group), wait_seconds=30)
    every = [d for d in defs.assets or [] if isinstance(d, dg.AssetsDefinition)]
    with instance_with(["ROMA01", "FIRE01"]) as instance:
        result = dg.materialize(every, selection=dg.AssetSelection.assets(COMPACTION_KEY),
                                partition_key="FIRE01", resources=resources,
                                instance=instance)
    assert result.success
    [event] = result.get_asset_materialization_events()
    metadata = {k: v.value for k, v in event.materialization.metadata.items()}
    assert metadata["files_rewritten"] == 1
    assert metadata["bytes_before"] == sizes["FIRE01.duckdb"]
    assert metadata["bytes_after"] == (group / "FIRE01.duckdb").stat().st_size
    assert (group / "FIRE01.duckdb").stat().st_size < sizes["FIRE01.duckdb"]
    assert (group / "ROMA01.duckdb").stat().st_size == sizes["ROMA01.duckdb"]  # not its run
    assert (group / "FIRE01.read.duckdb").exists()
    assert _state(group / "FIRE01.duckdb")[0] == KEPT
    assert os.path.getsize(group / "FIRE01.read.duckdb") == metadata["bytes_after"]
