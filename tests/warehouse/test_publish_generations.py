"""The read copy's two generations (pipelines.warehouse.publish; issue 51, "No write that costs
in proportion to the warehouse's size"; docs/operations.md, "Reading while syncing"):

- a publish writes into the generation the read copy does not name only the pieces of the
  DuckDB file that differ (its 12 KiB of headers, then each 256 KiB block: DuckDB's layout),
  and the generation ends byte for byte the checkpointed warehouse;
- a reader process holding the copy open keeps reading what it opened through several
  publishes (`pmsw warehouse publish`), and the generation it holds is copied whole into a
  fresh file, never patched, also when the reader lost DuckDB's lock by closing a second
  connection to the same file;
- a publish killed (SIGKILL, the publisher and its patch child) while it patches leaves the
  read copy naming the last good generation, and the next publish repairs the other.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from pipelines.warehouse import connect, publish, read_copy_path
from pipelines.warehouse.connection import read_copy_generations
from tests.patching import kill_while_patching
from tests.pipeline.helpers import REPO
from tests.stored_rows import stored_rows

HEADER, BLOCK = 3 * 4096, 256 * 1024
"""DuckDB's file: a file header and two database headers of 4 KiB, then blocks of 256 KiB."""
ROWS = 300_000
PUBLISHED = re.compile(r"^published (?P<copy>\S+) \(.+\) in [\d.]+ s: (?P<how>patch|copy|rewrite)"
                       r", (?P<written>[\d,]+) bytes written$")


def _differing_bytes(old: bytes, new: bytes) -> int:
    """The bytes of the pieces (header, blocks) of `new` that differ from `old`'s."""
    spans = [(0, HEADER), *((offset, BLOCK) for offset in range(HEADER, len(new), BLOCK))]
    return sum(len(new[o:o + n]) for o, n in spans if old[o:o + n] != new[o:o + n])


def _filled(path: Path) -> duckdb.DuckDBPyConnection:
    conn = connect(path)
    conn.execute(f"CREATE TABLE core.filler AS SELECT range AS i, md5(range::VARCHAR) AS s "
                 f"FROM range({ROWS})")
    return conn


