"""The forecast: where each future night lands (rooms, revenue, a band), how accurate that has
been (the backtest), the alerts a revenue manager reads, and the budget it is held against.

The methods, backtest, band and alerts are pure (`pipelines.forecast.logic`); the marts'
build (`pipelines.marts`) makes mart.forecast_daily, mart.forecast_accuracy and mart.alerts
from them; `import_budget` writes mart.budget (`pmsw budget import`). docs/forecast.md.
"""

from pipelines.forecast.budget_import import import_budget
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

__all__ = ["HORIZONS", "AlertSettings", "BudgetError", "ForecastSettings", "accuracy", "alerts",
           "backtest", "forecast_daily", "import_budget", "scored_forecasts"]
