"""The error body `{error: {code, message}}` and the extra fields the sandbox adds to it."""

from __future__ import annotations

from datetime import date
from enum import StrEnum

from pydantic import ConfigDict

from .common import Num, Resource


class ErrorCode(StrEnum):
    INVALID_REQUEST = "invalid_request"
    UNAUTHENTICATED = "unauthenticated"
    INVALID_KEY = "invalid_key"
    KEY_REVOKED = "key_revoked"
    SUBSCRIPTION_EXPIRED = "subscription_expired"
    API_DISABLED = "api_disabled"
    INSUFFICIENT_SCOPE = "insufficient_scope"
    ACCOUNT_SUSPENDED = "account_suspended"
    NOT_FOUND = "not_found"
    DUPLICATE_EXTERNAL_REF = "duplicate_external_ref"
    ROOM_UNAVAILABLE = "room_unavailable"
    OPEN_FOLIOS = "open_folios"
    NIGHTS_TO_CHARGE = "nights_to_charge"
    RULE_VIOLATION = "rule_violation"
    IDEMPOTENCY_MISMATCH = "idempotency_mismatch"
    READ_ONLY = "read_only"
    RATE_LIMITED = "rate_limited"
    MAINTENANCE = "maintenance"


class RoomNightsToCharge(Resource):
    room_id: int
    room: str
    nights: int
    dates: list[date]
    amount: Num


class NightsToChargeDetail(Resource):
    rooms: list[RoomNightsToCharge]
    nights: int
    dates: list[date]
    amount: Num


class ErrorDetail(Resource):
    model_config = ConfigDict(extra="allow")

    code: str
    message: str
    field: str | None = None
    """The request field an `invalid_request` or `rule_violation` is about, when there is one."""
    reservation_id: int | None = None
    """With `duplicate_external_ref`: the reservation already made (a choice of this sandbox)."""
    nights_to_charge: NightsToChargeDetail | None = None
    """With `nights_to_charge`: what remains to be charged."""


class ErrorBody(Resource):
    error: ErrorDetail
