"""One reconciliation of one property: expected charges, matches, statuses, summary."""

from __future__ import annotations

from datetime import date

import polars as pl

from pipelines.marts.logic import from_cents
from pipelines.recon.logic.config import PropertyRules
from pipelines.recon.logic.expected import expected_charges
from pipelines.recon.logic.frames import (
    BLOCKED,
    FAILED,
    MATCHED,
    MISSING,
    POSTED,
    STATUSES,
    Frame,
)
from pipelines.recon.logic.matching import match, net_lines
from pipelines.recon.logic.outcome import (
    FOLIO_CLOSED,
    POST_FAILED,
    RESOLVED,
    folio_targets,
    outcome,
)
from pipelines.vocabulary import with_single_room_entries

RESULT_COLUMNS = (
    "key", "property_id", "reservation_id", "reservation_room_id", "folio_id", "item_id",
    "item_code", "business_date", "source", "source_ref", "description", "quantity",
    "unit_price", "expected_amount", "found_amount", "status", "idempotency_key",
    "posted_line_id", "reason", "error_code", "reason_code",
)


def reconcile(*, stays: Frame, items: Frame, age_brackets: Frame, ledger: Frame,
              folios: Frame, lines: Frame, rules: PropertyRules, first: date,
              last: date) -> pl.DataFrame:
    """Every expected charge of business dates [first, last] with its status (matched,
    amount_mismatch, missing or blocked), the line that answers it or the open folio it
    would be posted on (`target_folio_id`), and the reason. Amounts in cents."""
    expected = expected_charges(stays=stays, items=items, age_brackets=age_brackets,
                                ledger=ledger, rules=rules, first=first, last=last)
    charge_lines = room_lines(lines, stays)
    matched = match(expected, charge_lines)
    return outcome(matched, stays, folio_targets(stays, folios, charge_lines)).sort("key")


def room_lines(lines: Frame, stays: Frame) -> pl.DataFrame:
    """Charge lines net of reversals; a line without a room entry (posted while no room was
    assigned, or before a room move) in a reservation of one room entry is that entry's."""
    return net_lines(with_single_room_entries(lines, stays))


def postable(results: pl.DataFrame) -> pl.DataFrame:
    """The charges an apply run posts: missing, repostable, with an open folio."""
    return results.filter((pl.col("status") == MISSING) & pl.col("repost")
                          & pl.col("target_folio_id").is_not_null())


def hold_resolved(results: pl.DataFrame, resolved: pl.DataFrame) -> pl.DataFrame:
    """Charges a person resolved (`resolved`: key, state, resolved_by, resolved_at; latest
    state per key, not `open`) are never posted again: a missing one becomes `blocked` with
    reason code `resolved` (say a new folio opened after it was invoiced separately), so
    apply leaves it alone. Other statuses are kept: the worklist shows the resolution."""
    if resolved.is_empty() or results.is_empty():
        return results
    held = resolved.select(
        "key", note=pl.format("resolved as {} by {} on {}: not posted again",
                              pl.col("state"), pl.col("resolved_by"),
                              pl.col("resolved_at").cast(pl.String).str.slice(0, 10)))
    out = results.join(held, on="key", how="left")
    hold = (pl.col("status") == MISSING) & pl.col("note").is_not_null()
    return out.with_columns(
        status=pl.when(hold).then(pl.lit(BLOCKED)).otherwise(pl.col("status")),
        reason=pl.when(hold).then(pl.col("note")).otherwise(pl.col("reason")),
        reason_code=pl.when(hold).then(pl.lit(RESOLVED)).otherwise(pl.col("reason_code")),
    ).drop("note")


def results_frame(results: pl.DataFrame) -> pl.DataFrame:
    """The results as stored (recon.results without run_id): Decimal amounts and quantity,
    `folio_id` the folio of the answering line, else the one posted on or to post on (or,
    blocked, the closed folio the charge belongs to); the reason code of what apply found
    (a refused post: post_failed; a folio found no longer open: folio_closed)."""
    if "reason_code" not in results.columns:
        results = results.with_columns(reason_code=pl.lit(None, dtype=pl.String))
    return results.with_columns(
        reason_code=pl.when(pl.col("status") == FAILED).then(pl.lit(POST_FAILED))
        .when((pl.col("status") == BLOCKED) & pl.col("reason_code").is_null())
        .then(pl.lit(FOLIO_CLOSED))
        .when(pl.col("status").is_in([MATCHED, POSTED])).then(None)
        .otherwise(pl.col("reason_code")),

        folio_id=pl.coalesce("folio_id", "target_folio_id"),
        quantity=(pl.col("quantity_milli").cast(pl.Decimal(20, 3)) / 1000).cast(
            pl.Decimal(12, 3)),
        unit_price=from_cents(pl.col("unit_cents")),
        expected_amount=from_cents(pl.col("expected_cents")),
        found_amount=from_cents(pl.col("posted_cents")),
        posted_line_id=pl.col("folio_line_id"),
    ).select(RESULT_COLUMNS)


def summarize(results: pl.DataFrame) -> dict[str, tuple[int, int]]:
    """Per status: (count, expected amount in cents); every status present."""
    counts = dict.fromkeys(STATUSES, (0, 0))
    for row in results.group_by("status").agg(
            n=pl.len(), cents=pl.col("expected_cents").fill_null(0).sum()).iter_rows():
        counts[str(row[0])] = (int(row[1]), int(row[2]))
    return counts
