"""Who may open the app: anyone on this machine when it listens on loopback; bound to another
address, only a request carrying the token of PMSW_APP_TOKEN (compared in constant time by
`secrets.compare_digest`): `Authorization: Bearer TOKEN`, or once `?token=TOKEN` in the
address, which the app keeps in an HttpOnly cookie and removes from the address."""

from __future__ import annotations

import ipaddress
import os
import secrets

TOKEN_ENV = "PMSW_APP_TOKEN"
COOKIE = "pmsw_app_token"
MIN_TOKEN_LENGTH = 16


class AccessError(Exception):
    """The app cannot start so bound (one line naming the option or variable)."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def token_for(host: str) -> str | None:
    """The token requests must carry when bound to `host` (None on loopback)."""
    if is_loopback(host):
        return None
    token = os.environ.get(TOKEN_ENV, "")
    if len(token) < MIN_TOKEN_LENGTH:
        raise AccessError(f"--host {host} is not loopback: set {TOKEN_ENV} to a secret of at "
                          f"least {MIN_TOKEN_LENGTH} characters (e.g. `python -c 'import "
                          "secrets; print(secrets.token_urlsafe())'`)")
    return token


def allowed(expected: str, offered: str | None) -> bool:
    return offered is not None and secrets.compare_digest(offered.encode(), expected.encode())
