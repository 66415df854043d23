"""`pmsw sandbox ...`: serve the sandbox PMS (and, later, simulate and administer it)."""

from __future__ import annotations

import json
from typing import Any

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


# --- Admin of a running server (`serve --admin`): each command calls one /_sandbox endpoint ----

URL_OPTION = click.option(
    "--url", default="http://127.0.0.1:8400", show_default=True, envvar="PMSW_SANDBOX_URL",
    help="Root address of a sandbox served with --admin (env PMSW_SANDBOX_URL).")
ON_OFF = click.Choice(["on", "off"])


def _admin_call(url: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """Call an admin endpoint (`/_sandbox/...`); exit with a message when it refuses."""
    import httpx

    try:
        response = httpx.request(method, url.rstrip("/") + path, json=body, timeout=60)
    except httpx.HTTPError as exc:
        raise click.ClickException(f"cannot reach the sandbox at {url}: {exc}") from exc
    if response.status_code == 404 and path.startswith("/_sandbox"):
        raise click.ClickException(
            f"{method} {path}: not found (is the sandbox served with --admin?)")
    if response.status_code >= 400:
        raise click.ClickException(f"{method} {path}: HTTP {response.status_code} "
                                   f"{response.text}")
    return response.json()


def _echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, sort_keys=True))


@sandbox.command()
@URL_OPTION
@click.option("--show", is_flag=True, help="Only show the configuration and the counts.")
@click.option("--error-rate", type=click.FloatRange(0, 1), default=0.0,
              help="Share of calls answered 500 or 502.")
@click.option("--unavailable-rate", type=click.FloatRange(0, 1), default=0.0,
              help="Share of calls answered 503 with Retry-After.")
@click.option("--rate-limit-rate", type=click.FloatRange(0, 1), default=0.0,
              help="Share of calls starting a burst of 429 answers.")
@click.option("--rate-limit-burst", type=click.IntRange(1), default=3, show_default=True,
              help="Length of a 429 burst, in calls.")
@click.option("--retry-after", "retry_after_seconds", type=click.IntRange(0), default=1,
              show_default=True, help="Retry-After of injected 503 and 429 answers (s).")
@click.option("--latency-ms", type=click.IntRange(0), default=0, help="Latency added to calls.")
@click.option("--latency-jitter-ms", type=click.IntRange(0), default=0,
              help="Random extra latency, up to this many ms.")
@click.option("--drop-before-rate", type=click.FloatRange(0, 1), default=0.0,
              help="Share of connections dropped before the work is done.")
@click.option("--drop-after-rate", type=click.FloatRange(0, 1), default=0.0,
              help="Share of connections dropped after the work is done.")
@click.option("--truncate-rate", type=click.FloatRange(0, 1), default=0.0,
              help="Share of answers whose body is cut short.")
@click.option("--seed", type=int, default=None, help="Seed of the fault dice.")
def faults(url: str, show: bool, **config: Any) -> None:
    """Set fault injection on a running sandbox (every option omitted is off).

    \b
    Example:
      pmsw sandbox faults --error-rate 0.05 --latency-ms 200 --seed 7
      pmsw sandbox faults            # everything off
      pmsw sandbox faults --show
    """
    if show:
        _echo_json(_admin_call(url, "GET", "/_sandbox/faults"))
        return
    _echo_json(_admin_call(url, "PUT", "/_sandbox/faults", config))


@sandbox.command()
@URL_OPTION
@click.argument("switch", type=ON_OFF)
def maintenance(url: str, switch: str) -> None:
    """Switch maintenance on or off: every /v1 call answers 503 while on."""
    _echo_json(_admin_call(url, "PUT", "/_sandbox/maintenance", {"on": switch == "on"}))


@sandbox.command()
@URL_OPTION
@click.argument("property_id", type=int)
@click.argument("switch", type=ON_OFF)
def pause(url: str, property_id: int, switch: str) -> None:
    """Seasonal pause of PROPERTY_ID on or off: its writes answer 423 read_only while on."""
    _echo_json(_admin_call(url, "PUT", "/_sandbox/pause",
                           {"property_id": property_id, "on": switch == "on"}))


@sandbox.command()
@URL_OPTION
@click.confirmation_option(prompt="Empty the sandbox database and seed it again?")
def reset(url: str) -> None:
    """Empty the database of a running sandbox and seed it again."""
    _echo_json(_admin_call(url, "POST", "/_sandbox/reset"))
