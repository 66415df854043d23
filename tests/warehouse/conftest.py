"""Fixtures of the warehouse tests: a real DuckDB file in tmp_path, migrated."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from pipelines.warehouse.connection import connect


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A warehouse file migrated once per session; each test works on its own copy."""
    path = tmp_path_factory.mktemp("template") / "warehouse.duckdb"
    connect(path).close()
    return path


@pytest.fixture
def db_path(tmp_path: Path, migrated_template: Path) -> Path:
    path = tmp_path / "warehouse.duckdb"
    shutil.copyfile(migrated_template, path)
    return path


@pytest.fixture
def conn(db_path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    with connect(db_path) as connection:
        yield connection
