"""Every figure a user reads outside the reports is held to the metrics layer too (issue 46,
"one figure, one definition"): the columns of every table and view `pmsw export parquet`
writes (the marts, the reconciliation and their views, which the notebooks read), the
notebooks' own SQL aliases (`AS name`) and the SQL examples', and the app's own column names.

A figure (a number that is not a key) is a METRICS name on the same basis, another name
declared in `pipelines.metrics.ALIASES`, a figure qualified by its name (`qualified`:
`last_year_*`, `*_per_night`, `*_<W>d`), or a known clash (`CLASHES`, each named); anything else
fails. "The same basis" is checked where the row can show it: a ratio column whose row holds
its numerator and denominator is recomputed by `Metric.of` on every row; a notebook alias that
takes a METRICS name must be that column or its sum; a name means one kind of value (a number,
text, a date...) in every relation.

The warehouse is the demo's of the report tests (tests/demo_warehouse.py, shared: or
PMSW_TEST_DEMO_WAREHOUSE); the notebooks, the examples and the app's names are read from their
files."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import duckdb
import pytest

from pipelines.app.morning import COLUMNS as MORNING_COLUMNS
from pipelines.metrics import ALIASES, CLASHES, LABELS, METRICS, Metric, qualified
from pipelines.warehouse import open_read_copy
from pipelines.warehouse.export import relations

REPO = Path(__file__).resolve().parents[2]
NAMES = frozenset(METRICS)
NUMBER = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
          "UINTEGER", "UBIGINT", "DECIMAL", "DOUBLE", "FLOAT", "REAL")
ROW_COUNTS = {"folios": "mart.v_guest_ledger has a row per folio with a balance"}
"""Aliases a notebook may give count(*): the relation's row is that thing."""


def declared(name: str) -> bool:
    """A figure name the metrics layer defines (itself, as another name, or qualified)."""
    return name in METRICS or name in ALIASES or qualified(name, NAMES) is not None


def kind(data_type: str) -> str:
    if data_type.endswith("[]"):
        return "list"
    if data_type.startswith(NUMBER):
        return "number"
    return data_type.split("(")[0].split(" ")[0].lower()


@pytest.fixture(scope="module")
def columns(warehouse: Path) -> dict[str, dict[str, str]]:
    """'schema.name' -> {column: type} of every relation the Parquet export writes."""
    with open_read_copy(warehouse) as conn:
        found: dict[str, dict[str, str]] = {}
        for schema, name, _ in relations(conn):
            found[f"{schema}.{name}"] = dict(conn.execute(
                "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = "
                "current_database() AND schema_name = ? AND table_name = ? ORDER BY "
                "column_index", [schema, name]).fetchall())
        return found


def test_the_export_has_the_marts_and_their_views(columns: dict[str, dict[str, str]]) -> None:
    assert {"mart.occupancy_daily", "mart.v_kpi_by_month", "mart.v_pickup_7_30",
            "recon.v_worklist"} <= set(columns)
    assert sum(len(c) for c in columns.values()) > 400


def test_every_figure_column_is_defined(columns: dict[str, dict[str, str]]) -> None:
    undefined = sorted(
        f"{relation}.{column} ({data_type})" for relation, found in columns.items()
        for column, data_type in found.items()
        if kind(data_type) == "number" and not column.endswith("_id")
        and not declared(column) and column not in LABELS
        and f"{relation}.{column}" not in CLASHES)
    assert not undefined, ("figure columns of the warehouse with no definition in "
                           "pipelines/metrics (METRICS, ALIASES, a qualified name, or LABELS "
                           f"if no figure): {undefined}")


def test_a_name_means_one_kind_of_value(columns: dict[str, dict[str, str]]) -> None:
    """`rooms` a count in one relation and room numbers in another, `lead_time_days` a number
    of days here and a bucket's label there: one name, two things (a known clash apart)."""
    kinds: dict[str, dict[str, set[str]]] = {}
    for relation, found in columns.items():
        for column, data_type in found.items():
            if f"{relation}.{column}" not in CLASHES:
                kinds.setdefault(column, {}).setdefault(kind(data_type), set()).add(relation)
    mixed = {column: {k: sorted(v) for k, v in by.items()} for column, by in kinds.items()
             if len(by) > 1}
    assert not mixed, f"one name, several kinds of value: {mixed}"


