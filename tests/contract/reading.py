"""A sandbox shared by the tests of one module that book nothing (reads and refusals), and its
client. A module takes both with `sandbox, api = reading.sandbox, reading.api`: they replace,
for that module, the fresh sandbox a test gets from tests/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from sandbox.http.server import RunningSandbox, running_sandbox
from sandbox.settings import SandboxSettings
from tests.conftest import auth

UNLIMITED = SandboxSettings(rate_per_minute=1_000_000, burst=1_000_000)


@pytest.fixture(scope="module", name="sandbox")
def sandbox() -> Iterator[RunningSandbox]:
    """One sandbox for the module: its tests book nothing."""
    with running_sandbox(UNLIMITED) as running:
        yield running


@pytest.fixture(scope="module", name="api")
def api(sandbox: RunningSandbox) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=sandbox.base_url, headers=auth(), timeout=30) as client:
        yield client
