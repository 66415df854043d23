"""The band of a month's rooms still to come, computed for the month (issue 49 item 2).

The nights' bands do not add: each holds 80 % of its own night, and the month's error is the
sum of its nights' errors, which move together (a slow month is slow on many nights) or
cancel. So the month's band is calibrated on sums of past errors shaped like the month's:
as of S, the month's nights ahead n_1..n_k sit at positions p_i = n_i - n_1 and take the
backtest horizon H_i of their days before S (the next one up, as the nights' band does). For
every start t among the nights realized in the `band_days` before S, the window sum

    W(t) = sum over i of miss_{H_i}(t + p_i),  miss_H(d) = actual - forecast in use at H of d,

is what the forecast in use got wrong on k consecutive past nights at the same horizons as
the month's (a window with a night outside the calibration nights or without an error is
left out). The correlation of neighbouring nights is in the sums as it was measured, not
assumed. The month's band is the forecast's sum plus the split-conformal bounds of the n
window sums (k-th smallest with k = floor((n + 1) x 0.1) and k = ceil((n + 1) x 0.9), as the
nights' band; none with fewer than `band_min_nights` windows), clipped to [0, the nights'
rooms limits] and never on the wrong side of the forecast. Worked by hand:
tests/forecast/test_month_band.py.
"""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import date, timedelta

import polars as pl

MONTH_BAND_SCHEMA = pl.Schema({"property_id": pl.Int64, "as_of_date": pl.Date,
                               "month": pl.Date, "month_rooms_low": pl.Float64,
                               "month_rooms_high": pl.Float64})


def _horizon(days_before: int, horizons: tuple[int, ...]) -> int:
    """The backtest horizon whose band a night takes: the next one up (the last beyond)."""
    return next((h for h in horizons if days_before <= h), horizons[-1])


def _bounds(sums: list[float], interval: tuple[float, float],
            least: int) -> tuple[float, float] | None:
    n = len(sums)
    k_low = math.floor((n + 1) * interval[0])
    k_high = math.ceil((n + 1) * interval[1])
    if n < least or k_low < 1 or k_high > n:
        return None
    ordered = sorted(sums)
    return ordered[k_low - 1], ordered[k_high - 1]


def month_bands(nights: pl.DataFrame, errors: pl.DataFrame, horizons: tuple[int, ...],
                band_days: int, interval: tuple[float, float],
                least: int, months: int | None = None) -> pl.DataFrame:
    """Per property, as-of date and month of the nights ahead: the band of the month's rooms
    still to come (the sum of rooms_forecast over its nights from the as-of date on).
    nights: property_id, as_of_date, stay_date, days_before, rooms_forecast, cap (the
    night's rooms limit); errors: the forecasts in use at the backtest's `horizons` on
    realized nights (property_id, stay_date, horizon_days, rooms_forecast, rooms_actual);
    `band_days`, `interval`, `least`: the nights' band's settings (ForecastSettings
    band_days, interval, band_min_nights); `months`: only the as-of date's month and the
    `months` - 1 after it get a band (ForecastSettings.month_band_months; None: every month).
    Returns MONTH_BAND_SCHEMA's columns; a month with fewer than `least` window sums has
    none (no row)."""
    miss: dict[tuple[int, int], dict[date, float]] = defaultdict(dict)
    for pid, night, horizon, forecast, actual in errors.select(
            "property_id", "stay_date", "horizon_days", "rooms_forecast",
            "rooms_actual").iter_rows():
        miss[int(pid), int(horizon)][night] = float(actual) - float(forecast)
    months_ahead: dict[tuple[int, date, date], list[tuple[date, int, float, float]]] = \
        defaultdict(list)
    for pid, as_of, night, days_before, forecast, cap in nights.select(
            "property_id", "as_of_date", "stay_date", "days_before", "rooms_forecast",
            "cap").iter_rows():
        months_ahead[int(pid), as_of, night.replace(day=1)].append(
            (night, _horizon(int(days_before), horizons), float(forecast), float(cap)))
    rows = []
    for (pid, as_of, month), ahead in sorted(months_ahead.items()):
        if months is not None and (
                (month.year - as_of.year) * 12 + month.month - as_of.month >= months):
            continue
        ahead.sort()
        first = ahead[0][0]
        span = (ahead[-1][0] - first).days
        sums = []
        start = as_of - timedelta(days=band_days)
        while start + timedelta(days=span) < as_of:
            window = [miss[pid, horizon].get(start + (night - first))
                      for night, horizon, _, _ in ahead]
            if all(v is not None for v in window):
                sums.append(sum(v for v in window if v is not None))
            start += timedelta(days=1)
        bounds = _bounds(sums, interval, least)
        if bounds is None:
            continue
        forecast = sum(f for _, _, f, _ in ahead)
        limit = sum(c for _, _, _, c in ahead)
        low = min(forecast, max(0.0, forecast + bounds[0]))
        high = max(forecast, min(limit, forecast + bounds[1]))
        rows.append((pid, as_of, month, round(low, 2), round(high, 2)))
    return pl.DataFrame(rows, schema=MONTH_BAND_SCHEMA, orient="row")
