"""Dagster wiring of the marts: the mart.* assets of each property, built in one step."""
