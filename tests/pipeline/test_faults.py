"""A sync through injected faults (5xx, 503, 429 bursts, connections dropped before and after
the work) converges to the warehouse of a clean sync (issue 5, Tests; ARCHITECTURE, "Only
business conflicts are final")."""

from __future__ import annotations

from pathlib import Path

from pipelines.api import PmsError
from pipelines.ingest import SyncSettings
from sandbox.http.faults import FaultConfig
from tests.conftest import MakeSandbox

from .helpers import advance, clock, snapshot, sync

FAULTS = FaultConfig(error_rate=0.06, unavailable_rate=0.03, rate_limit_rate=0.02,
                     rate_limit_burst=2, retry_after_seconds=0, drop_before_rate=0.03,
                     drop_after_rate=0.03, seed=7)


def test_a_sync_through_faults_converges_to_the_clean_warehouse(
        make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    sandbox = make_sandbox(clock(), admin=True)
    advance(sandbox.root_url, days=2)
    clean = tmp_path / "clean.duckdb"
    sync(clean, sandbox.base_url, "clean")

    faulty = tmp_path / "faulty.duckdb"
    sandbox.state.faults = FAULTS
    # Short backoff: the test is about convergence, not about waiting (docs/client.md).
    settings = SyncSettings(concurrency=4, retry_backoff_seconds=0.02,
                            retry_backoff_cap_seconds=0.1)
    failures = 0
    for attempt in range(5):  # a run whose retries are spent fails; the next one goes on
        try:
            results = sync(faulty, sandbox.base_url, f"faulty-{attempt}", settings=settings)
        except PmsError:
            failures += 1
            continue
        break
    else:
        raise AssertionError("five syncs in a row failed")
    injected = sum(sandbox.state.fault_counts.values())
    sandbox.state.faults = FaultConfig()
    assert injected >= 20, sandbox.state.fault_counts
    assert sum(r.errors for r in results.values()) > 0 or failures > 0
    expected, got = snapshot(clean), snapshot(faulty)
    for table in expected:
        assert got[table] == expected[table], table
