"""The layers of docs/architecture.md, checked over the source's import statements (AST).

- models imports neither pipelines nor sandbox;
- pipelines never imports sandbox, and sandbox never imports pipelines;
- the pure parts (models, pipelines/vocabulary and each domain's `logic`) import neither dagster,
  httpx nor duckdb;
- a package of `pipelines` uses another only through its faces (a package's `__init__`, never one
  of its modules) and only downwards: `LAYERS` ranks them, and a package imports only those of
  a lower rank (the Dagster wiring, `defs`, `definitions` and `materialize`, is one layer);
- a domain's command (`pipelines/<domain>/command.py`, or a `command/` package) sits in the top
  layer with `cli`, whatever its domain's rank: it may use its own domain and anything below
  `cli` and the options every command shares (`pipelines.cli.options`, the one module of `cli`
  it imports: `cli` itself imports the commands); only `cli`, which assembles `pmsw`, imports
  a command, and directly (it is the CLI's face of its domain);
- no module imports a private module (`_name`) or a private name of another package;
- no import circle: the modules' imports (at any depth of the code, a function's included)
  form no cycle (issue 47, item 5).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("models", "pipelines", "sandbox")
IO_LIBRARIES = ("dagster", "httpx", "duckdb", "fastapi", "starlette", "uvicorn")
PURE = ("models", "pipelines.vocabulary", "pipelines.marts.logic", "pipelines.forecast.logic",
        "pipelines.recon.logic")
LAYERS = {  # docs/architecture.md, "The layers"
    "allocators": 0, "api": 0, "faces": 0, "metrics": 0, "vocabulary": 0,
    "properties": 1, "warehouse": 1,
    "ingest": 2, "forecast": 2,
    "marts": 3,
    "recon": 4,
    "reports": 5,
    "defs": 6, "definitions": 6, "materialize": 6, "demo": 7,
    "app": 8, "cli": 8,
}
WIRING = ("defs", "definitions", "materialize")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _package_of(module: str, is_package: bool) -> str:
    return module if is_package else module.rpartition(".")[0]


def _imports(path: Path, root: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line, absolute module imported, names imported from it) of every import in `path`."""
    module = _module_name(path, root)
    package = _package_of(module, path.name == "__init__.py")
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield node.lineno, target, [alias.name for alias in node.names]


def _sources(root: Path) -> list[Path]:
    return sorted(p for package in PACKAGES for p in (root / package).rglob("*.py"))


def _top(module: str) -> str:
    return module.split(".")[0]


def _is_private(part: str) -> bool:
    return part.startswith("_") and not part.startswith("__")


def _owner(module: str) -> str:
    """The package that owns a module path: everything before its first private part."""
    parts = module.split(".")
    for index, part in enumerate(parts):
        if _is_private(part):
            return ".".join(parts[:index])
    return module


def _violations(root: Path = ROOT) -> list[str]:
    found: list[str] = []
    for path in _sources(root):
        here = _module_name(path, root)
        rel = path.relative_to(root)
        for line, target, names in _imports(path, root):
            top = _top(target)
            where = f"{rel}:{line} imports {target}"
            if _top(here) == "models" and top in ("pipelines", "sandbox"):
                found.append(f"{where}: models must not import {top}")
            if {_top(here), top} == {"pipelines", "sandbox"}:
                found.append(f"{where}: pipelines and sandbox never import each other")
            if any(here == p or here.startswith(p + ".") for p in PURE) and top in IO_LIBRARIES:
                found.append(f"{where}: a pure part imports {top}")
            if top not in PACKAGES:
                continue
            owner = _owner(target)
            inside = here == owner or here.startswith(owner + ".")
            if owner != target and not inside:
                found.append(f"{where}: private module of another package")
            found.extend(f"{where}: {broken}" for broken in _domain_rule(here, target, root))
            private_names = [n for n in names if _is_private(n)]
            if private_names and not (here == target or here.startswith(target + ".")
                                      or here.rpartition(".")[0] == target.rpartition(".")[0]):
                found.append(f"{where}: private names {private_names} of another package")
    return found


def _is_command(module: str) -> bool:
    """A domain's command: `pipelines.<domain>.command` or a module of it."""
    parts = module.split(".")
    return len(parts) > 2 and parts[2] == "command"


