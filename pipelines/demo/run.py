"""The demo's steps, with progress: a simulated year, the sandbox serving it, daily syncs,
marts, reconciliation, summary.

Each played day ends with the daily close (pipelines/demo/close.py): the day's folios and
POS ledger files are landed and the reconciliation posts what the POS dropped while the guest
is in house. After the stretch the folios are read once more in a full refresh, and a final
dry run and apply cover the whole stretch (docs/operations.md, Folio calls).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import click

from pipelines.demo.sandbox_process import sandbox_process
from pipelines.ingest import SyncSettings, sync_property
from pipelines.warehouse import connect

from .close import close_day
from .config import DemoConfig, DemoError, start_clean
from .sandbox_admin import SandboxAdmin, hand_over_pos_files
from .simulate import simulate_history
from .summary import Summary, read_summary

DAILY_STREAMS = ("reference", "events", "reservations", "availability")
FINAL_STREAMS = ("reference", "events", "reservations", "folios", "availability", "pos_ledger")


@dataclass
class DemoResult:
    seconds: dict[str, float] = field(default_factory=dict)
    summary: Summary | None = None

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
                                 show_eta=False) if self.enabled else _NoBar()


class _NoBar:
    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def update(self, _: int) -> None:
        return None


def run_demo(config: DemoConfig) -> DemoResult:
    result = DemoResult()
    progress = Progress(8, config.progress, result)
    start_clean(config)
    ids = [h.property_id for h in config.hotels]
    codes = [h.code for h in config.hotels]
    _simulate(config, progress, ids, codes)
    args = ["--admin", "--clock", "simulated", "--rate-per-minute", "1000000",
            "--burst", "1000000", "--pos-export", str(config.pos_incoming)]
    with ExitStack() as stack:
        with progress.step("sandbox", "Starting the sandbox PMS on the simulated hotels "
                                      "(child process, loopback, simulated clock)") as note:
            base_url = stack.enter_context(
                sandbox_process(db_path=config.sandbox_db, extra_args=args))
            note(f"API v1 at {base_url}, database {config.sandbox_db}")
        admin = SandboxAdmin(base_url)
        stack.callback(admin.close)
        _play(config, progress, admin, ids, codes, base_url)
    with progress.step("summary", "Summary") as _:
        result.summary = read_summary(config)
    return result


def _simulate(config: DemoConfig, progress: Progress, ids: list[int], codes: list[str]) -> None:
    start = config.start()
    with progress.step("simulate", f"Simulating {config.days} days of two hotels from {start} "
                                   "(bookings made before it, stays, cancellations, POS, "
                                   "night audits)") as note:
        with progress.bar(config.days, "days") as bar:
            done = 0

            def on_day(day: int) -> None:
                nonlocal done
                bar.update(day - done)
                done = day

            business_date = simulate_history(
                config.sandbox_db, days=config.days, seed=config.seed, start=start,
                property_ids=ids, pos_export=config.pos_incoming, on_day=on_day)
        hand_over_pos_files(config.pos_incoming, config.pos_root, codes)
        note(f"business date now {business_date}")


def _play(config: DemoConfig, progress: Progress, admin: SandboxAdmin, ids: list[int],
          codes: list[str], base_url: str) -> None:
    endpoints = [h.endpoint(base_url, config.pos_root) for h in config.hotels]
    settings = SyncSettings(stay_guests=False, concurrency=8)
    conn = connect(config.warehouse)
    try:
        with progress.step("first_sync", "First sync: full load of reservations, events, "
                                         "availability into DuckDB") as note:
            for endpoint in endpoints:
                streams = sync_property(endpoint, conn, _run_id("full"), settings,
                                        DAILY_STREAMS)
                note(f"{endpoint.code}: " + ", ".join(
                    f"{s.stream} {s.rows} rows" for s in streams if s.stream != "reference"))
        with progress.step("daily", f"{config.daily_syncs} days, one at a time: the hotels "
                                    "live a day, then the warehouse syncs"
                                    + (" and closes the day" if config.daily_close else "")
                           ) as note:
            with progress.bar(config.daily_syncs, "days") as bar:
                posted = blocked = 0
                for _ in range(config.daily_syncs):
                    business_date = admin.advance(1, ids)
                    for endpoint in endpoints:
                        sync_property(endpoint, conn, _run_id("daily"), settings,
                                      DAILY_STREAMS)
                    if config.daily_close:
                        conn.close()  # the close opens the warehouse itself
                        for done in close_day(config, endpoints, settings):
                            for run in (done.closed, done.pre_departure):
                                if run is not None:
                                    posted += run.summary["posted"][0]
                                    blocked += run.summary["blocked"][0]
                        conn = connect(config.warehouse)
                    bar.update(1)
            note(f"business date now {business_date}")
            if config.daily_close:
                note(f"daily close on each day: {posted} charge(s) posted before check-out, "
                     f"{blocked} blocked row(s)")
        with progress.step("final_sync", "Folios (full refresh) and the POS ledger files")\
                as note:
            hand_over_pos_files(config.pos_incoming, config.pos_root, codes)
            final = SyncSettings(stay_guests=False, concurrency=8, full_folio_refresh=True)
            for endpoint in endpoints:
                streams = sync_property(endpoint, conn, _run_id("final"), final,
                                        FINAL_STREAMS)
                failed = [s for s in streams if s.status != "success"]
                if failed:
                    raise DemoError(f"{endpoint.code}: stream {failed[0].stream} "
                                    f"{failed[0].status}: {failed[0].message}")
                by_name = {s.stream: s for s in streams}
                note(f"{endpoint.code}: {by_name['folios'].rows} folio rows, "
                     f"{by_name['pos_ledger'].rows} POS ledger lines")
        with progress.step("marts", "Marts: occupancy, revenue, on the books, pickup, pace, "
                                    "segments, booking KPIs (polars)") as note:
            from pipelines.marts import build_marts

            for hotel in config.hotels:
                rows = build_marts(conn, hotel.property_id)
                note(f"{hotel.code}: " + ", ".join(f"{k} {v}" for k, v in rows.items()))
    finally:
        conn.close()
    with progress.step("reconcile", "Folio reconciliation of the last "
                                    f"{config.daily_syncs} business dates: dry run, then "
                                    "apply") as note:
        for line in _reconcile(config, endpoints):
            note(line)


def _reconcile(config: DemoConfig, endpoints: list[Any]) -> list[str]:
    from datetime import timedelta

    from pipelines.api import PmsClient
    from pipelines.reconcile import Mode, run_reconciliation
    from pipelines.transforms.reconcile import load_rules

    rules = load_rules(None)
    lines = []
    conn = connect(config.warehouse, read_only=True)
    try:
        dates = dict(conn.execute(
            "SELECT property_id, business_date FROM core.property").fetchall())
    finally:
        conn.close()
    for hotel, endpoint in zip(config.hotels, endpoints, strict=True):
        last = dates[hotel.property_id] - timedelta(days=1)
        first = last - timedelta(days=config.daily_syncs - 1)
        dry = run_reconciliation(config.warehouse, rules, mode=Mode.DRY_RUN, first=first,
                                 last=last, property_id=hotel.property_id)
        with PmsClient(endpoint.base_url, endpoint.api_key,
                       rate_per_minute=endpoint.rate_per_minute,
                       burst=endpoint.burst) as client:
            applied = run_reconciliation(config.warehouse, rules, mode=Mode.APPLY,
                                         first=first, last=last,
                                         property_id=hotel.property_id, client=client)
        lines.append(f"{hotel.code} {first} to {last}: dry run {_counts(dry.summary)}")
        lines.append(f"{hotel.code} apply: {_counts(applied.summary)}")
    return lines


def _counts(summary: dict[str, tuple[int, int]]) -> str:
    return ", ".join(f"{status} {n} ({cents / 100:,.2f})" for status, (n, cents)
                     in summary.items() if n)


def _run_id(kind: str) -> str:
    return f"demo-{kind}-{uuid.uuid4().hex[:12]}"
