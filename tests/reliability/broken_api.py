"""A real HTTP server on 127.0.0.1 that answers like the API with one record broken.

It forwards every request to a running sandbox (method, path, query, headers, body) and
returns the sandbox's answer, headers included (`Date`, `X-RateLimit-*`), except that the
JSON of one answer passes through `corrupt` first: a test breaks one field of one record
there (a field left out, an enum value the spec does not list) and the pipeline reads it over
HTTP through its own client, as it would read a PMS that misbehaves. Not a mock of our client.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from sandbox.http.server import serving_app

Corrupt = Callable[[str, str, Any], bool]
"""(method, path under the base URL, parsed JSON body) -> whether it changed the body."""

HOP_HEADERS = frozenset({"content-length", "content-encoding", "transfer-encoding",
                         "connection", "keep-alive", "host"})


class BrokenApi:
    """The proxy's state: where it forwards to, and how many answers it broke."""

    def __init__(self, upstream_base_url: str, corrupt: Corrupt) -> None:
        self.upstream = upstream_base_url.rstrip("/")
        self.corrupt = corrupt
        self.broken = 0
        self.base_url = ""
        """Set once serving: `http://127.0.0.1:<port>/v1`."""

    def app(self) -> Starlette:
        async def forward(request: Request) -> Response:
            path = "/" + request.path_params["path"]
            headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_HEADERS}
            async with httpx.AsyncClient(timeout=60) as client:
                answer = await client.request(
                    request.method, self.upstream + path, params=request.query_params,
                    headers=headers, content=await request.body())
            content = answer.content
            if answer.headers.get("content-type", "").startswith("application/json"):
                body = json.loads(content)
                if self.corrupt(request.method, path, body):
                    self.broken += 1
                    content = json.dumps(body).encode("utf-8")
            kept = {k: v for k, v in answer.headers.items() if k.lower() not in HOP_HEADERS}
            return Response(content, status_code=answer.status_code, headers=kept)

        methods = ["GET", "POST", "PATCH", "PUT", "DELETE"]
        return Starlette(routes=[Route("/v1/{path:path}", forward, methods=methods)])


@contextmanager
def serving(api: BrokenApi) -> Iterator[BrokenApi]:
    """Serve the proxy on a free loopback port until the block ends."""
    with serving_app(api.app(), lifespan="off", access_log=False, date_header=False,
                     server_header=False) as port:  # the sandbox's own Date is forwarded
        api.base_url = f"http://127.0.0.1:{port}/v1"
        yield api
