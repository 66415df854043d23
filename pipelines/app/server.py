"""The web app's routes (FastAPI, pages rendered on the server by Jinja2). Every page reads
the read copy through `reads.reading` and shows reports as `pmsw report` builds them; every
address names its property and its dates (a request without them is redirected to the one
with the defaults filled in); nothing here writes."""

from __future__ import annotations

from datetime import timedelta
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.concurrency import run_in_threadpool

from pipelines.reports import SEGMENT_DIMENSIONS, render
from pipelines.vocabulary import counted

from . import access, params
from .cells import cell, numeric
from .charts import curve_chart, months_chart, pace_chart, pickup_chart, plotly_js
from .curve import booking_curve
from .errors import PageError
from .morning import morning
from .pages import PAGES, WORKLIST_STATES
from .reads import reading
from .resolve import resolve

MORNING_NIGHTS = 30
LONGEST_SPAN = 366
DOWNLOADS = {"csv": "text/csv; charset=utf-8",
             "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}


def _templates() -> Environment:
    env = Environment(loader=PackageLoader("pipelines.app", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters["cell"] = cell
    env.filters["counted"] = counted  # "1 night", "30 nights"
    env.tests["numeric"] = numeric
    return env


def _query(request: Request) -> dict[str, str]:
    return {k: v for k, v in request.query_params.items() if k != "token"}


def _canonical(request: Request, path: str, wanted: dict[str, str]) -> Response | None:
    """A redirect to `path?wanted` unless the request already asks exactly that."""
    if _query(request) == wanted:
        return None
    return RedirectResponse(f"{path}?{urlencode(wanted)}", status_code=303)


def create_app(warehouse: Path, token: str | None = None, finance: str | None = None
               ) -> FastAPI:
    """The app on the read copy of `warehouse`; with `token`, every page but /healthz wants it
    (or `finance`); with either, resolving wants `finance` (pipelines/app/access.py)."""
    app = FastAPI(title="pms-warehouse", docs_url=None, redoc_url=None, openapi_url=None)
    env = _templates()
    css = (files("pipelines.app") / "app.css").read_text()

    def page(template: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(template).render(**context), status_code=status)

    @app.exception_handler(PageError)
    async def page_error(request: Request, error: PageError) -> HTMLResponse:
        return page("error.html", error.status, title=f"Error {error.status}", prop=None,
                    properties=None, as_of=None, message=error.message)

    def admits(offered: str | None) -> bool:
        """`offered` is the app's token or the finance token."""
        return any(secret is not None and access.allowed(secret, offered)
                   for secret in (token, finance))

    @app.middleware("http")
    async def require_token(request: Request, call_next: Any) -> Response:
        header = request.headers.get("authorization", "")
        bearer = header[7:] if header.lower().startswith("bearer ") else None
        carried = bearer or request.cookies.get(access.COOKIE)
        request.state.may_resolve = access.resolve_refusal(token, finance, carried) is None
        if (token is None and finance is None) or request.url.path == "/healthz":
            response: Response = await call_next(request)
            return response
        offered = request.query_params.get("token")
        if offered is not None and admits(offered):
            rest = urlencode(_query(request))
            back = RedirectResponse(request.url.path + (f"?{rest}" if rest else ""), 303)
            back.set_cookie(access.COOKIE, offered, httponly=True, samesite="strict")
            return back
        if token is None or admits(bearer) or admits(request.cookies.get(access.COOKIE)):
            response = await call_next(request)
            return response
        return page("error.html", 401, title="Error 401", prop=None, properties=None,
                    as_of=None, message=f"this app wants its token ({access.TOKEN_ENV}): "
                                        "open it once with ?token=TOKEN")

    @app.get("/healthz", response_class=PlainTextResponse)
    def healthz() -> str:
        return "ok"

    @app.get("/static/plotly.min.js")
    def plotly() -> Response:
        return Response(plotly_js(), media_type="text/javascript",
                        headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/static/app.css")
    def stylesheet() -> Response:
        return Response(css, media_type="text/css")

    @app.get("/", response_class=HTMLResponse)
    def landing(request: Request) -> Response:
        q = _query(request)
        with reading(warehouse, q.get("property")) as reader:
            first = params.day(q, "from") or reader.prop.business_date
            last = params.day(q, "to") or first + timedelta(days=MORNING_NIGHTS - 1)
            params.span(first, last, LONGEST_SPAN)
            wanted = {"property": reader.prop.code, "from": first.isoformat(),
                      "to": last.isoformat()}
            moved = _canonical(request, "/", wanted)
            if moved is not None:
                return moved
            view = morning(reader, first, last)
            return page("morning.html", title="Morning", prop=reader.prop,
                        properties=reader.properties(), as_of=view.as_of, view=view,
                        pace_chart=pace_chart(view), pickup_chart=pickup_chart(view),
                        months_chart=months_chart(view.reports["forecast-months"]))

    @app.get("/curve", response_class=HTMLResponse)
    def curve_page(request: Request) -> Response:
        q = _query(request)
        with reading(warehouse, q.get("property")) as reader:
            night = params.day(q, "night") or reader.prop.business_date
            moved = _canonical(request, "/curve", {"property": reader.prop.code,
                                                   "night": night.isoformat()})
            if moved is not None:
                return moved
            curve = booking_curve(reader, night)
            return page("curve.html", title="Booking curve", prop=reader.prop,
                        properties=reader.properties(), as_of=reader.as_of(), night=night,
                        curve=curve, chart=curve_chart(curve))

    @app.get("/download/{name}.{fmt}")
    def download(request: Request, name: str, fmt: str) -> Response:
        if name not in PAGES or fmt not in DOWNLOADS:
            raise PageError(404, f"no download {name}.{fmt}: one of "
                                 f"{', '.join(sorted(PAGES))} as csv or xlsx")
        q = _query(request)
        with reading(warehouse, q.get("property")) as reader:
            ask = PAGES[name].ask(q, reader.prop)
            table = reader.report(ask.report, ask.first, ask.last, **ask.options)
            if fmt == "csv":
                data = (render(table, "csv") + "\n").encode()
            else:
                from pipelines.reports import render_xlsx  # openpyxl, on the first xlsx only

                data = render_xlsx(table, ask.report, reader.as_of(table))
            stem = "-".join([ask.report, reader.prop.code, *ask.address.values()])
            return Response(data, media_type=DOWNLOADS[fmt], headers={
                "Content-Disposition": f'attachment; filename="{stem}.{fmt}"'})

    @app.post("/worklist/resolve")
    async def resolve_page(request: Request) -> Response:
        origin = request.headers.get("origin")
        if origin and urlsplit(origin).netloc != request.headers.get("host"):
            raise PageError(403, f"a resolution is posted from this app's own pages, not "
                                 f"from {origin}")
        if not request.state.may_resolve:
            raise PageError(403, access.resolve_refusal(token, finance, None) or "")
        form = dict(parse_qsl((await request.body()).decode(), keep_blank_values=True))
        code = await run_in_threadpool(resolve, warehouse, form)
        return RedirectResponse(f"/worklist?{urlencode({'property': code, 'state': 'all'})}",
                                status_code=303)

    @app.get("/{name}", response_class=HTMLResponse)
    def report_page(request: Request, name: str) -> Response:
        if name not in PAGES:
            raise PageError(404, f"no page /{name}: the pages are /, "
                                 + ", ".join(f"/{p}" for p in PAGES))
        q = _query(request)
        with reading(warehouse, q.get("property")) as reader:
            ask = PAGES[name].ask(q, reader.prop)
            wanted = {"property": reader.prop.code, **ask.address}
            moved = _canonical(request, f"/{name}", wanted)
            if moved is not None:
                return moved
            table = reader.report(ask.report, ask.first, ask.last, **ask.options)
            return page("report.html", title=PAGES[name].title, prop=reader.prop,
                        properties=reader.properties(), as_of=reader.as_of(table),
                        report=table, name=ask.report, states=WORKLIST_STATES[1:],
                        resolvable=name == "worklist" and request.state.may_resolve,
                        address=ask.address,
                        dimensions=SEGMENT_DIMENSIONS if name == "segments" else (),
                        csv_url=f"/download/{name}.csv?{urlencode(wanted)}",
                        xlsx_url=f"/download/{name}.xlsx?{urlencode(wanted)}")

    return app
