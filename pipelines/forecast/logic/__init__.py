"""The forecast's pure part: the methods, their backtest, band and accuracy (`methods`,
`skill`), the alerts (`alerts`) and the budget's parsing (`budget`), polars in and out."""

from pipelines.forecast.logic.alerts import AlertSettings, alerts
from pipelines.forecast.logic.budget import BudgetError
from pipelines.forecast.logic.methods import (
    HORIZONS,
    ForecastSettings,
    accuracy,
    backtest,
    forecast_daily,
    scored_forecasts,
)

__all__ = [
    "HORIZONS",
    "AlertSettings",
    "BudgetError",
    "ForecastSettings",
    "accuracy",
    "alerts",
    "backtest",
    "forecast_daily",
    "scored_forecasts",
]
