"""The one way a command outside Dagster writes the warehouse.

`writer()` connects as the writer (`connect`: waits for another writer with backoff), and on
a clean exit publishes the read copy, so every reader sees what the command wrote; an error
inside the block leaves the read copy as it was. Dagster's runs publish through their last
asset instead (`meta/read_copy`, pipelines/defs/warehouse/publish.py). A step that only reads
the writer's file in the middle of a writing command (the reconciliation's inputs, read before
it calls the API) passes `publish=False`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from pipelines.warehouse.connection import connect
from pipelines.warehouse.publish import publish as publish_copy


@contextmanager
def writer(path: str | Path | None, *, wait: float | None = None,
           publish: bool = True) -> Iterator[duckdb.DuckDBPyConnection]:
    """The warehouse at `path` (which must exist) held as the writer; the read copy published
    when the block ends without an error (and `publish`)."""
    with connect(path, create=False, wait=wait) as conn:
        yield conn
        if publish:
            publish_copy(conn, path)
