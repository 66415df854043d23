"""The server answers over real HTTP with the spec's error envelope (spec, Errors)."""

from __future__ import annotations

import httpx


def test_unknown_path_answers_the_error_envelope(api: httpx.Client) -> None:
    response = api.get("/no-such-endpoint")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert set(response.json()["error"]) >= {"code", "message"}
