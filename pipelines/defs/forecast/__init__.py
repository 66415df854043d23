"""Dagster wiring of the forecast domain: the budget the flash and the months are held against."""
