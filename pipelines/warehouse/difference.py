"""Write by difference: make a scope of a table equal to new rows, writing only what differs.

The way rows reach core.* (the ingest's merges; the marts compare their frames in polars the
same way, pipelines/marts/write.py). A re-read of an unchanged record lands rows equal to the
stored ones; deleting and inserting them again made DuckDB's CHECKPOINT rewrite the row groups
of every table a run touched, even a run with nothing new (docs/scaling.md, "No write in
proportion to size"). So the new rows are staged in a temp table shaped like the target (cast
as its INSERT would cast them), compared with the stored rows of the scope on the columns the
new rows hold but SEEN (the run and the fetch time, which name the read that last changed a
row; every read stays in raw.payloads); the stored rows no new row equals are deleted (by
rowid, in the transaction that read them), the new rows no stored row equals inserted.

The key (`pipelines.warehouse.keys`) is checked here, not by DuckDB alone: new rows holding a
key twice, or a key of a stored row the write leaves, are refused with a one-line error before
anything is written.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from pipelines.warehouse.keys import KEYS
from pipelines.warehouse.staging import drop

SEEN = ("last_seen_run", "fetched_at", "run_id")
"""The columns naming the run or the fetch time of a row: not compared."""

_TEMP = ("_diff_new", "_diff_old", "_diff_gone", "_diff_fresh")


class DuplicateKeyError(ValueError):
    """New rows would leave a table holding one key twice; nothing was written."""


def _columns(conn: duckdb.DuckDBPyConnection, select: str) -> list[str]:
    return [str(row[0]) for row in conn.execute(f"DESCRIBE {select}").fetchall()]


def _quoted(columns: Sequence[str], alias: str = "") -> str:
    return ", ".join(f'{alias}"{c}"' for c in columns)


def _count(conn: duckdb.DuckDBPyConnection, table: str) -> int:
    return int(conn.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0])


def _refuse(conn: duckdb.DuckDBPyConnection, table: str, key: Sequence[str], query: str,
            rule: str) -> None:
    """Raise when `query` finds a key; `rule` says what holds it (`{key}`: the key found)."""
    found = conn.execute(f"{query} LIMIT 1").fetchall()
    if found:
        held = f"the key ({', '.join(key)}) = ({', '.join(str(v) for v in found[0])})"
        raise DuplicateKeyError(f"{table}: {rule.format(key=held)}; nothing written")


def write_difference(conn: duckdb.DuckDBPyConnection, table: str, new: str,
                     scope: str | None = None, params: Sequence[object] = ()) -> tuple[int, int]:
    """Make the rows of `table` in `scope` (a predicate over the stored row `t`, `params` its
    `?`; None: the rows whose key a new row holds) equal to the rows the SELECT `new` gives
    (columns by name), writing only the difference, compared on the columns `new` gives but
    SEEN. Joins the caller's transaction; (rows inserted, rows deleted)."""
    key = KEYS.get(table, ())
    match = " AND ".join(f't."{c}" = n."{c}"' for c in key)
    given = _columns(conn, new)
    # Declared column by column: DuckDB 2.0.0 loses every row of an INSERT of 122,880 rows or
    # more into a table made by `CREATE TABLE ... AS SELECT ... LIMIT 0` in the same
    # transaction (docs/operations.md, "DuckDB's known faults").
    shape = ", ".join(f'"{name}" {kind}' for name, kind, *_ in
                      conn.execute(f"DESCRIBE {table}").fetchall())
    conn.execute(f"CREATE OR REPLACE TEMP TABLE _diff_new ({shape})")
    conn.execute(f"INSERT INTO _diff_new BY NAME {new}")
    if key:
        _refuse(conn, table, key, f"SELECT {_quoted(key)} FROM _diff_new GROUP BY ALL "
                "HAVING count(*) > 1", "two new rows hold {key}")
    compared = [c for c in given if c not in SEEN]
    same = " AND ".join(f'o."{c}" IS NOT DISTINCT FROM n."{c}"' for c in compared)
    where = scope or f"EXISTS (SELECT 1 FROM _diff_new n WHERE {match})"
    # The scope's stored rows read once (a scan of the table), then compared both ways.
    conn.execute("CREATE OR REPLACE TEMP TABLE _diff_old AS SELECT rowid AS _rowid, "
                 f"{_quoted(compared)} FROM {table} t WHERE {where}", list(params))
    fresh = "_diff_new"
    if _count(conn, "_diff_old"):
        conn.execute("CREATE OR REPLACE TEMP TABLE _diff_gone AS SELECT _rowid FROM _diff_old o "
                     f"ANTI JOIN _diff_new n ON {same}")
        conn.execute("CREATE OR REPLACE TEMP TABLE _diff_fresh AS SELECT n.* FROM _diff_new n "
                     f"ANTI JOIN _diff_old o ON {same}")
        fresh = "_diff_fresh"
    else:
        conn.execute("CREATE OR REPLACE TEMP TABLE _diff_gone AS SELECT _rowid FROM _diff_old")
    inserted, deleted = _count(conn, fresh), _count(conn, "_diff_gone")
    if key and scope is not None and inserted:  # a stored row out of the scope holding a key
        _refuse(conn, table, key, f"SELECT {_quoted(key, 't.')} FROM {table} t WHERE EXISTS "
                f"(SELECT 1 FROM {fresh} n WHERE {match}) "
                "AND t.rowid NOT IN (SELECT _rowid FROM _diff_gone)",
                "a new row holds {key} of a stored row it does not replace")
    if deleted:
        conn.execute(f"DELETE FROM {table} WHERE rowid IN (SELECT _rowid FROM _diff_gone)")
    if inserted:
        conn.execute(f"INSERT INTO {table} BY NAME SELECT {_quoted(given)} FROM {fresh}")
    drop(conn, *_TEMP)
    return inserted, deleted
