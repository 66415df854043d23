"""The metrics layer: the one definition of each figure every report, the flash, the months
view and the notebooks' views show (docs/kpi.md is tested against it), and the one list of
the report columns that are not figures (`LABELS`)."""

from pipelines.metrics.definitions import (
    METRICS,
    change,
    change_unit,
    ratio,
    share_pct,
    whole_rooms,
)
from pipelines.metrics.labels import LABELS
from pipelines.metrics.metric import Metric
from pipelines.metrics.warehouse import ALIASES, CLASHES, Alias, qualified

__all__ = ["ALIASES", "CLASHES", "LABELS", "METRICS", "Alias", "Metric", "change", "change_unit",
           "qualified", "ratio", "share_pct", "whole_rooms"]
