"""`pmsw app` as a real process on 127.0.0.1 over the demo's warehouse: each page's figures
are the figures of `pmsw report X --format json` for the same property and dates, cell by
cell to the cent; the downloads are the files the reports write; bad input is one line on
the page and writes nothing; another host needs the token; one headless Chromium renders every
page with the reports' figures, and the charts (issue 50, docs/app.md)."""

from __future__ import annotations

import html
import io
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from fastapi import FastAPI
from openpyxl import load_workbook

from pipelines.app import create_app
from pipelines.cli import main
from sandbox.http.server import serving_app
from tests.chromium import browser
from tests.demo_warehouse import REPO
from tests.report_json import report_json as report
from tests.stored_rows import stored_rows

from .conftest import (
    HtmlTable,
    chart_traces,
    demo_sandbox,
    live_a_day,
    running_app,
    tables,
)

CODE = "ROMA01"


def report_file(warehouse: Path, out: Path, *args: str) -> bytes:
    """The file `pmsw report ... -o FILE` writes."""
    result = CliRunner().invoke(main, ["report", *args, "--warehouse", str(warehouse),
                                       "-o", str(out)])
    assert result.exit_code == 0, result.output + result.stderr
    return out.read_bytes()


def business_date(warehouse: Path) -> date:
    sql = "SELECT business_date FROM core.property WHERE code = ?"
    found: date = stored_rows(warehouse.with_suffix(".read.duckdb"), sql, [CODE])[0][0]
    return found


def same(text: str, value: Any) -> bool:
    """A cell's text shows the JSON value: a number equal to the cent, or the same text."""
    if value is None or value == "":
        return text == ""
    if isinstance(value, bool):
        return text == ("yes" if value else "no")
    if isinstance(value, (int, float)):
        return Decimal(text.replace(",", "")) == Decimal(str(value))
    return text == str(value)


def assert_rows(table: HtmlTable, out: dict[str, Any], columns: dict[str, str] | None = None
                ) -> None:
    """Every row and the total of the report `out` on the page's table, in order; `columns`
    maps the page's column to the report's (default: the report's own names)."""
    columns = columns or {c: c for c in out["columns"]}
    assert len(table.body) == len(out["rows"]), (len(table.body), len(out["rows"]))
    for shown, row in zip(table.body, out["rows"], strict=True):
        for page_col, col in columns.items():
            assert same(shown[page_col], row[col]), (page_col, shown[page_col], row)
    if out["total"] is None:
        assert table.total is None
    else:
        assert table.total is not None
        for page_col, col in columns.items():
            assert same(table.total[page_col], out["total"][col]), (page_col, table.total)


def page(url: str) -> httpx.Response:
    response = httpx.get(url, timeout=60)
    assert response.status_code == 200, response.text[-2000:]
    return response


