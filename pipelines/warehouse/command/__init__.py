"""The engine's commands: `pmsw warehouse info|publish`, `pmsw sql` and `pmsw export parquet`,
assembled by `pipelines.cli` (they sit with the commands, the top layer, not in the engine's
face `pipelines.warehouse`)."""

from .export import export
from .sql import sql
from .warehouse import warehouse

__all__ = ["export", "sql", "warehouse"]
