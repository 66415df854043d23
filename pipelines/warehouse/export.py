"""Export the marts as Parquet, partitioned by property, for the rest of the ecosystem (BI
tools, Spark, a lakehouse): `pmsw export parquet DIR`, or on every publish with
PMSW_EXPORT_PARQUET=DIR (docs/scaling.md, "Parquet and object storage").

It reads the read copy (never the writer's file), so it runs beside a sync. Each mart.* table
`t` becomes `DIR/t/property_id=<id>/data_0.parquet` (hive partitioning, DuckDB's
`COPY ... (FORMAT parquet, PARTITION_BY (property_id))`); a table without a property_id
column (mart.departments) is one file `DIR/t/data_0.parquet`. Each table is written to a
temporary folder beside its target and swapped in, so a reader never sees a table half
written (the tables are swapped one after another, not all at once).
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipelines.warehouse.connection import WarehouseError, open_read_copy

EXPORT_ENV = "PMSW_EXPORT_PARQUET"
"""A folder: export the marts there as Parquet after every publish of the read copy."""
PARTITION = "property_id"


@dataclass(frozen=True)
class Exported:
    table: str
    """mart.<name>."""
    path: Path
    rows: int
    partitioned: bool


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")


def mart_tables(conn: duckdb.DuckDBPyConnection) -> list[tuple[str, bool]]:
    """(name, has property_id) of every base table of schema mart, by name."""
    rows = conn.execute(
        "SELECT t.table_name, bool_or(c.column_name = $col) FROM duckdb_tables() t "
        "JOIN duckdb_columns() c ON c.database_name = t.database_name "
        "AND c.schema_name = t.schema_name AND c.table_name = t.table_name "
        "WHERE t.database_name = current_database() AND t.schema_name = 'mart' "
        "GROUP BY t.table_name ORDER BY t.table_name", {"col": PARTITION}).fetchall()
    return [(str(name), bool(has)) for name, has in rows]


def export_marts(conn: duckdb.DuckDBPyConnection, target: Path) -> list[Exported]:
    """Write every mart table of `conn` (a read copy connection) under `target`."""
    target.mkdir(parents=True, exist_ok=True)
    done: list[Exported] = []
    for name, partitioned in mart_tables(conn):
        final = target / name
        temporary = target / f".{name}.tmp-{os.getpid()}"
        shutil.rmtree(temporary, ignore_errors=True)
        temporary.mkdir()
        row = conn.execute(f'SELECT count(*) FROM mart."{name}"').fetchone()
        rows = 0 if row is None else int(row[0])
        if rows:
            options = (f"FORMAT parquet, PARTITION_BY ({PARTITION}), OVERWRITE_OR_IGNORE"
                       if partitioned else "FORMAT parquet")
            out = temporary if partitioned else temporary / "data_0.parquet"
            conn.execute(f"COPY (SELECT * FROM mart.\"{name}\" ORDER BY ALL) "
                         f"TO '{_quoted(out)}' ({options})")
        if final.exists():
            old = target / f".{name}.old-{os.getpid()}"
            os.replace(final, old)
            os.replace(temporary, final)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(temporary, final)
        done.append(Exported(f"mart.{name}", final, rows, partitioned))
    return done


def export_parquet(warehouse: str | Path | None, target: str | Path) -> tuple[list[Exported],
                                                                             float]:
    """Export the marts of the read copy of `warehouse` under `target`; (tables, seconds)."""
    started = time.perf_counter()
    conn = open_read_copy(warehouse)
    try:
        tables = export_marts(conn, Path(target))
    except (duckdb.Error, OSError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise WarehouseError(f"cannot export the marts to {target}: {first}") from None
    finally:
        conn.close()
    return tables, time.perf_counter() - started


def export_after_publish(warehouse: str | Path | None) -> list[Exported] | None:
    """When PMSW_EXPORT_PARQUET names a folder, export the marts there (after a publish)."""
    folder = os.environ.get(EXPORT_ENV, "").strip()
    if not folder:
        return None
    return export_parquet(warehouse, folder)[0]
