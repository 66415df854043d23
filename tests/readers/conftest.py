"""A small simulated hotel served over HTTP, and `pmsw` run as real processes against it.

The sandbox (in-process, loopback port) plays a few days of property 1; `pmsw sync` and
`pmsw reconcile` reach it through a properties file, each in its own process, as a user's
shell or a scheduler would run them.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from sandbox.http.server import running_sandbox
from sandbox.settings import SandboxSettings
from tests.conftest import UNLIMITED
from tests.pipeline.helpers import (
    ALL_SCOPES_KEY,
    REPO,
    advance,
    clock,
    pmsw,
    pmsw_env,
    write_properties,
)


@dataclass
class World:
    root_url: str
    env: dict[str, str]
    """Environment of every pmsw process: the properties file and the key."""
    warehouse: Path

    def advance(self, days: int = 1) -> None:
        advance(self.root_url, days, property_ids=[1])


def start(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    """`pmsw ...` started in its own process (not waited for)."""
    return subprocess.Popen([sys.executable, "-m", "pipelines.cli", *args], cwd=REPO,
                            env=pmsw_env(env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """A sandbox that lived 3 days of property 1, synced once (so a read copy exists); shared
    by the tests of a module, which each leave it whole (they advance it and sync on)."""
    tmp_path = tmp_path_factory.mktemp("readers")
    with running_sandbox(SandboxSettings(**UNLIMITED, admin=True), clock()) as sandbox:
        advance(sandbox.root_url, 3, property_ids=[1])
        props = write_properties(tmp_path / "properties.yaml", sandbox.base_url,
                                 codes={"ROMA01": "KEY_ROME"})
        warehouse = tmp_path / "warehouse.duckdb"
        env = {"PMSW_PROPERTIES_FILE": str(props), "KEY_ROME": ALL_SCOPES_KEY,
               "PMSW_WAREHOUSE": str(warehouse)}
        pmsw(["sync", "--no-progress"], env, ok=True)
        yield World(sandbox.root_url, env, warehouse)
