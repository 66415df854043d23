"""The band of a month computed for the month (issue 49 item 2; pipelines/forecast/logic/
month_band.py), worked by hand: split conformal on sums of past errors shaped like the month's
nights ahead, not the sum of the nights' bands."""

from __future__ import annotations

from datetime import date, timedelta

import polars as pl
import pytest

from pipelines.forecast.logic import ForecastSettings
from pipelines.forecast.logic.month_band import month_bands

AS_OF = date(2026, 4, 29)
HORIZONS = (1, 7, 14, 30, 60, 90)
# the misses (actual - forecast) of the forecast in use one day ahead on Apr 19..28, the 10
# nights realized in the band's 10 days before Apr 29
MISSES = [1, -2, 0, 3, -1, 2, 0, -3, 1, 2]


def _errors(horizon: int = 1) -> pl.DataFrame:
    nights = [date(2026, 4, 19) + timedelta(days=n) for n in range(10)]
    return pl.DataFrame({"property_id": [1] * 10, "stay_date": nights,
                         "horizon_days": [horizon] * 10, "rooms_forecast": [30.0] * 10,
                         "rooms_actual": [30.0 + m for m in MISSES]})


def _nights(forecasts: list[float], cap: float = 40.0) -> pl.DataFrame:
    """The month's nights ahead as of Apr 29: Apr 29 (0 days before) and Apr 30 (1), both at
    the 1-day horizon."""
    return pl.DataFrame({"property_id": [1, 1], "as_of_date": [AS_OF, AS_OF],
                         "stay_date": [AS_OF, AS_OF + timedelta(days=1)],
                         "days_before": [0, 1], "rooms_forecast": forecasts,
                         "cap": [cap, cap]})


def test_the_months_band_is_calibrated_on_sums_of_two_consecutive_nights() -> None:
    """Two nights ahead: windows of 2 consecutive nights in Apr 19..28, 9 of them, their
    misses summed: -1, -2, 3, 2, 1, 2, -3, -2, 3. With n = 9, k = floor(10 x 0.1) = 1 and
    ceil(10 x 0.9) = 9: the smallest and the largest, -3 and +3. Forecast 30 + 31 = 61 rooms:
    the month's band 58 to 64. The nights' own bands (the 1st and 10th of the 10 misses,
    -3 and +3 each) would sum to 55 to 67, twice as wide: these errors cancel from night to
    night more than they add."""
    got = month_bands(_nights([30.0, 31.0]), _errors(), HORIZONS, 10, (0.1, 0.9), 9)
    assert got.rows() == [(1, AS_OF, date(2026, 4, 1), pytest.approx(58.0),
                           pytest.approx(64.0))]


def test_the_band_stays_within_the_rooms_and_around_the_forecast() -> None:
    """Forecast 1 + 1 = 2 rooms: 2 - 3 clipped at 0; 39.5 + 39.5 = 79 with a limit of 40 a
    night: 79 + 3 clipped at 80."""
    low = month_bands(_nights([1.0, 1.0]), _errors(), HORIZONS, 10, (0.1, 0.9), 9)
    assert low.select("month_rooms_low", "month_rooms_high").rows() == [(0.0, 5.0)]
    high = month_bands(_nights([39.5, 39.5]), _errors(), HORIZONS, 10, (0.1, 0.9), 9)
    assert high.select("month_rooms_low", "month_rooms_high").rows() == [(76.0, 80.0)]


def test_no_band_without_enough_windows_or_errors_at_the_nights_horizon() -> None:
    """Asking for 10 windows where 9 exist: no band. Errors at 7 days only, where the
    nights ahead take the 1-day horizon: no window, no band."""
    assert month_bands(_nights([30.0, 31.0]), _errors(), HORIZONS, 10, (0.1, 0.9),
                       10).is_empty()
    assert month_bands(_nights([30.0, 31.0]), _errors(horizon=7), HORIZONS, 10, (0.1, 0.9),
                       9).is_empty()


def test_the_months_band_is_kept_for_the_current_month_only() -> None:
    """Beyond the as-of date's month no band held 80 % on held-out draws (docs/flash.md, "The
    month's band"): ForecastSettings.month_band_months = 1 keeps April's. May 1, alone in its
    month 2 days out (the 7-day horizon), has 10 one-night windows of 7-day misses, the same
    -3 .. +3: k = floor(11 x 0.1) = 1 and ceil(11 x 0.9) = 10, its forecast 32, band 29 to 35,
    when every month is asked for."""
    nights = pl.concat([_nights([30.0, 31.0]), pl.DataFrame(
        {"property_id": [1], "as_of_date": [AS_OF], "stay_date": [date(2026, 5, 1)],
         "days_before": [2], "rooms_forecast": [32.0], "cap": [40.0]})])
    errors = pl.concat([_errors(), _errors(horizon=7)])
    april = (1, AS_OF, date(2026, 4, 1), pytest.approx(58.0), pytest.approx(64.0))
    may = (1, AS_OF, date(2026, 5, 1), pytest.approx(29.0), pytest.approx(35.0))
    assert month_bands(nights, errors, HORIZONS, 10, (0.1, 0.9), 9).rows() == [april, may]
    assert month_bands(nights, errors, HORIZONS, 10, (0.1, 0.9), 9, 2).rows() == [april, may]
    assert month_bands(nights, errors, HORIZONS, 10, (0.1, 0.9), 9, 1).rows() == [april]
    assert ForecastSettings().month_band_months == 1