def test_the_morning_page_is_the_reports_night_by_night(app_url: str, warehouse: Path
                                                        ) -> None:
    bd = business_date(warehouse)
    first, last = bd, bd + timedelta(days=29)
    moved = httpx.get(f"{app_url}/?property={CODE.lower()}", timeout=60)
    assert moved.status_code == 303
    assert moved.headers["location"] == f"/?property={CODE}&from={first}&to={last}"
    text = page(app_url + moved.headers["location"]).text
    assert f"business date {bd}" in text
    assert f"as of {bd - timedelta(days=1)} (closed)" in text
    shown = tables(text)
    nights = shown["nights"]
    assert f'<a href="/curve?property={CODE}&amp;night={first}">{first}</a>' in text
    dates = ["--property", CODE, "--from", str(first), "--to", str(last)]
    pace = report(warehouse, "pace", *dates)
    assert len(pace["rows"]) == 30
    assert pace["total"]["rooms_otb"] > 0
    assert_rows(nights, pace, {c: c for c in (
        "stay_date", "weekday", "rooms_otb", "stly_rooms_otb", "ly_actual_rooms_sold",
        "revenue_otb_net", "stly_revenue_otb_net", "ly_actual_room_revenue_net")})
    for window in (1, 7, 30):
        assert_rows(nights, report(warehouse, "pickup", *dates, "--window", str(window)),
                    {"stay_date": "stay_date", f"rooms_net_{window}d": "rooms_net"})
    assert_rows(nights, report(warehouse, "forecast", *dates), {
        "stay_date": "stay_date", "rooms_forecast": "rooms_forecast", "rooms_low": "rooms_low",
        "rooms_high": "rooms_high", "adr_forecast_net": "adr_forecast_net"})
    assert_rows(nights, report(warehouse, "occupancy", *dates),
                {"stay_date": "stay_date", "adr_otb_net": "adr_net"})
    alerts = report(warehouse, "alerts", *dates)
    # an alert is a stretch of nights: each of them is marked
    assert nights.marked == {
        str(date.fromisoformat(row["first_night"]) + timedelta(days=k))
        for row in alerts["rows"] for k in range(row["alert_nights"])}
    assert_rows(shown["alerts"], alerts)
    months = report(warehouse, "forecast-months", "--property", CODE)
    assert_rows(shown["months"], months)
    # the month view: the business date's month and the 11 after it, each shown or named in
    # the report's title as not shown (the forecast does not reach its end)
    twelve = [f"{bd.year + (bd.month - 1 + i) // 12}-{(bd.month - 1 + i) % 12 + 1:02d}"
              for i in range(12)]
    labels = [row["month"] for row in months["rows"]]
    # each month stands on its own nights: a far month with a year back can be shown after
    # months held by the books alone (docs/flash.md, "The months ahead")
    assert labels == [month for month in twelve if month in labels]
    assert all(month in months["report"] for month in twelve if month not in labels)
    assert months["total"]["rooms_expected"] > 0
    traces = chart_traces(text, "months-chart")  # the chart draws the report's figures
    banded = any(row.get(band) is not None for row in months["rows"]
                 for band in ("rooms_expected_low", "rooms_expected_high"))
    expected = "expected (with its band)" if banded else "expected"  # charts.months_chart
    for name, column in (("closed nights (actual)", "rooms_actual"),
                         ("on the books", "rooms_otb"), (expected, "rooms_expected"),
                         ("budget", "budget_rooms_sold"),
                         ("same month last year", "last_year_rooms_sold")):
        assert traces[name]["x"] == labels
        assert [None if y is None else Decimal(str(y)) for y in traces[name]["y"]] == [
            None if row[column] is None else Decimal(str(row[column]))
            for row in months["rows"]], name


def test_the_flash_and_forecast_accuracy_are_the_reports(app_url: str, warehouse: Path
                                                        ) -> None:
    closed = business_date(warehouse) - timedelta(days=1)
    moved = httpx.get(f"{app_url}/flash?property={CODE}", timeout=60)
    assert moved.headers["location"] == f"/flash?property={CODE}&date={closed}"
    flash = report(warehouse, "flash", "--property", CODE, "--date", str(closed))
    assert flash["rows"][0]["day"] > 0  # rooms sold that day: a figure to compare
    assert_rows(tables(page(app_url + moved.headers["location"]).text)["report"], flash)
    accuracy = report(warehouse, "forecast-accuracy", "--property", CODE)
    assert_rows(tables(page(f"{app_url}/forecast-accuracy?property={CODE}").text)["report"],
                accuracy)


def test_a_night_and_a_month_by_each_dimension_are_the_segments_report(
        app_url: str, warehouse: Path) -> None:
    closed = business_date(warehouse) - timedelta(days=1)
    moved = httpx.get(f"{app_url}/segments?property={CODE}", timeout=60)
    assert moved.headers["location"] == f"/segments?property={CODE}&by=channel&date={closed}"
    first = closed.replace(day=1)
    last = (first + timedelta(days=31)).replace(day=1) - timedelta(days=1)
    for by in ("market", "channel", "room_type", "rate_plan"):
        night = report(warehouse, "segments", "--property", CODE, "--by", by,
                       "--from", str(closed), "--to", str(closed))
        assert night["total"]["rooms_sold"] > 0  # the hotel sold rooms that night
        shown = page(f"{app_url}/segments?property={CODE}&by={by}&date={closed}").text
        assert_rows(tables(shown)["report"], night)
    for by in ("market", "room_type"):
        month = report(warehouse, "segments", "--property", CODE, "--by", by,
                       "--from", str(first), "--to", str(last))
        shown = page(f"{app_url}/segments?property={CODE}&by={by}&month={first:%Y-%m}").text
        assert_rows(tables(shown)["report"], month)
        # a month sells at least the closed night's rooms, by any dimension
        assert month["total"]["rooms_sold"] >= night["total"]["rooms_sold"]


