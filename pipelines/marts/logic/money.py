"""Exact money arithmetic on polars expressions: integer cents inside, Decimal(18, 2) outside.

Every transform converts amounts to Int64 cents on the way in and back to Decimal on the way
out, so sums are exact and each rounding happens once, where the definition says (half-up,
i.e. half away from zero, like Python's ROUND_HALF_UP).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

import polars as pl

MONEY = pl.Decimal(18, 2)
DEFAULT_ACCOMMODATION_VAT_PCT = Decimal("10")

VatRate = Decimal | Mapping[int, Decimal]


def to_cents(expr: pl.Expr) -> pl.Expr:
    """Decimal (or integer) amount -> Int64 cents, rounded half-up below the cent."""
    return (
        expr.cast(pl.Decimal(20, 4)).round(2, mode="half_away_from_zero") * 100
    ).cast(pl.Int64)


def from_cents(expr: pl.Expr) -> pl.Expr:
    """Int64 cents -> Decimal(18, 2), exactly."""
    return (expr.cast(pl.Decimal(20, 2)) / 100).cast(MONEY)


def div_half_up(num: pl.Expr, den: pl.Expr | int) -> pl.Expr:
    """Integer division rounded half away from zero; `den` must be positive."""
    den_expr = den if isinstance(den, pl.Expr) else pl.lit(den, dtype=pl.Int64)
    magnitude = (num.abs() * 2 + den_expr) // (den_expr * 2)
    return pl.when(num < 0).then(-magnitude).otherwise(magnitude)


def ratio_cents(num_cents: pl.Expr, den: pl.Expr) -> pl.Expr:
    """Cents / count rounded half-up to the cent, as Decimal; null when the count is 0."""
    return pl.when(den > 0).then(from_cents(div_half_up(num_cents, den))).otherwise(None)


def basis_points(pct: Decimal) -> int:
    """A percentage such as 10 or 5.5 as integer basis points (hundredths of a percent)."""
    scaled = pct * 100
    if scaled != scaled.to_integral_value():
        raise ValueError(f"VAT percentage {pct} has more than two decimals")
    return int(scaled)


def vat_bp_expr(vat_pct: VatRate, property_col: str = "property_id") -> pl.Expr:
    """The accommodation VAT of each row's property, in basis points (Int64)."""
    if isinstance(vat_pct, Decimal):
        return pl.lit(basis_points(vat_pct), dtype=pl.Int64)
    mapping = {pid: basis_points(pct) for pid, pct in vat_pct.items()}
    default = basis_points(DEFAULT_ACCOMMODATION_VAT_PCT)
    return pl.col(property_col).replace_strict(mapping, default=default, return_dtype=pl.Int64)


def net_from_gross(gross_cents: pl.Expr, vat_bp: pl.Expr) -> pl.Expr:
    """Net = gross / (1 + VAT), rounded half-up to the cent."""
    return div_half_up(gross_cents * 10_000, vat_bp + 10_000)


def split_evenly(total_cents: pl.Expr, nights: pl.Expr, night_index: pl.Expr) -> pl.Expr:
    """Night `night_index` (0-based) of `nights` of a stay total: each night but the last is
    total / nights rounded half-up, the last takes the remainder, so the nights sum exactly."""
    per_night = div_half_up(total_cents, nights)
    last = total_cents - per_night * (nights - 1)
    return pl.when(night_index == nights - 1).then(last).otherwise(per_night)
