"""FastAPI dependencies: the state of the server and the authenticated context of a call
(a `Ctx`, context.py).

Every route and dependency of the sandbox is `async def`: the domain runs synchronously on
the event loop over one SQLite connection, so two requests never interleave inside a
transaction.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from fastapi import Request

from models.common import Scope
from models.errors import ErrorCode

from ..context import Ctx
from ..db import one
from ..errors import ApiError
from .auth import authenticate
from .state import ServerState


def get_state(request: Request) -> ServerState:
    state: ServerState = request.app.state.sandbox
    return state


WRITE_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})


def _reads_only(scope: Scope | None) -> bool:
    """POST /quotes is a POST under a `:read` scope: it books nothing, so a pause lets it be
    (its row in the spec lists no 423, unlike every write of the property)."""
    return scope is not None and scope.value.endswith(":read")


def access(request: Request, scope: Scope | None) -> Ctx:
    """Authenticate, check `scope` (None: any valid key), refuse writes when paused."""
    state = get_state(request)
    record = authenticate(state.conn, request.headers, state.keys)
    if scope is not None and scope.value not in record.scopes:
        raise ApiError(
            403, ErrorCode.INSUFFICIENT_SCOPE, f"the API key lacks the scope {scope.value}"
        )
    if request.method in WRITE_METHODS and not _reads_only(scope):
        paused = one(state.conn, "SELECT read_only FROM properties WHERE id = ?",
                     record.property_id)
        if paused is not None and paused["read_only"]:
            raise ApiError(423, ErrorCode.READ_ONLY,
                           "the property is in its seasonal pause: read only")
    return Ctx(
        conn=state.conn,
        clock=state.clock,
        state=state,
        property_id=record.property_id,
        key_id=record.key_id,
        scopes=record.scopes,
    )


@dataclass(frozen=True)
class Require:
    """The dependency `require(scope)` gives: it keeps its scope so that the handler of a
    malformed request can run the same checks first (app.py, `_validation_error`)."""

    scope: Scope | None

    async def __call__(self, request: Request) -> Ctx:
        return access(request, self.scope)


def require(scope: Scope | None) -> Callable[[Request], Awaitable[Ctx]]:
    """Dependency: authenticate, check `scope` (None: any valid key), refuse writes when paused."""
    return Require(scope)
