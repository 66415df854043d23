"""Dagster wiring (thin): resources, partitions, assets, checks, jobs, schedules, sensors.

`pipelines/definitions.py` loads every module listed in its MODULES: a new family of assets
(the marts) is one more module here and one more entry there. Modules refer to each other's
assets by key (`pipelines.defs.keys`), never by importing the asset objects.
"""