def test_the_booking_curve_of_a_night_is_the_pace_report_day_by_day(
        app_url: str, warehouse: Path) -> None:
    closed = business_date(warehouse) - timedelta(days=1)
    night = closed - timedelta(days=3)  # a past night: its curve runs to the night itself
    moved = httpx.get(f"{app_url}/curve?property={CODE}", timeout=60)
    assert moved.headers["location"] == f"/curve?property={CODE}&night={business_date(warehouse)}"
    curve = tables(page(f"{app_url}/curve?property={CODE}&night={night}").text)["curve"]
    assert len(curve.body) >= 2, "a night of the demo has snapshots on several days"
    assert curve.body[-1]["as_of"] == str(night)  # the curve reaches the night itself
    for point in curve.body:  # days before = the night - the snapshot's day, by definition
        as_of = date.fromisoformat(point["as_of"])
        assert int(point["days_before"]) == (night - as_of).days
    rooms = [int(point["rooms_otb"]) for point in curve.body]
    assert rooms[-1] > 0
    for point in curve.body[::7] + curve.body[-1:]:
        pace = report(warehouse, "pace", "--property", CODE, "--from", str(night), "--to",
                      str(night), "--as-of", point["as_of"])
        assert len(pace["rows"]) == 1, pace
        for column, text in point.items():
            if column != "as_of":
                assert same(text, pace["rows"][0][column]), (column, text, pace["rows"][0])


def test_the_desk_pages_and_downloads_are_the_reports(app_url: str, warehouse: Path,
                                                      tmp_path: Path) -> None:
    closed = business_date(warehouse) - timedelta(days=1)
    month = f"{closed:%Y-%m}"
    desk = [("worklist", "state=open", ["--state", "open"]),
            ("tieout", f"date={closed}", ["--date", str(closed)]),
            ("ledger", "by=folio", ["--by", "folio"]),
            ("city-tax", f"month={month}", ["--month", month])]
    rows: dict[str, int] = {}
    for name, query, args in desk:
        url = f"{app_url}/{name}?property={CODE}&{query}"
        out = report(warehouse, name, "--property", CODE, *args)
        assert_rows(tables(page(url).text)["report"], out)
        rows[name] = len(out["rows"])
        download = f"{app_url}/download/{name}.%s?property={CODE}&{query}"
        assert page(download % "csv").content == report_file(
            warehouse, tmp_path / f"{name}.csv", name, "--property", CODE, *args,
            "--format", "csv")
        got = load_workbook(io.BytesIO(page(download % "xlsx").content)).active
        want = load_workbook(io.BytesIO(report_file(
            warehouse, tmp_path / f"{name}.xlsx", name, "--property", CODE, *args,
            "--format", "xlsx"))).active
        assert got is not None
        assert want is not None
        assert list(got.values) == list(want.values)
    # figures to compare: the tie-out's departments, the open folios, the month's return
    assert rows["tieout"] >= 3
    assert rows["ledger"] > 0
    assert rows["city-tax"] == 1


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    """The warehouse's files (the writer's, its WAL, the read copy): size and time written."""
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.glob("warehouse*") if p.is_file()}


@pytest.mark.parametrize(("address", "status", "says"), [
    ("/?property=NOPE", 404, "unknown property 'NOPE': the warehouse holds ROMA01"),
    (f"/?property={CODE}&from=2026-13-01", 400, "from='2026-13-01' is not a date"),
    (f"/?property={CODE}&from=2026-11-10&to=2026-11-01", 400,
     "from=2026-11-10 is after to=2026-11-01"),
    ("/", 400, "several properties: add ?property=CODE"),
    (f"/flash?property={CODE}&date=2026-02-30", 400, "date='2026-02-30' is not a date"),
    (f"/flash?property={CODE}&date=2099-01-01", 400,
     "--date 2099-01-01: the flash is of a closed business date"),
    (f"/worklist?property={CODE}&state=lost", 400, "state='lost' is not one of all, open"),
    (f"/city-tax?property={CODE}&month=2026-8x", 400, "month='2026-8x' is not a month"),
    (f"/download/ledger.pdf?property={CODE}", 404, "no download ledger.pdf"),
    (f"/budget?property={CODE}", 404, "no page /budget"),
])
def test_bad_input_is_one_line_on_the_page_and_writes_nothing(
        app_url: str, warehouse: Path, address: str, status: int, says: str) -> None:
    before = _files(warehouse.parent)
    response = httpx.get(app_url + address, timeout=60)
    assert response.status_code == status
    [line] = re.findall(r'<p class="error" id="error">(.*?)</p>', response.text)
    assert says in html.unescape(line)
    assert _files(warehouse.parent) == before


