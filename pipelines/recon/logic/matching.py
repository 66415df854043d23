"""Match expected charges to folio lines; one line answers at most one expected charge.

Lines are taken net of reversals: a charge line reversed in full (its reversals sum to minus
its total) is gone; one reversed in part keeps the rest as its amount. Payments and reversal
lines answer nothing. Then, in order, each step on what the earlier ones left:

1. by reference: a POS charge and a line of the same reservation whose description carries
   its ticket reference (`[T-000123/1]`);
2. exact: same room entry, item, date (posted_on = business date), quantity and amount (the
   amount is not compared for charges whose price the PMS sets: room nights);
3. loose: same room entry, item and date, other quantity or amount -> `amount_mismatch`.

Within a step, expected charges (by key) and lines (by id) that share the same match columns
are paired in order, so two identical charges need two lines.
"""

from __future__ import annotations

import polars as pl

from pipelines.marts.logic import to_cents
from pipelines.recon.logic.frames import (
    AMOUNT_MISMATCH,
    LINE_COLUMNS,
    MATCHED,
    Frame,
    lazy,
    milli,
)
from pipelines.recon.logic.ledger import POS, ticket_ref

PAYMENT = "payment"


def net_lines(lines: Frame) -> pl.DataFrame:
    """Charge lines net of their reversals, with `net_cents`, `quantity_milli` and `ref`."""
    lf = lazy(lines, "folio_lines", LINE_COLUMNS).with_columns(
        total_cents=to_cents(pl.col("total")), quantity_milli=milli(pl.col("quantity")))
    reversed_by = (lf.filter(pl.col("reversal_of").is_not_null())
                   .group_by("property_id", "reversal_of")
                   .agg(reversed_cents=pl.col("total_cents").sum()))
    return (
        lf.filter(pl.col("reversal_of").is_null() & (pl.col("type") != PAYMENT))
        .join(reversed_by, left_on=["property_id", "folio_line_id"],
              right_on=["property_id", "reversal_of"], how="left")
        .with_columns(net_cents=pl.col("total_cents") + pl.col("reversed_cents").fill_null(0))
        .filter(pl.col("reversed_cents").is_null() | (pl.col("net_cents") != 0))
        .with_columns(ref=ticket_ref(pl.col("description")))
        .select("property_id", "folio_line_id", "folio_id", "reservation_id",
                "reservation_room_id", "service_item_id", "posted_on", "quantity_milli",
                "net_cents", "ref")
        .sort("folio_line_id")
        .collect()
    )


def _pair(expected: pl.DataFrame, lines: pl.DataFrame, left: list[str],
          right: list[str]) -> pl.DataFrame:
    """(key, folio_line_id) pairs: the n-th expected charge of a group with its n-th line."""
    exp = expected.sort("key").with_columns(_n=pl.int_range(pl.len()).over(left))
    lns = lines.sort("folio_line_id").with_columns(_n=pl.int_range(pl.len()).over(right))
    return exp.select(*left, "_n", "key").join(
        lns.select(*right, "_n", "folio_line_id"), left_on=[*left, "_n"],
        right_on=[*right, "_n"], how="inner", nulls_equal=False,
    ).select("key", "folio_line_id")


def match(expected: pl.DataFrame, lines: pl.DataFrame) -> pl.DataFrame:
    """`expected` with the answering line: `folio_line_id`, `folio_id`, `posted_cents`,
    `posted_quantity_milli` and `match_status` (matched, amount_mismatch, or null)."""
    pairs: list[pl.DataFrame] = []
    used_keys = pl.Series("key", [], dtype=pl.String)
    used_lines = pl.Series("folio_line_id", [], dtype=pl.Int64)

    def remaining() -> tuple[pl.DataFrame, pl.DataFrame]:
        return (expected.filter(~pl.col("key").is_in(used_keys.implode())),
                lines.filter(~pl.col("folio_line_id").is_in(used_lines.implode())))

    def take(found: pl.DataFrame) -> None:
        nonlocal used_keys, used_lines
        pairs.append(found)
        used_keys = pl.concat([used_keys, found["key"]])
        used_lines = pl.concat([used_lines, found["folio_line_id"].cast(pl.Int64)])

    exp, lns = remaining()
    take(_pair(exp.filter(pl.col("source") == POS), lns.filter(pl.col("ref").is_not_null()),
               ["property_id", "reservation_id", "source_ref"],
               ["property_id", "reservation_id", "ref"]))

    slot_left = ["property_id", "reservation_room_id", "item_id", "business_date"]
    slot_right = ["property_id", "reservation_room_id", "service_item_id", "posted_on"]
    exp, lns = remaining()
    take(_pair(exp.filter(pl.col("compare_amount")), lns,
               [*slot_left, "quantity_milli", "expected_cents"],
               [*slot_right, "quantity_milli", "net_cents"]))
    exp, lns = remaining()
    take(_pair(exp.filter(~pl.col("compare_amount")), lns,
               [*slot_left, "quantity_milli"], [*slot_right, "quantity_milli"]))
    exp, lns = remaining()
    take(_pair(exp, lns, slot_left, slot_right))

    answered = pl.concat(pairs).join(
        lines.select("folio_line_id", "folio_id", "service_item_id",
                     posted_cents="net_cents", posted_quantity_milli="quantity_milli"),
        on="folio_line_id", how="left")
    out = expected.join(answered, on="key", how="left")
    same = ((pl.col("service_item_id") == pl.col("item_id"))
            & (pl.col("posted_quantity_milli") == pl.col("quantity_milli"))
            & (~pl.col("compare_amount") | (pl.col("posted_cents") == pl.col("expected_cents"))))
    return out.with_columns(match_status=pl.when(pl.col("folio_line_id").is_null()).then(None)
                            .when(same).then(pl.lit(MATCHED))
                            .otherwise(pl.lit(AMOUNT_MISMATCH))).drop("service_item_id")
