"""The sandbox's two layers (docs/sandbox.md, Layout; ARCHITECTURE.md, The parts): the hotel
(services, simulator, state, clock, db, seed, settings) imports no web framework and nothing of
`sandbox.http`; and no module of `sandbox` imports, through any chain, itself.

Imports are read from the source (every `import` and `from` statement, those under
`TYPE_CHECKING` and inside functions included), not from what Python loaded."""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_import_contracts import _cycles, _imports, _module_name

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "sandbox"
WEB = ("fastapi", "starlette", "uvicorn")
HTTP = "sandbox.http"
ENTRY_POINTS = {"sandbox.cli"}
"""Modules that put the layers together (the command line starts the server)."""


MODULES = {_module_name(path, ROOT): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str) -> set[str]:
    """The modules `name` imports (`from pkg import mod` counts as `pkg.mod` when mod is one)."""
    found: set[str] = set()
    for _, target, names in _imports(MODULES[name], ROOT):
        found.add(target)
        found.update(f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES)
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
    """Stricter than test_import_contracts' walk: `from pkg import mod` is an edge to the
    package too (its __init__ runs first)."""
    graph = {name: {m for m in imports_of(name) if m in MODULES and m != name}
             for name in MODULES}
    assert _cycles(graph) == []
