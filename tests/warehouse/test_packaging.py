"""sql/ is found both in a checkout and inside an installed wheel (pyproject force-include)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import duckdb
import pytest

import pipelines.warehouse
from pipelines.warehouse.migrate import sql_dir

REPO = Path(__file__).resolve().parents[2]

_PROBE = (
    "import duckdb\n"
    "from pipelines.warehouse.migrate import migrate, sql_dir\n"
    "print(sql_dir())\n"
    "print(len(migrate(duckdb.connect())))\n"
)


def _run_probe(site: Path) -> list[str]:
    # -I -S: no site processing, so the editable install's .pth does not put the checkout on the
    # path; the third-party packages come from the venv's site dir, added by hand.
    venv_site = Path(duckdb_site())
    code = f"import sys; sys.path[:0] = [{str(site)!r}, {str(venv_site)!r}]\n" + _PROBE
    out = subprocess.run([sys.executable, "-I", "-S", "-c", code], cwd=site, check=True,
                         capture_output=True, text=True, timeout=120)
    return out.stdout.split()


def duckdb_site() -> str:
    return str(Path(duckdb.__file__).resolve().parents[1])


def test_checkout_finds_the_repository_sql_folder() -> None:
    assert sql_dir() == REPO / "sql"


def test_pyproject_packs_sql_where_the_module_looks() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    force = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert force["sql"] == "pipelines/warehouse/sql"


def test_installed_layout_finds_the_packaged_sql(tmp_path: Path) -> None:
    package = Path(pipelines.warehouse.__file__).parent
    target = tmp_path / "pipelines" / "warehouse"
    shutil.copytree(package, target, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "pipelines" / "__init__.py").write_text("")
    shutil.copytree(package.parent / "vocabulary", tmp_path / "pipelines" / "vocabulary",
                    ignore=shutil.ignore_patterns("__pycache__"))  # the departments of its views
    shutil.copytree(REPO / "models", tmp_path / "models",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "sql", target / "sql")
    folder, count = _run_probe(tmp_path)
    assert Path(folder) == target / "sql"
    assert int(count) == len(list((REPO / "sql" / "migrations").glob("*.sql")))


@pytest.mark.slow
def test_built_wheel_carries_the_migrations(tmp_path: Path) -> None:
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not installed")
    subprocess.run([uv, "build", "--wheel", "--offline", "-o", str(tmp_path / "dist"), str(REPO)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    folder, count = _run_probe(site)
    assert Path(folder) == site / "pipelines" / "warehouse" / "sql"
    assert int(count) == len(list((REPO / "sql" / "migrations").glob("*.sql")))
