"""One static partition per property of the properties file (docs/ingestion.md)."""

from __future__ import annotations

import dagster as dg

from pipelines.ingest import load_properties

PROPERTY_CODES = [p.code for p in load_properties()]
PROPERTIES = dg.StaticPartitionsDefinition(PROPERTY_CODES)
