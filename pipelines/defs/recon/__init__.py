"""Dagster wiring of the reconciliation: its jobs (dry run, apply, daily close, backlog)."""
