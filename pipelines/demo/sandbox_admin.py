"""The sandbox's admin endpoints the demo uses (`/_sandbox`, served with `--admin`), over HTTP,
and the hand-off of the POS ledger files the simulated POS writes."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import httpx

from pipelines.demo.config import DemoError


class SandboxAdmin:
    def __init__(self, base_url: str) -> None:
        self.root = base_url.removesuffix("/v1")
        self._http = httpx.Client(base_url=f"{self.root}/_sandbox", timeout=600)

    def close(self) -> None:
        self._http.close()

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self._http.post(path, json=body)
        if response.status_code != 200:
            raise DemoError(f"sandbox {path}: HTTP {response.status_code} {response.text}")
        data: dict[str, Any] = response.json()
        return data

    def levels(self, property_id: int, first: date,
               last: date) -> tuple[int, list[tuple[date, float]]]:
        """The simulator's seed and its level of each night `first`..`last` of the hotel
        (GET /_sandbox/levels: its demand before the night's own noise)."""
        response = self._http.get("/levels", params={
            "property_id": property_id, "first": first.isoformat(), "last": last.isoformat()})
        if response.status_code != 200:
            raise DemoError(f"sandbox /levels: HTTP {response.status_code} {response.text}")
        body = response.json()
        return int(body["seed"]), [(date.fromisoformat(row["night"]), float(row["rooms"]))
                                   for row in body["levels"]]

    def advance(self, days: int, property_ids: list[int]) -> str:
        """Play `days` more days of the same simulation; the new business date."""
        return str(self._post("/advance", {"days": days,
                                           "property_ids": property_ids})["business_date"])


def hand_over_pos_files(incoming: Path, pos_root: Path, codes: list[str]) -> int:
    """Move `pos-<CODE>-<date>.csv` files into `pos_root/<CODE>/` (one folder per property,
    as the ingestion reads them); the number moved."""
    moved = 0
    for path in sorted(incoming.glob("pos-*.csv")):
        code = next((c for c in codes if path.name.startswith(f"pos-{c}-")), None)
        if code is None:
            continue
        path.replace(pos_root / code / path.name)
        moved += 1
    return moved
