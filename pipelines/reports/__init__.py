"""The reports: tables read from the warehouse's read copy for a property and a date range,
rendered as a table, CSV, JSON or xlsx. Each is declared once in `REPORTS` (its help, options
and default period); `pmsw report` (pipelines/reports/command.py) builds its commands from them.
`render_xlsx` loads openpyxl on its first use, not with the face (pipelines/faces.py)."""

from typing import TYPE_CHECKING

from pipelines.faces import lazy_names
from pipelines.reports.errors import ReportError
from pipelines.reports.registry import REPORTS, run_report
from pipelines.reports.render import FORMATS, render
from pipelines.reports.reports import RANGE, SEGMENT_DIMENSIONS, Option, Report, Table
from pipelines.reports.warehouse import (
    PropertyRow,
    as_of_line,
    open_warehouse,
    resolve_property,
)

if TYPE_CHECKING:
    from pipelines.reports.excel import render_xlsx

__getattr__ = lazy_names(__name__, {"render_xlsx": "excel"})

__all__ = [
    "FORMATS",
    "RANGE",
    "REPORTS",
    "SEGMENT_DIMENSIONS",
    "Option",
    "PropertyRow",
    "Report",
    "ReportError",
    "Table",
    "as_of_line",
    "open_warehouse",
    "render",
    "render_xlsx",
    "resolve_property",
    "run_report",
]
