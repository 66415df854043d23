"""`pmsw warehouse info|publish`: the warehouse file, its read copy and what that copy holds.

    pmsw warehouse info                 # files, sizes, publish time, runs held per property
    pmsw warehouse publish              # publish the read copy now (waits for a writer)

What `dlt pipeline info` is for dlt users. `info` reads the read copy only, so it never waits
for a running sync; `publish` is a writer (docs/operations.md, "Reading while syncing").
"""

from __future__ import annotations

from pathlib import Path

import click

from pipelines.cli.options import wait_option, warehouse_option


def _size(path: Path) -> str:
    if not path.is_file():
        return "-"
    size = float(path.stat().st_size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:,.0f} {unit}" if unit == "B" else f"{size:,.1f} {unit}"
        size /= 1024
    return "-"


def info_text(warehouse: Path) -> str:
    """The lines `pmsw warehouse info` prints (WarehouseError when there is no warehouse)."""
    from pipelines.warehouse import (
        WarehouseMissingError,
        WarehouseSchemaError,
        open_read_copy,
        read_copy_path,
    )

    copy = read_copy_path(warehouse)
    wal = warehouse.with_name(warehouse.name + ".wal")
    lines = [f"warehouse   {warehouse}  {_size(warehouse)}"
             + (f" (+ {_size(wal)} write-ahead log)" if wal.is_file() else ""),
             f"read copy   {copy}  {_size(copy)}"]
    try:
        conn = open_read_copy(warehouse)
    except (WarehouseMissingError, WarehouseSchemaError) as error:
        if not warehouse.is_file():
            raise
        return "\n".join([*lines, f"            {error}"])
    try:
        published = conn.execute(
            "SELECT max(published_at) FROM meta.published").fetchone()
        lines.append(f"published   {published[0] if published and published[0] else 'unknown'}")
        rows = conn.execute(
            "SELECT p.property_id, coalesce(x.code, '?'), p.part, p.run_id, p.status, "
            "p.finished_at FROM meta.published p LEFT JOIN core.property x USING (property_id) "
            "ORDER BY p.property_id, p.part = 'marts', p.part = 'reconciliation', p.part"
        ).fetchall()
        counts = dict(conn.execute(
            "SELECT property_id, count(*) FROM core.reservations GROUP BY ALL").fetchall())
        held = dict(conn.execute(  # docs/ingestion.md, "Quarantine"
            "SELECT property_id, count(*) FROM meta.quarantine WHERE released_at IS NULL "
            "GROUP BY ALL").fetchall())
    finally:
        conn.close()
    if not rows:
        lines.append("runs held   none (nothing synced yet)")
        return "\n".join(lines)
    lines.append("runs held   (the last run of each part of each property in the read copy)")
    lines.append(f"  {'property':<10} {'part':<15} {'status':<10} {'finished':<26} run")
    shown: set[int] = set()
    for pid, code, part, run_id, status, finished in rows:
        if pid not in shown:
            shown.add(pid)
            quarantined = f", {held[pid]} in quarantine" if held.get(pid) else ""
            lines.append(f"  {code:<10} ({counts.get(pid, 0)} reservations{quarantined})")
        stamp = finished.strftime("%Y-%m-%d %H:%M:%S %Z") if finished else "-"
        lines.append(f"  {'':<10} {part:<15} {status or '-':<10} {stamp:<26} {run_id}")
    return "\n".join(lines)


@click.group()
def warehouse() -> None:
    """The warehouse file and the read copy readers open (docs/operations.md)."""


@warehouse.command()
@warehouse_option()
def info(warehouse: Path) -> None:
    """Print the warehouse file, its read copy, when it was published, the runs it holds per
    property and stream, and the sizes. Reads the read copy only: never waits for a sync."""
    from pipelines.warehouse import WarehouseError

    try:
        click.echo(info_text(warehouse))
    except WarehouseError as error:
        raise click.ClickException(str(error)) from None


@warehouse.command()
@warehouse_option()
@wait_option()
def publish(warehouse: Path) -> None:
    """Publish the read copy now (a writer: waits while another writer holds the file).

    Every sync, mart build and reconciliation already publishes at its end; this is for a
    warehouse written by an older version or by hand."""
    from pipelines.warehouse import WarehouseError, connect
    from pipelines.warehouse import publish as publish_copy

    try:
        conn = connect(warehouse, create=False)
        try:
            done = publish_copy(conn, warehouse)
        finally:
            conn.close()
    except WarehouseError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"published {done.path} ({_size(done.path)}) in {done.seconds:.2f} s")
