"""Write only the rows that changed: make a scope of a core table equal to new rows by difference.

A re-read of an unchanged record (the overlap window, the folios read every run, the property
data and the availability re-read every run) lands rows equal to the stored ones. Deleting and
inserting them again made DuckDB's CHECKPOINT rewrite the row groups and indexes of every
table a run touched, even a run with nothing new (docs/scaling.md, "No write in proportion to
size"). So a stored row equal to its new row (the columns naming the run or the fetch time
left out of the comparison) stays as it is, with the run and fetch time of the read that last
changed it; every read stays in raw.payloads with its own run and time.
"""

from __future__ import annotations

import duckdb

from pipelines.warehouse import drop

SEEN = ("last_seen_run", "fetched_at", "run_id")
"""The columns naming the run or the fetch time of a row: not compared."""


def _count(conn: duckdb.DuckDBPyConnection, table: str) -> int:
    row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()
    return 0 if row is None else int(row[0])


_SHAPES: dict[str, tuple[list[str], list[str]]] = {}
"""(columns, primary key) per core table, read once a process: the migrations fix them."""


def _shape(conn: duckdb.DuckDBPyConnection, table: str) -> tuple[list[str], list[str]]:
    if table not in _SHAPES:
        schema, name = table.split(".")
        columns = [str(c) for (c,) in conn.execute(
            "SELECT column_name FROM duckdb_columns() WHERE schema_name = ? AND table_name = ? "
            "ORDER BY column_index", [schema, name]).fetchall()]
        found = conn.execute(
            "SELECT constraint_column_names FROM duckdb_constraints() WHERE schema_name = ? "
            "AND table_name = ? AND constraint_type = 'PRIMARY KEY'", [schema, name]).fetchall()
        _SHAPES[table] = (columns, [str(c) for c in found[0][0]])
    return _SHAPES[table]


def merge_changed(conn: duckdb.DuckDBPyConnection, table: str, new: str,
                  scope: str | None = None, params: list[object] | None = None) -> None:
    """Make the rows of `table` in `scope` (a predicate over the stored row `t`; None: the rows
    whose primary key a new row holds) equal to the rows `new` selects (columns by name, cast
    to the table's types as an INSERT would), writing only the difference: a stored row equal
    to a new one on every column but SEEN is left alone; the others of the scope are deleted by
    their primary key; the new rows not stored are inserted. `params` fill the `?` of `scope`.
    The caller holds the transaction."""
    columns, key = _shape(conn, table)
    compared = ", ".join(f'"{c}"' for c in columns if c not in SEEN)
    keys = ", ".join(f'"{c}"' for c in key)
    match = " AND ".join(f't."{c}" = n."{c}"' for c in key)
    where = scope or f"EXISTS (SELECT 1 FROM _merge_new n WHERE {match})"
    conn.execute(f"CREATE OR REPLACE TEMP TABLE _merge_new AS SELECT * FROM {table} LIMIT 0")
    conn.execute(f"INSERT INTO _merge_new BY NAME {new}")
    # The scope's stored rows read once (a scan of the table), then compared both ways.
    conn.execute(f"CREATE OR REPLACE TEMP TABLE _merge_old AS SELECT {compared} FROM {table} t "
                 f"WHERE {where}", params or [])
    conn.execute(f"""CREATE OR REPLACE TEMP TABLE _merge_gone AS SELECT {keys} FROM (
        SELECT * FROM _merge_old EXCEPT SELECT {compared} FROM _merge_new)""")
    conn.execute(f"""CREATE OR REPLACE TEMP TABLE _merge_fresh AS SELECT {keys} FROM (
        SELECT {compared} FROM _merge_new EXCEPT SELECT * FROM _merge_old)""")
    gone, fresh = _count(conn, "_merge_gone"), _count(conn, "_merge_fresh")
    if gone:
        conn.execute(f"DELETE FROM {table} t USING _merge_gone n WHERE {match}")
    if fresh:
        conn.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _merge_new t "
                     f"WHERE EXISTS (SELECT 1 FROM _merge_fresh n WHERE {match})")
    drop(conn, "_merge_new", "_merge_old", "_merge_gone", "_merge_fresh")
