"""A short simulated stretch of the sandbox's 40-room hotel (Rome) with a raised share of lost
postings, synced into a template warehouse by the ingestion code, once per session. Each test
serves its own copy of the database and works on its own copy of the warehouse, over real
HTTP (as tests/reconcile/test_sandbox.py)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path

import pytest

from pipelines.api import PmsClient
from pipelines.reconcile import Mode, ReconReport, run_reconciliation
from pipelines.transforms.reconcile import load_rules
from pipelines.warehouse import connect, publish
from sandbox.http.server import RunningSandbox, serving_simulation
from sandbox.simulator.params import PosParams, SimParams
from sandbox.simulator.run import simulate_database
from tests.conftest import ALL_SCOPES_KEY
from tests.reconcile.test_sandbox import _sync

START = date(2025, 5, 1)
DAYS = 10
FIRST, LAST = START, START + timedelta(days=DAYS - 1)
PARAMS = replace(SimParams(), warmup_days=14, pos=replace(PosParams(), drop_share=0.06))
RULES = load_rules()


@dataclass(frozen=True)
class Stretch:
    db: Path
    pos: Path
    warehouse: Path


@dataclass
class World:
    sandbox: RunningSandbox
    warehouse: Path
    pos: Path
    client: PmsClient

    def run(self, mode: Mode = Mode.DRY_RUN) -> ReconReport:
        return run_reconciliation(self.warehouse, RULES, mode=mode, first=FIRST, last=LAST,
                                  client=self.client if mode is Mode.APPLY else None)

    def sync(self, streams: list[str] | None = None) -> None:
        _sync(self.sandbox, self.warehouse, self.pos, streams)
        _publish(self.warehouse)


def _publish(warehouse: Path) -> None:
    """The read copy the readers open (reports, the close sensor), as every writer leaves it."""
    conn = connect(warehouse)
    try:
        publish(conn, warehouse)
    finally:
        conn.close()


@pytest.fixture(scope="session")
def stretch(tmp_path_factory: pytest.TempPathFactory) -> Stretch:
    folder = tmp_path_factory.mktemp("finance")
    db, pos, warehouse = folder / "sim.sqlite", folder / "pos", folder / "template.duckdb"
    report = simulate_database(str(db), days=DAYS, seed=7, start=START, params=PARAMS,
                               pos_export=pos)
    assert report.failures == {}
    served = folder / "served.sqlite"
    shutil.copy(db, served)
    with serving_simulation(served) as sandbox:
        _sync(sandbox, warehouse, pos)
    return Stretch(db, pos, warehouse)


@pytest.fixture
def world(stretch: Stretch, tmp_path: Path) -> Iterator[World]:
    db, warehouse = tmp_path / "pms.sqlite", tmp_path / "warehouse.duckdb"
    shutil.copy(stretch.db, db)
    shutil.copy(stretch.warehouse, warehouse)
    _publish(warehouse)
    with serving_simulation(db) as sandbox, PmsClient(
            sandbox.base_url, ALL_SCOPES_KEY, rate_per_minute=1_000_000,
            burst=1_000_000) as client:
        yield World(sandbox, warehouse, stretch.pos, client)
