"""Sync properties in process, the same streams, checks and marts as the Dagster UI runs.

`materialize`: the Dagster definitions run on an ephemeral instance (no DAGSTER_HOME needed),
one run for a range of property partitions, its properties synced concurrently in each step
(pipelines.defs.each_property): `pmsw sync` of several properties into one file, the demo's
first and last syncs. `sync_alone`: one property of a file without a Dagster run, the same
steps and check verdicts (pipelines.defs.verdicts) in a run's order: `pmsw sync` of one
property, each process of the group layout. `sync_direct`: the streams and their checks only,
the demo's daily days."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from uuid import uuid4

import duckdb

from pipelines.defs.each_property import PropertiesFailedError, each_property
from pipelines.defs.verdicts import (
    EVENT_GAP_CHECK,
    VERDICTS,
    Scope,
    Verdict,
    event_gap,
    landed_checks,
    property_of_partition,
    stream_metadata,
)
from pipelines.ingest import (
    Endpoint,
    Hook,
    StreamResult,
    SyncSettings,
    load_properties,
    progress_hook,
    sync_property,
    sync_stream,
)
from pipelines.marts import MARTS, MartSettings, built_marts
from pipelines.properties import find_property
from pipelines.warehouse import connect, held, thread_cursor, writer

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


def contiguous(codes: Sequence[str], known: Sequence[str]) -> list[list[str]]:
    """`codes` as runs of neighbours in the partitions' order: a Dagster run takes one range."""
    ranges: list[list[str]] = []
    for code in sorted(set(codes), key=known.index):
        if ranges and known.index(ranges[-1][-1]) + 1 == known.index(code):
            ranges[-1].append(code)
        else:
            ranges.append([code])
    return ranges


def materialize(codes: Sequence[str], warehouse: Path, streams: Sequence[str], *,
                settings: SyncSettings | None = None, marts: bool = True,
                publish: bool = True, progress: Hook | None = None) -> list[PropertyRun]:
    """Materialize the ingestion assets of `streams` (and the marts) of the property
    partitions `codes` with their asset checks, then publish the read copy (`publish`): one
    run per range of neighbouring partitions (all of them: one run), its properties synced
    concurrently (pipelines.defs.each_property). One result per code, in the order asked; an
    error is kept on the result of the property it stopped, never raised."""
    import dagster as dg

    from pipelines.definitions import defs
    from pipelines.defs.keys import READ_COPY_KEY, stream_key
    from pipelines.defs.marts.assets import MARTS_GROUP
    from pipelines.defs.partitions import instance_with
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
    runs = {code: PropertyRun(code) for code in codes}
    known = resources["pms"].codes()  # the properties file as it is now
    for code in [c for c in codes if c not in known]:
        runs[code].error = PropertyConfigError(
            f"property {code!r} is not in the properties file ({', '.join(known)})")
    queue = contiguous([c for c in codes if c in known], known)
    # One open of the file for the whole run: its steps and checks reuse it (warehouse.held).
    with held(warehouse), instance_with(known) as instance:
        while queue:
            chosen = queue.pop(0)
            failed = _materialize_range([runs[c] for c in chosen], every, selection, resources,
                                        instance, progress)
            # A property that failed stopped its run after its step: the others of that run
            # go again without it (what they landed stays landed; they go on from their
            # cursors).
            if failed:
                queue += contiguous([c for c in chosen if c not in failed], known)
    return [runs[code] for code in codes]


def _materialize_range(runs: list[PropertyRun], every: list[Any], selection: Any,
                       resources: dict[str, Any], instance: Any,
                       progress: Hook | None) -> set[str]:
    """One run of the range `runs`; the codes that failed alone (PropertiesFailedError), whose
    neighbours must run again, else nothing."""
    import dagster as dg

    from pipelines.defs.keys import READ_COPY_KEY
    from pipelines.defs.partitions import RANGE_END, RANGE_START

    by_code = {run.code: run for run in runs}
    first, last = runs[0].code, runs[-1].code
    where: dict[str, Any] = ({"partition_key": first} if first == last else {"tags": {
        RANGE_START: first, RANGE_END: last}})
    try:
        with progress_hook(progress or (lambda *_: None)), _quiet_dagster():
            result = dg.materialize(every, selection=selection, resources=resources,
                                    run_config=QUIET_LOGS, raise_on_error=True,
                                    instance=instance, **where)
    except Exception as error:  # the key is never in a message
        failed = _user_error(error)
        if isinstance(failed, PropertiesFailedError):
            for code, why in failed.errors.items():
                by_code[code].error = why
            return set(failed.errors)
        for run in runs:
            run.error = failed
        return set()
    for event in result.get_asset_materialization_events():
        key, of = event.asset_key, by_code.get(event.partition or "")
        if key is None or key == READ_COPY_KEY or of is None:
            continue
        values = {k: v.value for k, v in event.materialization.metadata.items()}
        if key.path[0] == "mart":
            of.marts[key.path[-1]] = int(values["rows"])  # type: ignore[arg-type]
        else:
            of.streams[key.path[-1]] = values
    for evaluation in result.get_asset_check_evaluations():
        for run in runs:  # a check looks at the run's properties together
            if evaluation.severity == dg.AssetCheckSeverity.WARN:
                if not evaluation.passed:
                    run.warnings[evaluation.check_name] = evaluation.description or ""
                continue
            run.checks[evaluation.check_name] = (evaluation.passed,
                                                 evaluation.description or "")
    return set()


