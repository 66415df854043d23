"""Routes of API v1: guests."""

from __future__ import annotations

from fastapi import APIRouter

from .common import ERROR_RESPONSES

router = APIRouter(responses=ERROR_RESPONSES)
