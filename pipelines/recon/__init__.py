"""A reconciliation run: the warehouse in, the API out (apply), recon.* written.

The logic is `pipelines.recon.logic` (pure); this package is its one impure shell,
used by the Dagster job `reconcile` (pipelines/defs/recon/jobs.py) and `pmsw reconcile`;
`live` turns folios read from the API into the frames the matcher takes. Its names load on
first use (pipelines/faces.py): the reports import `pipelines.recon.logic`, which loads this
face first, and must not load the API client and the ingestion with it.
"""

from typing import TYPE_CHECKING

from pipelines.faces import lazy_names
from pipelines.recon.logic import RESOLUTION_STATES

if TYPE_CHECKING:
    from pipelines.recon.apply import Applier, ApplyStats
    from pipelines.recon.backlog import BacklogReport, chunks_of, run_backlog
    from pipelines.recon.close import DEFAULT_AUTO_SOURCES, CloseReport, daily_close
    from pipelines.recon.resolve import Resolution, resolve_item
    from pipelines.recon.run import Mode, ReconReport, closed_dates, run_reconciliation
    from pipelines.recon.store import (
        ReconInputError,
        add_resolution,
        find_item,
        property_place,
        read_inputs,
    )

__getattr__ = lazy_names(__name__, {
    **dict.fromkeys(("Applier", "ApplyStats"), "apply"),
    **dict.fromkeys(("BacklogReport", "chunks_of", "run_backlog"), "backlog"),
    **dict.fromkeys(("DEFAULT_AUTO_SOURCES", "CloseReport", "daily_close"), "close"),
    **dict.fromkeys(("Resolution", "resolve_item"), "resolve"),
    **dict.fromkeys(("Mode", "ReconReport", "closed_dates", "run_reconciliation"), "run"),
    **dict.fromkeys(("ReconInputError", "add_resolution", "find_item", "property_place",
                     "read_inputs"), "store"),
})

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
