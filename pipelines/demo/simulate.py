"""The demo's simulated history: `pmsw sandbox simulate` in a child process, with progress.

The offline simulator plays the booking-only warm-up before the first day, so the hotels
start the year with the book they would have (docs/sandbox.md, Timeline); the server then
serves the database and `/_sandbox/advance` goes on with the same demand.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path

from pipelines.demo.config import DemoError


def simulate_history(db_path: Path, *, days: int, seed: int, start: date,
                     property_ids: list[int], pos_export: Path,
                     on_day: Callable[[int], None], events_file: Path | None = None) -> date:
    """Write a new sandbox database holding `days` simulated days from `start`; `on_day(n)`
    is called as each day is done. Returns the business date the database ends on."""
    command = [sys.executable, "-m", "pipelines.cli", "sandbox", "simulate",
               "--db", str(db_path), "--days", str(days), "--seed", str(seed),
               "--start", start.isoformat(), "--pos-export", str(pos_export), "--progress"]
    for property_id in property_ids:
        command += ["--property", str(property_id)]
    if events_file is not None:  # the hotels' events, as the simulation has them
        command += ["--events-file", str(events_file)]
    other: list[str] = []
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as process:  # closes both pipes
        assert process.stdout is not None
        assert process.stderr is not None
        for line in process.stderr:
            if line.startswith("day "):
                on_day(int(line.split()[1].split("/")[0]))
            else:
                other.append(line)
        report = process.stdout.read()
        if process.wait() != 0:
            raise DemoError("pmsw sandbox simulate failed:\n" + "".join(other[-20:]).rstrip())
    return date.fromisoformat(json.loads(report)["business_date"])
