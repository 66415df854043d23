"""Build the mart.* tables of one property: read core.* into polars, run the transforms of
`pipelines.transforms`, replace the property's rows of each mart in one transaction
(writing only the rows that changed).

Dagster-free: the assets of `pipelines.defs.marts` (and so `pmsw sync`) call `build_mart`.
Definitions: docs/kpi.md; tables: docs/warehouse.md.
"""

from .build import MARTS, MartSettings, build_mart, build_marts
from .write import Replaced, replace_rows

__all__ = ["MARTS", "MartSettings", "Replaced", "build_mart", "build_marts", "replace_rows"]
