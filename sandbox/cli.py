"""`pmsw sandbox ...`: serve the sandbox PMS (and, later, simulate and administer it)."""

from __future__ import annotations

import json
from contextlib import closing
from datetime import date, datetime
from pathlib import Path
from typing import Any

import click

from .clock import Clock
from .seed import GROUP_FIRST_ID, GROUP_MAX, KEYS, group_hotels, group_key, stored_group
from .settings import SandboxSettings


class UsageExit(click.ClickException):
    """A refused argument: one line `Error: ...` and exit 2, as every usage error."""

    exit_code = 2


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
@click.option("--clock", "clock_kind", type=click.Choice(["wall", "simulated"]), default="wall",
              show_default=True, help="Wall time, or simulated time moved by /_sandbox/advance.")
@click.option("--start", type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S%z"]), default=None,
              help="Simulated clock: start instant (default: where the database left it).")
@click.option("--pos-export", type=click.Path(file_okay=False), default=None,
              help="Folder for the POS ledger of days simulated through /_sandbox.")
@click.option("--group", type=click.IntRange(0, GROUP_MAX), default=0, show_default=True,
              help="Hotels of a group seeded in a new database (ids 101..., keys "
                   "sbx_group_001...).")
def serve(host: str, port: int, db_path: str, rate_per_minute: int, burst: int, admin: bool,
          allow_http_webhooks: bool, clock_kind: str, start: datetime | None,
          pos_export: str | None, group: int) -> None:
    """Serve API v1 under /v1 until interrupted.

    \b
    Example:
      pmsw sandbox serve --port 8400 --db data/sandbox.sqlite
      curl -H 'Authorization: Bearer sbx_test_all_scopes' http://127.0.0.1:8400/v1/me
    """
    import os

    import uvicorn

    from .http.app import create_app

    if db_path != ":memory:":
        os.makedirs(os.path.dirname(os.path.abspath(db_path)), exist_ok=True)
    settings = SandboxSettings(db_path=db_path, rate_per_minute=rate_per_minute, burst=burst,
                               admin=admin, allow_http_webhooks=allow_http_webhooks,
                               pos_export_dir=pos_export, group=group)
    app = create_app(settings, server_clock(clock_kind, db_path, start))
    click.echo(f"Sandbox PMS API v1 at http://{host}:{port}/v1  (database: {db_path})")
    click.echo("Keys:")
    for key in KEYS:
        state = "revoked" if key.revoked else f"property {key.property_id}"
        click.echo(f"  {key.key:<26} {state}")
    for hotel in group_hotels(stored_group_of(db_path) or group):
        number = hotel.property_id - GROUP_FIRST_ID + 1
        click.echo(f"  {group_key(number):<26} property {hotel.property_id} ({hotel.code})")
    uvicorn.run(app, host=host, port=port, log_level="warning", date_header=False)


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


# --- Time: the server's clock, the simulator, advancing days and the night audit ------------

def stored_group_of(db_path: str) -> int:
    """The group an existing sandbox database was seeded with (0: none, or a new database)."""
    from .db import open_db

    if db_path == ":memory:" or not Path(db_path).exists():
        return 0
    with closing(open_db(db_path)) as conn:
        return stored_group(conn)


def server_clock(kind: str, db_path: str, start: datetime | None) -> Clock:
    """`--clock wall` or `simulated`: from `--start`, else where the database's simulated time
    stopped (settings `simulated_now`), else now."""
    from .clock import SimulatedClock, WallClock

    if kind == "wall":
        return WallClock()
    from zoneinfo import ZoneInfo

    from .db import open_db
    from .settings import stored_clock

    if start is not None:
        instant = start if start.tzinfo else start.replace(tzinfo=ZoneInfo("Europe/Rome"))
        return SimulatedClock(instant)
    stored = None
    if db_path != ":memory:" and Path(db_path).exists():
        conn = open_db(db_path)
        stored = stored_clock(conn)
        conn.close()
    return SimulatedClock(stored or WallClock().now())


@sandbox.command()
@click.option("--db", "db_path", required=True, help="SQLite file to create (must not exist).")
@click.option("--days", type=click.IntRange(1, 3660), required=True, help="Days to simulate.")
@click.option("--seed", type=int, required=True, help="Seed: the same seed, the same hotel.")
@click.option("--start", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="First simulated day (default: the days end yesterday).")
@click.option("--pos-export", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the POS ledger, one CSV per business date.")
@click.option("--property", "property_ids", type=int, multiple=True,
              help="Hotel to simulate (repeatable; default 1).")
@click.option("--progress", is_flag=True,
              help="Write `day N/M` on stderr after each simulated day.")
@click.option("--group", type=click.IntRange(0, GROUP_MAX), default=0, show_default=True,
              help="Hotels of a group seeded in a new database (ids 101..., keys "
                   "sbx_group_001...).")
@click.option("--events-file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the simulated hotels' dated events there, as a hotel events "
                   "file (docs/calendar.md; the rules, not the factors).")
def simulate(db_path: str, days: int, seed: int, start: datetime | None,
             pos_export: Path | None, property_ids: tuple[int, ...], progress: bool,
             group: int, events_file: Path | None) -> None:
    """Play N days of a hotel's life into a new database, deterministic for a seed.

    \b
    Example:
      pmsw sandbox simulate --db data/hotel.sqlite --days 365 --seed 42 --pos-export data/pos
      pmsw sandbox serve --db data/hotel.sqlite      # goes on in wall time, no jump
    """
    from .simulator.run import simulate_database

    first: date | None = start.date() if start is not None else None
    try:
        report = simulate_database(
            db_path, days=days, seed=seed, start=first, property_ids=property_ids or (1,),
            pos_export=pos_export, group=group,
            on_day=(lambda done, total: click.echo(f"day {done}/{total}", err=True))
            if progress else None)
    except (FileExistsError, ValueError) as exc:  # an argument the simulator refuses
        raise UsageExit(str(exc)) from exc
    if events_file is not None:
        from .simulator.events_file import write_events_file

        write_events_file(events_file, property_ids or (1,))
    _echo_json(report.as_dict())


@sandbox.command()
@URL_OPTION
@click.option("--days", type=click.IntRange(1, 400), default=1, show_default=True)
@click.option("--property", "property_ids", type=int, multiple=True,
              help="Hotel whose activity is simulated (repeatable; default 1).")
def advance(url: str, days: int, property_ids: tuple[int, ...]) -> None:
    """Advance a server on the simulated clock by N days (activity, then night audit)."""
    body: dict[str, Any] = {"days": days}
    if property_ids:
        body["property_ids"] = list(property_ids)
    _echo_json(_admin_call(url, "POST", "/_sandbox/advance", body))


@sandbox.command(name="night-audit")
@URL_OPTION
@click.option("--property", "property_id", type=int, default=None,
              help="Property to audit (default: every property).")
def night_audit(url: str, property_id: int | None) -> None:
    """Run the night audit of a running server (closes the business date)."""
    body = {} if property_id is None else {"property_id": property_id}
    _echo_json(_admin_call(url, "POST", "/_sandbox/night-audit", body))
