"""docs/warehouse.md documents every table (issue 5, Done when) and can never go stale."""

from __future__ import annotations

from pathlib import Path

import duckdb

from pipelines.warehouse.dictionary import render

DOC = Path(__file__).resolve().parents[2] / "docs" / "warehouse.md"


def test_docs_hold_the_current_render(conn: duckdb.DuckDBPyConnection) -> None:
    assert DOC.read_text(encoding="utf-8") == render(conn), (
        "docs/warehouse.md is stale: python -m pipelines.warehouse.dictionary > docs/warehouse.md")


def test_render_lists_every_table_and_column(conn: duckdb.DuckDBPyConnection) -> None:
    text = render(conn)
    for schema, table, column in conn.execute(
            "SELECT schema_name, table_name, column_name FROM duckdb_columns() "
            "WHERE schema_name IN ('raw', 'core', 'meta')").fetchall():
        assert f"### {schema}.{table}\n" in text
        assert f"| `{column}` |" in text
