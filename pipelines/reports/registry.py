"""Every report, declared once: its name, the tables it reads, its default period and the
function that builds it. The CLI (pipelines/cli/report.py), the xlsx and the demo's summary
run them through `run_report`. The registry imports the report modules; none imports it,
so there is no import circle."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import duckdb

from pipelines.reports import finance, periods, tieout
from pipelines.reports.alerts import alerts
from pipelines.reports.errors import ReportError
from pipelines.reports.reports import (
    Query,
    Report,
    Table,
    _next_30,
    _next_90,
    _past_30,
    forecast,
    forecast_accuracy,
    occupancy,
    pace,
    pickup,
    reconciliation,
    revenue,
    segments,
)
from pipelines.reports.warehouse import PropertyRow, require_tables

REPORTS: dict[str, Report] = {r.name: r for r in (
    Report("occupancy", ("mart.occupancy_daily",), _past_30, occupancy),
    Report("pickup", ("mart.pickup", "mart.otb_snapshots"), _next_30, pickup),
    Report("pace", ("mart.pace", "mart.otb_snapshots"), _next_30, pace),
    Report("segments", ("mart.segment_daily", "core.rate_plans", "core.room_types"), _past_30,
           segments),
    Report("revenue", ("mart.revenue_daily",), _past_30, revenue),
    Report("reconciliation", ("recon.runs",), _past_30, reconciliation),
    Report("forecast", ("mart.forecast_daily",), _next_30, forecast),
    Report("forecast-accuracy", ("mart.forecast_accuracy",), _past_30, forecast_accuracy),
    Report("alerts", ("mart.alerts",), _next_90, alerts),
    Report("flash", ("mart.occupancy_daily", "mart.revenue_daily", "mart.budget_monthly"),
           _past_30, periods.flash),
    Report("forecast-months", ("mart.occupancy_daily", "mart.forecast_daily",
                               "mart.budget_monthly"), periods.next_12_months,
           periods.forecast_months),
    Report("worklist", ("recon.v_worklist",), finance.all_closed, finance.worklist),
    Report("ledger", ("mart.v_guest_ledger",), finance.all_closed, finance.ledger),
    Report("city-tax", ("core.reservation_rooms", "core.folio_lines", "recon.v_current"),
           finance.all_closed, finance.city_tax),
    Report("interface-loss", ("recon.v_interface_loss",), _past_30, finance.interface_loss),
    Report("tieout", ("core.folio_lines", "core.items", "mart.revenue_daily",
                      "mart.revenue_tieout"), tieout.last_closed, tieout.tieout),
)}


def run_report(conn: duckdb.DuckDBPyConnection, path: Path, name: str, prop: PropertyRow,
               first: date | None, last: date | None, **options: Any) -> Table:
    """Check the tables and the range, then build report `name`."""
    report = REPORTS[name]
    require_tables(conn, path, *report.tables)
    default_first, default_last = report.default_range(prop.business_date)
    span = default_last - default_first
    if first is None and last is None:
        first, last = default_first, default_last
    elif first is None:
        assert last is not None
        first = last - span
    elif last is None:
        last = first + span
    if first > last:
        raise ReportError(f"--from {first} is after --to {last}")
    if (last - first).days > 3660:
        raise ReportError(f"--from {first} to --to {last} spans more than ten years")
    return report.build(conn, Query(prop, first, last, options))
