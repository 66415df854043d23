"""`pmsw app`: the revenue manager's morning page and the controller's desk in a browser
(issue 50; docs/app.md). Pages read the read copy through the report registry, so each figure
is the one `pmsw report` prints."""

from .access import TOKEN_ENV, AccessError, is_loopback, token_for
from .command import app as app_command
from .server import create_app

__all__ = ["TOKEN_ENV", "AccessError", "app_command", "create_app", "is_loopback", "token_for"]
