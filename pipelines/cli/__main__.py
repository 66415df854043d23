"""`python -m pipelines.cli`: the same as `pmsw`."""

from pipelines.cli import main

main()