def test_another_host_needs_a_token(warehouse: Path) -> None:
    refused = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "app", "--host", "0.0.0.0", "--warehouse",
         str(warehouse)], cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
        env={k: v for k, v in os.environ.items() if k != "PMSW_APP_TOKEN"})
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [
        "Error: --host 0.0.0.0 is not loopback: set PMSW_APP_TOKEN to a secret of at least "
        "16 characters (e.g. `python -c 'import secrets; print(secrets.token_urlsafe())'`)"]


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """`app` served by uvicorn on 127.0.0.1 in a thread, stopped after: its base address."""
    with serving_app(app) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture
def guarded(warehouse: Path) -> Iterator[str]:
    """The app with a token."""
    with serving(create_app(warehouse, "s3cret-token-0123456789")) as url:
        yield url


def test_the_token_is_asked_for_and_kept_in_a_cookie(guarded: str) -> None:
    address = f"{guarded}/forecast-accuracy?property={CODE}"
    assert httpx.get(address, timeout=60).status_code == 401
    assert httpx.get(address, headers={"Authorization": "Bearer wrong-token-0123456789"},
                     timeout=60).status_code == 401
    assert httpx.get(address, headers={"Authorization": "Bearer s3cret-token-0123456789"},
                     timeout=60).status_code == 200
    with httpx.Client(base_url=guarded, timeout=60) as browser:
        moved = browser.get(f"/forecast-accuracy?property={CODE}&token=s3cret-token-0123456789")
        assert moved.status_code == 303
        assert moved.headers["location"] == f"/forecast-accuracy?property={CODE}"
        assert browser.get(moved.headers["location"]).status_code == 200


CHARTS_DRAWN = ("[...document.querySelectorAll('.chart')]"
                ".every(chart => chart.querySelector('.main-svg') !== null)")
"""The page's plotly charts are drawn (plotly.js, served by the app, made their SVG)."""


@pytest.mark.slow
def test_chromium_renders_every_page_with_the_reports_figures(
        app_url: str, warehouse: Path, tmp_path: Path) -> None:
    """One headless Chromium loads each page the app serves; the tables of its rendered DOM
    are the CLI reports' for the same property and dates, every cell to the cent."""
    bd = business_date(warehouse)
    closed = bd - timedelta(days=1)
    last = bd + timedelta(days=29)
    month = f"{closed:%Y-%m}"
    first_day = closed.replace(day=1)
    month_end = (first_day + timedelta(days=31)).replace(day=1) - timedelta(days=1)
    night = closed - timedelta(days=3)
    rows: dict[str, int] = {}
    with browser(tmp_path / "profile") as chromium:
        def shown(path: str, table: str, out: dict[str, Any],
                  columns: dict[str, str] | None = None, ready: str = "true") -> str:
            dom = chromium.dom(f"{app_url}{path}", ready)
            assert_rows(tables(dom)[table], out, columns)
            rows[path] = len(out["rows"])
            return dom

        dates = ["--property", CODE, "--from", str(bd), "--to", str(last)]
        pace = report(warehouse, "pace", *dates)
        morning = shown(f"/?property={CODE}&from={bd}&to={last}", "nights", pace, {
            c: c for c in ("stay_date", "rooms_otb", "revenue_otb_net", "stly_rooms_otb",
                           "ly_actual_room_revenue_net")}, ready=CHARTS_DRAWN)
        assert pace["total"]["revenue_otb_net"] > 0  # a figure in euros, to the cent
        assert_rows(tables(morning)["months"],
                    report(warehouse, "forecast-months", "--property", CODE))
        assert morning.count('class="main-svg"') >= 2  # the pace and pickup charts drawn
        assert 'class="main-svg"' in morning.split('id="months-chart"')[1]  # the months too
        flash = report(warehouse, "flash", "--property", CODE, "--date", str(closed))
        assert flash["rows"][0]["day"] > 0
        shown(f"/flash?property={CODE}&date={closed}", "report", flash)
        shown(f"/forecast-accuracy?property={CODE}", "report",
              report(warehouse, "forecast-accuracy", "--property", CODE))
        shown(f"/segments?property={CODE}&by=channel&date={closed}", "report",
              report(warehouse, "segments", "--property", CODE, "--by", "channel", "--from",
                     str(closed), "--to", str(closed)))
        shown(f"/segments?property={CODE}&by=room_type&month={month}", "report",
              report(warehouse, "segments", "--property", CODE, "--by", "room_type",
                     "--from", str(first_day), "--to", str(month_end)))
        curve = tables(chromium.dom(f"{app_url}/curve?property={CODE}&night={night}",
                                    CHARTS_DRAWN))["curve"]
        assert curve.body[-1]["as_of"] == str(night)  # the curve reaches the night itself
        on_the_night = report(warehouse, "pace", "--property", CODE, "--from", str(night),
                              "--to", str(night), "--as-of", str(night))["rows"][0]
        for column, text in curve.body[-1].items():
            if column != "as_of":
                assert same(text, on_the_night[column]), (column, text, on_the_night)
        for name, query, args in (("worklist", "state=open", ["--state", "open"]),
                                  ("tieout", f"date={closed}", ["--date", str(closed)]),
                                  ("ledger", "by=folio", ["--by", "folio"]),
                                  ("city-tax", f"month={month}", ["--month", month])):
            shown(f"/{name}?property={CODE}&{query}", "report",
                  report(warehouse, name, "--property", CODE, *args))
    # every page but the worklist (open items, if any) had rows to compare
    assert all(count > 0 for path, count in rows.items() if "worklist" not in path), rows


