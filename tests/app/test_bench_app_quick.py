"""benchmarks/bench_app.py keeps running, and `make bench` puts its figures in results.md: the
app part of benchmarks/run_all.py at its quick size (1 hotel x 1 year of synthetic history,
never the 10 x 3 here) builds the warehouse, starts `pmsw app`, asks its morning page cold and
warm beside the page's reports alone, and writes the section. No time is asserted (tests
never fail on a measurement)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from benchmarks.results import split
from benchmarks.run_all import RESULTS

REPO = Path(__file__).resolve().parents[2]


def test_quick_app_part_writes_its_section(tmp_path: Path) -> None:
    output = tmp_path / "results.md"
    output.write_text(RESULTS.read_text())
    run = subprocess.run([sys.executable, "-m", "benchmarks.run_all", "--only", "app",
                          "--quick", "--output", str(output)],
                         capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert run.returncode == 0, run.stderr[-2000:]
    section = dict(split(output.read_text()))["The morning page"]
    assert "by `python -m benchmarks.run_all --only app --quick" in section
    assert "FAILED" not in section, section
    assert "1 hotel(s) x 1 year(s), SYN01's morning page (30 nights from 2024-01-01, " \
           "8 reports)" in section
    # 13,591 versions: bench_marts' synthetic year of one 80-room hotel (its bookings, changes,
    # cancellations)
    assert "13,591 versions of reservation rooms" in section
    for figure in (r"reports alone [\d.]+ s, CPU [\d.]+ s", r"page cold [\d.]+ s, CPU [\d.]+ s",
                   r"warm [\d.]+ s", r"= [\d.]+ x the reports alone", r"app RSS \d+ MiB"):
        assert re.search(figure, section), (figure, section)
