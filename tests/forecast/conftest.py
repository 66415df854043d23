"""A migrated warehouse with two properties and their market segments (no PMS needed)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipelines.warehouse import connect

PROPERTIES = ((1, "ROMA01", "Hotel Aurelia Roma"), (2, "FIRE01", "Hotel Firenze"))
MARKETS = ("leisure", "business", "groups")


def add_properties(path: Path) -> None:
    conn = connect(path)
    try:
        for pid, code, name in PROPERTIES:
            conn.execute(
                "INSERT INTO core.property (property_id, code, name, currency, timezone, "
                "business_date, last_seen_run, fetched_at) VALUES (?, ?, ?, 'EUR', "
                "'Europe/Rome', DATE '2026-03-16', 'test', now())", [pid, code, name])
            for market in MARKETS:
                conn.execute(
                    "INSERT INTO core.classifications VALUES (?, 'market', ?, false, 'test', "
                    "now())", [pid, market])
    finally:
        conn.close()


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("budget") / "warehouse.duckdb"
    add_properties(path)
    return path


@pytest.fixture
def warehouse(tmp_path: Path, template: Path) -> Path:
    path = tmp_path / "warehouse.duckdb"
    shutil.copyfile(template, path)
    return path
