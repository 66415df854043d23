"""`pmsw app`: serve the web app (pipelines/app) on the warehouse's read copy.

It plugs into `pmsw` through the `pmsw.commands` entry point (pyproject.toml), as the
sandbox does: the app sits beside `cli` (layer 8), so neither imports the other."""

from __future__ import annotations

from pathlib import Path

import click

from pipelines.reports import ReportError, open_warehouse
from pipelines.warehouse import DEFAULT_PATH, WAREHOUSE_ENV

from .access import TOKEN_ENV, AccessError, finance_token_for, token_for

DEFAULT_PORT = 8765


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help=f"Address to listen on; other than loopback it needs {TOKEN_ENV}.")
@click.option("--port", type=click.IntRange(1, 65535), default=DEFAULT_PORT,
              show_default=True, help="Port to listen on.")
@click.option("--warehouse", type=click.Path(path_type=Path),
              envvar=WAREHOUSE_ENV, default=DEFAULT_PATH, show_default=True,
              help="DuckDB warehouse file, or a group directory (one file a property); the "
                   f"app reads its read copy, a group's every member's (env {WAREHOUSE_ENV})")
def app(host: str, port: int, warehouse: Path) -> None:
    """The revenue manager's morning page and the controller's desk in a browser.

    \b
    Reads the read copy (data/warehouse.read.duckdb beside the warehouse) only, so it keeps
    answering while syncs, marts and closes write; each figure is the one `pmsw report`
    prints. Pages: / (morning), /flash, /forecast-accuracy, /segments, /curve, /worklist,
    /tieout, /ledger, /city-tax, each with ?property=CODE and its dates; docs/app.md. Examples:
      pmsw app
      pmsw app --port 8800 --warehouse data/warehouse.duckdb
      PMSW_APP_TOKEN=... PMSW_APP_FINANCE_TOKEN=... pmsw app --host 0.0.0.0

    \b
    With a token, resolving a worklist item needs the finance token (PMSW_APP_FINANCE_TOKEN).
    """
    import uvicorn

    from .server import create_app  # fastapi is loaded by `pmsw app`, not by every pmsw

    try:
        token = token_for(host)
        finance = finance_token_for(token)
        open_warehouse(warehouse).close()
    except (AccessError, ReportError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"pmsw app on http://{host}:{port}/ reading {warehouse} (its read copy); "
               "Ctrl-C stops it", err=True)
    uvicorn.run(create_app(warehouse, token, finance), host=host, port=port, log_level="warning")
