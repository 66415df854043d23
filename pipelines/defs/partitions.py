"""One static partition per property of the properties file (docs/ingestion.md).

Read once, when the code location loads (importing this module): Dagster needs a static
partitions definition when the asset decorators run, so the properties are read here and not
when a run starts. `properties_file()` says which file (PMSW_PROPERTIES_FILE, else
properties.yaml when present, else the one property `default`); the keys themselves are read
when a run starts. A property added to the file shows after the code location is reloaded
(docs/operations.md).
"""

from __future__ import annotations

import dagster as dg

from pipelines.properties import load_properties, properties_file

PROPERTY_CODES = [p.code for p in load_properties(properties_file())]
PROPERTIES = dg.StaticPartitionsDefinition(PROPERTY_CODES)
