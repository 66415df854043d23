"""`pmsw report ...`: tables read from the warehouse (DuckDB, read-only) for a property and
a date range, rendered as a table, CSV or JSON. Click wiring lives in `pipelines/cli/report.py`."""

from pipelines.reports.errors import ReportError
from pipelines.reports.excel import render_xlsx
from pipelines.reports.registry import REPORTS, run_report
from pipelines.reports.render import FORMATS, render
from pipelines.reports.reports import SEGMENT_DIMENSIONS, Report, Table
from pipelines.reports.warehouse import (
    PropertyRow,
    as_of_line,
    open_warehouse,
    parse_date,
    resolve_property,
)

__all__ = [
    "FORMATS",
    "REPORTS",
    "SEGMENT_DIMENSIONS",
    "PropertyRow",
    "Report",
    "ReportError",
    "Table",
    "as_of_line",
    "open_warehouse",
    "parse_date",
    "render",
    "render_xlsx",
    "resolve_property",
    "run_report",
]
