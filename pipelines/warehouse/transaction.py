"""One DuckDB transaction around a landing; nested uses join the outermost one.

Every writer of a process shares one lock: the outermost block holds it from BEGIN to COMMIT.
A group sync fetches the properties concurrently, each on its own cursor of the one
database, and lands them one short transaction at a time (docs/ingestion.md, "A hotel
group"); nothing of two properties ever interleaves in a commit, and a publish taken under
the lock copies a file no transaction is writing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

WRITER_LOCK = threading.RLock()
"""Held by the outermost `transaction()` of any connection of this process."""

# Connections currently inside a `transaction()` block of this module. DuckDB has no nested
# transactions, so an inner block joins the outer one and only the outermost commits.
_open: set[int] = set()


@contextmanager
def transaction(conn: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    """Commit everything written in the block, or nothing if it raises.

    Nested blocks on the same connection join the outermost: a Dagster asset can land several
    streams and move their cursors all or nothing by wrapping the loaders in one block.
    """
    key = id(conn)
    if key in _open:
        yield conn
        return
    with WRITER_LOCK:
        conn.begin()
        _open.add(key)
        try:
            yield conn
        except BaseException:
            _open.discard(key)
            conn.rollback()
            raise
        _open.discard(key)
        conn.commit()
