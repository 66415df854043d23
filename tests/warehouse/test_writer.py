"""The one writing path (issue 47, item 2): a command outside Dagster writes through
`pipelines.warehouse.writer`, which publishes the read copy when its block ends cleanly and
leaves the copy as it was when the block fails; no other module publishes by itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pipelines.warehouse import WarehouseMissingError, connect, read_copy_path, writer
from tests.stored_rows import stored_rows

REPO = Path(__file__).resolve().parents[2]
# Who may call publish(): the writer itself, Dagster's read-copy asset, `pmsw warehouse publish`.
PUBLISHERS = {"pipelines/warehouse/writer.py", "pipelines/defs/warehouse/publish.py",
              "pipelines/warehouse/command/warehouse.py"}


def _published_markers(path: Path) -> list[int]:
    return [r[0] for r in stored_rows(read_copy_path(path), "SELECT n FROM core.marker ORDER BY n")]


@pytest.fixture
def warehouse(tmp_path: Path) -> Path:
    path = tmp_path / "w.duckdb"
    connect(path).close()  # created and migrated
    return path


def test_a_clean_block_is_published(warehouse: Path) -> None:
    with writer(warehouse) as conn:
        conn.execute("CREATE TABLE core.marker AS SELECT 1 AS n")
    assert _published_markers(warehouse) == [1]


def test_a_failed_block_leaves_the_read_copy_as_it_was(warehouse: Path) -> None:
    with writer(warehouse) as conn:
        conn.execute("CREATE TABLE core.marker AS SELECT 1 AS n")
    def fail_midway() -> None:
        with writer(warehouse) as conn:
            conn.execute("INSERT INTO core.marker VALUES (2)")
            raise RuntimeError("midway")

    with pytest.raises(RuntimeError, match="midway"):
        fail_midway()
    assert _published_markers(warehouse) == [1]


def test_a_reading_step_publishes_nothing(warehouse: Path) -> None:
    with writer(warehouse, publish=False) as conn:
        conn.execute("CREATE TABLE core.marker AS SELECT 1 AS n")
    assert not read_copy_path(warehouse).exists()


def test_a_missing_warehouse_is_not_created(tmp_path: Path) -> None:
    with pytest.raises(WarehouseMissingError, match="no warehouse at"), \
            writer(tmp_path / "none.duckdb"):
        pass
    assert not (tmp_path / "none.duckdb").exists()


def test_only_the_writing_path_publishes() -> None:
    callers = set()
    for path in (REPO / "pipelines").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if name in ("publish", "publish_copy"):
                    callers.add(str(path.relative_to(REPO)))
    assert callers <= PUBLISHERS, callers - PUBLISHERS
    assert "pipelines/warehouse/writer.py" in callers
