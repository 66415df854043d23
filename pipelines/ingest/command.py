"""`pmsw sync`: materialize the ingestion assets of pipelines.definitions for the properties.

The same assets, resources and checks as in Dagster (pipelines.materialize; one property
runs them without a Dagster run, `sync_alone`), into the
warehouse (`--warehouse`): one run for the properties, synced concurrently, each bounded by
its own key's limit (docs/ingestion.md, "A hotel group"); a progress bar per stream when one
property syncs. The run ends with the read copy published (meta/read_copy). Errors are one
line each, per property.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from pipelines.cli.options import as_json, format_option, wait_option, warehouse_option
from pipelines.ingest import STREAMS


class Bars:
    """One click progress bar per (property, stream), drawn as the sync core reports."""

    def __init__(self) -> None:
        self._key: tuple[str, str] | None = None
        self._bar: Any = None
        self._done = 0

    def __call__(self, code: str, stream: str, done: int, total: int) -> None:
        if (code, stream) != self._key or (self._bar is not None and total != self._bar.length):
            self.close()
            self._key = (code, stream)
            if total <= 0:
                return
            label = f"{code:<10} {stream:<13}"
            bar: Any = click.progressbar(length=total, label=label, show_pos=True, file=sys.stderr)
            bar.__enter__()
            self._bar = bar
            self._done = 0
        if self._bar is not None and done > self._done:
            self._bar.update(done - self._done)
            self._done = done

    def close(self) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
        self._bar = None
        self._key = None


def run_sync(codes: Sequence[str], warehouse: Path, streams: Sequence[str],
             full_folio_refresh: bool, show_progress: bool, marts: bool = True,
             properties_at_once: int | None = None, as_data: bool = False) -> int:
    """Sync each property (then build its marts); print a line per stream and mart (or, with
    `as_data`, one JSON list of the properties' streams, marts, failed checks and warnings);
    return the process exit code."""
    from pipelines.ingest import SyncSettings
    from pipelines.materialize import materialize, sync_alone

    at_once = {} if properties_at_once is None else {"properties_at_once": properties_at_once}
    settings = SyncSettings(full_folio_refresh=full_folio_refresh, **at_once)
    failed = 0
    # Several properties sync at once (one run): their bars would overwrite each other.
    bars = Bars() if show_progress and len(codes) == 1 else None
    # One property: its run without Dagster's (the same steps, checks and records; less CPU).
    runs = ([sync_alone(codes[0], warehouse, streams, settings=settings, marts=marts,
                        progress=bars)] if len(codes) == 1
            else materialize(codes, warehouse, streams, settings=settings, marts=marts,
                             progress=bars))
    if bars is not None:
        bars.close()
    said: dict[str, list[str]] = {}
    summary: list[dict[str, Any]] = []
    for run in runs:
        code = run.code
        summary.append({"property": code, "error": None if run.error is None else
                        f"{type(run.error).__name__}: {run.error}", "streams": run.streams,
                        "marts": run.marts, "checks_failed": {
                            n: why for n, (passed, why) in run.checks.items() if not passed},
                        "warnings": run.warnings})
        if run.error is not None:
            click.echo(f"pmsw sync: property {code}: {type(run.error).__name__}: {run.error}",
                       err=True)
            failed += 1
            continue
        for stream, m in run.streams.items():
            message = m.get("message")
            note = f" [{m['status']}: {message}]" if m["status"] != "success" or message else ""
            if not as_data:
                click.echo(f"{code:<10} {stream:<13} {m['calls']:>6} calls {m['rows']:>8} rows "
                           f"{m['seconds']:>8.2f} s {m['errors']:>4} errors{note}")
        for mart, count in run.marts.items():
            if not as_data:
                click.echo(f"{code:<10} mart.{mart:<22} {count:>8} rows")
        for name, (passed, why) in run.checks.items():
            if not passed:
                said.setdefault(f"check {name} failed: {why}", []).append(code)
        for name, why in run.warnings.items():
            said.setdefault(f"warning: {name}: {why}", []).append(code)
    if as_data:
        click.echo(as_json(summary))
    # A check looks at the whole run: said once, naming the properties the run covered.
    for what, codes_said in said.items():
        whose = "property" if len(codes_said) == 1 else "properties"
        click.echo(f"pmsw sync: {whose} {', '.join(codes_said)}: {what}", err=True)
        failed += what.startswith("check ")
    return 1 if failed else 0


def chosen_partitions(codes: Sequence[str]) -> list[str]:
    """The partition of each PMS property code asked (all by default). Without a properties
    file the default property's API must serve the code asked."""
    from pipelines.properties import DEFAULT_CODE, PropertyConfig, find_property, load_properties

    properties = load_properties()
    chosen: list[tuple[str | None, PropertyConfig]] = [
        (c, find_property(properties, c)) for c in codes] or [(None, p) for p in properties]
    for asked, prop in chosen:
        endpoint = prop.endpoint()  # a missing key or URL: say so before starting
        if asked is not None and asked.lower() != DEFAULT_CODE and prop.code == DEFAULT_CODE:
            with endpoint.client() as client:
                served = client.get_property().code
            if served.lower() != asked.lower():
                raise click.ClickException(f"unknown property {asked!r}: the API of "
                                           f"PMS_API_BASE_URL serves {served}")
    return [prop.code for _, prop in chosen]


@click.command()
@click.option("--property", "codes", multiple=True, metavar="CODE",
              help="PMS property code (repeatable; default: every property).")
@warehouse_option()
@wait_option()
@click.option("--stream", "streams", multiple=True, type=click.Choice(list(STREAMS)),
              help="Stream to sync (repeatable; default: all).")
@click.option("--full-folio-refresh", is_flag=True,
              help="Re-read the folios of every reservation (closed folios stay final).")
@click.option("--no-progress", is_flag=True, help="No progress bars.")
@click.option("--no-marts", is_flag=True, help="Land the data only; do not rebuild the marts.")
@click.option("--properties-at-once", type=click.IntRange(min=1), metavar="N",
              help="Properties synced at the same time (default 20); fewer hold less memory.")
@format_option()
def sync(codes: tuple[str, ...], warehouse: Path, streams: tuple[str, ...],
         full_folio_refresh: bool, no_progress: bool, no_marts: bool,
         properties_at_once: int | None, fmt: str) -> None:
    """Land the PMS in the DuckDB warehouse: every stream of every property, incrementally,
    then rebuild the property's marts (mart.*).

    \b
    Properties: PMSW_PROPERTIES_FILE (or ./properties.yaml), else one property from
    PMS_API_BASE_URL and PMS_API_KEY. Runs the Dagster assets of pipelines.definitions
    (one property: their steps and checks without a Dagster run).
    A directory as --warehouse is a group: each property syncs in its own process into
    DIR/<CODE>.duckdb, in parallel (docs/scaling.md).
    """
    from pipelines.api import PmsError
    from pipelines.properties import PropertyConfigError

    try:
        partitions = chosen_partitions(codes)
    except (PropertyConfigError, PmsError) as error:
        raise click.ClickException(str(error)) from None
    if warehouse.is_dir():  # the group layout: a process per property, each its own file
        from pipelines.ingest import SyncSettings
        from pipelines.ingest.group_runs import sync_group

        args = [*(a for s in streams for a in ("--stream", s)),
                *(["--full-folio-refresh"] if full_folio_refresh else []),
                *(["--no-marts"] if no_marts else []), "--format", fmt]
        at_once = properties_at_once or SyncSettings().properties_at_once
        raise SystemExit(sync_group(partitions, warehouse, args, at_once, fmt == "json"))
    code = run_sync(partitions, warehouse, list(streams) or list(STREAMS), full_folio_refresh,
                    not no_progress, not no_marts, properties_at_once, fmt == "json")
    raise SystemExit(code)
