"""Bring an opened warehouse up to the schema the code ships, writing nothing when it is.

The migrations, the analyst views and `mart.departments` are applied by `migrate` and
`apply_views`; both are idempotent but not free (the views are replaced, a write that makes
DuckDB checkpoint on close). `meta.schema_state` keeps the fingerprint of what was applied
last, so a warehouse already up to date costs one read.
"""

from __future__ import annotations

import hashlib
from functools import cache

import duckdb

from pipelines.vocabulary import DEPARTMENTS
from pipelines.warehouse.migrate import applied, discover, migrate
from pipelines.warehouse.transaction import transaction
from pipelines.warehouse.views import apply_views, view_files


@cache
def shipped_fingerprint() -> str:
    """sha256 over the migrations, the view files and the departments of this code."""
    digest = hashlib.sha256()
    for migration in discover():
        digest.update(f"migration {migration.name} {migration.sha256}\n".encode())
    for path in view_files():
        digest.update(f"view {path.name}\n".encode() + path.read_bytes())
    for d in DEPARTMENTS:
        digest.update(f"department {d.code} {d.label} {d.is_revenue} {d.position}\n".encode())
    return digest.hexdigest()


def _stored(conn: duckdb.DuckDBPyConnection) -> str | None:
    try:
        rows = conn.execute("SELECT fingerprint FROM meta.schema_state").fetchall()
    except duckdb.CatalogException:  # a new warehouse, or one older than migration 0017
        return None
    return str(rows[0][0]) if rows else None


def bring_up_to_date(conn: duckdb.DuckDBPyConnection) -> None:
    """Migrate and (re)create the views unless the warehouse holds the shipped fingerprint."""
    expected = shipped_fingerprint()
    if _stored(conn) == expected:
        return
    migrate(conn)
    apply_views(conn)
    with transaction(conn):
        conn.execute("DELETE FROM meta.schema_state")
        conn.execute("INSERT INTO meta.schema_state VALUES (?, current_timestamp)", [expected])


def schema_gap(conn: duckdb.DuckDBPyConnection) -> str | None:
    """None when `conn`'s database holds the schema this code ships; else, for a reader (which
    cannot migrate), what differs and what to do, as the end of a sentence."""
    if _stored(conn) == shipped_fingerprint():
        return None
    held, latest = max(applied(conn), default=0), discover()[-1].version
    if held > latest:
        return (f"was written by a newer pms-warehouse (migration {held}; this one knows up to "
                f"{latest}): upgrade this one")
    which = "an older" if held < latest else "another"
    return (f"was written by {which} pms-warehouse (migration {held}; this one's is {latest}): "
            "`pmsw warehouse publish` brings it up to date, and so does the next sync")
