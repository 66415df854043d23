"""The stable key of an expected charge and the Idempotency-Key derived from it.

key = "property|reservation room|business date|item code|source reference", e.g.
`1|532|2025-05-03|CTAX|rule:city_tax` or `1|532|2025-05-03|BAR|T-000123/1`. It names what the
charge means, not when it was found, so every run (and every retry of a crashed run) derives
the same Idempotency-Key: "recon:" + the SHA-256 of the key in hex (70 characters, within the
spec's 200).
"""

from __future__ import annotations

import hashlib
from datetime import date

import polars as pl

PREFIX = "recon:"


def charge_key(property_id: int, reservation_room_id: int, business_date: date,
               item_code: str, source_ref: str) -> str:
    return "|".join((str(property_id), str(reservation_room_id), business_date.isoformat(),
                     item_code, source_ref))


def idempotency_key(key: str) -> str:
    return PREFIX + hashlib.sha256(key.encode()).hexdigest()


def with_keys(expected: pl.LazyFrame) -> pl.LazyFrame:
    """Add `key` and `idempotency_key` to expected charges."""
    return expected.with_columns(key=pl.concat_str(
        [pl.col("property_id").cast(pl.String), pl.col("reservation_room_id").cast(pl.String),
         pl.col("business_date").dt.to_string("%Y-%m-%d"), pl.col("item_code"),
         pl.col("source_ref")], separator="|",
    )).with_columns(idempotency_key=pl.col("key").map_elements(
        idempotency_key, return_dtype=pl.String))
