"""pms-warehouse: ingestion, warehouse, marts and reports (the `pmsw` command, the Dagster code
location pipelines.definitions).

Importing the package sets how promptly polars' allocator (its own jemalloc) gives freed
memory back, unless `_RJEM_MALLOC_CONF` is set already; it takes effect only when polars is
imported after this package, as in `pmsw` and the code location. polars keeps freed pages
500 ms, then 1,000 ms more as pages the kernel may take back but still counts as the
process's: a run building the marts of property after property carried that garbage on top
of its peak. Within 100 ms the peak of a group's run is lower at every size, for a few per
cent more time in the transforms (benchmarks/results.md, "polars' allocator"; docs/operations.md,
"A group's memory and the allocator").
"""

import os

POLARS_ALLOCATOR = "dirty_decay_ms:100,muzzy_decay_ms:0"
"""jemalloc options appended to polars' own (`_RJEM_MALLOC_CONF`, read when polars is imported)."""

os.environ.setdefault("_RJEM_MALLOC_CONF", POLARS_ALLOCATOR)
