"""Exact money arithmetic: half-up rounding, the even split of a stay, net from gross."""

from __future__ import annotations

import polars as pl
import pytest

from pipelines.marts.logic.money import (
    basis_points,
    div_half_up,
    from_cents,
    net_from_gross,
    ratio_cents,
    split_evenly,
)


def _eval(expr: pl.Expr, **cols: list[int]) -> list[object]:
    return pl.DataFrame(cols).select(out=expr)["out"].to_list()


def test_div_half_up_rounds_halves_away_from_zero() -> None:
    # 15/10 = 1.5 -> 2; 25/10 = 2.5 -> 3 (half-even would say 2); 14/10 -> 1; -15/10 -> -2
    got = _eval(div_half_up(pl.col("n"), 10), n=[15, 25, 14, -15, -14, 0])
    assert got == [2, 3, 1, -2, -1, 0]


def test_split_of_100_05_over_two_nights() -> None:
    # 10005 / 2 = 5002.5 -> 5003 (half-up) on night 1; night 2 takes 10005 - 5003 = 5002
    got = _eval(
        split_evenly(pl.col("t"), pl.col("n"), pl.col("i")), t=[10005, 10005], n=[2, 2], i=[0, 1]
    )
    assert got == [5003, 5002]


def test_split_of_100_over_three_nights() -> None:
    # 10000 / 3 = 3333.33 -> 3333, 3333, last 10000 - 6666 = 3334
    got = _eval(
        split_evenly(pl.col("t"), pl.col("n"), pl.col("i")), t=[10000] * 3, n=[3] * 3, i=[0, 1, 2]
    )
    assert got == [3333, 3333, 3334]


def test_net_from_gross_at_ten_percent() -> None:
    # 3333 / 1.1 = 3030.0 -> 3030; 3334 / 1.1 = 3030.909 -> 3031; 11000 / 1.1 = 10000
    got = _eval(net_from_gross(pl.col("g"), pl.lit(1000)), g=[3333, 3334, 11000, -3334])
    assert got == [3030, 3031, 10000, -3031]


def test_from_cents_and_ratio() -> None:
    out = pl.DataFrame({"c": [23636], "n": [4]}).select(
        m=from_cents(pl.col("c")),
        r=ratio_cents(pl.col("c"), pl.col("n")),
        z=ratio_cents(pl.col("c"), pl.lit(0)),
    )
    # 236.36 / 4 = 59.09 exactly
    assert [str(v) for v in out.row(0)[:2]] == ["236.36", "59.09"]
    assert out["z"][0] is None


def test_vat_with_more_than_two_decimals_is_refused() -> None:
    from decimal import Decimal

    assert basis_points(Decimal("5.5")) == 550
    with pytest.raises(ValueError, match="more than two decimals"):
        basis_points(Decimal("5.555"))
