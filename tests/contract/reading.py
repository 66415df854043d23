"""A sandbox shared by the tests of one module that book nothing (reads and refusals), its
client, and keys of chosen scopes added to it (add_key). A module takes the sandbox and client
with `sandbox, api = reading.sandbox, reading.api`: they replace, for that module, the fresh
sandbox a test gets from tests/conftest.py."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from sandbox.http.server import RunningSandbox, running_sandbox
from sandbox.seed import hash_key
from sandbox.settings import SandboxSettings
from tests.conftest import auth

UNLIMITED = SandboxSettings(rate_per_minute=1_000_000, burst=1_000_000)


def add_key(sandbox: RunningSandbox, key: str, scopes: list[str], property_id: int = 1) -> str:
    """A key with exactly these scopes (the hotel creates keys in its settings: spec, Auth 2)."""
    sandbox.state.conn.execute(
        "INSERT INTO api_keys (property_id, name, key_hash, prefix, scopes, created_at) "
        "VALUES (?, ?, ?, ?, ?, '2026-01-01T00:00:00Z')",
        (property_id, key, hash_key(key), key[:8], json.dumps(scopes)))
    return key


@pytest.fixture(scope="module", name="sandbox")
def sandbox() -> Iterator[RunningSandbox]:
    """One sandbox for the module: its tests book nothing."""
    with running_sandbox(UNLIMITED) as running:
        yield running


@pytest.fixture(scope="module", name="api")
def api(sandbox: RunningSandbox) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=sandbox.base_url, headers=auth(), timeout=30) as client:
        yield client
