"""`pmsw demo`: the whole product against the sandbox PMS, from a fresh clone, in minutes.

It starts the sandbox as a child process (never imported: HTTP only), simulates a year of two
hotels, syncs daily over the last four weeks, builds the marts, reconciles the folios (dry
run, then apply) and prints a KPI summary. docs: README.md, "What the demo does".
"""

from pipelines.demo.budget import import_demo_budget
from pipelines.demo.config import DemoConfig, DemoError
from pipelines.demo.run import run_demo

__all__ = ["DemoConfig", "DemoError", "import_demo_budget", "run_demo"]
