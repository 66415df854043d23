"""One reconciliation run of one property: read the warehouse, reconcile, post (apply),
write recon.runs and recon.results.

The DuckDB file is held only while reading the inputs and while writing the results (one
transaction, then the read copy is published), never during the HTTP calls, so a sync or
another run can use it meanwhile; a file held by another writer is waited for
(`pipelines.warehouse.connect`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum
from pathlib import Path

import polars as pl

from pipelines.api import PmsClient
from pipelines.ingest.store import forget_folio_reads, property_row
from pipelines.recon.apply import Applier, ApplyStats
from pipelines.recon.logic import (
    POSTED,
    RulesConfig,
    hold_resolved,
    reconcile,
    results_frame,
    summarize,
)
from pipelines.recon.store import (
    ReconInputError,
    property_place,
    read_inputs,
    resolved_keys,
    save_run,
)
from pipelines.warehouse import transaction, writer


class Mode(StrEnum):
    DRY_RUN = "dry_run"
    APPLY = "apply"


@dataclass
class ReconReport:
    run_id: int
    property_id: int
    property_code: str
    mode: Mode
    first: date
    last: date
    summary: dict[str, tuple[int, int]]
    """Per status: (count, expected amount in cents)."""
    results: pl.DataFrame = field(repr=False)
    """The stored results (recon.results columns but run_id)."""
    apply: ApplyStats | None = None



def closed_dates(business_date: date, first: date | None,
                 last: date | None) -> tuple[date, date]:
    """The business dates to reconcile: by default the last one closed (business date - 1);
    a date not yet closed in the warehouse is refused, naming it."""
    latest = business_date - timedelta(days=1)
    last = last or (first if first is not None and first <= latest else latest)
    first = first or last
    if first > last:
        raise ReconInputError(f"--from {first} is after --to {last}")
    if last > latest:
        raise ReconInputError(
            f"business date {last} is not closed in the warehouse: the property's business "
            f"date was {business_date} when last synced (sync after the night audit)")
    return first, last


def run_reconciliation(
    warehouse: str | Path,
    rules: RulesConfig,
    *,
    mode: Mode = Mode.DRY_RUN,
    first: date | None = None,
    last: date | None = None,
    property_ref: int | str | None = None,
    client: PmsClient | None = None,
    before_write: Callable[[], None] | None = None,
    sources: Collection[str] | None = None,
    reservations: Collection[int] | None = None,
    publish: bool = True,
) -> ReconReport:
    """Reconcile one property (id or PMS code `property_ref`; default the warehouse's only
    one, or in apply mode the client's) over business dates [first, last] (default: the last
    closed date). Only apply needs `client`, and posts only to the property it reconciles.

    `before_write` runs after the posts and before the results are written (operations
    hooks; the crash tests stop the process there). `sources` limits what apply posts to
    those kinds (the rest stays missing); `reservations` limits the run to the charges of
    those reservations (the pre-departure run of the daily close). `publish=False` leaves
the read copy as it was (a caller that publishes later, once: the demo's daily closes)."""
    if mode is Mode.APPLY and client is None:
        raise ValueError("apply mode needs an API client")
    started_at = datetime.now(UTC)
    api_property = client.get_property().id if client is not None else None
    with writer(warehouse, publish=False) as conn:
        pid, code, business_date = property_row(conn, property_ref or api_property)
        if api_property is not None and pid != api_property:
            raise ReconInputError(f"property {code}: the API key is of property id "
                                  f"{api_property}, not {pid}")
        first, last = closed_dates(business_date, first, last)
        inputs = read_inputs(conn, pid, first, last)
        city, star_rating = property_place(conn, pid)
        resolved = resolved_keys(conn, pid)
    property_rules = rules.for_property(code, city, star_rating)
    results = reconcile(stays=inputs.stays, items=inputs.items, age_brackets=inputs.age_brackets,
                        ledger=inputs.ledger, folios=inputs.folios, lines=inputs.lines,
                        rules=property_rules, first=first, last=last)
    results = hold_resolved(results, resolved)
    if reservations is not None:
        results = results.filter(pl.col("reservation_id").is_in(list(reservations)))
    stats = None
    if mode is Mode.APPLY:
        assert client is not None
        applier = Applier(client, pid, inputs.stays)
        results = applier.apply(results, sources)
        stats = applier.stats
    if before_write is not None:
        before_write()
    stored = results_frame(results)
    summary = summarize(results)
    posted_to = results.filter(pl.col("status") == POSTED)["reservation_id"].unique()
    with writer(warehouse, publish=publish) as conn, transaction(conn):
        run_id = save_run(conn, property_id=pid, mode=mode.value, first=first, last=last,
                          started_at=started_at, finished_at=datetime.now(UTC),
                          summary=summary, rules=property_rules.model_dump(mode="json"),
                          results=stored)
        # The folios posted to changed through us: the next sync reads them first.
        forget_folio_reads(conn, pid, sorted(posted_to.drop_nulls().to_list()))
    return ReconReport(run_id, pid, code, mode, first, last, summary, stored, stats)
