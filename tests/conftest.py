"""Fixtures shared by every suite: a real sandbox served over HTTP on a loopback port."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from sandbox.clock import Clock
from sandbox.http.app import create_app
from sandbox.http.server import RunningSandbox, running_sandbox
from sandbox.settings import SandboxSettings
from tests.demo_warehouse import demo_warehouse

ALL_SCOPES_KEY = "sbx_test_all_scopes"
UNLIMITED = {"rate_per_minute": 1_000_000, "burst": 1_000_000}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files holding a `slow` test run first. `make test` hands whole files to its two
    workers in this order (`--dist loadfile --no-loadscope-reorder`; xdist's own order puts the
    files of most tests first, so the long files of one or two tests came last and one worker
    finished them alone): the long files start early and the many short ones even out the
    end."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)


def auth(key: str = ALL_SCOPES_KEY) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def answered(response: httpx.Response, status: int = 200) -> Any:
    """The JSON body of an answer that must have `status`."""
    assert response.status_code == status, response.text
    return response.json()


def refusal(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """Spec, Errors: a refusal answers `status` with `{error: {code, message}}`; its error."""
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == code
    assert error["message"]
    return error


def openapi_document() -> dict[str, Any]:
    """The sandbox's OpenAPI document, from an app that serves nothing."""
    app = create_app(SandboxSettings())
    try:
        return app.openapi()
    finally:
        app.state.sandbox.conn.close()


def every_reservation(api: httpx.Client, **filters: Any) -> Iterator[dict[str, Any]]:
    """Every reservation GET /reservations lists with these filters, page after page (200 a
    page), in the API's order."""
    page = 1
    while True:
        response = api.get("/reservations", params={**filters, "page": page, "page_size": 200})
        response.raise_for_status()
        body = response.json()
        yield from body["data"]
        if page >= body["pages"]:
            return
        page += 1


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's warehouse on a short stretch (tests/demo_warehouse.py: two properties, marts,
    reconciliation), built once a session; a suite with a warehouse of its own defines this
    fixture again."""
    return demo_warehouse(tmp_path_factory)


MakeSandbox = Callable[..., RunningSandbox]


@pytest.fixture
def make_sandbox() -> Iterator[MakeSandbox]:
    """Start fresh sandboxes (in-memory database) with the given settings and clock.

    The rate limit is lifted unless the test sets `rate_per_minute` / `burst` itself.
    """
    with ExitStack() as stack:

        def make(clock: Clock | None = None, **settings: Any) -> RunningSandbox:
            values = {**UNLIMITED, **settings}
            return stack.enter_context(running_sandbox(SandboxSettings(**values), clock))

        yield make


@pytest.fixture
def sandbox(make_sandbox: MakeSandbox) -> RunningSandbox:
    """A fresh sandbox for one test: wall clock, seed data, no rate limit, admin on."""
    return make_sandbox(admin=True)


@pytest.fixture
def api(sandbox: RunningSandbox) -> Iterator[httpx.Client]:
    """An HTTP client on the fresh sandbox with the all-scopes test key."""
    with httpx.Client(base_url=sandbox.base_url, headers=auth(), timeout=30) as client:
        yield client
