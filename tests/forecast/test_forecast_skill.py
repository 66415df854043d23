"""mart.forecast_accuracy's better_than_last_year columns, worked out by hand.

docs/forecast.md, "How sure the figures are": the skill against last_year is
1 - sum |error| / sum |error of last_year| over the nights both forecast, and its 90 % interval
theta +- 1.645 x SE with SE the delete-a-week jackknife, sqrt((n - 1) / n x sum (theta_i -
mean theta_i)^2), weeks counted back from the last scored night; neither over fewer than 4
weeks of nights both forecast.
"""

from __future__ import annotations

from datetime import date, timedelta

import polars as pl
import pytest

from pipelines.forecast.logic.methods import accuracy

from .conftest import scored

LAST = date(2026, 3, 28)


def errors(method: str, forecasts: list[float]) -> pl.DataFrame:
    """A method's forecasts at 30 days of the nights ending LAST (the last one last), each
    night ending with 10 rooms."""
    n = len(forecasts)
    return scored(method, [LAST - timedelta(days=n - 1 - i) for i in range(n)], forecasts, 10,
                  30)


def test_skill_and_its_interval_by_hand() -> None:
    # Four weeks counted back from LAST. last_year is 2 rooms off every night: 14 a week.
    # chosen, oldest week first: 0, 2, 1 and 1 room off a night: 0, 14, 7 and 7 a week.
    chosen = [10.0] * 7 + [12.0, 8.0] * 3 + [8.0] + [11.0] * 7 + [9.0] * 7
    # season_books forecast only the last two weeks, 1 room off each night.
    books = [11.0] * 14
    table = accuracy(pl.concat([errors("last_year", [12.0] * 28), errors("chosen", chosen),
                                errors("season_books", books)]))
    cells = {r["method"]: r for r in table.iter_rows(named=True)}

    # theta = 1 - 28 / 56 = 50 %. Without each week: 1 - 28/42, 1 - 14/42, 1 - 21/42,
    # 1 - 21/42 = 1/3, 2/3, 1/2, 1/2, mean 1/2; SE = sqrt(3/4 x (1/36 + 1/36)) = sqrt(1/24)
    # = 0.204124; 1.6449 x SE = 0.335764.
    assert cells["chosen"]["better_than_last_year_pct"] == 50.0
    assert cells["chosen"]["better_than_last_year_low_pct"] == pytest.approx(16.42)
    assert cells["chosen"]["better_than_last_year_high_pct"] == pytest.approx(83.58)
    assert cells["chosen"]["wape_pct"] == 10.0  # 28 / 280
    assert cells["last_year"]["wape_pct"] == 20.0  # 56 / 280

    # season_books forecast two weeks of them: 1 - 14 / 28 = 50 % on those, but two weeks are
    # under the 4 a figure takes: none shown
    assert cells["season_books"]["better_than_last_year_pct"] is None
    assert cells["season_books"]["better_than_last_year_low_pct"] is None
    assert cells["season_books"]["better_than_last_year_high_pct"] is None

    # last_year against itself says nothing
    assert cells["last_year"]["better_than_last_year_pct"] is None
    assert cells["last_year"]["better_than_last_year_low_pct"] is None


def test_no_skill_when_last_year_made_no_error_or_forecast_nothing() -> None:
    exact = accuracy(pl.concat([errors("last_year", [10.0] * 28),
                                errors("chosen", [11.0] * 28)]))
    assert exact.filter(method="chosen")["better_than_last_year_pct"].item() is None
    alone = accuracy(errors("chosen", [11.0] * 28))
    assert alone["better_than_last_year_pct"].item() is None
    assert alone["wape_pct"].item() == 10.0


def test_a_week_where_last_year_made_all_its_error_leaves_no_interval() -> None:
    # last_year is off only in the oldest week: leaving that week out, it made no error
    last_year = [12.0] * 7 + [10.0] * 21
    table = accuracy(pl.concat([errors("last_year", last_year), errors("chosen", [11.0] * 28)]))
    chosen = table.filter(method="chosen").row(0, named=True)
    assert chosen["better_than_last_year_pct"] == -100.0  # 1 - 28 / 14: twice the error
    assert chosen["better_than_last_year_low_pct"] is None


def test_only_the_nights_both_forecast_count() -> None:
    # chosen forecast a week more than last_year, 5 rooms off each night of it
    chosen = [15.0] * 7 + [11.0] * 28
    table = accuracy(pl.concat([errors("last_year", [12.0] * 28), errors("chosen", chosen)]))
    row = table.filter(method="chosen").row(0, named=True)
    assert row["wape_pct"] == 18.0  # its own nights: (35 + 28) / 350
    assert row["better_than_last_year_pct"] == 50.0  # the 28 shared: 1 - 28 / 56
    # every week alike: nothing moves when one is left out
    assert row["better_than_last_year_low_pct"] == row["better_than_last_year_high_pct"] == 50.0
