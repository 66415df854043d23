"""The reconciliation's short stretch of the 40-room hotel with a raised share of lost postings
(tests/lost_postings.py), ten days of it, synced into a template warehouse once per session.
Each test serves its own copy of the database and works on its own copy of the warehouse,
over real HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest

from pipelines.api import PmsClient
from pipelines.recon import Mode, ReconReport, run_reconciliation
from pipelines.recon.logic import load_rules
from pipelines.warehouse import connect, publish
from sandbox.http.server import RunningSandbox
from tests.lost_postings import START, Stretch, serving_copy, simulate_stretch, sync

DAYS = 10
FIRST, LAST = START, START + timedelta(days=DAYS - 1)
RULES = load_rules()


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
        sync(self.sandbox, self.warehouse, self.pos, streams)
        _publish(self.warehouse)


def _publish(warehouse: Path) -> None:
    """The read copy the readers open (reports, the close sensor), as every writer leaves it."""
    with connect(warehouse) as conn:
        publish(conn, warehouse)


@pytest.fixture(scope="session")
def stretch(tmp_path_factory: pytest.TempPathFactory) -> Stretch:
    return simulate_stretch(tmp_path_factory.mktemp("finance"), days=DAYS, warmup_days=14,
                            seed=7)


@pytest.fixture
def world(stretch: Stretch, tmp_path: Path) -> Iterator[World]:
    with serving_copy(stretch, tmp_path) as (sandbox, warehouse, client):
        _publish(warehouse)
        yield World(sandbox, warehouse, stretch.pos, client)
