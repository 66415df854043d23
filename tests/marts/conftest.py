"""Fixtures of the mart tests: the hand-built hotel, lived once per session and synced into a
DuckDB warehouse whose marts are built by the real Dagster assets."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg
import duckdb
import httpx
import pytest

from pipelines.defs.marts.assets import MART_ASSETS, revenue_tieout_has_no_unexplained_cent
from pipelines.defs.partitions import instance_with
from pipelines.defs.resources import PmsApiResource, SyncSettingsResource, WarehouseResource
from pipelines.defs.warehouse.publish import read_copy
from pipelines.warehouse import connect
from sandbox.clock import SimulatedClock
from sandbox.http.server import running_sandbox
from sandbox.settings import SandboxSettings
from tests.conftest import ALL_SCOPES_KEY, UNLIMITED, auth

from .hotel import Hotel, live_the_days

PARTITION = "default"
"""The one property partition when no properties file exists (pipelines.properties)."""


def materialize_marts(base_url: str, warehouse: Path) -> dg.ExecuteInProcessResult:
    """Build every mart of the property through the Dagster assets (as `pmsw sync` does), with
    the tie-out's asset check, then publish the read copy the reports read."""
    with instance_with([PARTITION]) as instance:
        return dg.materialize(
            [*MART_ASSETS, revenue_tieout_has_no_unexplained_cent, read_copy],
            partition_key=PARTITION, instance=instance,
            resources={"pms": PmsApiResource(base_url=base_url, api_key=ALL_SCOPES_KEY),
                       "warehouse": WarehouseResource(path=str(warehouse)),
                       "sync_settings": SyncSettingsResource()})


@pytest.fixture(scope="session")
def hotel_warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The warehouse file of the hand-built hotel (tests/marts/hotel.py), marts built."""
    path = tmp_path_factory.mktemp("hotel") / "warehouse.duckdb"
    clock = SimulatedClock(datetime(2026, 3, 2, 8, 0, tzinfo=UTC))  # 09:00 in Rome, BD Mar 2
    with running_sandbox(SandboxSettings(admin=True, rate_per_minute=UNLIMITED["rate_per_minute"],
                                         burst=UNLIMITED["burst"]), clock) as sandbox, \
            httpx.Client(base_url=sandbox.base_url, headers=auth(), timeout=30) as api:
        with connect(path) as conn:
            live_the_days(Hotel(sandbox, clock, api, conn))
        result = materialize_marts(sandbox.base_url, path)
        assert result.success
        checks = result.get_asset_check_evaluations()
        assert [(c.check_name, c.passed) for c in checks] == [
            ("revenue_tieout_has_no_unexplained_cent", True)]
    return path


@pytest.fixture(scope="module")
def db(hotel_warehouse: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """The hand-built hotel's warehouse, read only."""
    with duckdb.connect(str(hotel_warehouse), read_only=True) as conn:
        yield conn
