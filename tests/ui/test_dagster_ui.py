"""The Dagster UI (issue 8): `dagster-webserver -w workspace.yaml` lists every asset, and
headless Chromium (Debian's `chromium`, installed here when missing and we are root) renders
the assets page with them. The screenshot is kept in artifacts/ (git-ignored)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from pipelines.demo.sandbox_process import free_port, serving_process
from tests.chromium import CHROMIUM_FLAGS, find_chromium

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]  # hang guards, not time limits

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
ASSETS_QUERY = """{ assetNodes { assetKey { path } groupName description
  owners { ... on TeamAssetOwner { team } ... on UserAssetOwner { email } }
  assetChecksOrError { ... on AssetChecks { checks { name } } } } }"""
JOBS_QUERY = """{ repositoriesOrError { ... on RepositoryConnection { nodes {
  jobs { name } schedules { name } sensors { name } } } } }"""


@pytest.fixture(scope="session")
def chromium() -> Path:
    return find_chromium()


@pytest.fixture(scope="module")
def webserver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("dagster-home")
    shutil.copy(ROOT / "dagster.yaml", home / "dagster.yaml")
    port = free_port()
    env = {**os.environ, "DAGSTER_HOME": str(home)}
    env.pop("PMSW_PROPERTIES_FILE", None)
    url = f"http://127.0.0.1:{port}"
    # A hang guard, not a time limit: at load 25 the start took over 90 s once.
    with serving_process("the webserver", [
            str(Path(sys.executable).parent / "dagster-webserver"), "-w", "workspace.yaml",
            "-h", "127.0.0.1", "-p", str(port)],
            lambda: httpx.get(f"{url}/server_info", timeout=2).status_code == 200
            and _loaded(url), home / "webserver.log", 600, cwd=ROOT, env=env, poll=0.5):
        yield url


def _graphql(url: str, query: str) -> dict[str, object]:
    response = httpx.post(f"{url}/graphql", json={"query": query}, timeout=30)
    response.raise_for_status()
    body: dict[str, object] = response.json()
    assert "errors" not in body, body
    data = body["data"]
    assert isinstance(data, dict)
    return data


def _loaded(url: str) -> bool:
    try:
        return bool(_graphql(url, ASSETS_QUERY)["assetNodes"])
    except (httpx.HTTPError, AssertionError):
        return False


def test_every_asset_has_group_description_owners_and_the_checks_jobs_automation_exist(
        webserver: str) -> None:
    nodes = _graphql(webserver, ASSETS_QUERY)["assetNodes"]
    assert isinstance(nodes, list)
    keys = {"/".join(n["assetKey"]["path"]) for n in nodes}
    assert {"pms/reservations", "pms/folios", "pms/events"} <= keys
    assert any(k.startswith("mart") or "occupancy" in k for k in keys), keys
    for node in nodes:
        key = "/".join(node["assetKey"]["path"])
        assert node["groupName"] not in (None, "", "default"), key
        assert node["description"], key
        assert node["owners"], key
    checks = {c["name"] for n in nodes for c in n["assetChecksOrError"].get("checks", [])}
    assert {"unique_keys", "event_gap"} <= checks
    repos = _graphql(webserver, JOBS_QUERY)["repositoriesOrError"]
    assert isinstance(repos, dict)
    [repo] = repos["nodes"]
    assert {"pms_sync", "reconcile"} <= {j["name"] for j in repo["jobs"]}
    assert {"pms_sync_hourly"} <= {s["name"] for s in repo["schedules"]}
    assert {"pms_events_sensor"} <= {s["name"] for s in repo["sensors"]}


def test_chromium_renders_the_assets_page_with_the_assets(webserver: str, chromium: Path,
                                                          tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "dagster-assets.png"
    shot.unlink(missing_ok=True)
    page = f"{webserver}/assets?view=flat"
    # Tall enough for every asset: the list is virtualized, rows out of view are not rendered.
    common = [str(chromium), *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
              "--window-size=1400,3200", "--virtual-time-budget=20000"]
    dom = subprocess.run([*common, "--dump-dom", page], capture_output=True, text=True,
                         timeout=600, check=False)
    assert dom.returncode == 0, dom.stderr[-2000:]
    for name in ("reservations", "folios", "events", "availability"):
        assert name in dom.stdout, f"{name} not on the assets page"
    result = subprocess.run([*common, f"--screenshot={shot}", page], capture_output=True,
                            text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    assert shot.stat().st_size > 20_000  # a rendered page, not a blank one


def test_every_step_that_opens_the_warehouse_holds_the_duckdb_pool_of_size_one() -> None:
    """docs/operations.md, The concurrency pool: one writer of the DuckDB file at a time."""
    import dagster as dg
    import yaml

    from pipelines.definitions import defs

    steps = [d for d in [*(defs.assets or []), *(defs.asset_checks or [])]
             if isinstance(d, dg.AssetsDefinition)]
    assert steps
    for step in steps:
        assert step.op.pool == "duckdb", [k.to_user_string() for k in step.keys]
    settings = yaml.safe_load((ROOT / "dagster.yaml").read_text())
    assert settings["concurrency"]["pools"]["default_limit"] == 1
