"""The months' chart of the morning page draws forecast-months' rows as the report gives
them: with the month's band (rooms_expected_low, rooms_expected_high) its expected rooms carry
it as error bars, the distances worked out by hand below; without one, none."""

from __future__ import annotations

from decimal import Decimal

from pipelines.app.charts import months_chart
from pipelines.reports import Table

from .conftest import chart_traces

COLUMNS = ("month", "rooms_actual", "rooms_otb", "rooms_expected", "budget_rooms_sold",
           "last_year_rooms_sold")


def test_a_band_of_the_months_is_drawn_as_error_bars_around_the_expected_rooms() -> None:
    months = Table("months", (*COLUMNS, "rooms_expected_low", "rooms_expected_high"), [
        ("2027-01", 0, 400, Decimal(1500), 1450, 1390, Decimal(1380), Decimal(1610)),
        ("2027-02", 0, 150, Decimal(1300), None, 1250, Decimal(1150), Decimal(1420))])
    traces = chart_traces(f'<div id="months">{months_chart(months)}</div>', "months")
    band = traces["expected (with its band)"]["error_y"]
    assert band["array"] == [110.0, 120.0]  # 1610 - 1500, 1420 - 1300
    assert band["arrayminus"] == [120.0, 150.0]  # 1500 - 1380, 1300 - 1150
    assert traces["budget"]["y"] == [1450.0, None]
    assert traces["on the books"]["y"] == [400.0, 150.0]


def test_without_a_band_the_expected_rooms_have_no_error_bars() -> None:
    months = Table("months", COLUMNS, [("2027-01", 10, 400, Decimal(1500), 1450, 1390)])
    traces = chart_traces(f'<div id="months">{months_chart(months)}</div>', "months")
    assert "error_y" not in traces["expected"]
    assert traces["closed nights (actual)"]["y"] == [10.0]
    assert months_chart(Table("months", COLUMNS, [])) == ""
    # the report's band columns, empty (too few past errors to calibrate one): none drawn
    empty = Table("months", (*COLUMNS, "rooms_expected_low", "rooms_expected_high"),
                  [("2027-01", 10, 400, Decimal(1500), 1450, 1390, None, None)])
    traces = chart_traces(f'<div id="months">{months_chart(empty)}</div>', "months")
    assert "error_y" not in traces["expected"]
