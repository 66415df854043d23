"""`pmsw report ... --format json` run in this process, for the tests that read a report's
figures: the JSON it printed, the command having succeeded (else its output and error)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from pipelines.cli import main


def report_json(warehouse: Path, *args: str) -> dict[str, Any]:
    """`pmsw report ARGS --warehouse WAREHOUSE --format json`, parsed."""
    done = CliRunner().invoke(main, ["report", *args, "--warehouse", str(warehouse),
                                     "--format", "json"])
    assert done.exit_code == 0, done.output + done.stderr
    body: dict[str, Any] = json.loads(done.stdout)
    return body
