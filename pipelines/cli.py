"""`pmsw`: the command line of pms-warehouse.

Commands of other packages of the distribution plug in through the `pmsw.commands` entry
point group (the sandbox does so), so `pipelines` never imports `sandbox`.
"""

from __future__ import annotations

from datetime import timedelta
from importlib.metadata import entry_points

import click
import httpx

from models import Availability, ListOf, Property, Quote, RatePlan, RoomType


@click.group()
@click.version_option(package_name="pms-warehouse")
def main() -> None:
    """pms-warehouse: an analytics warehouse for hotels, fed by their PMS's API v1."""


@main.command()
@click.option("--nights", default=7, show_default=True, type=click.IntRange(1, 62),
              help="Nights of availability to show.")
def demo(nights: int) -> None:
    """Start the sandbox PMS, show what it serves over API v1, and stop it."""
    from .sandbox_process import TEST_KEY, sandbox_process

    click.echo("Starting the sandbox PMS (pmsw sandbox serve, fresh database)...")
    with sandbox_process() as base_url, httpx.Client(
        base_url=base_url, headers={"Authorization": f"Bearer {TEST_KEY}"}, timeout=30,
    ) as api:
        click.echo(f"Sandbox PMS API v1 at {base_url}\n")
        _show_sandbox(api, nights)
    click.echo("\nSandbox stopped.")


def _get(api: httpx.Client, path: str, **params: str) -> httpx.Response:
    response = api.get(path, params=params)
    response.raise_for_status()
    return response


def _show_sandbox(api: httpx.Client, nights: int) -> None:
    prop = Property.model_validate(_get(api, "/property").json())
    types = ListOf[RoomType].model_validate(_get(api, "/room-types").json()).data
    plans = ListOf[RatePlan].model_validate(_get(api, "/rate-plans").json()).data
    click.echo(f"Property {prop.id}: {prop.name} ({prop.code}), {prop.city}, "
               f"{prop.star_rating} stars, {prop.currency}, business date {prop.business_date}")

    click.echo(f"\nRoom types ({sum(t.rooms for t in types)} rooms on sale):")
    for room_type in types:
        click.echo(f"  {room_type.code:<5} {room_type.name:<24} {room_type.rooms:>3} rooms  "
                   f"max {room_type.max_pax} persons")

    click.echo("\nRate plans:")
    for plan in plans:
        notes = [n for n, on in (("default", plan.is_default), ("per person", plan.per_person))
                 if on]
        if plan.discount_pct:
            notes.append(f"-{plan.discount_pct}%")
        line = f"  {plan.code:<5} {plan.name:<24} {plan.cadence.value:<8} {', '.join(notes)}"
        click.echo(line.rstrip())

    first = prop.business_date
    end = first + timedelta(days=nights)
    availability = Availability.model_validate(_get(
        api, "/availability", **{"from": first.isoformat(), "to": end.isoformat()}).json())
    click.echo(f"\nAvailable rooms, {nights} nights from {first}:")
    days = availability.data[0].days if availability.data else []
    click.echo("  " + " " * 5 + "".join(f"{d.date:%a %d}".rjust(8) for d in days))
    for entry in availability.data:
        click.echo(f"  {entry.code:<5}" + "".join(f"{d.available:>8}" for d in entry.days))

    room_type = types[0]
    default_plan = next((p for p in plans if p.is_default), plans[0])
    arrival, departure = first + timedelta(days=7), first + timedelta(days=10)
    response = api.post("/quotes", json={
        "room_type_id": room_type.id, "arrival": arrival.isoformat(),
        "departure": departure.isoformat(), "adults": 2})
    response.raise_for_status()
    quote = Quote.model_validate(response.json())
    click.echo(f"\nQuote: {room_type.code}, 2 adults, {arrival} to {departure}, "
               f"plan {default_plan.code} (default):")
    for night in quote.nights:
        click.echo(f"  {night.date:%a %Y-%m-%d}  {night.price:>9.2f} {prop.currency}")
    click.echo(f"  {'total':<14}  {quote.total:>9.2f} {prop.currency}")


def _add_sync() -> None:
    from .sync_command import sync

    main.add_command(sync)


def _add_reconcile() -> None:
    from .reconcile_command import reconcile

    main.add_command(reconcile)


def _load_plugins() -> None:
    for entry in entry_points(group="pmsw.commands"):
        command = entry.load()
        if isinstance(command, click.Command):
            main.add_command(command, name=entry.name)


_add_sync()
_add_reconcile()
_load_plugins()


if __name__ == "__main__":
    main()
