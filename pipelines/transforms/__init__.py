"""Pure polars transforms from core.* frames to mart.* frames (no Dagster, HTTP or DuckDB)."""
