"""The faces that load names on first use (pipelines/faces.py; issue 50, the app's cold start):
each name they export is there when asked for and is the one its module defines, an unknown
name is an AttributeError naming it, and a new process that starts the app (the app's package
and its server, or `pmsw app`) has not imported openpyxl, the API client, the ingestion, the
marts' build, Dagster nor plotly's Python side, until an xlsx is rendered."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LAZY_FACES = ("pipelines.reports", "pipelines.forecast", "pipelines.recon", "pipelines.marts")
NOT_AT_START = ("openpyxl", "numpy", "httpx", "dagster", "plotly", "models", "pipelines.api",
                "pipelines.ingest", "pipelines.marts.build", "pipelines.recon.store",
                "pipelines.forecast.budget_import", "pipelines.forecast.calendar",
                "pipelines.reports.excel", "pipelines.demo", "sandbox")


@pytest.mark.parametrize("face", LAZY_FACES)
def test_every_exported_name_loads_from_its_module(face: str) -> None:
    module = importlib.import_module(face)
    for name in module.__all__:
        value = getattr(module, name)
        owner = getattr(value, "__module__", None)
        if isinstance(owner, str) and owner.startswith(face + "."):
            assert getattr(importlib.import_module(owner), name) is value, (face, name)
    with pytest.raises(AttributeError, match=f"module '{face}' has no attribute 'no_such'"):
        module.no_such  # noqa: B018


def _loaded_after(code: str) -> set[str]:
    """The modules of NOT_AT_START a new process has imported after running `code`."""
    probe = (f"import json, sys\n{code}\n"
             f"print(json.dumps([m for m in {list(NOT_AT_START)!r} if m in sys.modules]))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=REPO, timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    return set(json.loads(run.stdout.strip().splitlines()[-1]))


def test_the_app_starts_without_what_it_does_not_serve() -> None:
    assert _loaded_after("import pipelines.app, pipelines.app.server") == set()


def test_pmsw_app_loads_the_app_alone() -> None:
    code = ("from pipelines.cli import main\n"
            "try:\n    main(['app', '--help'])\nexcept SystemExit as end:\n"
            "    assert end.code == 0, end.code\n")
    assert _loaded_after(code) == set()


def test_pmsw_sync_loads_neither_the_other_commands_nor_openpyxl() -> None:
    """`pmsw sync` and the definitions its run loads: not the demo, the budget's import
    (openpyxl, until the budget asset runs) nor the reports' excel (docs/scaling.md, "The fixed
    CPU of a sync")."""
    code = ("import pipelines.definitions, pipelines.materialize\n"
            "from pipelines.cli import main\n"
            "try:\n    main(['sync', '--help'])\nexcept SystemExit as end:\n"
            "    assert end.code == 0, end.code\n")
    assert _loaded_after(code) & {"openpyxl", "pipelines.forecast.budget_import",
                                  "pipelines.demo", "pipelines.reports.excel"} == set()


def test_an_xlsx_loads_openpyxl_when_asked_for() -> None:
    loaded = _loaded_after("from pipelines.reports import render_xlsx")
    assert {"openpyxl", "pipelines.reports.excel"} <= loaded
    assert "pipelines.ingest" not in loaded
