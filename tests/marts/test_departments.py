"""Departments have one definition (pipelines/vocabulary/departments.py, issue 14 item 1).

`pmsw report revenue` once filtered on 'food_and_beverage' while the mart stores
'food_beverage', so F&B showed 0.00 every day. These tests fail if any reader spells a
department that the definition does not hold, and check that the SQL reference table is
written from the same list.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pipelines.marts.logic.revenue import DEPARTMENTS as REVENUE_DEPARTMENTS
from pipelines.vocabulary.departments import CODES, DEPARTMENTS, department
from pipelines.warehouse import connect

ROOT = Path(__file__).resolve().parents[2]
# A comparison of a department with quoted names: SQL `department = 'x'`, `department IN
# ('x', 'y')`, `department <> 'x'`, polars `pl.col("department") == "x"` / `.is_in(["x"])`.
COMPARED = re.compile(
    r"department['\"]?\)?\s*(?:==|=|<>|!=|\bNOT IN\b|\bIN\b|\.is_in\()\s*[\(\[]?\s*"
    r"((?:['\"][A-Za-z_& ]+['\"]\s*,?\s*)+)", re.IGNORECASE)
QUOTED = re.compile(r"['\"]([A-Za-z_& ]+)['\"]")


def _sources() -> list[Path]:
    files = [*ROOT.glob("sql/**/*.sql"), *ROOT.glob("pipelines/**/*.py"),
             *ROOT.glob("notebooks/*.ipynb"), ROOT / "docs" / "notebooks.md"]
    return [f for f in files if f.name != "departments.py"]


def _text(path: Path) -> str:
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return path.read_text(encoding="utf-8")


def spelled_departments() -> dict[str, set[str]]:
    """Every department name compared in the SQL, the pipelines and the notebooks, by file."""
    found: dict[str, set[str]] = {}
    for path in _sources():
        for match in COMPARED.finditer(_text(path)):
            names = set(QUOTED.findall(match.group(1)))
            found.setdefault(str(path.relative_to(ROOT)), set()).update(names)
    return found


def test_the_pattern_finds_a_drifted_name() -> None:
    """The guard itself: the old report's spelling is caught, in SQL and in polars."""
    sql = "sum(revenue_net) FILTER (WHERE department = 'food_and_beverage')"
    assert {n for m in COMPARED.finditer(sql) for n in QUOTED.findall(m.group(1))} == {
        "food_and_beverage"}
    code = 'pl.col("department").is_in(["food", "other"])'
    assert {n for m in COMPARED.finditer(code) for n in QUOTED.findall(m.group(1))} == {
        "food", "other"}


def test_every_department_spelled_anywhere_is_defined() -> None:
    found = spelled_departments()
    assert found, "the scan found no department comparison at all: the pattern is broken"
    unknown = {f: sorted(n - set(CODES)) for f, n in found.items() if n - set(CODES)}
    assert unknown == {}


def test_the_definition() -> None:
    assert CODES == ("accommodation", "food_beverage", "other", "city_tax")
    assert [d.code for d in DEPARTMENTS if not d.is_revenue] == ["city_tax"]
    assert REVENUE_DEPARTMENTS is DEPARTMENTS
    assert department("food_beverage").label == "Food and beverage"
    with pytest.raises(KeyError, match="food_beverage"):
        department("food_and_beverage")


def test_the_sql_reference_table_is_written_from_the_definition(tmp_path: Path) -> None:
    with connect(tmp_path / "w.duckdb") as conn:
        rows = conn.execute("SELECT department, label, is_revenue, position "
                            "FROM mart.departments ORDER BY position").fetchall()
    assert rows == [(d.code, d.label, d.is_revenue, d.position) for d in DEPARTMENTS]
