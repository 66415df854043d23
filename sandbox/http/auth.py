"""API keys: reading the key off a request, and the spec's checks in the spec's order."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass

from models.errors import ErrorCode

from ..db import one
from ..errors import ApiError
from ..seed import hash_key


def key_from_headers(headers: Mapping[str, str]) -> str | None:
    """`Authorization: Bearer <key>`, or `X-API-Key: <key>` (spec, Authentication 1)."""
    authorization = headers.get("authorization", "")
    if authorization[:7].lower() == "bearer " and authorization[7:].strip():
        return authorization[7:].strip()
    key = headers.get("x-api-key", "").strip()
    return key or None


@dataclass(frozen=True)
class KeyRecord:
    key_id: int
    property_id: int
    scopes: frozenset[str]
    revoked: bool


def _read_key(conn: sqlite3.Connection, api_key: str) -> KeyRecord | None:
    row = one(
        conn,
        "SELECT id, property_id, scopes, revoked_at FROM api_keys WHERE key_hash = ?",
        hash_key(api_key),
    )
    if row is None:
        return None
    return KeyRecord(
        key_id=row["id"],
        property_id=row["property_id"],
        scopes=frozenset(json.loads(row["scopes"])),
        revoked=row["revoked_at"] is not None,
    )


class KeyStanding:
    """Each API key's record and its account's standing, read once and kept while the database
    is as it was: nothing written through the server's connection (its `total_changes`) and no
    commit by another (`PRAGMA data_version`); any write at all reads them again. So every
    call answers as the spec says for the database as it is, without reading the key and its
    account twice a call (the rate limit and idempotency read the key again)."""

    def __init__(self) -> None:
        self._version: tuple[int, int] = (-1, -1)
        self._known: dict[str, tuple[KeyRecord | None, tuple[bool, bool, bool] | None]] = {}

    def of(self, conn: sqlite3.Connection, api_key: str
           ) -> tuple[KeyRecord | None, tuple[bool, bool, bool] | None]:
        """The key's record (None: unknown) and its account's (subscription_expired,
        suspended, api_enabled)."""
        row = conn.execute("PRAGMA data_version").fetchone()
        version = (conn.total_changes, int(row[0]))
        if version != self._version:
            self._known.clear()
            self._version = version
        if api_key not in self._known:
            record = _read_key(conn, api_key)
            account = None if record is None else one(
                conn,
                "SELECT a.suspended, a.subscription_expired, p.api_enabled FROM properties p "
                "JOIN accounts a ON a.id = p.account_id WHERE p.id = ?",
                record.property_id,
            )
            self._known[api_key] = (record, None if account is None else (
                bool(account["subscription_expired"]), bool(account["suspended"]),
                bool(account["api_enabled"])))
        return self._known[api_key]


def authenticate(conn: sqlite3.Connection, headers: Mapping[str, str],
                 keys: KeyStanding) -> KeyRecord:
    """The key of the request, refused as the spec says (401, then 402/403 of the account)."""
    api_key = key_from_headers(headers)
    if api_key is None:
        raise ApiError(401, ErrorCode.UNAUTHENTICATED, "no API key: send Authorization: Bearer")
    record, account = keys.of(conn, api_key)
    if record is None:
        raise ApiError(401, ErrorCode.INVALID_KEY, "the API key is not known")
    if record.revoked:
        raise ApiError(401, ErrorCode.KEY_REVOKED, "the API key has been revoked")
    assert account is not None
    expired, suspended, api_enabled = account
    if expired:
        raise ApiError(402, ErrorCode.SUBSCRIPTION_EXPIRED, "the subscription has run out")
    if suspended:
        raise ApiError(403, ErrorCode.ACCOUNT_SUSPENDED, "the account is suspended")
    if not api_enabled:
        raise ApiError(403, ErrorCode.API_DISABLED, "the API is switched off for the property")
    return record
