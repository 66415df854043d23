"""Dagster wiring (thin): resources, partitions, assets, checks, jobs, schedules, sensors.

`pipelines/definitions.py` loads every module here with `dg.load_from_defs_folder`: a module
exporting one `defs` (a `dg.Definitions`) gives that, any other the definitions it holds, so a
new module (say one `dg scaffold defs dagster.asset x.py` writes) needs no entry anywhere.
Modules refer to each other's assets by key (`pipelines.defs.keys`), never by importing the
asset objects.
"""
