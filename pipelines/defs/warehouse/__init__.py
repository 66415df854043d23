"""Dagster wiring of the engine: the read copy published after the marts; the files' weekly
compaction."""
