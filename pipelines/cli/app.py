"""`pmsw app`: serve the web app (pipelines/app) on the warehouse's read copy."""

from __future__ import annotations

from pathlib import Path

import click

from pipelines.app import TOKEN_ENV, AccessError, create_app, token_for
from pipelines.reports import ReportError, open_warehouse

from .options import warehouse_option

DEFAULT_PORT = 8765


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help=f"Address to listen on; other than loopback it needs {TOKEN_ENV}.")
@click.option("--port", type=click.IntRange(1, 65535), default=DEFAULT_PORT,
              show_default=True, help="Port to listen on.")
@warehouse_option("DuckDB warehouse file; the app reads its read copy")
def app(host: str, port: int, warehouse: Path) -> None:
    """The revenue manager's morning page and the controller's desk in a browser.

    \b
    Reads the read copy (data/warehouse.read.duckdb beside the warehouse) only, so it keeps
    answering while syncs, marts and closes write; each figure is the one `pmsw report`
    prints. Pages: / (morning), /flash, /forecast-accuracy, /worklist, /tieout, /ledger,
    /city-tax, each with ?property=CODE and its dates; docs/app.md. Examples:
      pmsw app
      pmsw app --port 8800 --warehouse data/warehouse.duckdb
      PMSW_APP_TOKEN=... pmsw app --host 0.0.0.0
    """
    import uvicorn

    try:
        token = token_for(host)
        open_warehouse(warehouse).close()
    except (AccessError, ReportError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"pmsw app on http://{host}:{port}/ reading {warehouse} (its read copy); "
               "Ctrl-C stops it", err=True)
    uvicorn.run(create_app(warehouse, token), host=host, port=port, log_level="warning")
