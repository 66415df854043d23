"""`pmsw export parquet DIR`: every table and view of mart.* and recon.* of the read copy as
Parquet, partitioned by property (`pipelines.warehouse.export`; docs/scaling.md, "Parquet and
object storage")."""

from __future__ import annotations

from pathlib import Path

import click

from pipelines.cli.options import warehouse_option


@click.group()
def export() -> None:
    """Export the warehouse for other tools."""


@export.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@warehouse_option()
def parquet(directory: Path, warehouse: Path) -> None:
    """Write every table and view of mart.* and recon.* of the read copy as Parquet under
    DIRECTORY, one folder each partitioned by property
    (DIRECTORY/<table>/property_id=<id>/data_0.parquet; recon's under DIRECTORY/recon/).

    Reads the read copy, never the writer's file, so it runs beside a sync. To export on
    every publish instead, set PMSW_EXPORT_PARQUET=DIRECTORY for the writers."""
    from pipelines.warehouse import WarehouseError, export_parquet

    try:
        tables, seconds = export_parquet(warehouse, directory)
    except WarehouseError as error:
        raise click.ClickException(str(error)) from None
    for table in tables:
        layout = "by property" if table.partitioned else "one file"
        click.echo(f"{table.table:<32} {table.rows:>9} rows  {layout:<11} {table.path}")
    click.echo(f"{len(tables)} tables and views exported to {directory} in {seconds:.2f} s")
