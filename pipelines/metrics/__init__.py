"""The metrics layer: the one definition of each figure every report, the flash, the months
view and the notebooks' views show (docs/kpi.md is tested against it)."""

from pipelines.metrics.definitions import (
    METRICS,
    Metric,
    change,
    change_unit,
    ratio,
    share_pct,
    whole_rooms,
)

__all__ = ["METRICS", "Metric", "change", "change_unit", "ratio", "share_pct", "whole_rooms"]
