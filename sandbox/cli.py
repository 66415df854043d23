"""`pmsw sandbox ...`: serve the sandbox PMS (and, later, simulate and administer it)."""

from __future__ import annotations

import click

from .seed import KEYS
from .settings import SandboxSettings


@click.group(name="sandbox")
def sandbox() -> None:
    """The local PMS that speaks API v1: serve it, simulate a hotel, administer it."""


@sandbox.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8400, show_default=True, type=int, help="Port to listen on.")
@click.option("--db", "db_path", default="data/sandbox.sqlite", show_default=True,
              help="SQLite file (created and seeded when new); ':memory:' keeps nothing.")
@click.option("--rate-per-minute", default=600, show_default=True, type=int,
              help="Calls per minute per key.")
@click.option("--burst", default=120, show_default=True, type=int, help="Burst per key.")
@click.option("--admin", is_flag=True, help="Serve the /_sandbox admin endpoints.")
@click.option("--allow-http-webhooks", is_flag=True,
              help="Accept http:// webhook addresses on loopback (tests).")
def serve(host: str, port: int, db_path: str, rate_per_minute: int, burst: int, admin: bool,
          allow_http_webhooks: bool) -> None:
    """Serve API v1 under /v1 until interrupted.

    \b
    Example:
      pmsw sandbox serve --port 8400 --db data/sandbox.sqlite
      curl -H 'Authorization: Bearer sbx_test_all_scopes' http://127.0.0.1:8400/v1/me
    """
    import os

    import uvicorn

    from .app import create_app

    if db_path != ":memory:":
        os.makedirs(os.path.dirname(os.path.abspath(db_path)), exist_ok=True)
    settings = SandboxSettings(db_path=db_path, rate_per_minute=rate_per_minute, burst=burst,
                               admin=admin, allow_http_webhooks=allow_http_webhooks)
    app = create_app(settings)
    click.echo(f"Sandbox PMS API v1 at http://{host}:{port}/v1  (database: {db_path})")
    click.echo("Keys:")
    for key in KEYS:
        state = "revoked" if key.revoked else f"property {key.property_id}"
        click.echo(f"  {key.key:<26} {state}")
    uvicorn.run(app, host=host, port=port, log_level="warning")
