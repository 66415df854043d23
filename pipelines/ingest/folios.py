"""Stream `folios`: folios change without touching the reservation and have no events
(issue 5), yet re-reading every open folio on every run made an hourly incremental follow the
size of the book ahead rather than the day's changes (issue 18). Each run reads the folios of
these classes (docs/ingestion.md, Folios), a reservation counting in the first that holds it:

- `changed`: reservations landed since the folios were last read (their `updated_at` at or
  after the folio watermark less the overlap; a run that died between the two streams is
  made good), and reservations released from quarantine since (whatever their `updated_at`);
- `in_house`: rooms checked in;
- `departed`: rooms checked out within `late_charge_days` of the business date (the
  late-charge window) while a folio of theirs is not closed or not settled (balance not
  zero) in the warehouse, or none is held yet. A folio closed and settled is final (the
  spec posts charges on open folios only): reading it again every run costs a call and
  lands nothing;
- `future`: the stays not yet arrived (reservations `option` or `confirmed`) holding a folio
  not yet `closed` in the warehouse, with `future_folios_daily` (the default): every one of
  them on the first run of each business date (the run after the night audit; the business
  date of that read is the cursor `folios_future`), and on the other runs only those never
  read (or forgotten by a post of ours). API v1 shows a deposit on a future stay only in its
  folio; a day's deposits land with the night audit's run, before that day's ledgers are read;
- `sweep`: a rotating share of the other reservations holding a folio not yet `closed` in the
  warehouse (the future book too when `future_folios_daily` is off; receivables on hold),
  and of the rooms checked out within `departed_days`
  (a late charge after a folio is closed goes on a new folio, which neither the
  reservation's `updated_at` nor the event log shows), so that each is read at
  least once within `folio_sweep_hours` of the PMS's clock: the ones read longest ago first,
  as many as are due before the next run (the time since the previous run taken as the time
  to the next) and at least the share of that time in the window. Reservations cancelled
  more than `departed_days` ago are left out: a cancelled stay's folio stays open and empty
  in most PMSs, and re-reading them all would make the calls grow with the history;
- `loose`: folios without a reservation, one by one, on every run;
- `all`, instead of the above, on the first run or with `full_folio_refresh`.

Time is the PMS's: the HTTP `Date` of its answers (`SyncContext.fetched_at`), never the
machine's. Each run logs its reads and calls per class in meta.folio_classes and, per
reservation, when its folios were read in meta.folio_reads (the sweep's memory).

A folio stored `closed` is final: it is never written again. Folios are fetched many at once
(`fetch_many`, the client's shared rate limit) and landed `chunk` reservations per
transaction; the watermark (the largest reservation `updated_at` in the warehouse when the
stream began) moves with the last chunk only, so a crash re-reads rather than skips.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from models import Folio
from pipelines.ingest._preview import preview
from pipelines.ingest.context import StreamResult, SyncContext
from pipelines.ingest.progress import report
from pipelines.ingest.store import (
    FolioClassCost,
    advance_cursor,
    get_cursor,
    get_timestamp_cursor,
    land_folios,
    last_folio_reads,
    last_folio_run_time,
    record_folio_classes,
    record_folio_reads,
)
from pipelines.warehouse import transaction

STREAM = "folios"
FUTURE_CURSOR = "folios_future"
"""meta.sync_state row: the business date whose run last read the whole future book."""
FREQUENT = ("changed", "in_house", "departed")
"""The classes read on every run, in the order a reservation is counted."""
CLASSES = (*FREQUENT, "future", "sweep")
"""The classes of an incremental run, in the order a reservation is counted."""


@dataclass
class FolioPlan:
    """What one run reads: reservation ids by class (in reading order), loose folio ids."""

    mode: str
    now: datetime
    """The PMS's clock when the plan was made."""
    classes: dict[str, list[int]] = field(default_factory=dict)
    loose: list[int] = field(default_factory=list)
    sweep_candidates: int = 0
    future_candidates: int = 0
    book_date: date | None = None
    """The business date, when this run reads the whole future book (first run, full
    refresh, or the day's first run with `future_folios_daily`): `folios_future` moves to it
    with the last landing."""

    def candidates(self, klass: str) -> int:
        """What a class was drawn from (meta.folio_classes.candidates)."""
        if klass == "sweep":
            return self.sweep_candidates
        if klass == "future":
            return self.future_candidates
        return len(self.classes[klass])

    @property
    def reservation_ids(self) -> list[int]:
        return [r for ids in self.classes.values() for r in ids]


