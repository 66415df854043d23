"""`pmsw warehouse info|publish|compact`: the warehouse file, its read copy and what that copy
holds, and the file's upkeep.

    pmsw warehouse info                 # files, sizes, publish time, runs held per property
    pmsw warehouse publish              # publish the read copy now (waits for a writer)
    pmsw warehouse compact              # rewrite the file when 20 % or more of it is free

On a group directory (one file a property, docs/scaling.md) `info` tells the members together
(their sizes summed, the runs held per property) and `publish` publishes each member's read
copy in turn, or only that of `--property CODE`.

What `dlt pipeline info` is for dlt users. `info` reads the read copy only, so it never waits
for a running sync; `publish` and `compact` are writers (docs/operations.md, "Reading while
syncing", "Upkeep of the warehouse files").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pipelines.cli.options import as_json, format_option, wait_option, warehouse_option
from pipelines.warehouse import COMPACT_THRESHOLD


def _bytes(path: Path) -> int | None:
    return path.stat().st_size if path.is_file() else None


def info_facts(warehouse: Path) -> dict[str, Any]:
    """What `pmsw warehouse info` tells, as data (WarehouseError when there is no warehouse):
    the files and their bytes, when the copy was published, and per property the last run of
    each part it holds; `error` when the copy cannot be read."""
    from pipelines.warehouse import (
        WarehouseMissingError,
        WarehouseSchemaError,
        member_copies,
        open_read_copy,
        read_copy_path,
    )

    copy = read_copy_path(warehouse)
    wal = warehouse.with_name(warehouse.name + ".wal")
    facts: dict[str, Any] = {
        "warehouse": str(warehouse), "warehouse_bytes": _bytes(warehouse),
        "wal_bytes": _bytes(wal), "read_copy": str(copy), "read_copy_bytes": _bytes(copy),
        "published_at": None, "properties": [], "error": None}
    if warehouse.is_dir():  # a group: the members' files (docs/scaling.md)
        copies = member_copies(warehouse)
        files = [p for p in warehouse.glob("*.duckdb") if p not in copies.values()]
        facts.update({
            "warehouse_bytes": sum(p.stat().st_size for p in files), "wal_bytes": None,
            "read_copy": f"{warehouse}/<CODE>.read.duckdb ({len(copies)} of {len(files)} "
                         "members published)",
            "read_copy_bytes": sum(p.stat().st_size for p in copies.values())})
    try:
        conn = open_read_copy(warehouse)
    except (WarehouseMissingError, WarehouseSchemaError) as error:
        if not warehouse.exists():
            raise
        facts["error"] = str(error)
        return facts
    with conn:
        published = conn.execute("SELECT max(published_at) FROM meta.published").fetchone()
        facts["published_at"] = published[0] if published else None
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
    by_property: dict[int, dict[str, Any]] = {}
    for pid, code, part, run_id, status, finished in rows:
        prop = by_property.setdefault(pid, {
            "property_id": pid, "code": code, "reservations": counts.get(pid, 0),
            "quarantined": held.get(pid, 0), "runs": []})
        prop["runs"].append({"part": part, "status": status, "finished_at": finished,
                             "run_id": run_id})
    facts["properties"] = list(by_property.values())
    return facts


def _size(size: int | None) -> str:
    if size is None:
        return "-"
    scaled = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if scaled < 1024 or unit == "GiB":
            return f"{scaled:,.0f} {unit}" if unit == "B" else f"{scaled:,.1f} {unit}"
        scaled /= 1024
    return "-"


def info_text(facts: dict[str, Any]) -> str:
    """The lines `pmsw warehouse info` prints."""
    lines = [f"warehouse   {facts['warehouse']}  {_size(facts['warehouse_bytes'])}"
             + (f" (+ {_size(facts['wal_bytes'])} write-ahead log)"
                if facts["wal_bytes"] is not None else ""),
             f"read copy   {facts['read_copy']}  {_size(facts['read_copy_bytes'])}"]
    if facts["error"]:
        return "\n".join([*lines, f"            {facts['error']}"])
    lines.append(f"published   {facts['published_at'] or 'unknown'}")
    if not facts["properties"]:
        lines.append("runs held   none (nothing synced yet)")
        return "\n".join(lines)
    lines.append("runs held   (the last run of each part of each property in the read copy)")
    lines.append(f"  {'property':<10} {'part':<15} {'status':<10} {'finished':<26} run")
    for prop in facts["properties"]:
        quarantined = f", {prop['quarantined']} in quarantine" if prop["quarantined"] else ""
        lines.append(f"  {prop['code']:<10} ({prop['reservations']} reservations{quarantined})")
        for run in prop["runs"]:
            finished = run["finished_at"]
            stamp = finished.strftime("%Y-%m-%d %H:%M:%S %Z") if finished else "-"
            lines.append(f"  {'':<10} {run['part']:<15} {run['status'] or '-':<10} "
                         f"{stamp:<26} {run['run_id']}")
    return "\n".join(lines)


@click.group()
def warehouse() -> None:
    """The warehouse file and the read copy readers open (docs/operations.md)."""


@warehouse.command()
@warehouse_option()
@format_option()
def info(warehouse: Path, fmt: str) -> None:
    """Print the warehouse file, its read copy, when it was published, the runs it holds per
    property and stream, and the sizes. Reads the read copy only: never waits for a sync.
    --format json: the same as one JSON object (sizes in bytes, times in ISO 8601)."""
    from pipelines.warehouse import WarehouseError

    try:
        facts = info_facts(warehouse)
    except WarehouseError as error:
        raise click.ClickException(str(error)) from None
    click.echo(as_json(facts) if fmt == "json" else info_text(facts))


@warehouse.command()
@warehouse_option("DuckDB warehouse file, or a group directory (one file a property)")
@click.option("--property", "code", metavar="CODE", default=None,
              help="On a group directory: publish this property's file only (default: every "
                   "member's, one after another).")
@wait_option()
def publish(warehouse: Path, code: str | None) -> None:
    """Publish the read copy now (a writer: waits while another writer holds the file).

    Every sync, mart build and reconciliation already publishes at its end; this is for a
    warehouse written by an older version or by hand. On a group directory each member's
    file is published to its own read copy."""
    from pipelines.warehouse import WarehouseError, connect
    from pipelines.warehouse import publish as publish_copy

    try:
        for file in _files(warehouse, code):
            with connect(file, create=False) as conn:
                done = publish_copy(conn, file)
            click.echo(f"published {done.path} ({_size(_bytes(done.path))}) in "
                       f"{done.seconds:.2f} s: {done.how}, {done.written:,} bytes written")
    except WarehouseError as error:
        raise click.ClickException(str(error)) from None


@warehouse.command()
@warehouse_option("DuckDB warehouse file, or a group directory (every member's file)")
@click.option("--property", "code", default=None, metavar="CODE",
              help="In a group directory, only this property's file.")
@click.option("--threshold", type=click.FloatRange(0, 1), default=COMPACT_THRESHOLD,
              show_default=True,
              help="Rewrite a file when at least this share of its blocks is free.")
@click.option("--force", is_flag=True, help="Rewrite whatever the free share.")
@wait_option()
def compact(warehouse: Path, code: str | None, threshold: float, force: bool) -> None:
    """Rewrite the warehouse file when --threshold or more of it is free space (a DuckDB file
    never shrinks after deletes and rebuilt marts), swap it in atomically and publish its read
    copy. A writer: waits while another writer holds the file. Weekly in Dagster
    (`warehouse_upkeep`); docs/operations.md, "Upkeep of the warehouse files"."""
    from pipelines.warehouse import WarehouseError
    from pipelines.warehouse import compact as compact_file

    try:
        for path in _files(warehouse, code):
            done = compact_file(path, threshold=threshold, force=force)
            free = f"{done.before.free_share:.0%} free ({_size(done.before.free_bytes)})"
            if done.rewritten:
                click.echo(f"compacted {path}: {_size(done.before.file_bytes)} -> "
                           f"{_size(done.after_bytes)}, was {free}, in {done.seconds:.2f} s; "
                           "read copy published")
            else:
                click.echo(f"left {path} as it is: {_size(done.before.file_bytes)}, {free}, "
                           f"below {threshold:.0%}")
    except WarehouseError as error:
        raise click.ClickException(str(error)) from None


def _files(warehouse: Path, code: str | None) -> list[Path]:
    """The files `publish` and `compact` write, each in turn (pipelines.warehouse.files_of);
    --property on a warehouse file is a usage error."""
    from pipelines.warehouse import files_of, is_group

    if code is not None and not is_group(warehouse):
        raise click.UsageError(f"--property is for a group directory; {warehouse} is one "
                               "file, taken whole")
    return files_of(warehouse, code)
