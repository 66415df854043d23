"""A short simulated stretch of the sandbox's 40-room hotel with a raised share of lost postings,
synced into a template warehouse by the ingestion code (the reconciliation's and finance's
tests). Each test serves its own copy of the database and works on its own copy of the
warehouse, over real HTTP."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from pipelines.api import PmsClient
from pipelines.ingest import SyncSettings, sync_property
from pipelines.properties import Endpoint
from pipelines.warehouse import connect
from sandbox.http.server import RunningSandbox, serving_simulation
from sandbox.simulator.params import PosParams, SimParams
from sandbox.simulator.run import simulate_database
from tests.conftest import ALL_SCOPES_KEY

START = date(2025, 5, 1)
DROP_SHARE = 0.06
"""Six postings in a hundred lost on their way to the folio (the simulator's default is rarer)."""


@dataclass(frozen=True)
class Stretch:
    db: Path
    """The simulated PMS (SQLite), never served itself: each test serves a copy."""
    pos: Path
    """The POS ledger files of the stretch."""
    warehouse: Path
    """The template warehouse, synced once."""


def sync(sandbox: RunningSandbox, warehouse: Path, pos: Path,
         streams: list[str] | None = None) -> None:
    """One sync of the hotel (all streams, or `streams`) into `warehouse`, as `pmsw sync` runs
    it, without the marts."""
    endpoint = Endpoint("rome", sandbox.base_url, ALL_SCOPES_KEY, 1_000_000, 1_000_000, pos)
    with connect(warehouse) as conn:
        sync_property(endpoint, conn, f"sync-{time.monotonic_ns()}",
                      SyncSettings(stay_guests=False, availability_nights=1), streams)


def simulate_stretch(folder: Path, *, days: int, warmup_days: int, seed: int) -> Stretch:
    """`days` from START after `warmup_days`, simulated, served from a copy and synced once."""
    db, pos, warehouse = folder / "sim.sqlite", folder / "pos", folder / "template.duckdb"
    params = replace(SimParams(), warmup_days=warmup_days,
                     pos=replace(PosParams(), drop_share=DROP_SHARE))
    report = simulate_database(str(db), days=days, seed=seed, start=START, params=params,
                               pos_export=pos)
    assert report.failures == {}
    served = folder / "served.sqlite"
    shutil.copy(db, served)
    with serving_simulation(served) as sandbox:
        sync(sandbox, warehouse, pos)
    return Stretch(db, pos, warehouse)


@contextmanager
def serving_copy(stretch: Stretch, folder: Path
                 ) -> Iterator[tuple[RunningSandbox, Path, PmsClient]]:
    """A copy of the stretch's PMS served, a copy of its warehouse, and a client of the PMS."""
    db, warehouse = folder / "pms.sqlite", folder / "warehouse.duckdb"
    shutil.copy(stretch.db, db)
    shutil.copy(stretch.warehouse, warehouse)
    with serving_simulation(db) as sandbox, PmsClient(
            sandbox.base_url, ALL_SCOPES_KEY, rate_per_minute=1_000_000,
            burst=1_000_000) as client:
        yield sandbox, warehouse, client
