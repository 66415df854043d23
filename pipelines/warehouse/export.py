"""Export the marts, the reconciliation and their views as Parquet, partitioned by property,
for the rest of the ecosystem (BI tools, Spark, a lakehouse): `pmsw export parquet DIR`, or on
every publish with PMSW_EXPORT_PARQUET=DIR (docs/scaling.md, "Parquet and object storage").

It reads the read copy (never the writer's file), so it runs beside a sync. Each table or
view `t` of schema mart becomes `DIR/t/property_id=<id>/data_0.parquet` (hive partitioning,
DuckDB's `COPY ... (FORMAT parquet, PARTITION_BY (property_id))`), each of schema recon
`DIR/recon/t/...`; one without a property_id column (mart.departments) is one file
`DIR/t/data_0.parquet`. Each is written to a temporary folder beside its target and swapped
in, so a reader never sees one half written (they are swapped one after another, not all at
once). A partitioned one is swapped in property by property, and only the partitions of the
properties the warehouse holds (core.property) are replaced or removed: a group's member
(docs/scaling.md, "A group: one file per property") exporting after its publish replaces its
own property's partitions and leaves the other members'.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipelines.warehouse.connection import WarehouseError
from pipelines.warehouse.reading import open_read_copy

EXPORT_ENV = "PMSW_EXPORT_PARQUET"
"""A folder: export the marts there as Parquet after every publish of the read copy."""
PARTITION = "property_id"


SCHEMAS = ("mart", "recon")
"""Exported, tables and views; mart at the top of the folder, recon under recon/."""


@dataclass(frozen=True)
class Exported:
    table: str
    """schema.name of the table or view."""
    path: Path
    rows: int
    partitioned: bool


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")


def relations(conn: duckdb.DuckDBPyConnection) -> list[tuple[str, str, bool]]:
    """(schema, name, has property_id) of every table and view of SCHEMAS, by schema and name."""
    rows = conn.execute(
        "SELECT schema_name, table_name, bool_or(column_name = $col) FROM duckdb_columns() "
        "WHERE database_name = current_database() AND list_contains($schemas, schema_name) "
        "GROUP BY 1, 2", {"col": PARTITION, "schemas": list(SCHEMAS)}).fetchall()
    return sorted(((str(schema), str(name), bool(has)) for schema, name, has in rows),
                  key=lambda r: (SCHEMAS.index(r[0]), r[1]))


def folder_of(target: Path, schema: str, name: str) -> Path:
    """Where the export puts schema.name under `target`."""
    return target / name if schema == "mart" else target / schema / name


def _swap(new: Path | None, final: Path) -> None:
    """Put the folder `new` where `final` is (removing what was there); None: remove it."""
    if final.exists():
        old = final.with_name(f".{final.name}.old-{os.getpid()}")
        os.replace(final, old)
        if new is not None:
            os.replace(new, final)
        shutil.rmtree(old, ignore_errors=True)
    elif new is not None:
        os.replace(new, final)


def _swap_partitions(temporary: Path, final: Path, held: list[int]) -> None:
    """The partitions written in `temporary` and those of the properties `held` swapped into
    `final` one by one (a held property without rows: its partition removed); the others
    left as they are."""
    final.mkdir(exist_ok=True)
    written = {p.name for p in temporary.iterdir() if p.is_dir()}
    for folder in sorted(written | {f"{PARTITION}={pid}" for pid in held}):
        _swap(temporary / folder if folder in written else None, final / folder)
    shutil.rmtree(temporary, ignore_errors=True)


def export_relations(conn: duckdb.DuckDBPyConnection, target: Path) -> list[Exported]:
    """Write every table and view of SCHEMAS of `conn` (a read copy connection) under
    `target`."""
    done: list[Exported] = []
    held = [int(r[0]) for r in
            conn.execute("SELECT property_id FROM core.property ORDER BY 1").fetchall()]
    for schema, name, partitioned in relations(conn):
        final = folder_of(target, schema, name)
        final.parent.mkdir(parents=True, exist_ok=True)
        temporary = final.with_name(f".{name}.tmp-{os.getpid()}")
        shutil.rmtree(temporary, ignore_errors=True)
        temporary.mkdir()
        relation = f'{schema}."{name}"'
        row = conn.execute(f"SELECT count(*) FROM {relation}").fetchone()
        rows = 0 if row is None else int(row[0])
        if rows:
            options = (f"FORMAT parquet, PARTITION_BY ({PARTITION}), OVERWRITE_OR_IGNORE"
                       if partitioned else "FORMAT parquet")
            out = temporary if partitioned else temporary / "data_0.parquet"
            conn.execute(f"COPY (SELECT * FROM {relation} ORDER BY ALL) "
                         f"TO '{_quoted(out)}' ({options})")
        if partitioned:
            _swap_partitions(temporary, final, held)
        else:
            _swap(temporary, final)
        done.append(Exported(f"{schema}.{name}", final, rows, partitioned))
    return done


def export_parquet(warehouse: str | Path | None, target: str | Path) -> tuple[list[Exported],
                                                                             float]:
    """Export the marts, recon.* and their views of the read copy of `warehouse` under
    `target`; (tables and views, seconds)."""
    started = time.perf_counter()
    conn = open_read_copy(warehouse)
    try:
        tables = export_relations(conn, Path(target))
    except (duckdb.Error, OSError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise WarehouseError(f"cannot export to {target}: {first}") from None
    finally:
        conn.close()
    return tables, time.perf_counter() - started


def export_after_publish(warehouse: str | Path | None) -> list[Exported] | None:
    """When PMSW_EXPORT_PARQUET names a folder, export there (after a publish)."""
    folder = os.environ.get(EXPORT_ENV, "").strip()
    if not folder:
        return None
    return export_parquet(warehouse, folder)[0]
