"""The tables of tests/verify/band_replay.py (docs/forecast.md, "How often the band holds"),
worked by hand: the coverage of the last 91 nights, the spread of runs of 91 nights, and the
month's band by months ahead."""

from __future__ import annotations

from datetime import date, timedelta

import polars as pl
import pytest

from tests.verify.band_replay import months_table, nights_table

FIRST = date(2026, 1, 1)


def test_the_nights_table_by_hand() -> None:
    """92 nights of one hotel at 1 day, each band 2 rooms wide; nights 1 and 83..91 fell
    outside (10 of 92). The last 91 nights (2..92) hold 9 outside: 82 / 91 = 90.1 %. The two
    runs of 91 nights: 1..91 with 10 outside (81 / 91 = 89.0 %) and 2..92 with 9 (90.1 %); SD
    of the two (n - 1): |90.11 - 89.01| / sqrt(2) = 0.78. Another hotel's nights stay apart:
    its runs are its own."""
    outside = {1, *range(83, 92)}
    nights = pl.DataFrame({
        "horizon_days": [1] * 92,
        "stay_date": [FIRST + timedelta(days=n - 1) for n in range(1, 93)],
        "hotel": ["w13 ROMA01"] * 92,
        "inside": [n not in outside for n in range(1, 93)],
        "width": [2.0] * 92,
    })
    other = nights.with_columns(hotel=pl.lit("w14 ROMA01"), inside=pl.lit(True))
    row = nights_table(nights).row(0, named=True)
    assert row == {"horizon_days": 1, "nights": 91, "inside_pct": 90.1, "width_rooms": 2.0,
                   "runs": 2, "run_low": 89.0, "run_high": 90.1, "run_sd": 0.8}
    both = nights_table(pl.concat([nights, other])).row(0, named=True)
    assert (both["nights"], both["runs"], both["run_low"], both["run_high"]) == (
        182, 4, 89.0, 100.0)
    assert both["inside_pct"] == pytest.approx(round((82 + 91) / 182 * 100, 1))


def test_the_months_table_by_hand() -> None:
    """Three as-of dates of one hotel: its own month inside twice of three (66.7 %, two
    months behind them), the next month inside once (100 %); a month four ahead is left out."""
    months = pl.DataFrame({
        "hotel": ["w13 ROMA01"] * 5,
        "as_of_date": [date(2026, 3, 30), date(2026, 3, 31), date(2026, 4, 2),
                       date(2026, 3, 30), date(2026, 3, 30)],
        "month": [date(2026, 3, 1), date(2026, 3, 1), date(2026, 4, 1), date(2026, 4, 1),
                  date(2026, 7, 1)],
        "ahead": [0, 0, 0, 1, 4],
        "inside": [True, False, True, True, False],
        "width": [10.0, 20.0, 30.0, 40.0, 50.0],
    })
    assert months_table(months).rows() == [(0, 3, 2, 66.7, 20.0), (1, 1, 1, 100.0, 40.0)]
