"""`pmsw app`: the revenue manager's morning page and the controller's desk in a browser
(issue 50; docs/app.md). Pages read the read copy through the report registry, so each figure
is the one `pmsw report` prints."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .access import TOKEN_ENV, AccessError, is_loopback, token_for
from .command import app as app_command

if TYPE_CHECKING:
    from fastapi import FastAPI


def create_app(warehouse: Path, token: str | None = None,
               finance: str | None = None) -> FastAPI:
    """The app on the read copy of `warehouse` (pipelines/app/server.py). Its web stack is
    imported here, when an app is made: `pmsw` loads this package for its `app` command."""
    from .server import create_app as make

    return make(warehouse, token, finance)

__all__ = ["TOKEN_ENV", "AccessError", "app_command", "create_app", "is_loopback", "token_for"]
