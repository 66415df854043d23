"""The one Dagster `Definitions` of pms-warehouse (workspace.yaml loads it).

Every module of MODULES contributes what it holds at module scope (assets, checks, jobs,
schedules, sensors); the resources are shared. The marts (issue 6) are one more module.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import dagster as dg

# define_asset_job's return type is not exported by `dagster`; it is the one way to find jobs.
from dagster._core.definitions.unresolved_asset_job_definition import (
    UnresolvedAssetJobDefinition,
)

from pipelines.defs import automation, checks, ingest, marts, publish, reconcile
from pipelines.defs.resources import default_resources

MODULES: list[ModuleType] = [ingest, checks, automation, marts, reconcile, publish]


def _collect(modules: list[ModuleType], kind: type | tuple[type, ...]) -> list[Any]:
    found: dict[int, Any] = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, kind):
                found.setdefault(id(value), value)
    return list(found.values())


defs = dg.Definitions(
    assets=_collect(MODULES, dg.AssetsDefinition),  # checks are AssetsDefinitions too
    jobs=_collect(MODULES, (dg.JobDefinition, UnresolvedAssetJobDefinition)),
    schedules=_collect(MODULES, dg.ScheduleDefinition),
    sensors=_collect(MODULES, dg.SensorDefinition),
    resources=default_resources(),
)
