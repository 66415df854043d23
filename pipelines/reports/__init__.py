"""`pmsw report ...`: tables read from the warehouse (DuckDB, read-only) for a property and
a date range, rendered as a table, CSV or JSON. Click wiring lives in `pipelines/cli/report.py`."""

from .errors import ReportError
from .excel import render_xlsx
from .registry import REPORTS, run_report
from .render import FORMATS, render
from .reports import Report, Table
from .warehouse import PropertyRow, as_of_line, open_warehouse, resolve_property

__all__ = [
    "FORMATS", "REPORTS", "PropertyRow", "Report", "ReportError", "Table", "as_of_line",
    "open_warehouse", "render", "render_xlsx", "resolve_property", "run_report",
]
