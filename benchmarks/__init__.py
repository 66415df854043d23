"""Benchmarks of pms-warehouse; `python -m benchmarks.run_all` runs the peer benchmark."""
