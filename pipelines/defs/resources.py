"""Resources: the PMS API (per property), the DuckDB warehouse, the sync settings.

Keys never appear in code or run config: they are read from the environment when a run
starts (PMS_API_KEY for the default property; the properties file names, per property, the
variable holding its key).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import dagster as dg
import duckdb

from pipelines.api import API_KEY_ENV, DEFAULT_BURST, DEFAULT_RATE_PER_MINUTE
from pipelines.ingest import SyncSettings
from pipelines.properties import (
    BASE_URL_ENV,
    Endpoint,
    default_property,
    find_property,
    load_properties,
)
from pipelines.warehouse import (
    WarehouseError,
    connect,
    is_group,
    member_files,
    member_path,
    resolve,
    thread_cursor,
)

Opener = Callable[[str], AbstractContextManager[duckdb.DuckDBPyConnection]]
"""A property's connection: its own file in the group layout, a cursor of the step's one
connection to the single file otherwise."""


class PmsApiResource(dg.ConfigurableResource):  # type: ignore[type-arg]
    """How to reach each property's API v1 (pipelines.properties), resolved when a run starts:
    by default the properties file, else the default property from the environment."""

    properties_file: str | None = None
    """A properties file other than PMSW_PROPERTIES_FILE / ./properties.yaml."""
    base_url: str | None = None
    """The default property's base URL instead of PMS_API_BASE_URL (tests)."""
    api_key: str | None = None
    """The default property's key instead of PMS_API_KEY (tests)."""
    rate_per_minute: int = DEFAULT_RATE_PER_MINUTE
    """Client rate limit of the default property (a properties file says it per property)."""
    burst: int = DEFAULT_BURST

    def codes(self) -> list[str]:
        """The codes of the properties this resource reaches, read now (the properties file
        may have changed since the code location loaded)."""
        if self.base_url or self.api_key:
            return [default_property().code]
        path = Path(self.properties_file) if self.properties_file else None
        return [prop.code for prop in load_properties(path)]

    def endpoint(self, code: str) -> Endpoint:
        """The endpoint of property `code`; PropertyConfigError names what is missing."""
        if self.base_url or self.api_key:
            given = {BASE_URL_ENV: self.base_url, API_KEY_ENV: self.api_key}
            prop = default_property().model_copy(
                update={"rate_per_minute": self.rate_per_minute, "burst": self.burst})
            return prop.endpoint(
                {**os.environ, **{name: value for name, value in given.items() if value}})
        path = Path(self.properties_file) if self.properties_file else None
        return find_property(load_properties(path), code).endpoint()


class WarehouseResource(dg.ConfigurableResource):  # type: ignore[type-arg]
    """The DuckDB warehouse file (migrated when opened), for assets and checks that write it;
    a directory is the group layout (pipelines.warehouse.group): each property's steps open
    DIR/<CODE>.duckdb, the file of their partition (docs/scaling.md).

    Not dagster-duckdb's DuckDBResource: every open here goes through
    `pipelines.warehouse.connect` (waits for another writer, then one line naming the holder;
    migrations and views applied), which that resource would have to override whole.
    """

    path: str | None = None
    """The warehouse file or group directory; None: PMSW_WAREHOUSE, else
    data/warehouse.duckdb."""
    wait_seconds: float | None = None
    """How long to wait for another writer; None: PMSW_WAREHOUSE_WAIT, else 600 s."""

    def grouped(self) -> bool:
        """True in the group layout (the warehouse named is a directory)."""
        return is_group(self.path)

    def file(self, code: str | None = None) -> Path:
        """The warehouse file; in the group layout the file of property `code`, which a step
        must then name (one line saying so otherwise)."""
        base = resolve(self.path)
        if not base.is_dir():
            return base
        if code is None:
            raise WarehouseError(f"the warehouse {base} is a group directory (one file a "
                                 "property): this step does not run on the group layout yet")
        return member_path(base, code)

    @contextmanager
    def connect(self, code: str | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
        with connect(self.file(code), wait=self.wait_seconds) as conn:
            yield conn

    @contextmanager
    def per_property(self) -> Iterator[Opener]:
        """For a step over several properties, on threads: the opener of a property's
        connection. The single file: one connection for the step, a cursor per property
        (DuckDB allows one writing process); the group layout: each property's own file."""
        if self.grouped():
            yield self.connect
            return
        with self.connect() as conn:
            @contextmanager
            def cursor(code: str) -> Iterator[duckdb.DuckDBPyConnection]:
                with thread_cursor(conn) as own:  # a connection per thread, one database
                    yield own

            yield cursor

    def each(self, codes: Sequence[str] | None
             ) -> Iterator[tuple[str | None, duckdb.DuckDBPyConnection]]:
        """(code, connection) per file the properties `codes` are in, one after another: the
        single file once (code None); in the group layout each property's file (every member
        when `codes` is None). For the checks, which read and sum."""
        if not self.grouped():
            with self.connect() as conn:
                yield None, conn
            return
        if codes is None:
            codes = list(member_files(self.path))
        for code in codes:
            with self.connect(code) as conn:
                yield code, conn


class SyncSettingsResource(dg.ConfigurableResource, SyncSettings):  # type: ignore[type-arg]
    """The sync settings (pipelines.ingest.SyncSettings, docs/ingestion.md) as the resource
    `sync_settings`, editable in the launchpad; e.g. `full_folio_refresh: true` for one run."""


def default_resources() -> dict[str, Any]:
    """The resources of pipelines.definitions (nothing read from the environment until a run
    starts)."""
    return {"pms": PmsApiResource(), "warehouse": WarehouseResource(),
            "sync_settings": SyncSettingsResource()}
