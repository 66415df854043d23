"""From matches to statuses: matched, amount_mismatch, missing or blocked, and the folio a
missing charge would be posted on.

The folio of a room entry: API v1's Folio names its reservation, not its room entry, so a
folio belongs to the room entry most of its lines were posted for (core.folio_lines derives
a line's room entry from its room number), or, in a reservation of one room entry, to that
one; but when the room entry has folios of its own charge lines, a closed or suspended
folio without charges (a city ledger receivable held by a company, a balance a departed
guest left: docs/sandbox.md, Money) holds nothing of the room's and is left out. A missing
charge goes on the room entry's first open folio; with none the charge is `blocked` and the
reason lists the folios and their statuses. A charge of a cancelled room entry, of an item
the property does not have, or of a room entry the warehouse does not know is `blocked` as
well: a person must act.
"""

from __future__ import annotations

import polars as pl

from pipelines.recon.logic.frames import (
    AMOUNT_MISMATCH,
    BLOCKED,
    FOLIO_COLUMNS,
    MISSING,
    STAY_COLUMNS,
    Frame,
    lazy,
)

CANCELLED = "cancelled"

# Reason codes (recon.results.reason_code): why a charge is not simply matched.
STAY_UNKNOWN = "stay_unknown"
STAY_CANCELLED = "stay_cancelled"
ITEM_UNKNOWN = "item_unknown"
NO_FOLIO = "no_folio"
FOLIO_CLOSED = "folio_closed"
FOLIO_SUSPENDED = "folio_suspended"
AMOUNT_MISMATCH_CODE = "amount_mismatch"
REPORTED_ONLY = "reported_only"
POST_FAILED = "post_failed"
RESOLVED = "resolved"
REASON_CODES = (STAY_UNKNOWN, STAY_CANCELLED, ITEM_UNKNOWN, NO_FOLIO, FOLIO_CLOSED,
                FOLIO_SUSPENDED, AMOUNT_MISMATCH_CODE, REPORTED_ONLY, POST_FAILED, RESOLVED)


def folio_targets(stays: Frame, folios: Frame, lines: pl.DataFrame) -> pl.DataFrame:
    """Per room entry: `target_folio_id` (its first open folio, or null), `held_folio_id`
    (its last closed folio, else its last folio: where a charge it cannot take belongs),
    `has_suspended`, and `folio_note` (its folios and statuses, for the reason when none is
    open)."""
    stay = lazy(stays, "stays", STAY_COLUMNS).select(
        pl.col("property_id").cast(pl.Int64), pl.col("reservation_room_id").cast(pl.Int64),
        pl.col("reservation_id").cast(pl.Int64))
    by_lines = (
        lines.lazy().filter(pl.col("reservation_room_id").is_not_null())
        .group_by("property_id", "folio_id", "reservation_room_id").agg(n=pl.len())
        .sort(["n", "reservation_room_id"], descending=[True, False])
        .group_by("property_id", "folio_id", maintain_order=True)
        .agg(line_room=pl.col("reservation_room_id").first())
    )
    single = (stay.group_by("property_id", "reservation_id")
              .agg(n=pl.len(), only_room=pl.col("reservation_room_id").first())
              .filter(pl.col("n") == 1).drop("n"))
    owned = (
        lazy(folios, "folios", FOLIO_COLUMNS)
        .select(pl.col("property_id").cast(pl.Int64), pl.col("folio_id").cast(pl.Int64),
                pl.col("reservation_id").cast(pl.Int64), "status")
        .join(by_lines, on=["property_id", "folio_id"], how="left")
        .join(single, on=["property_id", "reservation_id"], how="left")
        .with_columns(reservation_room_id=pl.coalesce("line_room", "only_room"),
                      by_line=pl.col("line_room").is_not_null())
        .filter(pl.col("reservation_room_id").is_not_null())
        .filter(pl.col("by_line") | (pl.col("status") == "open")
                | ~pl.col("by_line").any().over("property_id", "reservation_room_id"))
        .sort("folio_id")
    )
    return owned.group_by("property_id", "reservation_room_id").agg(
        target_folio_id=pl.col("folio_id").filter(pl.col("status") == "open").first(),
        held_folio_id=pl.coalesce(
            pl.col("folio_id").filter(pl.col("status") == "closed").last(),
            pl.col("folio_id").last()),
        has_suspended=(pl.col("status") == "suspended").any(),
        folio_note=pl.format("folio {} {}", pl.col("folio_id"), pl.col("status"))
        .str.join(", "),
    ).collect()