def _worklist_to_resolve(warehouse: Path, tmp_path: Path) -> tuple[Path, Any]:
    """A copy of the demo's warehouse (the others read it; a resolve writes) after the dry run
    of FIRE01's two last closed weeks (`pmsw reconcile`), and its open worklist, not empty."""
    copy = tmp_path / "warehouse.duckdb"
    shutil.copy(warehouse, copy)
    shutil.copy(warehouse.with_suffix(".read.duckdb"), copy.with_suffix(".read.duckdb"))
    closed = business_date(copy) - timedelta(days=1)
    ran = CliRunner().invoke(main, ["reconcile", "--property", "FIRE01", "--from",
                                    str(closed - timedelta(days=13)), "--to", str(closed),
                                    "--warehouse", str(copy)])
    assert ran.exit_code == 0, ran.output
    before = report(copy, "worklist", "--property", "FIRE01", "--state", "open")
    assert before["rows"], "two weeks of FIRE01 left no charge that cannot be posted"
    return copy, before


def test_a_resolution_from_the_worklist_page_shows_in_pmsw_report_worklist(
        warehouse: Path, tmp_path: Path) -> None:
    """On a copy of the demo's warehouse (the others read it; this one writes): the dry run
    of two closed weeks of FIRE01 (`pmsw reconcile`) leaves charges that cannot be posted;
    one is resolved through the page's form and `pmsw report worklist` shows it; a bad
    state and a post from another site are refused and write nothing."""
    copy, before = _worklist_to_resolve(warehouse, tmp_path)
    item = before["rows"][0]["item"]
    form = {"property": "fire01", "item": item, "state": "written_off",
            "note": "guest left, <b>two</b> coffees", "by": "anna"}
    with running_app(copy, tmp_path / "app.log") as url:
        worklist = page(f"{url}/worklist?property=FIRE01&state=all").text
        assert f"<option>{item}</option>" in worklist
        for bad, says in (({**form, "state": "lost"}, "unknown state 'lost'"),
                          ({**form, "note": " "}, "note is empty")):
            files = _files(tmp_path)
            refused = httpx.post(f"{url}/worklist/resolve", data=bad, timeout=60)
            assert refused.status_code == 400
            [line] = re.findall(r'<p class="error" id="error">(.*?)</p>', refused.text)
            assert says in html.unescape(line)
            assert _files(tmp_path) == files
        refused = httpx.post(f"{url}/worklist/resolve", data=form, timeout=60,
                             headers={"Origin": "http://elsewhere.example"})
        assert refused.status_code == 403
        assert report(copy, "worklist", "--property", "FIRE01", "--state", "open") == before
        done = httpx.post(f"{url}/worklist/resolve", data=form, timeout=120)
        assert done.status_code == 303
        assert done.headers["location"] == "/worklist?property=FIRE01&state=all"
        shown = page(url + done.headers["location"]).text
    after = report(copy, "worklist", "--property", "FIRE01", "--state", "all")
    [row] = [r for r in after["rows"] if r["item"] == item]
    assert (row["state"], row["resolved_by"], row["resolution_note"]) == (
        "written_off", "anna", "guest left, <b>two</b> coffees")
    assert "guest left, &lt;b&gt;two&lt;/b&gt; coffees" in shown  # escaped on the page
    still_open = report(copy, "worklist", "--property", "FIRE01", "--state", "open")
    assert len(still_open["rows"]) == len(before["rows"]) - 1


