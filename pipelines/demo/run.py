"""The demo's steps, with progress: a simulated year, the sandbox serving it, daily syncs,
marts, reconciliation, summary. The first sync and the last steps materialize the Dagster
definitions in process, asset checks included, like `pmsw sync` (pipelines.materialize); the
days between run the same streams and checks without a Dagster run each
(pipelines.materialize.sync_direct, through the one writing path).

Each played day ends with the daily close (pipelines/demo/close.py): the day's folios and
POS ledger files are landed and the reconciliation posts what the POS dropped while the guest
is in house. After the stretch the folios are read once more in a full refresh, and a final
dry run and apply cover the whole stretch (docs/operations.md, Folio calls).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import click

from pipelines.demo.budget import import_demo_budget
from pipelines.demo.close import CLOSE_STREAMS, close_day, hand_over_the_day
from pipelines.demo.config import DemoConfig, DemoError, start_clean
from pipelines.demo.levels import store_levels
from pipelines.demo.sandbox_admin import SandboxAdmin, hand_over_pos_files
from pipelines.demo.sandbox_process import sandbox_process
from pipelines.demo.simulate import simulate_history
from pipelines.demo.summary import Summary, read_summary
from pipelines.ingest import SyncSettings
from pipelines.materialize import PropertyRun, materialize, sync_direct
from pipelines.vocabulary import counted
from pipelines.warehouse import connect, held, read_copy_path

DAILY_STREAMS = ("reference", "events", "reservations", "availability")
FIRST_STREAMS = (*DAILY_STREAMS, "folios")
FINAL_STREAMS = ("reference", "events", "reservations", "folios", "availability", "pos_ledger")


@dataclass
class DemoResult:
    seconds: dict[str, float] = field(default_factory=dict)
    summary: Summary | None = None
    checks: dict[str, dict[str, tuple[bool, str]]] = field(default_factory=dict)
    """Per hotel, the asset checks of its runs: name -> (passed, description), a failure kept."""

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds.values())


class Progress:
    """Numbered step lines with their duration; bars for the long loops."""

    def __init__(self, steps: int, enabled: bool, result: DemoResult) -> None:
        self.steps, self.enabled, self.result, self.n = steps, enabled, result, 0

    @contextmanager
    def step(self, key: str, text: str) -> Iterator[Callable[[str], None]]:
        self.n += 1
        began = time.perf_counter()
        notes: list[str] = []
        click.echo(f"[{self.n}/{self.steps}] {text}")
        yield notes.append
        seconds = time.perf_counter() - began
        self.result.seconds[key] = round(seconds, 1)
        for note in notes:
            click.echo(f"      {note}")
        click.echo(f"      done in {seconds:.1f} s")

    def bar(self, length: int, label: str) -> Any:
        return click.progressbar(length=length, label=f"      {label}", show_pos=True,
                                 show_eta=False, hidden=not self.enabled)


def run_demo(config: DemoConfig) -> DemoResult:
    result = DemoResult()
    progress = Progress(8, config.progress, result)
    start_clean(config)
    ids = [h.property_id for h in config.hotels]
    codes = [h.code for h in config.hotels]
    _simulate(config, progress, ids, codes)
    args = ["--admin", "--clock", "simulated", "--rate-per-minute", str(config.rate_per_minute),
            "--burst", str(config.burst), "--pos-export", str(config.pos_incoming)]
    with ExitStack() as stack:
        with progress.step("sandbox", "Starting the sandbox PMS on the simulated hotels "
                                      "(child process, loopback, simulated clock)") as note:
            base_url = stack.enter_context(
                sandbox_process(db_path=config.sandbox_db, extra_args=args))
            note(f"API v1 at {base_url}, database {config.sandbox_db}")
        admin = SandboxAdmin(base_url)
        stack.callback(admin.close)
        stack.enter_context(config.properties_in_use(base_url))
        _play(config, progress, admin, ids, codes, base_url, result)
    with progress.step("summary", "Summary") as _:
        result.summary = read_summary(config, result.checks)
    return result


def _simulate(config: DemoConfig, progress: Progress, ids: list[int], codes: list[str]) -> None:
    start = config.start()
    with progress.step("simulate", f"Simulating {counted(config.days, 'day')} of two hotels "
                                   f"from {start} (bookings made before it, stays, "
                                   "cancellations, POS, night audits)") as note:
        with progress.bar(config.days, "days") as bar:
            done = 0

            def on_day(day: int) -> None:
                nonlocal done
                bar.update(day - done)
                done = day

            business_date = simulate_history(
                config.sandbox_db, days=config.days, seed=config.seed, start=start,
                property_ids=ids, pos_export=config.pos_incoming, on_day=on_day,
                events_file=config.events_file)
        hand_over_pos_files(config.pos_incoming, config.pos_root, codes)
        note(f"business date now {business_date}")


def _play(config: DemoConfig, progress: Progress, admin: SandboxAdmin, ids: list[int],
          codes: list[str], base_url: str, result: DemoResult) -> None:
    sweep_days = config.folio_sweep_days or config.daily_syncs
    # The future book in the stretch's long sweep, not read whole at each day's first run
    # (future_folios_daily): the demo's shortcut (DemoConfig.folio_sweep_days).
    daily = SyncSettings(stay_guests=False, folio_sweep_hours=24 * sweep_days,
                         future_folios_daily=False)

    def sync_all(codes: Sequence[str], streams: Sequence[str],
                 settings: SyncSettings = daily, marts: bool = False,
                 direct: bool = False) -> list[PropertyRun]:
        # One run for the hotels asked, synced side by side (as `pmsw sync` does a group),
        # or the same without a run (`direct`). The read copy is published once, with the
        # marts: readers wait for the whole demo.
        runs = (sync_direct(codes, config.warehouse, streams, settings=settings) if direct
                else materialize(codes, config.warehouse, streams, settings=settings,
                                 marts=marts, publish=marts))
        for run in runs:
            if run.error is not None:
                raise DemoError(f"{run.code}: {type(run.error).__name__}: {run.error}")
            failed = [(s, m) for s, m in run.streams.items() if m["status"] != "success"]
            if failed:
                raise DemoError(f"{run.code}: stream {failed[0][0]} {failed[0][1]['status']}: "
                                f"{failed[0][1].get('message')}")
            checks = result.checks.setdefault(run.code, {})
            for name, outcome in run.checks.items():
                if outcome[0] is False or name not in checks:
                    checks[name] = outcome
        return runs

    with progress.step("first_sync", "First sync: full load of reservations, events, "
                                     "availability and folios into DuckDB (the Dagster "
                                     "assets and their checks), then the marts") as note:
        # With the marts: the forecast made as the stretch begins is kept
        # (mart.forecast_history), the one the flash's day and month to date stand against;
        # with the folios, its F&B and other revenue (their spend per room sold, issue 49).
        for run in sync_all(codes, FIRST_STREAMS, marts=True):
            note(f"{run.code}: " + ", ".join(f"{s} {m['rows']} rows" for s, m
                                             in run.streams.items() if s != "reference"))
    # The warehouse stays open from here on: the daily syncs' steps and checks, the closes'
    # writers and the last steps reuse the open file instead of reading it again (held).
    with held(config.warehouse):
        with progress.step("daily", f"{counted(config.daily_syncs, 'day')}, one at a time: "
                                    "the hotels live a day, then the warehouse syncs"
                                    + (" and closes the day" if config.daily_close else "")
                                    + " (the streams and checks, no Dagster run a day)"
                           ) as note:
            with progress.bar(config.daily_syncs, "days") as bar:
                posted = blocked = 0
                # A day is one sync of both hotels: their reservations, and with the close
                # the day's folios and POS files, then the close of each hotel.
                streams = (*DAILY_STREAMS, *CLOSE_STREAMS) if config.daily_close else DAILY_STREAMS
                for _ in range(config.daily_syncs):
                    business_date = admin.advance(1, ids)
                    if config.daily_close:
                        hand_over_the_day(config)
                    sync_all(codes, streams, direct=True)
                    if config.daily_close:
                        for done in close_day(config):
                            for recon in (done.closed, done.pre_departure):
                                if recon is not None:
                                    posted += recon.summary["posted"][0]
                                    blocked += recon.summary["blocked"][0]
                    bar.update(1)
            note(f"business date now {business_date}")
            if config.daily_close:
                note(f"daily close on each day: {posted} charge(s) posted before check-out, "
                     f"{blocked} blocked row(s)")
        what = "full refresh" if config.final_full_refresh else "every open folio read again"
        with progress.step("final_sync", f"Folios ({what}) and the POS ledger files") as note:
            hand_over_pos_files(config.pos_incoming, config.pos_root, codes)
            # A sweep window of an hour makes every open folio due (pipelines.ingest.folios).
            final = (SyncSettings(stay_guests=False, full_folio_refresh=True)
                     if config.final_full_refresh
                     else SyncSettings(stay_guests=False, folio_sweep_hours=1,
                                       future_folios_daily=False))
            for run in sync_all(codes, FINAL_STREAMS, final):
                note(f"{run.code}: {run.streams['folios']['rows']} folio rows, "
                     f"{run.streams['pos_ledger']['rows']} POS ledger lines")
            # the simulator's level of each night played: the forecast's floor, as data
            nights = store_levels(config.warehouse, admin, ids, config.start())
            note(f"the simulator's level of {counted(nights, 'night')} stored "
                 "(core.sandbox_levels, the floor forecast-accuracy shows)")
        with progress.step("marts", "Marts: occupancy, revenue, on the books, pickup, pace, "
                                    "segments, booking KPIs (polars)") as note:
            for run in sync_all(codes, (), marts=True):
                note(f"{run.code}: " + ", ".join(f"{k} {v}" for k, v in run.marts.items()))
            budget = import_demo_budget(config.warehouse, config.demo_dir)
            if budget is not None:
                note(f"budget {budget[0].name}: {budget[1]} rows imported as `pmsw budget "
                     "import` does (last year's month, else the run rate; occupancy +2 points, "
                     "ADR +4 %)")
            note(f"read copy published: {read_copy_path(config.warehouse)}")
        with progress.step("reconcile", "Folio reconciliation of the last "
                                        f"{config.daily_syncs} business dates: dry run, then "
                                        "apply") as note:
            for line in _reconcile(config):
                note(line)


def _reconcile(config: DemoConfig) -> list[str]:
    from datetime import timedelta

    from pipelines.properties import load_properties
    from pipelines.recon import Mode, run_reconciliation
    from pipelines.recon.logic import load_rules

    rules = load_rules(None)
    lines = []
    with connect(config.warehouse) as conn:
        dates = dict(conn.execute("SELECT code, business_date FROM core.property").fetchall())
    for prop in load_properties(config.properties_file):
        last = dates[prop.code] - timedelta(days=1)
        first = last - timedelta(days=config.daily_syncs - 1)
        dry = run_reconciliation(config.warehouse, rules, mode=Mode.DRY_RUN, first=first,
                                 last=last, property_ref=prop.code)
        with prop.endpoint().client() as client:
            applied = run_reconciliation(config.warehouse, rules, mode=Mode.APPLY,
                                         first=first, last=last, property_ref=prop.code,
                                         client=client)
        lines.append(f"{prop.code} {first} to {last}: dry run {_counts(dry.summary)}")
        lines.append(f"{prop.code} apply: {_counts(applied.summary)}")
    return lines


def _counts(summary: dict[str, tuple[int, int]]) -> str:
    return ", ".join(f"{status} {n} ({cents / 100:,.2f})" for status, (n, cents)
                     in summary.items() if n)
