"""Who may open the app: anyone on this machine when it listens on loopback; bound to another
address, only a request carrying the token of PMSW_APP_TOKEN (compared in constant time by
`secrets.compare_digest`): `Authorization: Bearer TOKEN`, or once `?token=TOKEN` in the
address, which the app keeps in an HttpOnly cookie and removes from the address.

Resolving a worklist item writes, so it is the finance role's: once the app is guarded (by
PMSW_APP_TOKEN, or by PMSW_APP_FINANCE_TOKEN alone on loopback), only a request carrying the
finance token (PMSW_APP_FINANCE_TOKEN, the same ways) may POST a resolution; the finance token
opens every page too. Unguarded (loopback, neither set), anyone on this machine may resolve."""

from __future__ import annotations

import ipaddress
import os
import secrets

TOKEN_ENV = "PMSW_APP_TOKEN"
FINANCE_TOKEN_ENV = "PMSW_APP_FINANCE_TOKEN"
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


def finance_token_for(token: str | None) -> str | None:
    """The finance token of PMSW_APP_FINANCE_TOKEN (None when unset); refused when shorter
    than the minimum or equal to the app's token (the roles would be one)."""
    finance = os.environ.get(FINANCE_TOKEN_ENV, "")
    if not finance:
        return None
    if len(finance) < MIN_TOKEN_LENGTH:
        raise AccessError(f"{FINANCE_TOKEN_ENV} is shorter than {MIN_TOKEN_LENGTH} characters")
    if token is not None and secrets.compare_digest(finance.encode(), token.encode()):
        raise AccessError(f"{FINANCE_TOKEN_ENV} equals {TOKEN_ENV}: the finance token must "
                          "be a secret of its own")
    return finance


def resolve_refusal(token: str | None, finance: str | None, offered: str | None) -> str | None:
    """Why the request carrying `offered` may not resolve a worklist item (None: it may)."""
    if token is None and finance is None:
        return None
    if finance is None:
        return (f"resolving needs the finance role: this app was started with {TOKEN_ENV} "
                f"and no {FINANCE_TOKEN_ENV}, so nobody may resolve from it (use `pmsw "
                "reconcile resolve`)")
    if allowed(finance, offered):
        return None
    return (f"resolving needs the finance role: open the app with the finance token "
            f"({FINANCE_TOKEN_ENV}) once, ?token=FINANCE_TOKEN")
