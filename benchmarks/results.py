"""The figures of the benchmarks and benchmarks/results.md, written whole.

Pure: no network, no timing. Each part of `benchmarks.run_all` renders its own `##` sections
(`Section`); `compose` writes the whole file from them in a fixed layout, one section per
benchmark: a part not run this time keeps the section it wrote last, a benchmark never measured
says how to measure it, and nothing else survives (no section written by hand).
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field

RATE_PER_SECOND = 10.0
"""The spec's limit, 600 calls per minute per key."""
PHASES = ("initial load", "after 1 hour", "after 1 day")
CONTENDERS = ("ours", "dlt serial", "dlt complete", "dlt parallel")
TABLES = ("reservations", "folio_lines", "events")
PREAMBLE = (
    "# Benchmark results\n\n"
    "Written whole by `make bench` (`uv run --group bench python -m benchmarks.run_all`; "
    "`--only PART` runs one part and keeps the others' last figures): one section per "
    "benchmark, its current figure, when, at which commit, by what command and under what "
    "load it was measured. Past figures are in git (`git log -p benchmarks/results.md`).\n")


@dataclass
class Section:
    """One `## heading` section: `key` names it (a heading equal to the key, or starting
    with the key and ':' or ' (', is the same section)."""

    key: str
    heading: str
    body: list[str]

    def text(self) -> str:
        return "\n".join([f"## {self.heading}", "", *self.body]).rstrip() + "\n"


@dataclass
class Measured:
    """When, where and by what a part's figures were measured."""

    date: str
    commit: str
    command: str
    load_start: str
    load_end: str

    def line(self) -> str:
        return (f"Measured {self.date} at commit {self.commit} by `{self.command}`; load "
                f"average (1/5/15 min) {self.load_start} at start, {self.load_end} at end.")


def _is(heading: str, key: str) -> bool:
    return heading == key or heading.startswith((f"{key}:", f"{key} ("))


def split(text: str) -> list[tuple[str, str]]:
    """(heading, whole section text) of each `## ` section of `text`."""
    parts = re.split(r"(?m)^(?=## )", text)
    return [(p.splitlines()[0][3:].strip(), p) for p in parts if p.startswith("## ")]


def compose(existing: str, sections: list[Section], layout: list[tuple[str, str]]) -> str:
    """The whole file: for each (key, how to measure it) of `layout`, in its order, the section
    of that key among `sections`, else the one `existing` holds, else a section saying the
    benchmark was not measured yet and by what. Every other section of `existing` is left out,
    and so is a `###` part of a kept one: no part writes one, so it was added by hand."""
    new = {s.key: s.text() for s in sections}
    old = [(h, re.split(r"(?m)^(?=### )", t)[0]) for h, t in split(existing)]
    body = []
    for key, how in layout:
        text = new.get(key) or next((t for h, t in old if _is(h, key)), None)
        body.append(text or Section(key, key, [f"Not measured yet: `{how}`."]).text())
    return PREAMBLE + "\n" + "\n".join(t.rstrip() + "\n" for t in body)


# -- the race ---------------------------------------------------------------------------------

@dataclass
class RaceRun:
    """One contender in one phase of one repeat (benchmarks/race.py)."""

    hotel: int
    repeat: int
    phase: str
    who: str
    seconds: float
    calls: int
    refused: int
    error: str
    """Empty, or what the run raised (its innermost cause)."""
    rows: dict[str, int] = field(default_factory=dict)
    missing: dict[str, int] = field(default_factory=dict)
    """Rows the API holds that the warehouse lacks at the end of the phase, by table."""
    extra: dict[str, int] = field(default_factory=dict)
    vs_api: str = ""
    floor: int = 0
    """The fewest calls that end equal to the API (the same for every contender)."""
    changed: int = 0
    """Reservations changed since the previous phase (0 for the initial load)."""
    folio_changed: int = 0
    """Reservations whose folios changed (a line posted, a status) since the previous phase."""


Spread = tuple[float, float, float]
"""Median, min, max."""