VIEWER, FINANCE = "viewer-token-0123456789", "finance-token-0123456789"


def test_only_the_finance_token_may_resolve(warehouse: Path, tmp_path: Path) -> None:
    """With a token configured, a resolution needs the finance token (PMSW_APP_FINANCE_TOKEN):
    the app's token reads every page but is refused (403, one line) and writes nothing; with
    no finance token configured nobody resolves from the app; the finance token resolves."""
    copy, before = _worklist_to_resolve(warehouse, tmp_path)
    form = {"property": "FIRE01", "item": before["rows"][0]["item"], "state": "credited",
            "note": "credited on the guest's card", "by": "marco"}
    viewer = {"Authorization": f"Bearer {VIEWER}"}
    finance = {"Authorization": f"Bearer {FINANCE}"}
    with serving(create_app(copy, VIEWER, FINANCE)) as url:
        listed = httpx.get(f"{url}/worklist?property=FIRE01&state=all", headers=viewer,
                           timeout=60)
        assert listed.status_code == 200
        assert '<form class="resolve"' not in listed.text  # no form for a viewer: a note
        assert 'id="no-resolve"' in listed.text
        files = _files(tmp_path)
        for headers, status in ((viewer, 403), ({}, 401)):
            refused = httpx.post(f"{url}/worklist/resolve", data=form, headers=headers,
                                 timeout=60)
            assert refused.status_code == status
        [line] = re.findall(r'<p class="error" id="error">(.*?)</p>', httpx.post(
            f"{url}/worklist/resolve", data=form, headers=viewer, timeout=60).text)
        assert html.unescape(line) == (
            "resolving needs the finance role: open the app with the finance token "
            "(PMSW_APP_FINANCE_TOKEN) once, ?token=FINANCE_TOKEN")
        assert _files(tmp_path) == files
        assert report(copy, "worklist", "--property", "FIRE01", "--state", "open") == before
        desk = httpx.get(f"{url}/worklist?property=FIRE01&state=all", headers=finance,
                         timeout=60)
        assert '<form class="resolve"' in desk.text
        done = httpx.post(f"{url}/worklist/resolve", data=form, headers=finance, timeout=120)
        assert done.status_code == 303
    with serving(create_app(copy, VIEWER)) as url:  # a token and no finance token
        refused = httpx.post(f"{url}/worklist/resolve", data=form, headers=viewer, timeout=60)
        assert refused.status_code == 403
        assert "PMSW_APP_FINANCE_TOKEN" in refused.text
    after = report(copy, "worklist", "--property", "FIRE01", "--state", "open")
    assert len(after["rows"]) == len(before["rows"]) - 1
    same_secret = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "app", "--host", "0.0.0.0", "--warehouse",
         str(copy)], cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "PMSW_APP_TOKEN": VIEWER, "PMSW_APP_FINANCE_TOKEN": VIEWER})
    assert same_secret.returncode == 1
    assert same_secret.stderr.strip().splitlines() == [
        "Error: PMSW_APP_FINANCE_TOKEN equals PMSW_APP_TOKEN: the finance token must be a "
        "secret of its own"]


PACE_COLUMNS = ("stay_date", "rooms_otb", "revenue_otb_net", "stly_rooms_otb")


