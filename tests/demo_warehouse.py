"""A warehouse built by the real pipeline, once per test session: `pipelines.demo` on a short
stretch (the sandbox as a child process, syncs over HTTP, marts, reconciliation dry run and
apply). The report and notebook tests read it; none of them writes to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.demo import DemoConfig, run_demo

_BUILT: dict[str, Path] = {}

SHORT_DAYS, SHORT_DAILY_SYNCS = 40, 4


def demo_warehouse(factory: pytest.TempPathFactory) -> Path:
    """The warehouse file (built on first use in this session)."""
    if "path" not in _BUILT:
        root = factory.mktemp("demo-warehouse")
        config = DemoConfig(data_dir=root, warehouse=root / "warehouse.duckdb",
                            progress=False, days=SHORT_DAYS,
                            daily_syncs=SHORT_DAILY_SYNCS)
        run_demo(config)
        _BUILT["path"] = config.warehouse
    return _BUILT["path"]
