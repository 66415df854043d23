"""Dagster wiring of ingestion: one asset per stream of each property, and the checks of
the landed data."""
