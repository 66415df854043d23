"""pms-warehouse: ingestion, warehouse, marts and reports (the `pmsw` command, the Dagster code
location pipelines.definitions).

Importing the package sets how promptly polars' allocator gives freed memory back, unless the
user set it already (pipelines.allocators): jemalloc reads it when polars is imported, so it
must be set before. glibc's malloc is tuned where a writer's process starts (`pmsw`, the code
location), not here: a notebook that imports `pipelines` keeps glibc's own behaviour.
"""

from pipelines.allocators import set_polars_allocator

set_polars_allocator()
