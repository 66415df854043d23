"""The one Dagster `Definitions` of pms-warehouse: `workspace.yaml`, `dg` ([tool.dg] in
pyproject.toml) and `pmsw sync` all load `pipelines.definitions:defs`.

Each module of `pipelines/defs/` that holds assets, checks, jobs, schedules or sensors exports
them as its own `defs`; here they are merged with the shared resources. A new module of
definitions is one more entry in MODULES. (Not `dg.load_from_defs_folder`: it finds the project
through pyproject.toml, which an installed wheel does not carry.)
"""

from __future__ import annotations

import dagster as dg

from pipelines.allocators import tune_glibc_malloc
from pipelines.defs import automation, checks, ingest, marts, publish, reconcile
from pipelines.defs.resources import default_resources

# The code location's process and its run workers write the warehouse. Dagster has started
# them already, so threads it made keep their arenas: no more are made past two.
tune_glibc_malloc()

MODULES = (ingest, checks, automation, marts, reconcile, publish)

defs = dg.Definitions.merge(*(module.defs for module in MODULES),
                            dg.Definitions(resources=default_resources()))
