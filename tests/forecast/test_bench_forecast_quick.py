"""benchmarks/bench_forecast.py keeps running, and `make bench` writes results.md whole: the
forecast part of benchmarks/run_all.py at its quick size (1 hotel x 1 year, never the 10 x 3
here) puts the marts' time, the forecast's, their ratio and the WAPE at 30 days (also as a
multiple of the floor) in its section, keeps every other benchmark's last section, and drops a
section written by hand and a `###` part added by hand to a kept one. No time is asserted
(tests never fail on a measurement)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmarks.results import PREAMBLE, split
from benchmarks.run_all import LAYOUT, RESULTS

REPO = Path(__file__).resolve().parents[2]


def test_quick_forecast_part_writes_the_whole_file(tmp_path: Path) -> None:
    output = tmp_path / "results.md"
    shipped = dict(split(RESULTS.read_text()))
    by_hand = RESULTS.read_text().replace(  # a `###` part added by hand to a kept section
        "\n## Sandbox throughput", "\n### A note by hand\n\nold figures\n\n## Sandbox throughput")
    assert "### A note by hand" in by_hand
    output.write_text(by_hand + "\n## A journal by hand\n\nold figures\n")
    run = subprocess.run([sys.executable, "-m", "benchmarks.run_all", "--only", "forecast",
                          "--quick", "--output", str(output)],
                         capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert run.returncode == 0, run.stderr[-2000:]
    text = output.read_text()
    assert text.startswith(PREAMBLE)
    sections = split(text)
    assert [key for key, _ in LAYOUT] == [
        next(k for k, _ in LAYOUT if h == k or h.startswith((f"{k}:", f"{k} (")))
        for h, _ in sections]
    found = dict(sections)
    forecast = found["Forecast"]
    assert "by `python -m benchmarks.run_all --only forecast --quick" in forecast
    assert "1 hotels x 1 years" in forecast
    assert "366 forecast rows" in forecast
    assert "ratio forecast/marts" in forecast
    assert "chosen" in forecast
    assert "as a multiple of the floor" in forecast  # issue 49 item 5
    assert "A journal by hand" not in text
    assert "A note by hand" not in text
    for heading, kept in found.items():  # the parts not run keep their last figures
        if heading not in ("Forecast", "Machine", "Notes"):
            assert kept == shipped[heading], heading
