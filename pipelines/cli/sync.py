"""`pmsw sync`: materialize the ingestion assets of pipelines.definitions, property by property.

The same assets, resources and checks as in Dagster (dg.materialize, in process, on an
ephemeral instance: no DAGSTER_HOME needed), into `data/warehouse.duckdb` unless
`--warehouse` says otherwise, with a progress bar per stream. Errors are one line each.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from pipelines.ingest import STREAMS, PropertyConfigError, find_property, load_properties
from pipelines.warehouse import DEFAULT_PATH

QUIET_LOGS = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
"""Dagster logs a failed step at ERROR with its stack trace: `run_sync` says it in one line."""


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


@contextmanager
def _quiet_dagster() -> Iterator[None]:
    logger = logging.getLogger("dagster")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def _user_error(error: BaseException) -> BaseException:
    """The exception raised by our code inside a Dagster step, else the error itself."""
    found: BaseException = error
    while True:
        inner = getattr(found, "user_exception", None) or found.__cause__
        if not isinstance(inner, BaseException) or inner is found:
            return found
        found = inner


def run_sync(codes: Sequence[str], warehouse: Path, streams: Sequence[str],
             full_folio_refresh: bool, show_progress: bool, marts: bool = True) -> int:
    """Sync each property (then build its marts); print a line per stream and mart; return
    the process exit code."""
    import dagster as dg

    from pipelines.definitions import defs
    from pipelines.defs.keys import stream_key
    from pipelines.defs.marts import MARTS_GROUP
    from pipelines.defs.resources import SyncSettingsResource, WarehouseResource
    from pipelines.ingest.progress import progress_hook
    from pipelines.warehouse import connect

    resources = dict(defs.resources or {})
    resources["warehouse"] = WarehouseResource(path=str(warehouse))
    resources["sync_settings"] = SyncSettingsResource(full_folio_refresh=full_folio_refresh)
    every = [d for d in [*(defs.assets or []), *(defs.asset_checks or [])]
             if isinstance(d, dg.AssetsDefinition)]
    selection: dg.AssetSelection = dg.AssetSelection.assets(*[stream_key(s) for s in streams])
    if marts:
        selection = selection | dg.AssetSelection.groups(MARTS_GROUP)
    failed = 0
    bars = Bars()
    for code in codes:
        try:
            with progress_hook(bars if show_progress else lambda *_: None), _quiet_dagster():
                result = dg.materialize(every, selection=selection, partition_key=code,
                                        resources=resources, run_config=QUIET_LOGS,
                                        raise_on_error=True)
        except Exception as error:  # one line, no traceback (the key is never in a message)
            bars.close()
            cause = _user_error(error)
            click.echo(f"pmsw sync: property {code}: {type(cause).__name__}: {cause}", err=True)
            failed += 1
            continue
        bars.close()
        conn = connect(warehouse)
        try:
            rows = conn.execute(
                'SELECT stream, calls, "rows", seconds, errors, status, message '
                "FROM meta.sync_runs WHERE run_id = ? ORDER BY started_at",
                [result.run_id]).fetchall()
        finally:
            conn.close()
        for stream, calls, count, seconds, errors, status, message in rows:
            note = f" [{status}: {message}]" if status != "success" or message else ""
            click.echo(f"{code:<10} {stream:<13} {calls:>6} calls {count:>8} rows "
                       f"{seconds:>8.2f} s {errors:>4} errors{note}")
        for event in result.get_asset_materialization_events():
            key, meta = event.asset_key, event.materialization.metadata
            if key is not None and key.path[0] == "mart" and "rows" in meta:
                click.echo(f"{code:<10} mart.{key.path[-1]:<22} {meta['rows'].value:>8} rows")
        for evaluation in result.get_asset_check_evaluations():
            if not evaluation.passed and evaluation.severity == dg.AssetCheckSeverity.WARN:
                click.echo(f"pmsw sync: property {code}: warning: {evaluation.check_name}: "
                           f"{evaluation.description or ''}", err=True)
            elif not evaluation.passed:
                click.echo(f"pmsw sync: property {code}: check {evaluation.check_name} "
                           f"failed: {evaluation.description or ''}", err=True)
                failed += 1
    return 1 if failed else 0


@click.command()
@click.option("--property", "codes", multiple=True,
              help="Property code of the properties file (repeatable; default: all).")
@click.option("--warehouse", type=click.Path(dir_okay=False, path_type=Path),
              default=DEFAULT_PATH, show_default=True, help="DuckDB warehouse file.")
@click.option("--stream", "streams", multiple=True, type=click.Choice(list(STREAMS)),
              help="Stream to sync (repeatable; default: all).")
@click.option("--full-folio-refresh", is_flag=True,
              help="Re-read the folios of every reservation (closed folios stay final).")
@click.option("--no-progress", is_flag=True, help="No progress bars.")
@click.option("--no-marts", is_flag=True, help="Land the data only; do not rebuild the marts.")
def sync(codes: tuple[str, ...], warehouse: Path, streams: tuple[str, ...],
         full_folio_refresh: bool, no_progress: bool, no_marts: bool) -> None:
    """Land the PMS in the DuckDB warehouse: every stream of every property, incrementally,
    then rebuild the property's marts (mart.*).

    \b
    Properties: PMSW_PROPERTIES_FILE (or ./properties.yaml), else one property from
    PMS_API_BASE_URL and PMS_API_KEY. Runs the Dagster assets of pipelines.definitions.
    """
    try:
        properties = load_properties()
        chosen = [find_property(properties, c) for c in codes] if codes else properties
        for prop in chosen:
            prop.endpoint()  # a missing key or URL: say so before starting
    except PropertyConfigError as error:
        raise click.ClickException(str(error)) from None
    code = run_sync([p.code for p in chosen], warehouse, list(streams) or list(STREAMS),
                    full_folio_refresh, not no_progress, not no_marts)
    raise SystemExit(code)
