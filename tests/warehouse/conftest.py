"""Fixtures of the warehouse tests: a real DuckDB file in tmp_path, migrated."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from pipelines.warehouse.connection import connect


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "warehouse.duckdb"


@pytest.fixture
def conn(db_path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = connect(db_path)
    try:
        yield connection
    finally:
        connection.close()
