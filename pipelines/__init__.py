"""pms-warehouse: ingestion, warehouse, marts and reports (the `pmsw` command, the Dagster code
location pipelines.definitions).

Importing the package sets how polars' allocator (its own jemalloc) gives freed memory back,
unless `_RJEM_MALLOC_CONF` is set already; it takes effect only when polars is imported after
this package (as `pmsw` and the code location do). polars keeps freed pages for 500 ms, then
1,000 ms more as pages the kernel may take back but still counts as the process's, so a step
that builds the marts of many properties one after another held the garbage of the last
seconds on top of its peak: the peak grew with the properties of the run. Returned after 100 ms
and at once, the peak stays that of one property. Measured in benchmarks/results.md,
"polars' allocator"; docs/operations.md, "A group's memory and the allocator".
"""

import os

POLARS_ALLOCATOR = "dirty_decay_ms:100,muzzy_decay_ms:0"
"""jemalloc options appended to polars' own (`_RJEM_MALLOC_CONF`, read when polars is imported)."""

os.environ.setdefault("_RJEM_MALLOC_CONF", POLARS_ALLOCATOR)
