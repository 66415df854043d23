"""`pmsw app` started as a real process on 127.0.0.1 against the demo's warehouse
(tests/demo_warehouse.py), stopped by the fixture; and the page's tables read back from its
HTML (each cell carries its column in data-col, each row its first cell in data-row)."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest

from pipelines.demo import DemoConfig
from pipelines.demo.close import hand_over_the_day
from pipelines.demo.config import UNLIMITED_RATE
from pipelines.demo.sandbox_admin import SandboxAdmin
from pipelines.demo.sandbox_process import free_port, sandbox_process, serving_process
from tests.demo_warehouse import REPO


@contextmanager
def running_app(warehouse: Path, log_path: Path) -> Iterator[str]:
    """`pmsw app --warehouse warehouse` on a free port of 127.0.0.1: its base address."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with serving_process("pmsw app", [sys.executable, "-m", "pipelines.cli", "app", "--port",
                                      str(port), "--warehouse", str(warehouse)],
                         lambda: httpx.get(f"{url}/healthz", timeout=2).status_code == 200,
                         log_path, 120, cwd=REPO):
        yield url


@pytest.fixture(scope="module")
def app_url(warehouse: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base address of a `pmsw app` process reading `warehouse`."""
    with running_app(warehouse, tmp_path_factory.mktemp("app") / "app.log") as url:
        yield url


@contextmanager
def demo_sandbox(warehouse: Path, copy: Path) -> Iterator[tuple[DemoConfig, SandboxAdmin]]:
    """The sandbox of the demo that built `warehouse`, on a copy of its hotels beside `copy` (a
    copy of the warehouse), started as the demo starts it (admin on, simulated clock, the rate
    limit lifted), its properties file and keys in this process's environment while the block
    runs, so `pmsw sync` and `pmsw reconcile --close` started from here reach it."""
    config = DemoConfig(data_dir=copy.parent, warehouse=copy)
    shutil.copytree(DemoConfig(data_dir=warehouse.parent, warehouse=warehouse).demo_dir,
                    config.demo_dir)
    args = ["--admin", "--clock", "simulated", "--rate-per-minute", str(UNLIMITED_RATE),
            "--burst", str(UNLIMITED_RATE), "--pos-export", str(config.pos_incoming)]
    with sandbox_process(db_path=config.sandbox_db, extra_args=args) as base_url, \
            config.properties_in_use(base_url), closing(SandboxAdmin(base_url)) as admin:
        yield config, admin


def live_a_day(config: DemoConfig, admin: SandboxAdmin) -> str:
    """The demo's hotels live one more day in the sandbox (and its POS files are handed over
    for the next sync, as the demo's daily close does): the new business date."""
    business_date = admin.advance(1, [hotel.property_id for hotel in config.hotels])
    hand_over_the_day(config)
    return business_date


@dataclass
class HtmlTable:
    body: list[dict[str, str]] = field(default_factory=list)
    """The rows in order: data-col -> the cell's text."""
    total: dict[str, str] | None = None
    marked: set[str] = field(default_factory=set)
    """The data-row of the rows of class `look` (nights that need a look)."""


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, HtmlTable] = {}
        self._table: HtmlTable | None = None
        self._row: dict[str, str] | None = None
        self._col: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        got = dict(attrs)
        if tag == "table" and got.get("id"):
            self._table = self.tables.setdefault(str(got["id"]), HtmlTable())
        elif tag == "tr" and self._table is not None and got.get("data-row") is not None:
            self._row = {}
            if got["data-row"] == "total":
                self._table.total = self._row
            else:
                self._table.body.append(self._row)
            if got.get("class") == "look":
                self._table.marked.add(str(got["data-row"]))
        elif tag == "td" and self._row is not None:
            self._col, self._text = got.get("data-col"), []

    def handle_data(self, data: str) -> None:
        if self._col is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._row is not None and self._col:
            self._row[self._col] = "".join(self._text)
            self._col = None
        elif tag == "tr":
            self._row = None
        elif tag == "table":
            self._table = None


def tables(html: str) -> dict[str, HtmlTable]:
    parser = _Tables()
    parser.feed(html)
    return parser.tables


def chart_traces(html: str, container: str) -> dict[str, dict[str, Any]]:
    """The traces (by name) of the plotly chart inside the element of id `container`: the
    data its `Plotly.newPlot(id, data, layout, config)` call draws in the browser."""
    decoder = json.JSONDecoder()

    def skip(at: int, text: str = "") -> int:
        while html[at].isspace():
            at += 1
        assert html.startswith(text, at), html[at:at + 80]
        return at + len(text)

    call = html.index("Plotly.newPlot(", html.index(f'id="{container}"'))
    _, end = decoder.raw_decode(html, skip(skip(call, "Plotly.newPlot("), ""))  # its id
    data, _ = decoder.raw_decode(html, skip(skip(end, ","), ""))
    return {str(trace.get("name", "")): trace for trace in data}
