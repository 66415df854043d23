"""A reconciliation run: the warehouse in, the API out (apply), recon.* written.

The logic is `pipelines.recon.logic` (pure); this package is its one impure shell,
used by the Dagster job `reconcile` (pipelines/defs/recon/jobs.py) and `pmsw reconcile`;
`live` turns folios read from the API into the frames the matcher takes.
"""

from pipelines.recon.apply import Applier, ApplyStats
from pipelines.recon.backlog import BacklogReport, chunks_of, run_backlog
from pipelines.recon.close import DEFAULT_AUTO_SOURCES, CloseReport, daily_close
from pipelines.recon.resolve import Resolution, resolve_item
from pipelines.recon.run import (
           Mode,
           ReconReport,
           closed_dates,
           run_reconciliation,
)
from pipelines.recon.store import (
           RESOLUTION_STATES,
           ReconInputError,
           add_resolution,
           find_item,
           property_place,
           read_inputs,
)

__all__ = [
           "DEFAULT_AUTO_SOURCES",
           "RESOLUTION_STATES",
           "Applier",
           "ApplyStats",
           "BacklogReport",
           "CloseReport",
           "Mode",
           "ReconInputError",
           "ReconReport",
           "Resolution",
           "add_resolution",
           "chunks_of",
           "closed_dates",
           "daily_close",
           "find_item",
           "property_place",
           "read_inputs",
           "resolve_item",
           "run_backlog",
           "run_reconciliation",
]
