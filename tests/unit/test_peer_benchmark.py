"""The peer benchmark's pure parts (benchmarks/run_all.py): the race's figures (medians with
min and max), the results.md writer (the whole file), the marts output parser, the floor, the row
comparison and the dlt `rest_api` config; its modules import without dlt installed (this file
imports them). Nothing here runs the benchmark (no server, no network, no timing)."""

from __future__ import annotations

from benchmarks.dlt_peer import rest_api_config, utc
from benchmarks.marts_scale import parse
from benchmarks.peer_ingest import compare, floor_calls
from benchmarks.results import (
    PREAMBLE,
    MartsRun,
    Measured,
    RaceRun,
    Section,
    compose,
    figures,
    marts_section,
    race_sections,
)

MEASURED = Measured("2030-01-02 03:04 UTC", "abc1234", "python -m benchmarks.run_all",
                    "1.0 / 2.0 / 3.0", "1.5 / 2.0 / 3.0")


def _run(repeat: int, phase: str, who: str, seconds: float, calls: int, refused: int = 0,
         error: str = "", missing_lines: int = 0) -> RaceRun:
    return RaceRun(40, repeat, phase, who, seconds, calls, refused, error,
                   {"reservations": 850, "folio_lines": 600 - missing_lines, "events": 1200},
                   {"reservations": 0, "folio_lines": missing_lines, "events": 0},
                   {"reservations": 0, "folio_lines": 0, "events": 0},
                   "same" if not (error or missing_lines) else "differs",
                   floor=860 if phase == "initial load" else 50,
                   changed=0 if phase == "initial load" else 40,
                   folio_changed=0 if phase == "initial load" else 45)


def test_race_figures_are_medians_with_min_and_max() -> None:
    runs = [_run(1, "initial load", "ours", 80.0, 900), _run(2, "initial load", "ours", 90.0, 902),
            _run(3, "initial load", "ours", 70.0, 901),
            *(_run(i, "initial load", "dlt parallel", 10.0 + i, 250, 20 + i,
                   "PipelineStepFailed: HTTPError: 429") for i in (1, 2, 3)),
            *(_run(i, "after 1 day", "dlt serial", 5.0, 45, missing_lines=30 + i)
              for i in (1, 2, 3))]
    found = figures(runs)
    assert [(f.phase, f.who) for f in found] == [
        ("initial load", "ours"), ("initial load", "dlt parallel"), ("after 1 day", "dlt serial")]
    ours, parallel, serial = found
    assert ours.seconds == (80.0, 70.0, 90.0)
    assert ours.calls == (901.0, 900.0, 902.0)
    assert parallel.failed == 3
    assert parallel.refused == (22.0, 21.0, 23.0)
    assert serial.missing["folio_lines"] == (32.0, 31.0, 33.0)
    assert serial.equal == 0
    body = "\n".join("\n".join(s.body) for s in race_sections(found, MEASURED, "tiny", 3))
    assert "Measured 2030-01-02 03:04 UTC at commit abc1234" in body
    assert ("| 40 rooms | initial load | ours | 80.0 (70.0-90.0) | 901 (900-902) | 0 | 0 of 3 "
            "| 850 / 600 / 1200 | 3 of 3 | none |") in body
    assert ("| 40 rooms | initial load | dlt parallel | 12.0 (11.0-13.0) | 250 | 22 (21-23) "
            "| 3 of 3") in body
    assert ("- 40 rooms, after 1 day, dlt serial: ended short of the API in 3 of 3 runs, "
            "missing 32 (31-33) folio lines.") in body
    assert "| 40 rooms | initial load | - | ours | 901 | 860 | 1.05 | 90.1 | 80.0 | 0.89 |" in body
    assert "| 40 rooms | initial load | 6.67 | 3.60 |" not in body  # no dlt serial initial
    # no dlt serial nor dlt complete in these runs: their ratios are "-"
    assert "| 40 rooms | initial load | - | - | - | - | 6.67 | 3.60 |" in body


LAYOUT = [("Machine", "run_all"), ("Ingestion", "run_all --only race"),
          ("Demo steps", "run_all --only demo"), ("Transforms", "run_all --only marts"),
          ("Notes", "run_all")]


def test_the_file_is_written_whole_from_its_sections() -> None:
    old = ("# Peer benchmark results\n\nDate: old\n\n## Machine\n\n- nproc: 1\n\n"
           "## Ingestion: our sync core vs dlt `rest_api`\n\nold figures\n\n"
           "## Journal of a study\n\nby hand\n\n### a subsection\n\nalso by hand\n\n"
           "## Demo steps\n\nthe demo's last figures\n\n## Notes\n\n- old note\n")
    new = [Section("Machine", "Machine", ["- nproc: 2"]),
           Section("Ingestion", "Ingestion: ours vs dlt", ["new figures"]),
           Section("Notes", "Notes", ["- new note"])]
    text = compose(old, new, LAYOUT)
    assert text.startswith(PREAMBLE)
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    # In the layout's order; the demo not run keeps its last figures; the marts, never
    # measured, say by what; the section written by hand is gone with its subsection.
    assert headings == ["## Machine", "## Ingestion: ours vs dlt", "## Demo steps",
                        "## Transforms", "## Notes"]
    for gone in ("old figures", "old note", "nproc: 1", "Date: old", "by hand", "subsection"):
        assert gone not in text
    assert "the demo's last figures" in text
    assert "## Transforms\n\nNot measured yet: `run_all --only marts`.\n" in text
    assert compose(text, new, LAYOUT) == text  # the same figures again change nothing
    marts = marts_section([MartsRun(10, 3, 12.5, 5.0, 900.0, True, "1,000,000")], "note", MEASURED)
    again = compose(text, [marts], LAYOUT)
    assert "| 10 x 3 | 1,000,000 | 12.50 | 5.00 | 2.50 | 900 | yes |" in again
    assert "Not measured yet" not in again
    assert "new figures" in again
    assert "- new note" in again


def test_marts_output_is_parsed() -> None:
    output = ("10 hotels x 3 years: 400,000 versions, 1,234,567 room-night versions\n"
              "  otb rows  polars 5  duckdb 5  same\n"
              "total: polars 12.34 s, duckdb 5.67 s, ratio polars/duckdb 2.18\n"
              "peak RSS: after polars 800 MiB, after duckdb 950 MiB (one process)\n")
    assert parse(10, 3, output) == MartsRun(10, 3, 12.34, 5.67, 950.0, True, "1,234,567")
    assert not parse(10, 3, output.replace("  same", "  DIFFERENT")).same


def test_floor_compare_and_dlt_config() -> None:
    assert floor_calls(reservations=401, events=1001, folio_reservations=401) == 3 + 3 + 401
    rows: dict[str, set[tuple[object, ...]]] = {
        "reservations": {(1, "2030-01-01T00:00:00Z")}, "folio_lines": {(2,)},
        "events": {(3,)}}
    assert compare(rows, rows) == "same"
    assert compare(rows, {**rows, "events": set()}) == "events: 1 only in first, 0 only in second"
    config = rest_api_config("http://127.0.0.1:1/v1", "key")
    assert config["client"]["base_url"] == "http://127.0.0.1:1/v1/"
    assert [r["name"] for r in config["resources"]] == ["reservations", "folios", "events"]
    assert "parallelized" not in config["resources"][1]
    parallel = rest_api_config("http://127.0.0.1:1/v1", "key", parallel=True)
    assert parallel["resources"][1]["parallelized"] is True  # the folios child resource
    assert utc("2030-01-01T01:00:00+01:00") == "2030-01-01T00:00:00Z"
