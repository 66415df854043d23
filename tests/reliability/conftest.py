"""Every test of this folder carries the `reliability` marker (pyproject: markers); `make test`
runs them with the rest (`pytest -m reliability` runs them alone)."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.reliability)
