"""The sync core: land a PMS property in the DuckDB warehouse, stream by stream.

Dagster-free: the assets of `pipelines.defs` and `pmsw sync` both run these functions.
Streams (docs/ingestion.md): reference, events, reservations, folios, availability,
pos_ledger. Each writes its rows and moves its cursor in one DuckDB transaction.
"""

from pipelines.ingest.context import StreamResult, SyncContext, run_stream
from pipelines.ingest.progress import Hook, progress_hook
from pipelines.ingest.settings import SyncSettings
from pipelines.ingest.streams import STREAMS, sync_property, sync_stream
from pipelines.properties import Endpoint, load_properties  # load_properties: defs/partitions

__all__ = [
    "STREAMS",
    "Endpoint",
    "Hook",
    "StreamResult",
    "SyncContext",
    "SyncSettings",
    "load_properties",
    "progress_hook",
    "run_stream",
    "sync_property",
    "sync_stream",
]
