"""One static partition per property of the properties file (docs/ingestion.md).

Read once, when the code location loads (importing this module): Dagster needs a static
partitions definition when the asset decorators run, so the properties are read here and not
when a run starts. `properties_file()` says which file (PMSW_PROPERTIES_FILE, else
properties.yaml when present, else the one property `default`); the keys themselves are read
when a run starts. A property added to the file shows after the code location is reloaded
(docs/operations.md).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import dagster as dg

from pipelines.properties import load_properties, properties_file

PROPERTY_CODES = [p.code for p in load_properties(properties_file())]
PROPERTIES = dg.StaticPartitionsDefinition(PROPERTY_CODES)

RANGE_START, RANGE_END = "dagster/asset_partition_range_start", "dagster/asset_partition_range_end"
"""The tags of a run over a range of partitions (what a single-run backfill launches)."""
ONE_RUN = dg.BackfillPolicy.single_run()
"""Every partitioned asset of a sync takes a range of properties in one run: the steps sync
them concurrently (pipelines.defs.each_property), one writer process for the DuckDB file."""


@contextmanager
def one_run_accepted() -> Iterator[None]:
    """Define assets with `backfill_policy=ONE_RUN`: the parameter is marked beta in dagster
    1.13 (BetaWarning on every definition); we rely on it knowingly, tested in
    tests/pipeline/test_group_sync.py, so its warning is not repeated to every user."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=dg.BetaWarning,
                                message=".*backfill_policy.*")
        yield


def codes_of_run(tags: Mapping[str, str]) -> list[str] | None:
    """The property partitions a run covers, from its tags (one partition, or a range); None
    for a run of no partition."""
    if "dagster/partition" in tags:
        return [tags["dagster/partition"]]
    if RANGE_START in tags and RANGE_END in tags:
        first, last = (PROPERTY_CODES.index(tags[t]) for t in (RANGE_START, RANGE_END))
        return PROPERTY_CODES[first:last + 1]
    return None
