"""pms-warehouse: ingestion, warehouse, marts and reports (the `pmsw` command, the Dagster code
location pipelines.definitions).

Importing the package sets how promptly polars' allocator and glibc's malloc give freed memory
back, unless the user set either already (pipelines.allocators): a group's run then keeps a
nearly flat peak whatever the number of properties.
"""

from pipelines.allocators import set_polars_allocator, tune_glibc_malloc

set_polars_allocator()
tune_glibc_malloc()