def _money(cents: pl.Expr) -> pl.Expr:
    """Cents as text with two decimals (for reasons)."""
    return pl.format("{}.{}", cents // 100, (cents % 100).cast(pl.String).str.zfill(2))


def _qty(milli: pl.Expr) -> pl.Expr:
    return pl.when(milli % 1000 == 0).then((milli // 1000).cast(pl.String)).otherwise(
        (milli.cast(pl.Float64) / 1000).cast(pl.String))


def outcome(matched: pl.DataFrame, stays: Frame, targets: pl.DataFrame) -> pl.DataFrame:
    """`status`, `target_folio_id`, `reason` and `reason_code` for every expected charge.

    `target_folio_id` is the open folio a missing charge would be posted on; for a charge
    blocked because no folio of its room entry is open, the folio it belongs to (the closed
    one, whose document was issued), so finance finds the document. `reason_code` is one of
    REASON_CODES (null for matched, and for missing charges that apply will post)."""
    stay = lazy(stays, "stays", STAY_COLUMNS).select(
        pl.col("property_id").cast(pl.Int64), pl.col("reservation_room_id").cast(pl.Int64),
        stay_status=pl.col("status")).collect()
    out = (matched.join(stay, on=["property_id", "reservation_room_id"], how="left")
           .join(targets, on=["property_id", "reservation_room_id"], how="left"))
    unmatched = pl.col("match_status").is_null()
    blocked_reason = (
        pl.when(pl.col("stay_status").is_null())
        .then(pl.format("room entry {} is not in the warehouse (sync reservations)",
                        pl.col("reservation_room_id")))
        .when(pl.col("stay_status") == CANCELLED)
        .then(pl.lit("the reservation room is cancelled"))
        .when(pl.col("item_id").is_null() | pl.col("unit_cents").is_null())
        .then(pl.format("item {} is not an item of the property (GET /items)",
                        pl.col("item_code")))
        .when(pl.col("target_folio_id").is_null())
        .then(pl.format("no open folio for the room entry ({})",
                        pl.col("folio_note").fill_null(
                            "none of the reservation's folios is known to be its own")))
    )
    blocked_code = (
        pl.when(pl.col("stay_status").is_null()).then(pl.lit(STAY_UNKNOWN))
        .when(pl.col("stay_status") == CANCELLED).then(pl.lit(STAY_CANCELLED))
        .when(pl.col("item_id").is_null() | pl.col("unit_cents").is_null())
        .then(pl.lit(ITEM_UNKNOWN))
        .when(pl.col("target_folio_id").is_null()).then(
            pl.when(pl.col("held_folio_id").is_null()).then(pl.lit(NO_FOLIO))
            .when(pl.col("has_suspended").fill_null(False)).then(pl.lit(FOLIO_SUSPENDED))
            .otherwise(pl.lit(FOLIO_CLOSED)))
    )
    mismatch_reason = pl.format(
        "line {} has quantity {} and amount {}; expected quantity {} and amount {}",
        pl.col("folio_line_id"), _qty(pl.col("posted_quantity_milli")),
        _money(pl.col("posted_cents")), _qty(pl.col("quantity_milli")),
        _money(pl.col("expected_cents")))
    return out.with_columns(
        status=pl.when(~unmatched).then(pl.col("match_status"))
        .when(blocked_reason.is_not_null()).then(pl.lit(BLOCKED))
        .otherwise(pl.lit(MISSING)),
        reason=pl.when(pl.col("match_status") == AMOUNT_MISMATCH).then(mismatch_reason)
        .when(unmatched).then(pl.coalesce(
            blocked_reason,
            pl.when(~pl.col("repost")).then(pl.format(
                "reported only: {} are not reposted (room_nights.repost is false)",
                pl.col("source"))))),
        reason_code=pl.when(pl.col("match_status") == "amount_mismatch")
        .then(pl.lit(AMOUNT_MISMATCH_CODE))
        .when(unmatched).then(pl.coalesce(
            blocked_code, pl.when(~pl.col("repost")).then(pl.lit(REPORTED_ONLY)))),
    ).with_columns(
        target_folio_id=pl.when(pl.col("status") == MISSING).then(pl.col("target_folio_id"))
        .when((pl.col("status") == BLOCKED)
              & pl.col("reason_code").is_in([FOLIO_CLOSED, FOLIO_SUSPENDED]))
        .then(pl.col("held_folio_id")),
        error_code=pl.lit(None, dtype=pl.String),
    ).drop("stay_status", "folio_note", "match_status", "held_folio_id", "has_suspended")
