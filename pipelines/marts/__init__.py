"""Build the mart.* tables of one property: read core.* into polars, run the transforms of
`pipelines.marts.logic`, replace the property's rows of each mart in one transaction
(writing only the rows that changed).

Dagster-free: the marts step of `pipelines.defs.marts.assets` (and so `pmsw sync`) calls
`built_marts`.
Definitions: docs/kpi.md; tables: docs/warehouse.md.
Its names load on first use (pipelines/faces.py): importing `pipelines.marts.logic` (the
reports do, through recon's) loads this face first, and must not load the build's properties
file reader and API client with it.
"""

from typing import TYPE_CHECKING

from pipelines.faces import lazy_names

if TYPE_CHECKING:
    from pipelines.marts.build import MARTS, MartSettings, build_mart, build_marts, built_marts
    from pipelines.marts.departments import (
        PER_ROOM_DAYS,
        revenue_beyond_rooms,
        revenue_per_room_final,
    )
    from pipelines.marts.forecast_history import keep_forecast
    from pipelines.marts.write import Replaced, replace_rows

__getattr__ = lazy_names(__name__, {
    **dict.fromkeys(("MARTS", "MartSettings", "build_mart", "build_marts", "built_marts"),
                    "build"),
    **dict.fromkeys(("Replaced", "replace_rows"), "write"),
    **dict.fromkeys(("PER_ROOM_DAYS", "revenue_beyond_rooms", "revenue_per_room_final"),
                    "departments"),
    "keep_forecast": "forecast_history",
})

__all__ = ["MARTS", "PER_ROOM_DAYS", "MartSettings", "Replaced", "build_mart", "build_marts",
           "built_marts", "keep_forecast", "replace_rows", "revenue_beyond_rooms",
           "revenue_per_room_final"]
