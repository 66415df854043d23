"""What the API v1 client raises:

* PmsError                         every error of this client
  x TransportError                 no usable answer came back (retries spent)
    + ApiConnectionError           could not connect, or the connection dropped mid-answer
    + ApiTimeoutError              no answer in time
  x ResponseValidationError        a 2xx body that is not the documented shape (names the field)
  x ApiStatusError                 the API answered an error; `.status`, `.code`, `.message`
    + BadRequestError              400 invalid_request
    + AuthenticationError          401 unauthenticated, invalid_key, key_revoked
    + PaymentRequiredError         402 subscription_expired
    + PermissionDeniedError        403 insufficient_scope, api_disabled, account_suspended
    + NotFoundError                404 not_found
    + ConflictError                409 (a business answer: never retried)
      - DuplicateExternalRefError  duplicate_external_ref; `.existing_reservation_id`
      - NightsToChargeError        nights_to_charge; `.nights_to_charge` (the detail)
    + UnprocessableError           422 rule_violation, idempotency_mismatch (never retried)
    + LockedError                  423 read_only (the property's seasonal pause)
    + RateLimitedError             429 rate_limited, still refused after every retry
    + ServerError                  5xx, still failing after every retry
  x WebhookSignatureError          a webhook delivery whose signature does not verify

`code` is the spec's stable error code (an `ErrorCode` when known, else the string the
server sent, so a code added within v1 never breaks the client). Messages and attributes
never hold the API key.
"""

from __future__ import annotations

from typing import Any

from models.errors import ErrorCode, NightsToChargeDetail

__all__ = [
    "ApiConnectionError",
    "ApiStatusError",
    "ApiTimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "DuplicateExternalRefError",
    "LockedError",
    "NightsToChargeError",
    "NotFoundError",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "PmsError",
    "RateLimitedError",
    "ResponseValidationError",
    "ServerError",
    "TransportError",
    "UnprocessableError",
    "WebhookSignatureError",
]


def _rebuild(cls: type[PmsError], args: tuple[Any, ...], state: dict[str, Any]) -> PmsError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class PmsError(Exception):
    """Base of every error raised by `PmsClient` and the webhook helpers."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only constructors: rebuild from the attributes (pickling across processes).
        return (_rebuild, (type(self), self.args, self.__dict__))


class TransportError(PmsError):
    """No usable HTTP answer: the request failed below HTTP, on every attempt."""

    def __init__(self, message: str, *, method: str, path: str, attempts: int) -> None:
        super().__init__(message)
        self.message = message
        self.method = method
        self.path = path
        self.attempts = attempts


class ApiConnectionError(TransportError):
    """Could not connect, or the connection dropped before the whole answer arrived."""


class ApiTimeoutError(TransportError):
    """The server did not answer within the client's timeout."""


class ResponseValidationError(PmsError):
    """A successful answer whose body does not match the model: names the field at fault."""

    def __init__(
        self,
        message: str,
        *,
        method: str,
        path: str,
        field: str,
        errors: list[tuple[str, str]] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.method = method
        self.path = path
        self.field = field
        self.errors: list[tuple[str, str]] = errors or [(field, message)]
        """Every (field, problem) found, the first one is `field`."""


class ApiStatusError(PmsError):
    """The API answered an error status with `{error: {code, message}}`."""

    def __init__(
        self,
        *,
        status: int,
        code: ErrorCode | str,
        message: str,
        method: str,
        path: str,
        field: str | None = None,
        body: dict[str, Any] | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.status = status
        self.code = code
        self.message = message
        self.method = method
        self.path = path
        self.field = field
        """The request field the server named, when it named one."""
        self.body: dict[str, Any] = body or {}
        """The whole `error` object as sent (extra fields included)."""
        self.retry_after = retry_after
        code_text = code.value if isinstance(code, ErrorCode) else code
        super().__init__(f"{status} {code_text}: {message} ({method} {path})")


class BadRequestError(ApiStatusError):
    """400 invalid_request: a parameter is missing or malformed (see `.field`)."""


class AuthenticationError(ApiStatusError):
    """401: no key, an unknown key or a revoked key."""


class PaymentRequiredError(ApiStatusError):
    """402 subscription_expired."""


class PermissionDeniedError(ApiStatusError):
    """403: the key lacks the scope, the API is off, or the account is suspended."""


class NotFoundError(ApiStatusError):
    """404: no such record, or a record of another property."""


class ConflictError(ApiStatusError):
    """409: the request conflicts with the state of a record. Never retried."""


class DuplicateExternalRefError(ConflictError):
    """409 duplicate_external_ref: a reservation with this external_ref already exists."""

    def __init__(self, *, existing_reservation_id: int | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.existing_reservation_id = existing_reservation_id


class NightsToChargeError(ConflictError):
    """409 nights_to_charge: repeat the check-out with `charge_remaining` true or false."""

    def __init__(self, *, nights_to_charge: NightsToChargeDetail | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.nights_to_charge = nights_to_charge


class UnprocessableError(ApiStatusError):
    """422: a business rule refused the change, or an Idempotency-Key reused with another body."""


class LockedError(ApiStatusError):
    """423 read_only: the property is in its seasonal pause; writes are refused."""


class RateLimitedError(ApiStatusError):
    """429 rate_limited after every retry was spent (`retry_after` holds the last wait asked)."""


class ServerError(ApiStatusError):
    """5xx (503 maintenance included) after every retry was spent."""


class WebhookSignatureError(PmsError):
    """A webhook delivery that must not be trusted: bad, missing, stale or future signature."""
