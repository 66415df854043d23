"""The peer: dlt's `rest_api` source on the same endpoints, loading a DuckDB file.

Reservations are read incrementally by `updated_since` (dlt's incremental cursor on
`updated_at`, page-number paging on the `pages` field; or all of them every run:
`complete`), folios as a child resource of each
reservation read (GET /reservations/{id}/folios), events by cursor (`after` <- `next_after`,
stopping on `has_more`). The key is sent as a bearer token. dlt has no client-side rate
limiter: a 429 is retried by its HTTP helper (Retry-After honoured, 5 attempts).
dlt is a dependency of the `bench` group only (pyproject.toml).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


def rest_api_config(base_url: str, api_key: str, parallel: bool = False,
                    complete: bool = False) -> dict[str, Any]:
    """The rest_api source configuration (a RESTAPIConfig dictionary); `parallel` sets
    `parallelized: true` on the folios child resource, dlt's way to fetch the children of
    many parent rows at once (its extract thread pool, 5 workers by default). `complete`
    lists every reservation on every run (no incremental cursor), so the folios child reads
    the folios of every reservation: the one configuration of rest_api whose incremental runs
    miss no folio line (API v1 has no folio change feed)."""
    since: dict[str, Any] = {} if complete else {"updated_since": {
        "type": "incremental", "cursor_path": "updated_at",
        "initial_value": "2000-01-01T00:00:00Z"}}
    return {
        "client": {
            "base_url": base_url.rstrip("/") + "/",
            "auth": {"type": "bearer", "token": api_key},
        },
        "resource_defaults": {"primary_key": "id", "write_disposition": "merge"},
        "resources": [
            {
                "name": "reservations",
                "endpoint": {
                    "path": "reservations",
                    "data_selector": "data",
                    "params": {"page_size": 200, **since},
                    "paginator": {"type": "page_number", "base_page": 1, "page_param": "page",
                                  "total_path": "pages"},
                },
            },
            {
                "name": "folios",
                "endpoint": {
                    "path": "reservations/{resources.reservations.id}/folios",
                    "data_selector": "data",
                    "paginator": "single_page",
                },
                **({"parallelized": True} if parallel else {}),
            },
            {
                "name": "events",
                "endpoint": {
                    "path": "events",
                    "data_selector": "data",
                    "params": {
                        "limit": 500,
                        "after": {"type": "incremental", "cursor_path": "id",
                                  "initial_value": 0},
                    },
                    "paginator": {"type": "cursor", "cursor_path": "next_after",
                                  "cursor_param": "after", "has_more_path": "has_more"},
                },
            },
        ],
    }


class DltPeer:
    """One dlt pipeline (its state in `work`) loading `work/dlt.duckdb`, dataset `pms`."""

    def __init__(self, work: Path, base_url: str, api_key: str, parallel: bool = False,
                 complete: bool = False) -> None:
        self.work = work
        self.base_url = base_url
        self.api_key = api_key
        self.parallel = parallel
        self.complete = complete
        self.database = work / "dlt.duckdb"

    def run(self) -> None:
        """One `pipeline.run` of the three resources (the first is the initial load)."""
        os.environ.setdefault("RUNTIME__LOG_LEVEL", "ERROR")  # no schema hints on stderr
        import dlt
        from dlt.sources.rest_api import rest_api_source

        pipeline = dlt.pipeline(
            pipeline_name="pms_peer", pipelines_dir=str(self.work / "pipelines"),
            destination=dlt.destinations.duckdb(str(self.database)), dataset_name="pms")
        config: Any = rest_api_config(self.base_url, self.api_key, self.parallel,
                                      self.complete)  # dlt's RESTAPIConfig is a TypedDict
        source = rest_api_source(config)
        pipeline.run(source)

    def rows(self) -> dict[str, set[tuple[Any, ...]]]:
        """Reservation ids + updated_at, folio line ids and event ids of dlt's tables (empty
        where a failed run left no database or no table)."""
        import duckdb

        empty: dict[str, set[tuple[Any, ...]]] = {
            "reservations": set(), "folio_lines": set(), "events": set()}
        if not self.database.exists():
            return empty
        with duckdb.connect(str(self.database), read_only=True) as conn:
            conn.execute("SET TimeZone = 'UTC'")
            tables = {t for (t,) in conn.execute(
                "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'pms'").fetchall()}
            if "reservations" in tables:
                empty["reservations"] = {(int(i), utc(u)) for i, u in conn.execute(
                    "SELECT id, updated_at FROM pms.reservations").fetchall()}
            if "folios__lines" in tables:
                empty["folio_lines"] = {(int(i),) for (i,) in conn.execute(
                    "SELECT id FROM pms.folios__lines").fetchall()}
            if "events" in tables:
                empty["events"] = {(int(i),) for (i,) in conn.execute(
                    "SELECT id FROM pms.events").fetchall()}
            return empty


def utc(value: object) -> str:
    """A timestamp (datetime or ISO text) as 'YYYY-MM-DDTHH:MM:SSZ' in UTC."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if not isinstance(value, datetime):
        raise TypeError(f"not a timestamp: {value!r}")
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
