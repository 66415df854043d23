"""pipelines/definitions.py loads every module of pipelines/defs/ (dg.load_from_defs_folder):
an asset scaffolded there with `dg` is listed without any entry added, and an installed wheel
(no checkout, no pyproject.toml beside it) loads the same definitions."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path

import dagster as dg
import pytest

from pipelines.definitions import defs

REPO = Path(__file__).resolve().parents[2]


def _dg(*args: str) -> str:
    dg_bin = shutil.which("dg", path=str(Path(sys.executable).parent))
    if dg_bin is None:
        pytest.skip("dg is not installed beside this python")
    out = subprocess.run([dg_bin, *args], cwd=REPO, check=True, capture_output=True, text=True,
                         timeout=240)
    return out.stdout


@pytest.mark.slow
def test_an_asset_scaffolded_with_dg_is_listed() -> None:
    name = f"scaffold_probe_{uuid.uuid4().hex[:8]}"
    path = REPO / "pipelines" / "defs" / f"{name}.py"
    try:
        _dg("scaffold", "defs", "dagster.asset", f"{name}.py")
        assert path.exists()
        listed = json.loads(_dg("list", "defs", "--json"))
    finally:
        path.unlink(missing_ok=True)
    keys = {asset["asset_key"] for asset in listed["assets"]}
    assert name in keys
    assert {"pms/reservations", "mart/occupancy_daily", "meta/read_copy"} <= keys


def _names(d: dg.Definitions) -> list[str]:
    repo = d.get_repository_def()
    return sorted([*(k.to_user_string() for k in repo.asset_graph.get_all_asset_keys()),
                   *(j.name for j in repo.get_all_jobs()), *(s.name for s in repo.schedule_defs),
                   *(s.name for s in repo.sensor_defs),
                   *(f"{c.asset_key.to_user_string()}:{c.name}"
                     for c in repo.asset_graph.asset_check_keys)])


_PROBE = (
    "import json\n"
    "import pipelines.definitions as m\n"
    "from tests.pipeline.test_defs_folder import _names\n"
    "print(m.__file__)\n"
    "print(json.dumps(_names(m.defs)))\n"
)


@pytest.mark.slow
def test_the_installed_wheel_loads_the_defs_folder(tmp_path: Path) -> None:
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not installed")
    subprocess.run([uv, "build", "--wheel", "--offline", "-o", str(tmp_path / "dist"), str(REPO)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    assert not (site / "pyproject.toml").exists()
    # -I -S: the editable install's .pth does not put the checkout on the path; third-party
    # packages from the venv's site dir, then this test module (for _names) from the checkout.
    venv_site = Path(dg.__file__).resolve().parents[1]
    code = (f"import sys; sys.path[:0] = [{str(site)!r}, {str(venv_site)!r}]; "
            f"sys.path.append({str(REPO)!r})\n" + _PROBE)
    out = subprocess.run([sys.executable, "-I", "-S", "-c", code], cwd=tmp_path, check=True,
                         capture_output=True, text=True, timeout=240).stdout.splitlines()
    assert Path(out[0]) == site / "pipelines" / "definitions.py"
    assert json.loads(out[1]) == _names(defs)
    assert "pms/reservations" in json.loads(out[1])


def test_no_module_of_defs_makes_a_deprecated_call() -> None:
    # load_from_defs_folder imports the modules with Dagster's warnings off: a deprecated call
    # made when a module is defined would pass unseen there, so each is imported here first.
    defs = REPO / "pipelines" / "defs"
    modules = sorted(".".join(("pipelines", "defs", *p.relative_to(defs).with_suffix("").parts))
                     for p in defs.rglob("*.py") if p.stem != "__init__")
    code = "import importlib\n" + "".join(f"importlib.import_module({m!r})\n" for m in modules)
    done = subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-c", code],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr.strip().splitlines()[-1]
    assert "pipelines.defs.marts.assets" in modules