def choose_sweep(candidates: Sequence[int], last_read: dict[int, datetime], *, now: datetime,
                 previous: datetime | None, window: timedelta) -> list[int]:
    """The sweep's share of `candidates` at `now`, read longest ago first (never read: first).

    `gap` is the time since the previous run (capped at the window; the whole window when
    there was none), taken as the time to the next run. Read: every candidate whose last
    read is older than `window - gap` (it would be overdue by the next run), and at least
    ceil(candidates x gap / window) of them, which spreads the book over the window instead
    of reading it all when it falls due at once. With runs every `gap`, each candidate is
    read at least every `window - gap`.
    """
    if not candidates:
        return []
    gap = window if previous is None else min(max(now - previous, timedelta(0)), window)
    oldest = datetime.min.replace(tzinfo=UTC)
    stalest = sorted(candidates, key=lambda r: (last_read.get(r, oldest), r))
    due_before = now - window + gap
    due = sum(1 for r in candidates if r not in last_read or last_read[r] <= due_before)
    share = math.ceil(len(candidates) * (gap / window))
    return stalest[:max(due, share)]


def plan_reads(ctx: SyncContext) -> FolioPlan:
    """Which reservations' folios (by class) and which loose folios this run reads."""
    conn, pid, settings = ctx.conn, ctx.property_id, ctx.settings
    now = ctx.fetched_at()
    watermark = get_timestamp_cursor(conn, pid, STREAM)
    loose = [int(f[0]) for f in conn.execute(
        "SELECT folio_id FROM core.folios WHERE property_id = ? AND status <> 'closed' "
        "AND reservation_id IS NULL ORDER BY 1", [pid]).fetchall()]
    if settings.full_folio_refresh or watermark is None:
        every = [int(r[0]) for r in conn.execute(
            "SELECT reservation_id FROM core.reservations WHERE property_id = ? ORDER BY 1",
            [pid]).fetchall()]
        mode = "full refresh" if settings.full_folio_refresh else "first run"
        return FolioPlan(mode, now, {"all": every}, loose, book_date=ctx.business_date)

    departed_since = ctx.business_date - timedelta(days=settings.departed_days)
    late_since = ctx.business_date - timedelta(days=settings.late_charge_days)
    ranked = conn.execute("""
        WITH frequent AS (
            SELECT reservation_id, 0 AS rank FROM core.reservations
             WHERE property_id = $p AND updated_at >= $since
            UNION ALL SELECT q.record_id, 0 FROM meta.quarantine q
              JOIN meta.sync_state s ON s.property_id = q.property_id AND s.stream = 'folios'
             WHERE q.property_id = $p AND q.stream = 'reservations'
               AND q.released_at >= s.updated_at - $overlap
            UNION ALL SELECT reservation_id, 1 FROM core.reservation_rooms
             WHERE property_id = $p AND status = 'checked_in'
            UNION ALL SELECT rr.reservation_id, 2 FROM core.reservation_rooms rr
             WHERE rr.property_id = $p AND rr.status = 'checked_out' AND rr.departure >= $late
               AND (NOT EXISTS (
                    SELECT 1 FROM core.folios f
                     WHERE f.property_id = $p AND f.reservation_id = rr.reservation_id)
                    OR EXISTS (
                    SELECT 1 FROM core.folios f
                     WHERE f.property_id = $p AND f.reservation_id = rr.reservation_id
                       AND (f.status <> 'closed' OR f.balance <> 0))))
        SELECT reservation_id, min(rank) FROM frequent GROUP BY 1 ORDER BY 2, 1
    """, {"p": pid, "since": watermark - settings.overlap, "overlap": settings.overlap,
          "late": late_since}).fetchall()
    plan = FolioPlan("incremental", now, {name: [] for name in CLASSES}, loose)
    for reservation_id, rank in ranked:
        plan.classes[FREQUENT[rank]].append(int(reservation_id))
    frequent = {int(r) for r, _ in ranked}
    drawn = [(int(r), bool(ahead)) for r, ahead in conn.execute("""
        WITH open_book AS (
            SELECT DISTINCT f.reservation_id, r.status IN ('option', 'confirmed') AS ahead
              FROM core.folios f
              JOIN core.reservations r
                ON r.property_id = f.property_id AND r.reservation_id = f.reservation_id
             WHERE f.property_id = $p AND f.status <> 'closed'
               AND NOT (r.status = 'cancelled'
                        AND r.updated_at < CAST($departed AS TIMESTAMPTZ))
            UNION ALL SELECT reservation_id, false FROM core.reservation_rooms
             WHERE property_id = $p AND status = 'checked_out' AND departure >= $departed)
        SELECT reservation_id, bool_and(ahead) FROM open_book GROUP BY 1 ORDER BY 1
    """, {"p": pid, "departed": departed_since}).fetchall() if int(r) not in frequent]
    daily = settings.future_folios_daily
    future = [r for r, ahead in drawn if daily and ahead]
    candidates = [r for r, ahead in drawn if not (daily and ahead)]
    last_read = last_folio_reads(conn, pid)
    if future:
        read_on = get_cursor(conn, pid, FUTURE_CURSOR)
        if read_on is None or date.fromisoformat(read_on) < ctx.business_date:
            plan.classes["future"] = future
            plan.book_date = ctx.business_date
        else:  # read today already: only those never read (or forgotten by a post of ours)
            plan.classes["future"] = [r for r in future if r not in last_read]
    plan.future_candidates = len(future)
    plan.sweep_candidates = len(candidates)
    plan.classes["sweep"] = choose_sweep(
        candidates, last_read, now=now,
        previous=last_folio_run_time(conn, pid), window=settings.folio_sweep)
    return plan


