"""The sandbox's two layers (docs/sandbox.md, Layout; ARCHITECTURE.md, The parts): the hotel
(services, simulator, state, clock, db, seed, settings) imports no web framework and nothing of
`sandbox.http`; and no module of `sandbox` imports, through any chain, itself.

Imports are read from the source (every `import` and `from` statement, those under
`TYPE_CHECKING` and inside functions included), not from what Python loaded."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "sandbox"
WEB = ("fastapi", "starlette", "uvicorn")
HTTP = "sandbox.http"
ENTRY_POINTS = {"sandbox.cli"}
"""Modules that put the layers together (the command line starts the server)."""


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str) -> set[str]:
    """The modules `name` imports (`from pkg import mod` counts as `pkg.mod` when mod is one)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names
                         if f"{base}.{alias.name}" in MODULES)
    return found


def is_hotel(name: str) -> bool:
    return not (name == HTTP or name.startswith(HTTP + ".") or name in ENTRY_POINTS)


HOTEL = sorted(name for name in MODULES if is_hotel(name))


def test_the_walk_sees_both_layers() -> None:
    assert {"sandbox.context", "sandbox.services.reservation_create",
            "sandbox.simulator.engine"} <= set(HOTEL)
    assert "fastapi" in {m.split(".")[0] for m in imports_of("sandbox.http.deps")}
    assert "sandbox.context" in imports_of("sandbox.http.deps")
    assert "sandbox.services.stay_transitions" in imports_of("sandbox.services.reservation_actions")


@pytest.mark.parametrize("name", HOTEL)
def test_the_hotel_knows_no_web_framework_and_no_http_module(name: str) -> None:
    wrong = sorted(m for m in imports_of(name)
                   if m.split(".")[0] in WEB or m == HTTP or m.startswith(HTTP + "."))
    assert not wrong, f"{name} imports {wrong}"


def test_no_import_cycle_in_the_sandbox() -> None:
    graph = {name: sorted(m for m in imports_of(name) if m in MODULES and m != name)
             for name in MODULES}
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            cycle = [*path[path.index(name):], name]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if name in done:
            return
        for target in graph[name]:
            visit(target, [*path, name])
        done.add(name)

    for name in graph:
        visit(name, [])