@dataclass
class Figure:
    """One contender's runs in one phase of one hotel: medians with min and max."""

    hotel: int
    phase: str
    who: str
    seconds: Spread
    calls: Spread
    refused: Spread
    failed: int
    runs: int
    errors: list[str]
    missing: dict[str, Spread]
    equal: int
    """Runs that ended equal to the API."""
    rows: dict[str, int]
    floor: int
    changed: int
    folio_changed: int


def _spread(values: list[float]) -> Spread:
    return float(statistics.median(values)), float(min(values)), float(max(values))


def figures(runs: list[RaceRun]) -> list[Figure]:
    keys = sorted({(r.hotel, r.phase, r.who) for r in runs},
                  key=lambda k: (k[0], PHASES.index(k[1]), CONTENDERS.index(k[2])))
    out = []
    for hotel, phase, who in keys:
        mine = [r for r in runs if (r.hotel, r.phase, r.who) == (hotel, phase, who)]
        out.append(Figure(
            hotel, phase, who, _spread([r.seconds for r in mine]),
            _spread([r.calls for r in mine]), _spread([r.refused for r in mine]),
            sum(1 for r in mine if r.error), len(mine),
            sorted({r.error for r in mine if r.error}),
            {t: _spread([r.missing.get(t, 0) for r in mine]) for t in TABLES},
            sum(1 for r in mine if r.vs_api == "same"),
            {t: int(statistics.median([r.rows.get(t, 0) for r in mine])) for t in TABLES},
            int(statistics.median([r.floor for r in mine])),
            int(statistics.median([r.changed for r in mine])),
            int(statistics.median([r.folio_changed for r in mine]))))
    return out


def _s(spread: Spread, digits: int = 1) -> str:
    median, low, high = spread
    if low == high:
        return f"{median:.{digits}f}"
    return f"{median:.{digits}f} ({low:.{digits}f}-{high:.{digits}f})"


def _n(spread: Spread) -> str:
    return _s(spread, 0)


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "-"


def _missing(f: Figure) -> str:
    parts = []
    for table, label in (("folio_lines", "folio lines"), ("reservations", "reservations"),
                         ("events", "events")):
        if f.missing[table][2]:
            parts.append(f"{_n(f.missing[table])} {label}")
    return ", ".join(parts) or "none"


