"""Run the Dagster definitions in process: the one door `pmsw sync` and the demo share with
the Dagster UI (the same assets, resources and asset checks, `dg.materialize` on an ephemeral
instance, no DAGSTER_HOME needed), one property partition at a time."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipelines.ingest.progress import Hook, progress_hook
from pipelines.ingest.settings import SyncSettings

QUIET_LOGS = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
"""Dagster logs a failed step at ERROR with its stack trace: the caller says it in one line."""


@dataclass
class PropertyRun:
    """What one materialization of one property did: per stream the metadata of its asset
    (calls, rows, seconds, errors, status, message), per mart its rows, per asset check
    (passed, description), or the error that stopped it."""

    code: str
    streams: dict[str, dict[str, Any]] = field(default_factory=dict)
    marts: dict[str, int] = field(default_factory=dict)
    checks: dict[str, tuple[bool, str]] = field(default_factory=dict)
    """Blocking (ERROR) asset check name: (passed, description)."""
    warnings: dict[str, str] = field(default_factory=dict)
    """WARN asset checks that did not pass: name -> description (they never fail a run)."""
    error: BaseException | None = None


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


def materialize(code: str, warehouse: Path, streams: Sequence[str], *,
                settings: SyncSettings | None = None, marts: bool = True,
                publish: bool = True, progress: Hook | None = None) -> PropertyRun:
    """Materialize the ingestion assets of `streams` (and the marts) of property partition
    `code` with their asset checks, then publish the read copy (`publish`); an error is kept
    on the result, never raised."""
    import dagster as dg

    from pipelines.definitions import defs
    from pipelines.defs.keys import READ_COPY_KEY, stream_key
    from pipelines.defs.marts import MARTS_GROUP
    from pipelines.defs.partitions import PROPERTIES
    from pipelines.defs.resources import SyncSettingsResource, WarehouseResource
    from pipelines.properties import PropertyConfigError

    resources: dict[str, Any] = dict(defs.resources or {})
    resources["warehouse"] = WarehouseResource(path=str(warehouse))
    resources["sync_settings"] = SyncSettingsResource(
        **(settings or SyncSettings()).model_dump())
    every = [d for d in [*(defs.assets or []), *(defs.asset_checks or [])]
             if isinstance(d, dg.AssetsDefinition)]
    selection: dg.AssetSelection = dg.AssetSelection.assets(*[stream_key(s) for s in streams])
    if marts:
        selection = selection | dg.AssetSelection.groups(MARTS_GROUP)
    if publish:
        selection = selection | dg.AssetSelection.assets(READ_COPY_KEY)
    run = PropertyRun(code)
    known = PROPERTIES.get_partition_keys()
    if code not in known:
        run.error = PropertyConfigError(
            f"property {code!r} is not among the partitions this process loaded "
            f"({', '.join(known)}): the properties file is read when pipelines.definitions is "
            "first imported")
        return run
    try:
        with progress_hook(progress or (lambda *_: None)), _quiet_dagster():
            result = dg.materialize(every, selection=selection, partition_key=code,
                                    resources=resources, run_config=QUIET_LOGS,
                                    raise_on_error=True)
    except Exception as error:  # the key is never in a message
        run.error = _user_error(error)
        return run
    for event in result.get_asset_materialization_events():
        key = event.asset_key
        if key is None or key == READ_COPY_KEY:
            continue
        values = {k: v.value for k, v in event.materialization.metadata.items()}
        if key.path[0] == "mart":
            run.marts[key.path[-1]] = int(values["rows"])  # type: ignore[arg-type]
        else:
            run.streams[key.path[-1]] = values
    for evaluation in result.get_asset_check_evaluations():
        if evaluation.severity == dg.AssetCheckSeverity.WARN:
            if not evaluation.passed:
                run.warnings[evaluation.check_name] = evaluation.description or ""
            continue
        run.checks[evaluation.check_name] = (evaluation.passed, evaluation.description or "")
    return run
