"""The marts' pure part: polars transforms from core.* frames to mart.* frames (no Dagster,
HTTP or DuckDB), each module one mart or one step of one (docs/kpi.md)."""

from pipelines.marts.logic.money import from_cents, split_evenly, to_cents
from pipelines.marts.logic.stay_nights import explode_nights

__all__ = [
    "explode_nights",
    "from_cents",
    "split_evenly",
    "to_cents",
]
