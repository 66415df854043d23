"""The forecast's pure part: the methods, their backtest, band and accuracy (`methods`,
`skill`), the alerts (`alerts`), the nights a forecast keeps for the flash (`history`) and
the budget's parsing (`budget`), polars in and out."""

from pipelines.forecast.logic.alerts import AlertSettings, alerts
from pipelines.forecast.logic.budget import BudgetError
from pipelines.forecast.logic.departments import department_errors
from pipelines.forecast.logic.history import kept_nights, with_departments
from pipelines.forecast.logic.methods import (
    HORIZONS,
    ON_THE_BOOKS,
    REVENUE_COLUMNS,
    WAPE_COLUMNS,
    ForecastSettings,
    accuracy,
    backtest,
    forecast_daily,
    scored_forecasts,
)
from pipelines.forecast.logic.stretches import alert_stretches, stretch

__all__ = [
    "HORIZONS",
    "ON_THE_BOOKS",
    "REVENUE_COLUMNS",
    "WAPE_COLUMNS",
    "AlertSettings",
    "BudgetError",
    "ForecastSettings",
    "accuracy",
    "alert_stretches",
    "alerts",
    "backtest",
    "department_errors",
    "forecast_daily",
    "kept_nights",
    "scored_forecasts",
    "stretch",
    "with_departments",
]
