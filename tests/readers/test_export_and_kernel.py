"""The read copy for other tools (issue 15, items 7 and the notebook test).

- `pmsw export parquet DIR` writes every table and view of mart.* and recon.* as Parquet
  partitioned by property; read back with polars (hive partitioning) each equals the read
  copy's, row for row.
  PMSW_EXPORT_PARQUET=DIR makes every publish (here the one that ends `pmsw sync`) export.
- A notebook kernel (nbclient, alive between cells) that opened the read copy with the
  revenue manager notebook's own first cell holds it while `pmsw sync` runs: the sync
  succeeds, the kernel's cells during it succeed (on the copy they hold), and once the
  notebook's cell is run again, as its comment says, the next cell sees the new publish.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import nbformat
import polars as pl
import pytest
from nbclient import NotebookClient

from pipelines.warehouse import open_read_copy
from tests.pipeline.helpers import pmsw

from .conftest import World, start

pytestmark = pytest.mark.slow

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PROBE = """import json
row = con.execute(
    "SELECT (SELECT max(published_at) FROM meta.published)::VARCHAR, "
    "(SELECT run_id FROM meta.published WHERE part = 'reservations'), "
    "(SELECT count(*) FROM core.reservations), (SELECT count(*) FROM mart.stay_nights)"
).fetchone()
print(json.dumps(row))"""


def _sorted(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.sort(frame.columns, nulls_last=True) if frame.height else frame


def _assert_export_equals_read_copy(world: World, folder: Path) -> dict[str, int]:
    """Every table and view of mart and recon in the read copy, read back from `folder` (mart's
    at its top, recon's under recon/); {schema.name: rows}."""
    with open_read_copy(world.warehouse) as conn:
        relations = [(str(s), str(n), bool(p)) for s, n, p in conn.execute(
            "SELECT schema_name, table_name, bool_or(column_name = 'property_id') "
            "FROM duckdb_columns() WHERE database_name = 'warehouse' "
            "AND schema_name IN ('mart', 'recon') GROUP BY 1, 2 ORDER BY 1, 2").fetchall()]
        expected = {(s, n): conn.sql(f'SELECT * FROM {s}."{n}"').pl() for s, n, _ in relations}
    assert any(n.startswith("v_") for _, n, _ in relations)  # views too
    assert any(s == "recon" for s, _, _ in relations)

    def where(schema: str, name: str) -> Path:
        return folder / name if schema == "mart" else folder / schema / name

    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == \
        sorted([n for s, n, _ in relations if s == "mart"] + ["recon"])
    counts: dict[str, int] = {}
    for schema, name, partitioned in relations:
        want = expected[(schema, name)]
        files = sorted(where(schema, name).rglob("*.parquet"))
        key = f"{schema}.{name}"
        if not want.height:
            assert files == [], key
            counts[key] = 0
            continue
        if partitioned:
            ids = sorted(want["property_id"].unique().to_list())
            assert sorted(p.name for p in where(schema, name).iterdir()) == \
                [f"property_id={i}" for i in ids], key
            got = pl.read_parquet(where(schema, name) / "**" / "*.parquet",
                                  hive_partitioning=True)
        else:
            got = pl.read_parquet(files)
        got = got.select(want.columns)
        assert got.schema == want.schema, key
        assert _sorted(got).equals(_sorted(want)), key
        counts[key] = want.height
    return counts


def test_export_parquet_writes_every_mart_by_property_and_polars_reads_back_the_copy(
        world: World, tmp_path: Path) -> None:
    folder = tmp_path / "parquet"
    done = pmsw(["export", "parquet", str(folder)], world.env, ok=True)
    counts = _assert_export_equals_read_copy(world, folder)
    assert counts["mart.occupancy_daily"] > 0
    assert counts["mart.stay_nights"] > 0
    assert f"{len(counts)} tables and views exported to {folder}" in done.stdout

    again = pmsw(["export", "parquet", str(folder)], world.env)  # overwrites, adds nothing
    assert again.returncode == 0, again.stderr[-3000:]
    assert _assert_export_equals_read_copy(world, folder) == counts


def test_every_publish_exports_when_pmsw_export_parquet_is_set(
        world: World, tmp_path: Path) -> None:
    folder = tmp_path / "on-publish"
    pmsw(["export", "parquet", str(tmp_path / "before")], world.env, ok=True)
    old = pl.read_parquet(tmp_path / "before" / "stay_nights" / "**" / "*.parquet",
                          hive_partitioning=True).height
    world.advance()
    pmsw(["sync", "--no-progress"], {**world.env, "PMSW_EXPORT_PARQUET": str(folder)}, ok=True)
    counts = _assert_export_equals_read_copy(world, folder)
    assert counts["mart.stay_nights"] > old  # the day's bookings: the export is of the new copy


def _probe(client: NotebookClient, notebook: Any) -> list[Any]:
    cell = nbformat.v4.new_code_cell(PROBE)  # type: ignore[no-untyped-call]
    notebook.cells.append(cell)
    client.execute_cell(cell, len(notebook.cells) - 1)
    text = "".join(o["text"] for o in cell.outputs if o.get("name") == "stdout")
    return list(json.loads(text))


def _published(world: World) -> list[Any]:
    with open_read_copy(world.warehouse) as conn:
        row = conn.execute(
            "SELECT (SELECT max(published_at) FROM meta.published)::VARCHAR, "
            "(SELECT run_id FROM meta.published WHERE part = 'reservations'), "
            "(SELECT count(*) FROM core.reservations), "
            "(SELECT count(*) FROM mart.stay_nights)").fetchone()
    assert row is not None
    return list(row)


def test_a_kernel_holding_the_read_copy_and_pmsw_sync_both_succeed_and_it_then_sees_the_new_data(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PMSW_WAREHOUSE", str(world.warehouse))  # the kernel inherits it
    monkeypatch.delenv("PMSW_PROPERTY", raising=False)
    source = nbformat.read(NOTEBOOKS / "revenue_manager.ipynb", as_version=4)  # type: ignore[no-untyped-call]
    setup = next(c for c in source.cells if c.cell_type == "code")
    assert "con = open_read_copy(WAREHOUSE)" in setup.source
    notebook = nbformat.v4.new_notebook(cells=[setup])  # type: ignore[no-untyped-call]
    client = NotebookClient(notebook, timeout=60, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    with client.setup_kernel():
        client.execute_cell(setup, 0)
        held = _probe(client, notebook)
        assert held == _published(world)

        world.advance()
        sync = start(["sync", "--no-progress"], world.env)
        during: list[list[Any]] = []
        while sync.poll() is None:  # the kernel reads all along the sync, landing and publish
            during.append(_probe(client, notebook))
            time.sleep(0.3)  # a reader every 0.3 s, not a busy loop stealing the sync's CPU
        _, err = sync.communicate(timeout=120)
        assert sync.returncode == 0, err[-3000:]
        during.append(_probe(client, notebook))
        assert len(during) >= 5
        assert all(seen == held for seen in during)  # the copy it opened: complete, older

        new = _published(world)
        assert new[0] > held[0]
        assert new[1] != held[1]  # the sync's run of the reservations stream
        assert new[2] > held[2]  # the day's bookings
        client.execute_cell(setup, 0)  # "Run this cell again to see a newer publish"
        assert _probe(client, notebook) == new
