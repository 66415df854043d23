"""The one Dagster `Definitions` of pms-warehouse: `workspace.yaml`, `dg` ([tool.dg] in
pyproject.toml) and `pmsw sync` all load `pipelines.definitions:defs`.

Every module under `pipelines/defs/` is loaded by `dg.load_from_defs_folder`: a module that
exports one `defs` (a `dg.Definitions`) gives that, any other gives the assets, checks, jobs,
schedules and sensors it holds, so a file `dg scaffold defs dagster.asset x.py` writes there
is loaded with no entry to add. The shared resources are merged here.

The loader finds the project (and so `defs_module`) through the [tool.dg] table of
pyproject.toml, searched upwards from this package's folder: the checkout's in a clone, the copy
the wheel carries as `pipelines/pyproject.toml` (pyproject.toml, force-include) when installed.
"""

from __future__ import annotations

from pathlib import Path

import dagster as dg

from pipelines.allocators import tune_gc, tune_glibc_malloc
from pipelines.defs.resources import default_resources

# The code location's process and its run workers write the warehouse. Dagster has started
# them already, so threads it made keep their arenas: no more are made past two.
tune_glibc_malloc()
tune_gc()

PACKAGE = Path(__file__).resolve().parent
"""pipelines/: the project's pyproject.toml is here (wheel) or in its parent (checkout)."""

defs = dg.Definitions.merge(dg.load_from_defs_folder(path_within_project=PACKAGE),
                            dg.Definitions(resources=default_resources()))
