"""A reconciliation run: the warehouse in, the API out (apply), recon.* written.

The logic is `pipelines.transforms.reconcile` (pure); this package is its one impure shell,
used by the Dagster job `reconcile` (pipelines/defs/reconcile.py) and `pmsw reconcile`;
`live` turns folios read from the API into the frames the matcher takes.
"""

from .apply import Applier, ApplyStats
from .backlog import BacklogReport, run_backlog
from .close import DEFAULT_AUTO_SOURCES, CloseReport, daily_close
from .resolve import resolve_item
from .run import Mode, ReconReport, closed_dates, open_warehouse, run_reconciliation

__all__ = ["DEFAULT_AUTO_SOURCES", "Applier", "ApplyStats", "BacklogReport", "CloseReport",
           "Mode", "ReconReport", "closed_dates", "daily_close", "open_warehouse",
           "resolve_item", "run_backlog", "run_reconciliation"]