def test_the_known_clashes_are_still_there(columns: dict[str, dict[str, str]]) -> None:
    """A clash renamed is taken off `CLASHES` (the list says what is left to do)."""
    gone = [c for c in CLASHES if c.rsplit(".", 1)[1] not in columns.get(c.rsplit(".", 1)[0],
                                                                         {})]
    assert gone == []
    assert all(c.rsplit(".", 1)[1] in METRICS or c.rsplit(".", 1)[1] in LABELS
               for c in CLASHES)


def _money(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value)).quantize(Decimal("0.01"),
                                                                   ROUND_HALF_UP)


def test_an_alias_of_the_very_figure_equals_it_row_by_row(
        warehouse: Path, columns: dict[str, dict[str, str]]) -> None:
    """rooms_in_property is rooms_available under another name: equal on every row of every
    relation that shows both."""
    checked: list[str] = []
    with open_read_copy(warehouse) as conn:
        for relation, found in columns.items():
            for column in found:
                alias = ALIASES.get(column)
                if alias is None or not alias.same_rows or alias.metric not in found:
                    continue
                checked.append(f"{relation}.{column}")
                row = conn.execute(f'SELECT count(*), count(*) FILTER (WHERE "{column}" IS '
                                   f'DISTINCT FROM "{alias.metric}") FROM {relation}').fetchone()
                assert row is not None
                assert row[0] > 0, (relation, column)
                assert row[1] == 0, (relation, column, f"{row[1]} of {row[0]} rows differ")
    assert "mart.occupancy_daily.rooms_in_property" in checked


def _is_ratio_of(metric: Metric, value: Any, numerator: Any, denominator: Any) -> bool:
    """`value` is `metric` of these sums, to the cent. A denominator stored rounded (rooms
    forecast to 2 decimals, the ratio taken of the unrounded rooms) gives the ratio only
    within its rounding: the value must lie between the ratios of its two bounds."""
    assert metric.numerator is not None
    assert metric.denominator is not None
    exact = metric.of({metric.numerator: numerator, metric.denominator: denominator})
    if _money(value) == exact:
        return True
    den = Decimal(str(denominator)) if denominator is not None else None
    exponent = den.as_tuple().exponent if den is not None else 0
    if den is None or value is None or not isinstance(exponent, int) or exponent >= 0:
        return False
    half = Decimal(5).scaleb(exponent - 1)
    ends = [metric.of({metric.numerator: numerator, metric.denominator: den + d})
            for d in (-half, half)]
    if None in ends:
        return False
    low, high = sorted(e for e in ends if e is not None)
    return low - Decimal("0.01") <= Decimal(str(value)) <= high + Decimal("0.01")


def test_a_ratio_column_is_its_metric_of_its_rows_sums(
        warehouse: Path, columns: dict[str, dict[str, str]]) -> None:
    """occupancy_pct = rooms_sold / rooms_available x 100 on each row of every relation that
    shows all three, adr_net = room_revenue_nights_net / rooms_sold, ... to the cent."""
    checked: list[str] = []
    wrong: list[str] = []
    with open_read_copy(warehouse) as conn:
        for relation, found in columns.items():
            for column in found:
                metric = METRICS.get(column)
                if metric is None or not metric.is_ratio or f"{relation}.{column}" in CLASHES:
                    continue
                assert metric.numerator is not None
                assert metric.denominator is not None
                if metric.numerator not in found or metric.denominator not in found:
                    continue
                checked.append(f"{relation}.{column}")
                rows = conn.execute(
                    f'SELECT "{column}", "{metric.numerator}", "{metric.denominator}" FROM '
                    f"{relation}").fetchall()
                bad = [r for r in rows if not _is_ratio_of(metric, *r)]
                if bad:
                    wrong.append(f"{relation}.{column}: {len(bad)} of {len(rows)} rows, e.g. "
                                 f"{bad[0]} is not {metric.formula}")
    assert {"mart.occupancy_daily.occupancy_pct", "mart.occupancy_daily.adr_net",
            "mart.v_occupancy_calendar.occupancy_pct", "mart.v_adr_revpar_by_segment.revpar_net",
            "mart.v_cancellation_by_lead_time.cancellation_pct"} <= set(checked), checked
    assert wrong == []