def _domain_rule(here: str, target: str, root: Path) -> list[str]:
    """What an import of `target` from module `here` breaks of the domains' rule, if anything."""
    if _top(here) != "pipelines" or _top(target) != "pipelines" or "." not in here \
            or "." not in target:  # `pipelines` itself is no package of its own
        return []
    mine, theirs = here.split(".")[1], target.split(".")[1]
    if mine == theirs or (mine in WIRING and theirs in WIRING):
        return []
    if _is_command(target):
        return [] if mine == "cli" else [f"only cli imports a command ({theirs}'s)"]
    if _is_command(here) and target == "pipelines.cli.options":
        return []  # the options every command shares: the one module of cli a command uses
    mine = "cli" if _is_command(here) else mine
    broken = []
    if LAYERS.get(theirs, 0) >= LAYERS.get(mine, 0):
        broken.append(f"{mine} may not use {theirs} (layers: {theirs} is not below {mine})")
    if (root / theirs.join(("pipelines/", ""))).is_dir() and not (
            root / target.replace(".", "/") / "__init__.py").is_file():
        broken.append(f"a module of {theirs}, not one of its faces")
    return broken


def _import_graph(root: Path) -> dict[str, set[str]]:
    """module -> the project modules it imports. `from package import name` is an edge to
    the module package.name when there is one, else to the package."""
    paths = _sources(root)
    modules = {_module_name(p, root) for p in paths}
    graph: dict[str, set[str]] = {}
    for path in paths:
        here = _module_name(path, root)
        edges = graph.setdefault(here, set())
        for _, target, names in _imports(path, root):
            if _top(target) not in PACKAGES:
                continue
            found = [f"{target}.{n}" for n in names if f"{target}.{n}" in modules]
            if len(found) < len(names) or not names:
                found.append(target)
            edges.update(m for m in found if m in modules and m != here)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected set of more than one module (Tarjan), as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle() -> None:
    cycles = _cycles(_import_graph(ROOT))
    assert not cycles, "import circles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_checker_sees_an_import_circle(tmp_path: Path) -> None:
    """Two modules of a package that import each other, one inside a function."""
    folder = tmp_path / "pipelines" / "probe"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "one.py").write_text("from . import two\n", encoding="utf-8")
    (folder / "two.py").write_text("def f() -> None:\n    from .one import x\n",
                                   encoding="utf-8")
    assert _cycles(_import_graph(tmp_path)) == [["pipelines.probe.one", "pipelines.probe.two"]]


def test_sources_are_found() -> None:
    modules = {_module_name(p, ROOT) for p in _sources(ROOT)}
    assert {"models", "pipelines.marts.logic", "pipelines.recon", "sandbox"} <= modules


def test_layers_and_private_imports_hold() -> None:
    violations = _violations()
    assert not violations, "\n".join(violations)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("import sandbox.db\n", "pipelines and sandbox never import each other"),
        ("import duckdb\n", "a pure part imports duckdb"),
        ("from pipelines.api._client import PmsClient\n", "private module of another package"),
        ("from pipelines.api.client import _retry\n", "private names"),
        ("from pipelines.reports import REPORTS\n", "marts may not use reports"),
        ("from pipelines.warehouse.transaction import transaction\n",
         "a module of warehouse, not one of its faces"),
        ("from pipelines.recon.command import reconcile\n", "only cli imports a command"),
    ],
)
def test_the_checker_sees_a_broken_rule(tmp_path: Path, source: str, message: str) -> None:
    """A rule broken in a module of pipelines/marts/logic is reported, with its place."""
    probe = tmp_path / "pipelines" / "marts" / "logic" / "probe.py"
    probe.parent.mkdir(parents=True)
    (tmp_path / "pipelines" / "warehouse").mkdir()
    probe.write_text(source, encoding="utf-8")
    violations = _violations(tmp_path)
    assert any(message in v and "probe.py:1" in v for v in violations), violations


def test_a_command_sits_with_cli(tmp_path: Path) -> None:
    """A domain's command may use what is below `cli` (here the Dagster wiring, above marts)
    and the shared options of `cli`, but not the web app beside `cli`."""
    command = tmp_path / "pipelines" / "marts" / "command.py"
    command.parent.mkdir(parents=True)
    (tmp_path / "pipelines" / "cli").mkdir()
    (tmp_path / "pipelines" / "cli" / "options.py").write_text("", encoding="utf-8")
    command.write_text("from pipelines.materialize import materialize\n"
                       "from pipelines.cli.options import warehouse_option\n"
                       "from pipelines.app import create_app\n", encoding="utf-8")
    assert [v.split(": ", 1)[1] for v in _violations(tmp_path)] == [
        "cli may not use app (layers: app is not below cli)"]
