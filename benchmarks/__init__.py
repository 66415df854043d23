"""Benchmarks of pms-warehouse; `python -m benchmarks.run_all` runs them all (results.md)."""
