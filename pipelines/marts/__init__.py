"""Build the mart.* tables of one property: read core.* into polars, run the transforms of
`pipelines.marts.logic`, replace the property's rows of each mart in one transaction
(writing only the rows that changed).

Dagster-free: the marts step of `pipelines.defs.marts.assets` (and so `pmsw sync`) calls
`built_marts`.
Definitions: docs/kpi.md; tables: docs/warehouse.md.
"""

from pipelines.marts.build import MARTS, MartSettings, build_mart, build_marts, built_marts
from pipelines.marts.write import Replaced, replace_rows

__all__ = ["MARTS", "MartSettings", "Replaced", "build_mart", "build_marts", "built_marts",
           "replace_rows"]
