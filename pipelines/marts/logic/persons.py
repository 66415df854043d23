"""Persons of a room entry: adults plus the children of age brackets that count as persons."""

from __future__ import annotations

import polars as pl

from pipelines.vocabulary import Frame, lazy

_PAIR = r'"(\d+)"\s*:\s*(\d+)'


def with_persons(rooms: Frame, age_brackets: Frame) -> pl.DataFrame:
    """Add `persons` to room entries (or versions) carrying `adults` and `brackets`.

    `brackets` is the JSON object of core.reservation_rooms (age_bracket_id as a string key to a
    count, e.g. {"2": 1}); `age_brackets` is core.age_brackets (property_id, age_bracket_id,
    counts_as_person). A bracket id unknown to age_brackets counts as a person (the safe side
    for city tax and for capacity)."""
    lf = lazy(rooms, "rooms", ["property_id", "adults", "brackets"]).with_row_index("_row")
    brackets = lazy(
        age_brackets, "age_brackets", ["property_id", "age_bracket_id", "counts_as_person"]
    )
    pairs = (
        lf.select(
            "_row", "property_id", pair=pl.col("brackets").cast(pl.String).str.extract_all(_PAIR)
        )
        .explode("pair")
        .drop_nulls("pair")
        .with_columns(
            age_bracket_id=pl.col("pair").str.extract(_PAIR, 1).cast(pl.Int64),
            count=pl.col("pair").str.extract(_PAIR, 2).cast(pl.Int64),
        )
        .join(
            brackets.select(
                pl.col("property_id").cast(pl.Int64),
                pl.col("age_bracket_id").cast(pl.Int64),
                "counts_as_person",
            ),
            on=["property_id", "age_bracket_id"],
            how="left",
        )
        .group_by("_row")
        .agg(
            counting_children=pl.col("count")
            .filter(pl.col("counts_as_person").fill_null(True))
            .sum()
        )
    )
    return (
        lf.join(pairs, on="_row", how="left")
        .with_columns(
            persons=(pl.col("adults") + pl.col("counting_children").fill_null(0)).cast(pl.Int64)
        )
        .drop("_row", "counting_children")
        .collect()
    )
