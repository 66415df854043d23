"""`pmsw sync --properties-at-once N` (docs/ingestion.md, "A hotel group"): a count below one is
refused in one line naming the option, before anything is opened or written."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pipelines.cli import main


def test_properties_at_once_below_one_is_refused_in_one_line(tmp_path: Path) -> None:
    warehouse = tmp_path / "warehouse.duckdb"
    for bad in ("0", "-3", "two"):
        refused = CliRunner().invoke(main, ["sync", "--properties-at-once", bad,
                                            "--warehouse", str(warehouse)])
        assert refused.exit_code == 2, refused.output
        lines = refused.output.strip().splitlines()
        assert len(lines) == 1, refused.output
        assert lines[0].startswith("Error: Invalid value for '--properties-at-once': "), lines
    assert not warehouse.exists()
