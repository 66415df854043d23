"""One DuckDB transaction around a landing; nested uses join the outermost one."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

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
