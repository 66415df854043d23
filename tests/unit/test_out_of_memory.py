"""DuckDB's out-of-memory error in a property's step names the setting that bounds it
(PMSW_WAREHOUSE_MEMORY_LIMIT, docs/operations.md "A writer's memory"), not DuckDB's own
`SET memory_limit` advice, which a writer cannot follow: it sets the limit on every open."""

from __future__ import annotations

import duckdb
import pytest

from pipelines.defs.each_property import PropertiesFailedError, each_property
from pipelines.warehouse import MEMORY_ENV, WarehouseError


def _run_out_of_memory(code: str) -> int:
    with duckdb.connect(":memory:") as conn:
        conn.execute("SET memory_limit = '1MB'")
        found = conn.execute("SELECT count(DISTINCT x) FROM (SELECT range::VARCHAR || 'x' AS x "
                             "FROM range(3000000))").fetchone()
        return 0 if found is None else int(found[0])


def _fine(code: str) -> int:
    return len(code)


def test_one_property_s_error_names_the_variable_and_its_value(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MEMORY_ENV, "96MB")
    with pytest.raises(WarehouseError) as raised:
        each_property(["ROMA01"], _run_out_of_memory, at_once=1)
    message = str(raised.value)
    assert message.startswith(f"DuckDB ran out of the writer's memory, {MEMORY_ENV}=96MB (")
    assert f"set {MEMORY_ENV} higher" in message
    assert "SET memory_limit" not in message
    assert "\n" not in message
    assert isinstance(raised.value.__cause__, duckdb.OutOfMemoryException)


def test_in_a_group_the_property_that_ran_out_is_named_and_the_others_land(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MEMORY_ENV, raising=False)
    done, errors = each_property(
        ["GRP001", "GRP002"], lambda code: _run_out_of_memory(code) if code == "GRP002"
        else _fine(code), at_once=2)
    assert done == {"GRP001": 6}
    assert set(errors) == {"GRP002"}
    assert isinstance(errors["GRP002"], WarehouseError)
    assert f"{MEMORY_ENV}=" in str(PropertiesFailedError("folios", errors))
