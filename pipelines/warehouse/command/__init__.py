"""The engine's commands: `pmsw warehouse`, `sql`, `export` (commands rank top, not in its face)."""

from .export import export
from .sql import sql
from .warehouse import warehouse

__all__ = ["export", "sql", "warehouse"]
