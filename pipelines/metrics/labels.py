"""The report columns that are not figures: what a row is (its date, its key, its text), a
change of a figure against a base, and the flash's periods. Every other column a report
prints is a figure and takes its name from `METRICS` (tests/metrics/test_report_columns.py
fails on a column in neither, so a new figure cannot appear without a definition)."""

from __future__ import annotations

DIMENSIONS = frozenset({
    # dates and periods a row is of
    "stay_date", "weekday", "date", "business_date", "month", "first_date", "last_date",
    "first_night", "last_night", "arrival", "departure", "oldest_posting",
    "fiscal_document_date", "resolved_at", "days_before", "horizon_days",
    # keys and codes
    "run_id", "item", "folio_id", "folio_number", "fiscal_document_number", "reservation_id",
    "reservation_room_id", "room", "room_code", "rooms", "item_code", "department", "vat_pct",
    "channel", "source", "market", "rate_plan", "room_type", "category", "aging_bucket",
    "method", "kind", "ledger", "mode", "alert",
    # states and words
    "basis", "status", "reason_code", "state", "folio_status", "reservation_status", "bill_to",
    "holder", "resolved_by", "resolution_note", "reason", "reported_by", "cause", "action",
    "message", "note", "in_use_now", "metric", "line", "change_unit",
    # the warehouse's own: an order, a position, a parameter, a bucket's label
    "bucket_order", "lead_time_order", "lead_time_bucket", "position", "night_index",
    "window_days", "as_of",
    # flags of a period (the notebooks' pace: some of its nights rebuilt from history)
    "any_rebuilt", "stly_any_rebuilt",
})
"""What a row is: never summed, never a figure. `rooms` is a folio's room numbers (text);
`metric` names the figure of a flash row (a METRICS name); `line` a roll-forward line."""

CHANGES = frozenset({"vs_budget_pct", "vs_last_year_pct", "room_revenue_change_pct"})
"""forecast-months' room_revenue_expected_net against its budget and last year, and
mart.v_mtd_yoy's room_revenue_net against last year's, in percent of the base
(`pipelines.metrics.change`)."""

FLASH_PERIODS = frozenset({
    "day", "day_budget", "day_last_year", "mtd", "mtd_budget", "mtd_last_year",
    "month_expected", "month_budget", "ytd", "ytd_budget", "ytd_last_year", "year_expected",
    "year_budget",
    "day_vs_budget", "day_vs_last_year", "mtd_vs_budget", "mtd_vs_last_year",
    "ytd_vs_budget", "ytd_vs_last_year",
    "day_forecast", "mtd_forecast", "ytd_forecast",
    "day_vs_forecast", "mtd_vs_forecast", "ytd_vs_forecast",
})
"""The flash's columns: each cell is the metric its row names, over that period (a budget's,
last year's, the forecast made before it, the month's or the year's expected end), or its
change (`*_vs_*`, read as `change_unit`)."""

LABELS: frozenset[str] = DIMENSIONS | CHANGES | FLASH_PERIODS