def _sql_literals(source: str) -> Iterator[str]:
    """The string literals of a Python cell that hold a SELECT."""
    import ast

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and "SELECT" in node.value.upper() and " FROM " in f" {node.value.upper()} ":
            yield node.value


def _select_lists(sql: str) -> Iterator[list[dict[str, Any]]]:
    tree = json.loads(duckdb.execute("SELECT json_serialize_sql(?)", [sql]).fetchone()[0])
    assert not tree["error"], (sql, tree.get("error_message"))

    def walk(node: dict[str, Any]) -> Iterator[list[dict[str, Any]]]:
        if node["type"] == "SET_OPERATION_NODE":
            yield from walk(node["left"])
            yield from walk(node["right"])
        else:
            yield node["select_list"]

    for statement in tree["statements"]:
        yield from walk(statement["node"])


def _columns_read(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["column_names"][-1]} if node.get("class") == "COLUMN_REF" else set()
        return found.union(*(_columns_read(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_columns_read(v) for v in node))
    return set()


def _same_figure(alias: str, expression: dict[str, Any]) -> bool:
    """The expression is column `alias` itself, its sum, a count of the rows it names, or, for
    a ratio, reads its numerator and denominator and nothing else."""
    metric = METRICS[alias]
    if metric.is_ratio and _columns_read(expression) == {metric.numerator, metric.denominator}:
        return True
    if expression["class"] == "COLUMN_REF":
        return bool(expression["column_names"][-1] == alias)
    if expression["class"] == "FUNCTION" and expression["function_name"] == "sum":
        args = [a["expression"] for a in expression.get("arguments", [])]
        return len(args) == 1 and _same_figure(alias, args[0])
    return expression.get("function_name") == "count_star" and alias in ROW_COUNTS


def _aliases(examples: bool = True) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(where, alias, its expression) of every notebook code cell's query, and with
    `examples` every SQL example's (sql/examples)."""
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for number, cell in enumerate(cells):
            if cell["cell_type"] == "code":
                for sql in _sql_literals("".join(cell["source"])):
                    for select in _select_lists(sql):
                        yield from ((f"{path.name} cell {number}", e["alias"], e)
                                    for e in select if e["alias"])
    for path in sorted((REPO / "sql" / "examples").glob("*.sql")) if examples else ():
        for select in _select_lists(path.read_text(encoding="utf-8")):
            yield from ((path.name, e["alias"], e) for e in select if e["alias"])


def test_the_notebooks_and_examples_name_their_figures_as_the_metrics_layer() -> None:
    found = list(_aliases())
    assert len({where for where, _, _ in found}) >= 8, found
    undefined = sorted({f"{where}: {alias}" for where, alias, _ in found
                        if not declared(alias) and alias not in LABELS})
    assert not undefined, ("aliases with no definition in pipelines/metrics (name the figure "
                           f"as METRICS, ALIASES or a qualified name do): {undefined}")
    # the notebooks' aliases read their figure plainly: an example may derive one (a ratio
    # of sums, a department's filtered sum), which only its own test checks by hand
    other_basis = sorted({f"{where}: {alias}" for where, alias, e in _aliases(examples=False)
                          if alias in METRICS and not _same_figure(alias, e)})
    assert not other_basis, ("aliases named like a METRICS figure but computed otherwise "
                             f"(give them a name of their own): {other_basis}")


def test_the_apps_own_columns_name_the_figure_they_show() -> None:
    """The morning page's columns: each the report column it shows, under its name, a
    qualified name of it (rooms_net_7d: pickup --window 7's rooms_net) or a METRICS figure of
    its own (adr_otb_net: occupancy's adr_net of the nights ahead)."""
    wrong = [(page, report, column) for page, report, column in MORNING_COLUMNS
             if not (page == column or qualified(page, NAMES) == column
                     or (page in ALIASES and ALIASES[page].metric == column)
                     or (page in METRICS and column in METRICS[page].basis))]
    assert wrong == []
    assert {"rooms_net_1d", "rooms_net_7d", "rooms_net_30d"} <= {p for p, _, _ in
                                                                 MORNING_COLUMNS}
    assert "as_of" in LABELS  # the booking curve's first column
