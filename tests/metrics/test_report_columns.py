"""Every column every report prints is a figure defined once in `METRICS` or a column that is
no figure (`LABELS`: what a row is, a change, the flash's periods); the flash's rows name
METRICS too. A report that prints a new figure without a definition, or a figure under a
name the metrics layer gives another basis, fails here (issue 46, "one figure, one
definition").

The reports run as `pmsw report` runs them (`run_report`, the registry) on the demo's
warehouse of the report tests (tests/demo_warehouse.py: built once per session, shared with
tests/reports, tests/app, tests/consistency), each in every variant that changes its columns:
segments by each dimension, the ledger by folio and by category, guest and city, the city-tax
return and its stays, each section of the close pack."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from pipelines.metrics import LABELS, METRICS
from pipelines.reports import (
    REPORTS,
    SEGMENT_DIMENSIONS,
    Table,
    open_warehouse,
    resolve_property,
    run_report,
)
from tests.demo_warehouse import demo_warehouse

CODE = "FIRE01"


def _variants(name: str) -> list[dict[str, Any]]:
    """The options of each run of report `name` whose columns differ."""
    if name == "segments":
        return [{"by": by} for by in SEGMENT_DIMENSIONS]
    if name == "ledger":
        return [{"by": by, "ledger": which} for by in ("folio", "category")
                for which in ("guest", "city")]
    if name == "city-tax":
        return [{}, {"stays": True}]
    return [{}]


def _tables(table: Table) -> Iterator[tuple[str, Table]]:
    yield "", table
    yield from table.sections


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Table]:
    """Each report's tables, by 'report [variant] [section]'."""
    path = demo_warehouse(tmp_path_factory)
    with open_warehouse(path) as conn:
        prop = resolve_property(conn, path, CODE)
        closed = prop.business_date - timedelta(days=1)
        found: dict[str, Table] = {}
        for name in REPORTS:
            first = last = None
            if name == "city-tax":  # a --month: the last closed date's
                first = closed.replace(day=1)
                last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
            for options in _variants(name):
                table = run_report(conn, path, name, prop, first, last, **options)
                for section, inner in _tables(table):
                    found[" ".join(filter(None, (name, str(options or ""), section)))] = inner
        return found


def test_every_report_ran_with_rows(printed: dict[str, Table]) -> None:
    """Each report and each section printed columns, and most printed rows: a report the
    demo left empty still names its columns (checked below) but shows no flash row."""
    assert {key.split(" ")[0] for key in printed} == set(REPORTS)
    assert all(t.columns for key, t in printed.items() if key != "close-pack"), [
        key for key, t in printed.items() if not t.columns and key != "close-pack"]
    assert sum(1 for t in printed.values() if t.rows) >= len(REPORTS)


def test_every_column_is_a_metric_or_a_declared_label(printed: dict[str, Table]) -> None:
    undefined = {f"{key}: {column}" for key, table in printed.items()
                 for column in table.columns if column not in METRICS and column not in LABELS}
    assert not undefined, ("columns printed with no definition in pipelines/metrics "
                           f"(METRICS, or LABELS if no figure): {sorted(undefined)}")


def test_the_flash_rows_are_metrics(printed: dict[str, Table]) -> None:
    flash = printed["flash"]
    at = list(flash.columns).index("metric")
    names = [row[at] for row in flash.rows]
    assert names, "the flash printed no row"
    assert [n for n in names if n not in METRICS] == []


def test_a_name_is_either_a_figure_or_a_label() -> None:
    assert METRICS.keys() & LABELS == set()
