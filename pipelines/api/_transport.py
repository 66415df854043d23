"""One API call, end to end: rate limit, send, retry, and the answer or a typed error.

Every attempt takes a token from the shared bucket first and reports the server's
`X-RateLimit-Remaining` back to it. A write carries one Idempotency-Key for all its attempts.
Debug logs name method, path, status, attempt and wait; never the key, the query or a body.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

import httpx
from pydantic import ValidationError

from models.errors import ErrorCode, NightsToChargeDetail
from pipelines.api import _exceptions as exc
from pipelines.api._ratelimit import Permit, TokenBucket
from pipelines.api._retry import RetryPolicy, parse_retry_after
from pipelines.api._tls import tls_context

logger = logging.getLogger("pipelines.api")

WRITE_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})
USER_AGENT = "pms-warehouse-client/1.0"

_STATUS_ERRORS: dict[int, type[exc.ApiStatusError]] = {
    400: exc.BadRequestError,
    401: exc.AuthenticationError,
    402: exc.PaymentRequiredError,
    403: exc.PermissionDeniedError,
    404: exc.NotFoundError,
    409: exc.ConflictError,
    422: exc.UnprocessableError,
    423: exc.LockedError,
    429: exc.RateLimitedError,
}

Query = Mapping[str, str | int | None]


class _Secret:
    """The API key, kept out of every repr and str."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "'***'"

    __str__ = __repr__


class Transport:
    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        bucket: TokenBucket,
        retry: RetryPolicy,
        timeout: httpx.Timeout,
        http_client: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._key = _Secret(api_key)
        self.bucket = bucket
        self.retry = retry
        self._sleep = sleep
        self._own_client = http_client is None
        self._http = http_client or httpx.Client(
            timeout=timeout,
            verify=tls_context(),
            limits=httpx.Limits(max_connections=100, max_keepalive_connections=100),
            headers={"User-Agent": USER_AGENT, "Accept": "application/json"},
        )

    def __repr__(self) -> str:
        return f"Transport(base_url={self.base_url!r})"

    def close(self) -> None:
        if self._own_client:
            self._http.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Query | None = None,
        body: Any = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """Send `method path` until it succeeds or may not be retried; return the JSON body."""
        headers = {}
        if self._key.reveal():  # no key: the server answers 401 unauthenticated
            headers["Authorization"] = f"Bearer {self._key.reveal()}"
        if method in WRITE_METHODS:
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        query = {k: v for k, v in (params or {}).items() if v is not None}
        url = self.base_url + path
        attempt = 0
        while True:
            attempt += 1
            permit = self.bucket.acquire()
            try:
                response = self._http.request(method, url, params=query, json=body,
                                              headers=headers)
            except httpx.TimeoutException:
                failure: exc.PmsError = exc.ApiTimeoutError(
                    f"{method} {path}: no answer within the timeout",
                    method=method, path=path, attempts=attempt)
            except (httpx.NetworkError, httpx.RemoteProtocolError) as error:
                failure = exc.ApiConnectionError(
                    f"{method} {path}: connection failed: {type(error).__name__}",
                    method=method, path=path, attempts=attempt)
            except httpx.TransportError as error:  # a request that cannot be sent: no retry
                raise exc.ApiConnectionError(
                    f"{method} {path}: the request could not be sent: {type(error).__name__}",
                    method=method, path=path, attempts=attempt) from None
            else:
                self._observe(permit, response)
                status = response.status_code
                logger.debug("%s %s -> %d%s (attempt %d, rate-limit wait %.3fs)",
                             method, path, status,
                             " replayed" if response.headers.get("Idempotent-Replayed") else "",
                             attempt, permit.waited)
                if status < 300:
                    if status == 204 or not response.content:
                        return None
                    try:
                        return response.json()
                    except ValueError:
                        failure = exc.ResponseValidationError(
                            f"{method} {path}: the {status} answer is not valid JSON "
                            "(cut short?)", method=method, path=path, field="body")
                else:
                    error_ = _status_error(response, method, path)
                    if status == 429 and error_.retry_after is not None:
                        self.bucket.pause(error_.retry_after)
                    wait = self.retry.wait_for_status(status, error_.retry_after, attempt)
                    if wait is None:
                        raise error_
                    self._wait(method, path, f"status {status}", attempt, wait)
                    continue
            wait = self.retry.wait_for_failure(attempt)
            if wait is None:
                raise failure
            self._wait(method, path, type(failure).__name__, attempt, wait)

    def _observe(self, permit: Permit, response: httpx.Response) -> None:
        remaining = response.headers.get("X-RateLimit-Remaining")
        if remaining is not None and remaining.strip().isdigit():
            self.bucket.observe(permit, int(remaining))

    def _wait(self, method: str, path: str, why: str, attempt: int, wait: float) -> None:
        logger.debug("%s %s: %s; retrying in %.3fs (attempt %d of %d)",
                     method, path, why, wait, attempt, self.retry.max_attempts)
        self._sleep(wait)


def _status_error(response: httpx.Response, method: str, path: str) -> exc.ApiStatusError:
    """The typed error of an error answer, from `{error: {code, message, ...}}`."""
    status = response.status_code
    detail: dict[str, Any] = {}
    try:
        payload = response.json()
    except ValueError:
        payload = None
    if isinstance(payload, dict) and isinstance(payload.get("error"), dict):
        detail = payload["error"]
    raw_code = detail.get("code")
    if isinstance(raw_code, str) and raw_code:
        code: ErrorCode | str = _known_code(raw_code)
    elif status == 503:
        code = ErrorCode.MAINTENANCE  # spec, Errors: 503 has no code
    else:
        code = f"http_{status}"
    message = detail.get("message")
    if not isinstance(message, str):
        message = f"HTTP {status} without the API's error body"
    field = detail.get("field") if isinstance(detail.get("field"), str) else None
    common: dict[str, Any] = {
        "status": status, "code": code, "message": message, "method": method, "path": path,
        "field": field, "body": detail,
        "retry_after": parse_retry_after(response.headers.get("Retry-After")),
    }
    if code == ErrorCode.DUPLICATE_EXTERNAL_REF:
        existing = detail.get("reservation_id")
        return exc.DuplicateExternalRefError(
            existing_reservation_id=existing if isinstance(existing, int) else None, **common)
    if code == ErrorCode.NIGHTS_TO_CHARGE:
        raw = detail.get("nights_to_charge")
        try:
            nights = NightsToChargeDetail.model_validate(raw) if isinstance(raw, dict) else None
        except ValidationError:
            nights = None  # the code and message still say what happened
        return exc.NightsToChargeError(nights_to_charge=nights, **common)
    error_type = _STATUS_ERRORS.get(status)
    if error_type is None:
        error_type = exc.ServerError if status >= 500 else exc.ApiStatusError
    return error_type(**common)


def _known_code(raw: str) -> ErrorCode | str:
    try:
        return ErrorCode(raw)
    except ValueError:
        return raw