class _File:
    """The warehouse file as the checks open it (what WarehouseResource does for one file),
    for a sync without a run."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextmanager
    def connect(self, code: str | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
        with connect(self.path) as conn:
            yield conn

    def each(self, codes: Sequence[str] | None
             ) -> Iterator[tuple[str | None, duckdb.DuckDBPyConnection]]:
        with self.connect() as conn:
            yield None, conn


class _Apis:
    """The properties' APIs as PmsApiResource reaches them by default: the properties file
    (or the default property), read when asked."""

    def endpoint(self, code: str) -> Endpoint:
        return find_property(load_properties(), code).endpoint()


STEPS = ("events", "pos_ledger", "reference", "reservations", "availability",
         "pms/reservations", "folios", "pms/folios")
"""A Dagster run's steps of the streams (each after those it follows) and of their checks
(a path: the checks of that asset, by name), in the order the run takes them."""


def sync_alone(code: str, warehouse: Path, streams: Sequence[str], *,
               settings: SyncSettings, marts: bool = True,
               progress: Hook | None = None) -> PropertyRun:
    """What `materialize([code], warehouse, streams, ...)` does for one property of a file,
    without a Dagster run (its imports, event log and instance cost more CPU than anything it
    adds to one property: docs/scaling.md, "The fixed CPU of a sync"): the streams, their
    checks, the marts and theirs in a run's order, on the same connections, under a run id;
    then the read copy published. A step that fails stops the rest (nothing published) and is
    the result's error, as in a run; so is a blocking check that fails."""
    run, run_id = PropertyRun(code), str(uuid4())
    apis, files = _Apis(), _File(warehouse)
    scope = Scope([code], files, apis, run_id)
    steps = [s for s in STEPS if s in streams or s.removeprefix("pms/") in streams]
    if marts:
        steps += ["marts", "mart/alerts", "mart/revenue_tieout"]

    def check(asset: str) -> None:
        for name in sorted(n for n, (of, _, _) in VERDICTS.items() if of == asset):
            verdict = VERDICTS[name][2](scope)
            _judged(run, name, verdict, VERDICTS[name][1])

    def stream(name: str, _: str) -> StreamResult:
        endpoint = apis.endpoint(code)
        with files.connect() as conn, thread_cursor(conn) as cursor:
            return sync_stream(endpoint, cursor, run_id, name, settings)

    def build() -> None:
        with files.connect() as conn, thread_cursor(conn) as cursor:
            pid = property_of_partition(cursor, code, run_id)
            for name, _, written in built_marts(cursor, pid, MartSettings(), list(MARTS),
                                                run_id):
                run.marts[name] = written.rows

    try:
        with held(warehouse), progress_hook(progress or (lambda *_: None)):
            for step in steps:
                if "/" in step:
                    check(step)
                elif step == "marts":
                    each_property([code], lambda _: build(), 1)
                else:
                    landed = each_property([code], partial(stream, step), 1)[0][code]
                    run.streams[step] = stream_metadata(landed)
                    if step == "events":
                        _judged(run, EVENT_GAP_CHECK, event_gap({code: landed}), False)
            with writer(warehouse):  # the read copy, as the run's last asset publishes it
                pass
    except Exception as error:  # a run that failed says only its error
        return PropertyRun(code, error=error)
    return run


def _judged(run: PropertyRun, name: str, verdict: Verdict, blocking: bool) -> None:
    """A check's verdict kept on the run (a WARN one among the warnings if it failed); a
    blocking one that failed stops the run."""
    if verdict.warn:
        if not verdict.passed:
            run.warnings[name] = verdict.description
        return
    run.checks[name] = (verdict.passed, verdict.description)
    if blocking and not verdict.passed:
        raise RuntimeError(f"asset check {name} failed: {verdict.description}")


def sync_direct(codes: Sequence[str], warehouse: Path, streams: Sequence[str], *,
                settings: SyncSettings) -> list[PropertyRun]:
    """What `materialize(codes, warehouse, streams, marts=False, publish=False)` lands and
    checks, without a Dagster run: each property's streams (pipelines.ingest, the assets'
    function) on its own thread through the one writing path (pipelines.warehouse.writer,
    not published), then the checks of their assets evaluated as a run of `codes` evaluates
    them (a blocking one that fails is the properties' error, as it fails a run). For a caller
    that syncs often and little (the demo's days), which need not pay a run's own work each
    time; nothing is published and Dagster records nothing of it."""
    apis, run_id = _Apis(), f"direct-{uuid4()}"
    runs = {code: PropertyRun(code) for code in codes}
    with writer(warehouse, publish=False) as conn:
        def one(code: str) -> list[StreamResult]:
            with thread_cursor(conn) as cursor:
                return sync_property(apis.endpoint(code), cursor, run_id, settings, streams)

        results, errors = each_property(list(codes), one, settings.properties_at_once)
    for code, error in errors.items():
        runs[code].error = error
    for code, landed in results.items():
        runs[code].streams = {r.stream: {k: v for k, v in vars(r).items() if k != "preview"}
                              for r in landed}
    if not results:
        return [runs[code] for code in codes]
    try:
        checks = landed_checks([f"pms/{s}" for s in streams],
                               Scope(list(results), _File(warehouse), apis))
    except PropertiesFailedError as error:  # a check that asks the API, as a run keeps it
        for code, why in error.errors.items():
            runs[code].error = why
        return [runs[code] for code in codes]
    if "events" in streams:
        checks[EVENT_GAP_CHECK] = event_gap({c: r for c, landed in results.items()
                                             for r in landed if r.stream == "events"})
    for code in results:
        run = runs[code]
        run.checks = {name: (c.passed, c.description) for name, c in checks.items()}
        failed = [name for name, c in checks.items() if not c.passed and VERDICTS.get(
            name, ("", False))[1]]
        if failed:
            run.error = RuntimeError(f"asset check {failed[0]} failed: "
                                     f"{run.checks[failed[0]][1]}")
    return [runs[code] for code in codes]
