"""Smoke test of the peer benchmark (benchmarks/run_all.py): its modules import without dlt
installed, and the results.md writer renders given numbers. Nothing here runs the benchmark
(no server, no network, no timing)."""

from __future__ import annotations

import importlib

import pytest

from benchmarks.dlt_peer import rest_api_config, utc
from benchmarks.marts_scale import parse
from benchmarks.peer_ingest import compare, floor_calls
from benchmarks.results import IngestPhase, IngestRun, MartsRun, Report, Throughput, render


@pytest.mark.parametrize("module", ["benchmarks.run_all", "benchmarks.peer_ingest",
                                    "benchmarks.dlt_peer", "benchmarks.throughput",
                                    "benchmarks.marts_scale", "benchmarks.machine"])
def test_module_imports(module: str) -> None:
    assert importlib.import_module(module) is not None


def test_render_writes_the_given_figures() -> None:
    initial = IngestPhase("initial load", [
        IngestRun("ours", 80.0, 900, 0, "same", {"reservations": 850, "folio_lines": 600,
                                                 "events": 1200}),
        IngestRun("dlt", 100.0, 1000, 7, "same", {"reservations": 850, "folio_lines": 600,
                                                  "events": 1200}),
    ], "same", floor=860, changed=None, ours_folio_reads=850)
    daily = IngestPhase("one-day incremental", [
        IngestRun("ours", 50.0, 500, 0, "same"),
        IngestRun("dlt", 5.0, 45, 0, "folio_lines: 0 only in first, 50 only in second"),
    ], "folio_lines: 50 only in first, 0 only in second", floor=45, changed=43,
        ours_folio_reads=480)
    report = Report("2030-01-02 03:04 UTC", {"nproc": "2", "CPU": "Test CPU"}, "tiny",
                    ingest=[initial, daily],
                    marts=[MartsRun(10, 3, 12.5, 5.0, 900.0, True, "1,000,000")],
                    marts_note="note", throughput=[Throughput("GET /x", 8, 10.0, 2500, 0)],
                    notes=["dlt has no client-side token bucket"])
    text = render(report)
    assert "Date: 2030-01-02 03:04 UTC" in text
    assert "- CPU: Test CPU" in text
    assert "| initial load | dlt | 100.0 | 1000 | 7 | 850 / 600 / 1200 | same |" in text
    assert "| initial load | 0.80 | 0.90 | same |" in text  # ours / dlt: time, calls
    assert "| one-day incremental | ours | 500 | 45 | 11.11 | 50.0 | 50.0 | 1.00 |" in text
    assert "43 reservations changed; ours re-read the folios of 480 reservations" in text
    assert "| 10 x 3 | 1,000,000 | 12.50 | 5.00 | 2.50 | 900 | yes |" in text
    assert "| GET /x | 8 | 2500 | 10.0 | 250 | 0 | 25 |" in text
    assert "- dlt has no client-side token bucket" in text


def test_marts_output_is_parsed() -> None:
    output = ("10 hotels x 3 years: 400,000 versions, 1,234,567 room-night versions\n"
              "  otb rows  polars 5  duckdb 5  same\n"
              "total: polars 12.34 s, duckdb 5.67 s, ratio polars/duckdb 2.18\n"
              "peak RSS: after polars 800 MiB, after duckdb 950 MiB (one process)\n")
    assert parse(10, 3, output) == MartsRun(10, 3, 12.34, 5.67, 950.0, True, "1,234,567")
    assert not parse(10, 3, output.replace("  same", "  DIFFERENT")).same


def test_floor_compare_and_dlt_config() -> None:
    assert floor_calls(reservations=401, events=1001, folio_reservations=401) == 3 + 3 + 401
    rows = {"reservations": {(1, "2030-01-01T00:00:00Z")}, "folio_lines": {(2,)},
            "events": {(3,)}}
    assert compare(rows, rows) == "same"
    assert compare(rows, {**rows, "events": set()}) == "events: 1 only in first, 0 only in second"
    config = rest_api_config("http://127.0.0.1:1/v1", "key")
    assert config["client"]["base_url"] == "http://127.0.0.1:1/v1/"
    assert [r["name"] for r in config["resources"]] == ["reservations", "folios", "events"]
    assert utc("2030-01-01T01:00:00+01:00") == "2030-01-01T00:00:00Z"
