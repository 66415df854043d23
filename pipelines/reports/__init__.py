"""`pmsw report ...`: tables read from the warehouse (DuckDB, read-only) for a property and
a date range, rendered as a table, CSV or JSON. Click wiring lives in `pipelines/cli/report.py`."""

from pipelines.reports.errors import ReportError
from pipelines.reports.registry import REPORTS, run_report
from pipelines.reports.render import FORMATS, render
from pipelines.reports.reports import Report, Table
from pipelines.reports.warehouse import PropertyRow, open_warehouse, resolve_property

__all__ = [
    "FORMATS", "REPORTS", "PropertyRow", "Report", "ReportError", "Table", "open_warehouse",
    "render", "resolve_property", "run_report",
]
