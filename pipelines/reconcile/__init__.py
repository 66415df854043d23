"""A reconciliation run: the warehouse in, the API out (apply), recon.* written.

The logic is `pipelines.transforms.reconcile` (pure); this package is its one impure shell,
used by the Dagster job `reconcile` (pipelines/defs/reconcile.py) and `pmsw reconcile`;
`live` turns folios read from the API into the frames the matcher takes.
"""

from .apply import Applier, ApplyStats
from .run import Mode, ReconReport, closed_dates, open_warehouse, run_reconciliation

__all__ = ["Applier", "ApplyStats", "Mode", "ReconReport", "closed_dates", "open_warehouse",
           "run_reconciliation"]