def race_sections(found: list[Figure], measured: Measured, scale: str,
                  repeats: int) -> list[Section]:
    """'Ingestion' (the figures and what each got wrong) and 'Ingestion vs the floor'."""
    body = [measured.line(), "", f"Scale: {scale}. Each figure: the median of {repeats} runs, "
            "(min-max) where they differ.", "",
            "| hotel | phase | who | wall s | calls | 429s | failed runs | rows (reservations / "
            "folio lines / events) | ended equal to the API | missing at the end |",
            "|---|---|---|---:|---:|---:|---:|---|---:|---|"]
    for f in found:
        rows = " / ".join(str(f.rows.get(t, 0)) for t in TABLES)
        body.append(f"| {f.hotel} rooms | {f.phase} | {f.who} | {_s(f.seconds)} | "
                    f"{_n(f.calls)} | {_n(f.refused)} | {f.failed} of {f.runs} | {rows} | "
                    f"{f.equal} of {f.runs} | {_missing(f)} |")
    body += ["", "Ratios of the medians:", "",
             "| hotel | phase | time ours / dlt serial | calls ours / dlt serial | "
             "time ours / dlt complete | calls ours / dlt complete | "
             "time ours / dlt parallel | calls ours / dlt parallel |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    by = {(f.hotel, f.phase, f.who): f for f in found}
    for hotel, phase in sorted({(f.hotel, f.phase) for f in found},
                               key=lambda k: (k[0], PHASES.index(k[1]))):
        ours = by.get((hotel, phase, "ours"))
        if ours is None:
            continue
        cells = []
        for who in CONTENDERS[1:]:
            other = by.get((hotel, phase, who))
            cells += ([_ratio(ours.seconds[0], other.seconds[0]),
                       _ratio(ours.calls[0], other.calls[0])] if other else ["-", "-"])
        body.append(f"| {hotel} rooms | {phase} | {' | '.join(cells)} |")
    body += ["", "What each got wrong:", ""]
    for f in found:
        if f.failed or f.equal < f.runs:
            what = []
            if f.failed:
                what.append(f"failed {f.failed} of {f.runs} runs ({'; '.join(f.errors)})")
            if f.equal < f.runs:
                what.append(f"ended short of the API in {f.runs - f.equal} of {f.runs} runs, "
                            f"missing {_missing(f)}")
            body.append(f"- {f.hotel} rooms, {f.phase}, {f.who}: {'; '.join(what)}.")
    floor = ["Floor: the fewest calls that end equal to the API. Initial load: pages of 200 "
             "reservations, batches of 500 events, one folio list per reservation. "
             "Incremental: the pages of the reservations changed since the previous phase, "
             "the batches of the new events, one folio list per reservation changed or whose "
             "folios changed (a line posted, a status), as the sandbox's database shows after "
             "the phase was played; a client cannot know the second set without reading, so "
             "no real client reaches this floor. Bound: calls / 10 per second (600 per minute; "
             "the burst of 120 makes the first 120 calls free of it).", "",
             "| hotel | phase | changed / folios changed | who | calls | floor | calls / floor | "
             "bound s | wall s | wall / bound |",
             "|---|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for f in found:
        bound = f.calls[0] / RATE_PER_SECOND
        changed = "-" if f.phase == "initial load" else f"{f.changed} / {f.folio_changed}"
        floor.append(f"| {f.hotel} rooms | {f.phase} | {changed} | {f.who} | {f.calls[0]:.0f} | "
                     f"{f.floor} | {_ratio(f.calls[0], f.floor)} | {bound:.1f} | "
                     f"{f.seconds[0]:.1f} | {_ratio(f.seconds[0], bound)} |")
    return [Section("Ingestion", "Ingestion: our sync core vs dlt `rest_api`, serial, "
                    "complete and parallel", body),
            Section("Ingestion vs the floor", "Ingestion vs the floor", floor)]


# -- transforms, throughput, the scripts -------------------------------------------------------

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


def marts_section(marts: list[MartsRun], note: str, measured: Measured) -> Section:
    body = [measured.line(), "", note, "",
            "| hotels x years | room-night versions | polars s | DuckDB s | polars / DuckDB | "
            "peak RSS MiB | same totals |", "|---|---:|---:|---:|---:|---:|---|"]
    for m in marts:
        body.append(f"| {m.hotels} x {m.years} | {m.room_nights} | {m.polars_seconds:.2f} | "
                    f"{m.duckdb_seconds:.2f} | {_ratio(m.polars_seconds, m.duckdb_seconds)} | "
                    f"{m.peak_mib:.0f} | {'yes' if m.same else 'NO'} |")
    return Section("Transforms", "Transforms: polars (pipelines.marts.logic) vs the same marts "
                   "in DuckDB SQL", body)


def throughput_section(found: list[Throughput], measured: Measured) -> Section:
    body = [measured.line(), "",
            "| endpoint | client threads | requests | seconds | requests/s | errors | "
            "x the 10 calls/s of the real limit |", "|---|---:|---:|---:|---:|---:|---:|"]
    for t in found:
        body.append(f"| {t.endpoint} | {t.threads} | {t.requests} | {t.seconds:.1f} | "
                    f"{t.per_second:.0f} | {t.errors} | "
                    f"{t.per_second / RATE_PER_SECOND:.0f} |")
    return Section("Sandbox throughput", "Sandbox throughput (rate limit lifted, no added "
                   "latency)", body)


def script_section(key: str, heading: str, about: str, output: str,
                   measured: Measured) -> Section:
    """A benchmark script's printed figures, as it printed them."""
    return Section(key, heading, [measured.line(), "", about, "", "```",
                                  *output.rstrip().splitlines(), "```"])


def machine_section(machine: dict[str, str], date: str) -> Section:
    return Section("Machine", "Machine", [f"Described {date} (the load of each part is in "
                                          "its own section).", "",
                                          *(f"- {k}: {v}" for k, v in machine.items())])


def notes_section(notes: list[str]) -> Section:
    return Section("Notes", "Notes", [f"- {n}" for n in notes])