def test_a_publish_writes_only_the_blocks_that_differ_from_the_spare_generation(
        tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    copy = read_copy_path(path)
    with _filled(path) as conn:
        first, second = publish(conn, path), publish(conn, path)
        # No generation yet: both copied whole, one into each.
        assert (first.how, second.how) == ("copy", "copy")
        assert {first.generation, second.generation} == set(read_copy_generations(copy))
        assert first.written == first.size
        assert copy.is_symlink()
        assert copy.resolve() == second.generation
        assert first.generation is not None
        spare_before = first.generation.read_bytes()  # as published two publishes ago
        conn.execute("INSERT INTO core.filler VALUES (-1, 'one row more')")
        third = publish(conn, path)
    warehouse = path.read_bytes()
    assert third.how == "patch"
    assert third.generation == first.generation
    assert copy.resolve() == first.generation
    assert first.generation.read_bytes() == warehouse  # the checkpointed file, byte for byte
    assert third.written == _differing_bytes(spare_before, warehouse)
    assert 0 < third.written <= len(warehouse) // 4, (third.written, len(warehouse))
    assert stored_rows(copy, "SELECT count(*) FROM core.filler") == [(ROWS + 1,)]


READER = """
import sys
from pipelines.warehouse import open_read_copy
conn = open_read_copy(sys.argv[1])
if sys.argv[2] == "twice":  # a second connection closed: this process's lock on the file goes
    open_read_copy(sys.argv[1]).close()
for _ in sys.stdin:
    print(*conn.execute("SELECT count(*), sum(i) FROM core.filler").fetchone(), flush=True)
"""


def _cli_publish(path: Path) -> tuple[str, int]:
    done = subprocess.run([sys.executable, "-m", "pipelines.cli", "warehouse", "publish",
                           "--warehouse", str(path)], cwd=REPO, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    said = PUBLISHED.match(done.stdout.strip())
    assert said, done.stdout
    return said["how"], int(said["written"].replace(",", ""))


@pytest.mark.parametrize("connections", [  # make test: the lock lost, which the lease tells
    pytest.param("once", marks=pytest.mark.verify), "twice"])
def test_a_reader_process_keeps_its_copy_through_publishes_and_its_generation_is_never_patched(
        tmp_path: Path, connections: str) -> None:
    path = tmp_path / "w.duckdb"
    with _filled(path) as conn:
        publish(conn, path)
        publish(conn, path)
    reader = subprocess.Popen([sys.executable, "-c", READER, str(path), connections], cwd=REPO,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert reader.stdin is not None
    assert reader.stdout is not None

    def ask() -> str:
        assert reader.stdin is not None
        assert reader.stdout is not None
        reader.stdin.write("?\n")
        reader.stdin.flush()
        return reader.stdout.readline().strip()

    try:
        held = ask()
        assert held == f"{ROWS} {ROWS * (ROWS - 1) // 2}"
        hows = []
        for n in range(4):
            with connect(path) as conn:
                conn.execute("INSERT INTO core.filler VALUES (?, 'later')", [ROWS + n])
            how, written = _cli_publish(path)
            hows.append(how)
            assert written < path.stat().st_size if how == "patch" else written > 0
            assert ask() == held  # the reader still reads the copy it opened
        # The spare, the generation the reader holds, the other, then the first one's new
        # file (the reader holds the old inode): copied whole only while it was held.
        assert hows == ["patch", "copy", "patch", "patch"]
    finally:
        reader.stdin.close()
        reader.wait(timeout=60)
        reader.stdout.close()
    assert stored_rows(read_copy_path(path), "SELECT count(*) FROM core.filler") == [(ROWS + 4,)]


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("PMS_", "PMSW_"))}


def _compared(path: Path) -> tuple[int, int, int]:
    """Rows of the read copy; of them equal to the warehouse's; one md5 behind it."""
    with duckdb.connect(":memory:") as conn:
        conn.execute(f"ATTACH '{read_copy_path(path)}' AS c (READ_ONLY)")
        conn.execute(f"ATTACH '{path}' AS w (READ_ONLY)")
        row = conn.execute("SELECT count(*), count(*) FILTER (c.s = w.s), "
                           "count(*) FILTER (md5(c.s) = w.s) "
                           "FROM c.core.filler c JOIN w.core.filler w USING (i)").fetchone()
    assert row is not None
    return int(row[0]), int(row[1]), int(row[2])


def _repaired(path: Path) -> None:
    """The next publish: the generation the killed one wrote into patched to the file."""
    with connect(path, create=False) as conn:
        done = publish(conn, path)
    assert done.how == "patch"
    assert done.generation is not None
    assert done.generation.read_bytes() == path.read_bytes()
    assert _compared(path) == (1_000_000, 1_000_000, 0)
    copy = read_copy_path(path)
    assert list(copy.parent.glob(f".{copy.name}.tmp-*")) == []


def test_a_publish_killed_while_patching_leaves_the_last_copy_and_the_next_repairs_it(
        tmp_path: Path) -> None:
    for attempt in range(5):  # each on a warehouse of its own
        path = tmp_path / f"w{attempt}.duckdb"
        copy = read_copy_path(path)
        if kill_while_patching(path, copy, read_copy_generations(copy), REPO, _env()):
            break
    else:
        raise AssertionError("never killed before the patched generation was named")
    # The copy is the last publish that finished: every row one update behind the file.
    assert _compared(path) == (1_000_000, 0, 1_000_000)
    _repaired(path)


@pytest.mark.verify  # make verify: kills at five moments; make test keeps the one above
@pytest.mark.parametrize("publishes", [2, 3, 4, 5, 6])
def test_a_publish_killed_at_any_patch_leaves_a_whole_copy(tmp_path: Path,
                                                            publishes: int) -> None:
    path = tmp_path / "w.duckdb"
    copy = read_copy_path(path)
    kill_while_patching(path, copy, read_copy_generations(copy), REPO, _env(),
                        publishes)
    rows, equal, behind = _compared(path)
    assert rows == 1_000_000
    assert 1_000_000 in (equal, behind), (equal, behind)
    _repaired(path)