def _polled(writer: list[str], ask: Callable[[], HtmlTable]) -> list[HtmlTable]:
    """`pmsw WRITER...` as another process; `ask()` (a page, which must answer 200) again and
    again while it runs, then once more after it ended: the tables each answer held."""
    process = subprocess.Popen([sys.executable, "-m", "pipelines.cli", *writer], cwd=REPO,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    answers = []
    while process.poll() is None:
        answers.append(ask())
    output = process.communicate()[0].decode()
    assert process.returncode == 0, f"pmsw {' '.join(writer)}: {output}"
    assert len(answers) >= 1, f"pmsw {' '.join(writer)} ended before the app was asked"
    return [*answers, ask()]


def _is(shown: HtmlTable, out: dict[str, Any]) -> bool:
    """The page's nights table shows the pace report `out` (PACE_COLUMNS, row by row)."""
    try:
        assert_rows(shown, out, {c: c for c in PACE_COLUMNS})
    except AssertionError:
        return False
    return True


@pytest.mark.verify
def test_pages_answer_while_writers_run_and_show_their_figures_once_published(
        warehouse: Path, tmp_path: Path) -> None:
    """On a copy of the demo's warehouse and of its sandbox, while the app serves pages, the
    writers of a day run as other processes, one after the other, as the demo runs them: the
    hotels live a day, `pmsw sync` lands it (marts built, the read copy published when it
    ends), `pmsw reconcile --close` closes it for ROMA01, then `pmsw reconcile` of FIRE01's two
    last weeks. Every page asked meanwhile answers 200: the morning page with the figures of
    `pmsw report pace` before the sync or after it (never another), the flash with the
    figures `pmsw report flash` prints, the worklist with those of before or (once published)
    after the reconciliation; afterwards each page shows the writers' figures, which differ
    from those before."""
    copy = tmp_path / "warehouse.duckdb"
    shutil.copy(warehouse, copy)
    shutil.copy(warehouse.with_suffix(".read.duckdb"), copy.with_suffix(".read.duckdb"))
    bd = business_date(copy)
    closed = bd - timedelta(days=1)
    nights = ["--property", CODE, "--from", str(bd), "--to", str(bd + timedelta(days=29))]
    before = report(copy, "pace", *nights)
    morning = f"/?property={CODE}&from={bd}&to={bd + timedelta(days=29)}"
    with demo_sandbox(warehouse, copy) as (config, admin), \
            running_app(copy, tmp_path / "app.log") as url:
        def ask_morning() -> HtmlTable:
            return tables(page(url + morning).text)["nights"]

        assert _is(ask_morning(), before)
        assert live_a_day(config, admin) == str(bd + timedelta(days=1))
        synced = _polled(["sync", "--no-progress", "--warehouse", str(copy)], ask_morning)
        after = report(copy, "pace", *nights)
        assert after["as_of"] != before["as_of"]  # pace stands on the day just closed
        assert [after["total"][c] for c in PACE_COLUMNS[1:]] != [
            before["total"][c] for c in PACE_COLUMNS[1:]], "a day changed no figure"
        assert all(_is(shown, before) or _is(shown, after) for shown in synced)
        assert _is(synced[-1], after)
        closing = _polled(["reconcile", "--close", "--property", CODE, "--warehouse",
                           str(copy)], ask_morning)
        assert all(_is(shown, after) for shown in closing)

        flash = report(copy, "flash", "--property", CODE, "--date", str(closed))
        listed = ("worklist", "--property", "FIRE01", "--state", "all")
        worklist_before = report(copy, *listed)

        def ask_desk() -> HtmlTable:
            assert_rows(tables(page(f"{url}/flash?property={CODE}&date={closed}").text)[
                "report"], flash)
            return tables(page(f"{url}/worklist?property=FIRE01&state=all").text)["report"]

        seen = _polled(["reconcile", "--property", "FIRE01", "--from",
                        str(closed - timedelta(days=13)), "--to", str(closed), "--warehouse",
                        str(copy)], ask_desk)
        worklist_after = report(copy, *listed)
        assert len(worklist_after["rows"]) > len(worklist_before["rows"]), \
            "the reconciliation added no item"
        for shown in seen:
            assert len(shown.body) in (len(worklist_before["rows"]), len(worklist_after["rows"]))
            assert_rows(shown, worklist_before if len(shown.body) == len(
                worklist_before["rows"]) else worklist_after)
        assert_rows(seen[-1], worklist_after)
