from __future__ import annotations

from pathlib import Path

import pytest

from tests.demo_warehouse import demo_warehouse


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's warehouse on a short stretch (two properties, marts, reconciliation)."""
    return demo_warehouse(tmp_path_factory)
