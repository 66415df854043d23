"""API errors of the sandbox: one exception type, rendered as `{error: {code, message, ...}}`."""

from __future__ import annotations

from typing import Any

from models.errors import ErrorCode


class ApiError(Exception):
    """A refusal the API answers with `status` and the spec's stable `code`.

    `field` names the request field at fault; `extra` adds documented fields to the error body
    (e.g. `reservation_id` of `duplicate_external_ref`).
    """

    def __init__(
        self,
        status: int,
        code: ErrorCode,
        message: str,
        *,
        field: str | None = None,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers or {}
        self.extra = extra

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code.value, "message": self.message}
        if self.field is not None:
            error["field"] = self.field
        error.update(self.extra)
        return {"error": error}


def invalid_request(message: str, field: str | None = None) -> ApiError:
    return ApiError(400, ErrorCode.INVALID_REQUEST, message, field=field)


def not_found(what: str) -> ApiError:
    return ApiError(404, ErrorCode.NOT_FOUND, f"{what} not found")


def rule_violation(message: str, field: str | None = None) -> ApiError:
    return ApiError(422, ErrorCode.RULE_VIOLATION, message, field=field)


def conflict(code: ErrorCode, message: str, **extra: Any) -> ApiError:
    return ApiError(409, code, message, **extra)
