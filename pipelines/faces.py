"""A face that loads some of its names on first use (PEP 562, a module's `__getattr__`), so a
process imports only what it serves: `pmsw app` reads reports and never loads openpyxl, the
API client or the ingestion (issue 50, the cold start; docs/architecture.md, "Lazy names").

The face still imports those names under `TYPE_CHECKING`, so mypy and the import contracts
(tests/unit/test_import_contracts.py) see every edge; tests/unit/test_lazy_faces.py checks that
each lazy name is the one its module defines and what `import pipelines.app` leaves out."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module


def lazy_names(package: str, modules: Mapping[str, str]) -> Callable[[str], object]:
    """The `__getattr__` of the face `package`: a name of `modules` (name -> the module of
    `package` defining it) is imported from it when first asked for, then kept on the face."""

    def load(name: str) -> object:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return load
