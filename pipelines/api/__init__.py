"""The typed client of the PMS public API v1 (docs/client.md).

    from pipelines.api import PmsClient
    with PmsClient("http://127.0.0.1:8000/v1", api_key) as pms:
        for reservation in pms.iter_reservations(updated_since=cursor):
            ...
"""

from pipelines.api._client import API_KEY_ENV, PmsClient, ReservationFilters
from pipelines.api._exceptions import (
    ApiConnectionError,
    ApiStatusError,
    ApiTimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    DuplicateExternalRefError,
    LockedError,
    NightsToChargeError,
    NotFoundError,
    PaymentRequiredError,
    PermissionDeniedError,
    PmsError,
    RateLimitedError,
    ResponseValidationError,
    ServerError,
    TransportError,
    UnprocessableError,
    WebhookSignatureError,
)
from pipelines.api._meter import CallMeter
from pipelines.api._paging import ReservationStream
from pipelines.api._parsing import InvalidRecord
from pipelines.api._ratelimit import DEFAULT_BURST, DEFAULT_RATE_PER_MINUTE, TokenBucket
from pipelines.api._receiver import WebhookReceiver
from pipelines.api._retry import RetryPolicy
from pipelines.api._webhooks import parse_webhook, sign, verify_signature

__all__ = [
    "API_KEY_ENV",
    "DEFAULT_BURST",
    "DEFAULT_RATE_PER_MINUTE",
    "ApiConnectionError",
    "ApiStatusError",
    "ApiTimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "CallMeter",
    "ConflictError",
    "DuplicateExternalRefError",
    "InvalidRecord",
    "LockedError",
    "NightsToChargeError",
    "NotFoundError",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "PmsClient",
    "PmsError",
    "RateLimitedError",
    "ReservationFilters",
    "ReservationStream",
    "ResponseValidationError",
    "RetryPolicy",
    "ServerError",
    "TokenBucket",
    "TransportError",
    "UnprocessableError",
    "WebhookReceiver",
    "WebhookSignatureError",
    "parse_webhook",
    "sign",
    "verify_signature",
]
