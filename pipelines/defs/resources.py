"""Resources: the PMS API (per property), the DuckDB warehouse, the sync settings.

Keys never appear in code or run config: the default property's URL and key are `dg.EnvVar`s
(PMS_API_BASE_URL, PMS_API_KEY); a properties file names, per property, the environment
variable holding its key, read when the run starts.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import dagster as dg
import duckdb

from pipelines.ingest import (
    Endpoint,
    PropertyConfigError,
    SyncSettings,
    find_property,
    load_properties,
    properties_file,
)
from pipelines.ingest.properties import API_KEY_ENV, BASE_URL_ENV, DEFAULT_CODE, POS_LEDGER_DIR_ENV
from pipelines.warehouse import connect, resolve


class PmsApiResource(dg.ConfigurableResource):  # type: ignore[type-arg]
    """How to reach each property's API v1."""

    properties_file: str | None = None
    """The properties file (one partition per property); None: the one default property."""
    base_url: str | None = None
    """Base URL of the default property (set from dg.EnvVar("PMS_API_BASE_URL"))."""
    api_key: str | None = None
    """Key of the default property (set from dg.EnvVar("PMS_API_KEY"))."""
    rate_per_minute: int = 600
    burst: int = 120

    def endpoint(self, code: str) -> Endpoint:
        """The endpoint of property `code`; PropertyConfigError names what is missing."""
        if self.properties_file:
            return find_property(load_properties(Path(self.properties_file)), code).endpoint()
        if code != DEFAULT_CODE:
            raise PropertyConfigError(f"unknown property {code!r}: known {DEFAULT_CODE}")
        if not self.base_url:
            raise PropertyConfigError(f"property {code}: no base URL: set {BASE_URL_ENV}")
        if not self.api_key:
            raise PropertyConfigError(
                f"property {code}: no API key: set the environment variable {API_KEY_ENV}")
        ledger = os.environ.get(POS_LEDGER_DIR_ENV)
        return Endpoint(code, self.base_url, self.api_key, self.rate_per_minute, self.burst,
                        Path(ledger) if ledger else None)


class WarehouseResource(dg.ConfigurableResource):  # type: ignore[type-arg]
    """The DuckDB warehouse file (migrated when opened), for assets and checks that write it.

    Not dagster-duckdb's DuckDBResource: every open here goes through
    `pipelines.warehouse.connect` (waits for another writer, then one line naming the holder;
    migrations and views applied), which that resource would have to override whole.
    """

    path: str | None = None
    """The warehouse file; None: PMSW_WAREHOUSE, else data/warehouse.duckdb."""
    wait_seconds: float | None = None
    """How long to wait for another writer; None: PMSW_WAREHOUSE_WAIT, else 600 s."""

    def file(self) -> Path:
        return resolve(self.path)

    @contextmanager
    def connect(self) -> Iterator[duckdb.DuckDBPyConnection]:
        conn = connect(self.file(), wait=self.wait_seconds)
        try:
            yield conn
        finally:
            conn.close()


class SyncSettingsResource(dg.ConfigurableResource):  # type: ignore[type-arg]
    """Settings of the sync (docs/ingestion.md); e.g. `full_folio_refresh: true` for one run."""

    overlap_seconds: int = 300
    departed_days: int = 7
    full_folio_refresh: bool = False
    concurrency: int = 8
    stay_guests: bool = True
    availability_nights: int = 365
    pos_ledger_dir: str | None = None
    """Overrides PMS_POS_LEDGER_DIR / the properties file for every property."""

    def settings(self) -> SyncSettings:
        return SyncSettings(
            overlap=timedelta(seconds=self.overlap_seconds), departed_days=self.departed_days,
            full_folio_refresh=self.full_folio_refresh, concurrency=self.concurrency,
            stay_guests=self.stay_guests, availability_nights=self.availability_nights)

    def endpoint(self, endpoint: Endpoint) -> Endpoint:
        if self.pos_ledger_dir is None:
            return endpoint
        return Endpoint(endpoint.code, endpoint.base_url, endpoint.api_key,
                        endpoint.rate_per_minute, endpoint.burst, Path(self.pos_ledger_dir))


def default_pms_resource() -> PmsApiResource:
    """The properties file when there is one, else the default property from the environment."""
    path = properties_file()
    if path is not None:
        return PmsApiResource(properties_file=str(path))
    return PmsApiResource(base_url=dg.EnvVar(BASE_URL_ENV), api_key=dg.EnvVar(API_KEY_ENV))


def default_resources() -> dict[str, Any]:
    return {"pms": default_pms_resource(), "warehouse": WarehouseResource(),
            "sync_settings": SyncSettingsResource()}
