"""Dagster wiring (thin): resources, partitions, assets, checks, jobs, schedules, sensors.

Each module that holds definitions exports them as `defs` (a `dg.Definitions`);
`pipelines/definitions.py` merges those of its MODULES with the resources. A new family of
assets is one more module here and one more entry there. Modules refer to each other's assets
by key (`pipelines.defs.keys`), never by importing the asset objects.
"""
