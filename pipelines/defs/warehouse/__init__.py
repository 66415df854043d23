"""Dagster wiring of the engine: the read copy published after the marts."""
