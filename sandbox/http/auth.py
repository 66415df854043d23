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


def find_key(conn: sqlite3.Connection, api_key: str) -> KeyRecord | None:
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


def authenticate(conn: sqlite3.Connection, headers: Mapping[str, str]) -> KeyRecord:
    """The key of the request, refused as the spec says (401, then 402/403 of the account)."""
    api_key = key_from_headers(headers)
    if api_key is None:
        raise ApiError(401, ErrorCode.UNAUTHENTICATED, "no API key: send Authorization: Bearer")
    record = find_key(conn, api_key)
    if record is None:
        raise ApiError(401, ErrorCode.INVALID_KEY, "the API key is not known")
    if record.revoked:
        raise ApiError(401, ErrorCode.KEY_REVOKED, "the API key has been revoked")
    account = one(
        conn,
        "SELECT a.suspended, a.subscription_expired, p.api_enabled FROM properties p "
        "JOIN accounts a ON a.id = p.account_id WHERE p.id = ?",
        record.property_id,
    )
    assert account is not None
    if account["subscription_expired"]:
        raise ApiError(402, ErrorCode.SUBSCRIPTION_EXPIRED, "the subscription has run out")
    if account["suspended"]:
        raise ApiError(403, ErrorCode.ACCOUNT_SUSPENDED, "the account is suspended")
    if not account["api_enabled"]:
        raise ApiError(403, ErrorCode.API_DISABLED, "the API is switched off for the property")
    return record
