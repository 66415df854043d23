"""Asset keys, groups and names shared by the modules of `pipelines.defs`."""

from __future__ import annotations

import dagster as dg

INGESTION_GROUP = "ingestion"
MARTS_GROUP = "marts"
OWNERS = ["team:data-platform"]
PUBLISH_GROUP = "publish"
READ_COPY_KEY = dg.AssetKey(["meta", "read_copy"])
"""The read copy readers open, published at the end of every run that writes (publish.py)."""
COMPACTION_KEY = dg.AssetKey(["meta", "compaction"])
"""The warehouse file of a property rewritten when its free space passed the threshold
(defs/warehouse/upkeep.py)."""
RECON_KEY = dg.AssetKey(["recon", "results"])
"""The reconciliation's results of a property (recon.runs, recon.results): defs/recon/jobs.py."""
UPKEEP_GROUP = "upkeep"
POOL = "duckdb"
"""Every step that writes (or reads) the DuckDB file holds this pool (size 1: dagster.yaml)."""


def stream_key(stream: str) -> dg.AssetKey:
    """The asset of one sync stream: pms/reference, pms/events, pms/reservations, ..."""
    return dg.AssetKey(["pms", stream])
