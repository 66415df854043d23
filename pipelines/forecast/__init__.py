"""The forecast: where each future night lands (rooms, revenue, a band), how accurate that has
been (the backtest), the alerts a revenue manager reads, and the budget it is held against.

The methods, backtest, band and alerts are pure (`pipelines.forecast.logic`); the calendar
(`pipelines.forecast.calendar`: each property's holidays, the hotel's events of events.yaml
and each night's same night last year aligned by them) tells them and the pace which night of
last year a night is compared with; the marts' build (`pipelines.marts`) makes
mart.forecast_daily, mart.forecast_accuracy and mart.alerts from them; `import_budget` writes
mart.budget (`pmsw budget import`). docs/forecast.md, docs/alerts.md, docs/flash.md (the
budget), docs/calendar.md. The budget's import (openpyxl) and the calendar (yaml, holidays)
load on first use, not with the face: the reports read only `logic` (pipelines/faces.py).
"""

from typing import TYPE_CHECKING

from pipelines.faces import lazy_names
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
from pipelines.forecast.logic.stretches import alert_stretches, stretch

if TYPE_CHECKING:
    from pipelines.forecast.budget_import import import_budget, import_budget_group
    from pipelines.forecast.calendar import (
        EVENTS_FILE_ENV,
        EVENTS_FILE_NAME,
        CalendarError,
        Event,
        Fixed,
        FromEaster,
        NthWeekday,
        Place,
        calendar_nights,
        events_file,
        load_events,
        nth_weekday,
        property_calendars,
    )

__getattr__ = lazy_names(__name__, {
    "import_budget": "budget_import",
    "import_budget_group": "budget_import",
    **dict.fromkeys(("EVENTS_FILE_ENV", "EVENTS_FILE_NAME", "CalendarError", "Event", "Fixed",
                     "FromEaster", "NthWeekday", "Place", "calendar_nights", "events_file",
                     "load_events", "nth_weekday", "property_calendars"), "calendar"),
})

__all__ = ["EVENTS_FILE_ENV", "EVENTS_FILE_NAME", "HORIZONS", "AlertSettings", "BudgetError",
           "CalendarError", "Event", "Fixed", "ForecastSettings", "FromEaster", "NthWeekday",
           "Place", "accuracy", "alert_stretches", "alerts", "backtest", "calendar_nights",
           "events_file", "forecast_daily", "import_budget", "import_budget_group",
           "load_events", "nth_weekday", "property_calendars", "scored_forecasts", "stretch"]
