"""The figures of the peer benchmark and their rendering as benchmarks/results.md.

Pure: no network, no timing; `render` takes numbers and returns the Markdown text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RATE_PER_SECOND = 10.0
"""The spec's limit, 600 calls per minute per key."""


@dataclass
class IngestRun:
    name: str
    seconds: float
    calls: int
    refused: int
    """Calls answered 429 (dlt has no client-side bucket; ours should have none)."""
    vs_api: str
    """'same' as what the API holds at the end of the phase, or what differs."""
    rows: dict[str, int] = field(default_factory=dict)


@dataclass
class IngestPhase:
    phase: str
    runs: list[IngestRun]
    ours_vs_dlt: str
    floor: int
    changed: int | None
    """Reservations changed in the day (incremental only)."""
    ours_folio_reads: int
    truth: dict[str, int] = field(default_factory=dict)

    def run(self, name: str) -> IngestRun:
        return next(r for r in self.runs if r.name == name)


@dataclass
class MartsRun:
    hotels: int
    years: int
    polars_seconds: float
    duckdb_seconds: float
    peak_mib: float
    same: bool
    room_nights: str = ""


@dataclass
class Throughput:
    endpoint: str
    threads: int
    seconds: float
    requests: int
    errors: int

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


@dataclass
class Report:
    date: str
    machine: dict[str, str]
    scale: str
    ingest: list[IngestPhase] = field(default_factory=list)
    marts: list[MartsRun] = field(default_factory=list)
    marts_note: str = ""
    throughput: list[Throughput] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "-"


def _ingest(report: Report) -> list[str]:
    lines = ["## Ingestion: our sync core vs dlt `rest_api`", "",
             f"Scale: {report.scale}.", "",
             "| phase | who | wall s | calls | 429s | rows (reservations / folio lines / "
             "events) | ended equal to the API |",
             "|---|---|---:|---:|---:|---|---|"]
    for phase in report.ingest:
        for run in phase.runs:
            rows = " / ".join(str(run.rows.get(t, 0)) for t in
                              ("reservations", "folio_lines", "events"))
            lines.append(f"| {phase.phase} | {run.name} | {run.seconds:.1f} | {run.calls} | "
                         f"{run.refused} | {rows} | {run.vs_api} |")
    lines += ["", "| phase | time ours / dlt | calls ours / dlt | same rows, ours vs dlt |",
              "|---|---:|---:|---|"]
    for phase in report.ingest:
        ours, dlt = phase.run("ours"), phase.run("dlt")
        lines.append(f"| {phase.phase} | {_ratio(ours.seconds, dlt.seconds)} | "
                     f"{_ratio(ours.calls, dlt.calls)} | {phase.ours_vs_dlt} |")
    lines += ["", "## Ingestion vs the floor", "",
              "Floor: the fewest calls the endpoints allow for the rows read (pages of 200 "
              "reservations, batches of 500 events, one folio list per reservation; for the "
              "incremental, the reservations changed that day). Bound: calls / 10 per second "
              "(600 per minute; the burst of 120 makes the first 120 calls free of it).", "",
              "| phase | who | calls | floor | calls / floor | bound s | wall s | "
              "wall / bound |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for phase in report.ingest:
        for run in phase.runs:
            bound = run.calls / RATE_PER_SECOND
            lines.append(f"| {phase.phase} | {run.name} | {run.calls} | {phase.floor} | "
                         f"{_ratio(run.calls, phase.floor)} | {bound:.1f} | {run.seconds:.1f} | "
                         f"{_ratio(run.seconds, bound)} |")
    for phase in report.ingest:
        if phase.changed is not None:
            lines += ["", f"One-day incremental: {phase.changed} reservations changed; ours "
                      f"re-read the folios of {phase.ours_folio_reads} reservations (the rule "
                      "of docs/ingestion.md: changed, in house, departed within 7 days, and "
                      "every reservation with a folio not yet closed), dlt those of the "
                      "changed reservations only."]
    return lines


def _marts(report: Report) -> list[str]:
    lines = ["## Transforms: polars (pipelines.transforms) vs the same marts in DuckDB SQL", "",
             report.marts_note, "",
             "| hotels x years | room-night versions | polars s | DuckDB s | polars / DuckDB | "
             "peak RSS MiB | same totals |", "|---|---:|---:|---:|---:|---:|---|"]
    for m in report.marts:
        lines.append(f"| {m.hotels} x {m.years} | {m.room_nights} | {m.polars_seconds:.2f} | "
                     f"{m.duckdb_seconds:.2f} | {_ratio(m.polars_seconds, m.duckdb_seconds)} | "
                     f"{m.peak_mib:.0f} | {'yes' if m.same else 'NO'} |")
    return lines


def _throughput(report: Report) -> list[str]:
    lines = ["## Sandbox throughput (rate limit lifted, no added latency)", "",
             "| endpoint | client threads | requests | seconds | requests/s | errors | "
             "x the 10 calls/s of the real limit |", "|---|---:|---:|---:|---:|---:|---:|"]
    for t in report.throughput:
        lines.append(f"| {t.endpoint} | {t.threads} | {t.requests} | {t.seconds:.1f} | "
                     f"{t.per_second:.0f} | {t.errors} | "
                     f"{t.per_second / RATE_PER_SECOND:.0f} |")
    return lines


def render(report: Report) -> str:
    machine = "\n".join(f"- {k}: {v}" for k, v in report.machine.items())
    parts = ["# Peer benchmark results", "",
             "Written by `uv run --group bench python -m benchmarks.run_all` (`make bench`).",
             "", f"Date: {report.date}", "", "## Machine", "", machine, ""]
    sections = []
    if report.ingest:
        sections.append(_ingest(report))
    if report.marts:
        sections.append(_marts(report))
    if report.throughput:
        sections.append(_throughput(report))
    for section in sections:
        parts += [*section, ""]
    if report.notes:
        parts += ["## Notes", "", *(f"- {n}" for n in report.notes), ""]
    return "\n".join(parts)
