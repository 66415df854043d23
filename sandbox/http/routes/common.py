"""What every router shares: the error responses declared in the OpenAPI document."""

from __future__ import annotations

from typing import Any

from models.errors import ErrorBody

_ERROR = {"model": ErrorBody}

ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {**_ERROR, "description": "invalid_request: a parameter is missing or malformed"},
    401: {**_ERROR, "description": "unauthenticated, invalid_key or key_revoked"},
    402: {**_ERROR, "description": "subscription_expired"},
    403: {**_ERROR, "description": "insufficient_scope, api_disabled or account_suspended"},
    404: {**_ERROR, "description": "not_found (also records of another property)"},
    409: {**_ERROR, "description": "a conflict: duplicate_external_ref, room_unavailable, ..."},
    422: {**_ERROR, "description": "rule_violation or idempotency_mismatch"},
    423: {**_ERROR, "description": "read_only: the property is in its seasonal pause"},
    429: {**_ERROR, "description": "rate_limited: retry after Retry-After"},
    503: {**_ERROR, "description": "maintenance"},
}