def sync_folios(ctx: SyncContext, result: StreamResult) -> None:
    conn, pid, code, settings = ctx.conn, ctx.property_id, ctx.endpoint.code, ctx.settings
    top_row = conn.execute("SELECT max(updated_at) FROM core.reservations WHERE property_id = ?",
                           [pid]).fetchone()
    top = top_row[0] if top_row else None
    plan = plan_reads(ctx)
    closed = {int(f[0]) for f in conn.execute(
        "SELECT folio_id FROM core.folios WHERE property_id = ? AND status = 'closed'",
        [pid]).fetchall()}
    ordered = [(klass, r) for klass, ids in plan.classes.items() for r in ids]
    total = len(ordered) + len(plan.loose)
    report(code, STREAM, 0, total)
    chunks = [ordered[i:i + settings.chunk]
              for i in range(0, len(ordered), settings.chunk)] or [[]]
    calls = dict.fromkeys([*plan.classes, "loose"], 0)
    done = landed = lines = 0
    for index, chunk in enumerate(chunks):
        folios: list[Folio] = []
        by_class: dict[str, list[int]] = {}
        for klass, reservation_id in chunk:
            by_class.setdefault(klass, []).append(reservation_id)
        for klass, ids in by_class.items():
            before = ctx.meter.calls
            for _, found in ctx.client.fetch_many(ctx.client.list_folios, ids,
                                                  concurrency=settings.concurrency):
                folios.extend(found)
            calls[klass] += ctx.meter.calls - before
        last = index == len(chunks) - 1
        if last and plan.loose:
            before = ctx.meter.calls
            folios.extend(f for _, f in ctx.client.fetch_many(
                ctx.client.get_folio, plan.loose, concurrency=settings.concurrency))
            calls["loose"] += ctx.meter.calls - before
        fresh = [f for f in folios if f.id not in closed]  # a closed folio is final
        with transaction(conn):
            landing = land_folios(conn, pid, fresh, run_id=ctx.run_id,
                                  fetched_at=ctx.fetched_at())
            for klass, ids in by_class.items():
                record_folio_reads(conn, pid, ids, klass=klass, read_at=plan.now,
                                   run_id=ctx.run_id)
            if last:
                costs = [FolioClassCost(klass, len(ids), plan.candidates(klass), calls[klass])
                         for klass, ids in plan.classes.items()]
                costs.append(FolioClassCost("loose", len(plan.loose), len(plan.loose),
                                            calls["loose"]))
                record_folio_classes(conn, pid, costs, server_time=plan.now, run_id=ctx.run_id)
                if top is not None:
                    result.cursor = advance_cursor(conn, pid, STREAM, top, run_id=ctx.run_id,
                                                   at=ctx.fetched_at())
                if plan.book_date is not None:
                    advance_cursor(conn, pid, FUTURE_CURSOR, plan.book_date, run_id=ctx.run_id,
                                   at=ctx.fetched_at())
        done += len(chunk) + (len(plan.loose) if last else 0)
        landed += landing.folios
        lines += landing.lines
        report(code, STREAM, done, total)
    result.rows = landed
    result.details = {"mode": plan.mode, "reservations_read": len(plan.reservation_ids),
                      "loose_folios_read": len(plan.loose), "folios_landed": landed,
                      "lines_landed": lines}
    for klass, ids in plan.classes.items():
        result.details[f"read_{klass}"] = len(ids)
        result.details[f"calls_{klass}"] = calls[klass]
    if "sweep" in plan.classes:
        result.details["sweep_candidates"] = plan.sweep_candidates
        result.details["future_candidates"] = plan.future_candidates
    result.details["calls_loose"] = calls["loose"]
    result.preview = preview(
        conn, "SELECT folio_id, reservation_id, status, charges, payments, balance "
        "FROM core.folios WHERE property_id = ? ORDER BY folio_id DESC", [pid])
