"""Apply mode: post each missing charge on the open folio of its room entry, exactly once.

Per reservation holding a charge to post:
1. its folios are read again from the API (the warehouse may be behind: a line posted since
   the last sync, by the PMS, a person or a run that died before writing its results, is
   found and the charge is `matched`, not posted again); statuses are recomputed on them;
2. each charge still missing is posted with `item_id`, `reservation_room_id`, `quantity`,
   `unit_price`, `posted_on` and its description (which names the source reference), under
   its deterministic Idempotency-Key: a retry, a crashed run started again or a second run
   at the same time gets the first answer replayed instead of a second line;
3. the folio is read once more and the charge is `posted` only if its line is there.

An API refusal is kept on the charge (`failed` with the error code), a closed or suspended
folio makes it `blocked`; one failure never stops the others.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import polars as pl

from models import ChargeInput, Folio
from pipelines.api import (
    ApiStatusError,
    ApiTimeoutError,
    PmsClient,
    PmsError,
    TransportError,
    UnprocessableError,
)
from pipelines.recon.live import folio_frames
from pipelines.recon.logic import BLOCKED, FAILED, MISSING, POSTED, postable
from pipelines.recon.logic.matching import match
from pipelines.recon.logic.outcome import folio_targets, outcome
from pipelines.recon.logic.reconcile import room_lines

log = logging.getLogger(__name__)

UPDATE_COLUMNS = ("status", "folio_id", "target_folio_id", "folio_line_id", "posted_cents",
                  "posted_quantity_milli", "reason", "error_code", "reason_code")


@dataclass
class ApplyStats:
    reservations: int = 0
    posts: int = 0
    """POST calls that answered 201 (a replayed answer included)."""


def error_code(error: PmsError) -> str:
    """The spec's code of an API answer, else the kind of failure."""
    if isinstance(error, ApiStatusError):
        code = error.code
        return str(getattr(code, "value", code)) if code else f"http_{error.status}"
    if isinstance(error, ApiTimeoutError):
        return "timeout"
    if isinstance(error, TransportError):
        return "connection_error"
    return type(error).__name__


def _charge(row: dict[str, Any]) -> ChargeInput:
    return ChargeInput(
        item_id=row["item_id"], reservation_room_id=row["reservation_room_id"],
        quantity=Decimal(row["quantity_milli"]) / 1000,
        unit_price=Decimal(row["unit_cents"]) / 100, posted_on=row["business_date"],
        description=row["description"])


def _find_line(folio: Folio, row: dict[str, Any]) -> tuple[int, int, int] | None:
    """(line id, total cents, quantity milli) of the line this charge posted, if present."""
    found = [ln for ln in folio.lines
             if ln.description == row["description"] and ln.service_item_id == row["item_id"]
             and ln.posted_on == row["business_date"] and ln.reversal_of is None
             and ln.quantity * 1000 == row["quantity_milli"]]
    if not found:
        return None
    line = min(found, key=lambda ln: ln.id)
    return line.id, int(line.total * 100), int(line.quantity * 1000)


class Applier:
    """Posts the postable charges of one property's results through `client`."""

    def __init__(self, client: PmsClient, property_id: int, stays: pl.DataFrame) -> None:
        self.client = client
        self.property_id = property_id
        self.stays = stays
        self.stats = ApplyStats()

    def apply(self, results: pl.DataFrame,
              sources: Collection[str] | None = None) -> pl.DataFrame:
        """The results with the outcome of every charge posted (or found meanwhile);
        `sources` (e.g. pos, rule:city_tax) limits the posts to those kinds, the others stay
        missing for a person (the daily close's auto-apply policy)."""
        todo = postable(results)
        if sources is not None:
            todo = todo.filter(pl.col("source").is_in(list(sources)))
        updates: list[dict[str, Any]] = []
        for reservation_id in sorted(set(todo["reservation_id"].to_list())):
            self.stats.reservations += 1
            scope = results.filter(pl.col("reservation_id") == reservation_id)
            wanted = set(todo.filter(pl.col("reservation_id") == reservation_id)["key"])
            updates.extend(self._reservation(reservation_id, scope, wanted))
        if not updates:
            return results
        changed = pl.DataFrame(updates, schema={
            "key": pl.String, "status": pl.String, "folio_id": pl.Int64,
            "target_folio_id": pl.Int64, "folio_line_id": pl.Int64, "posted_cents": pl.Int64,
            "posted_quantity_milli": pl.Int64, "reason": pl.String, "error_code": pl.String,
            "reason_code": pl.String})
        return results.update(changed, on="key", include_nulls=True)

    def _reservation(self, reservation_id: int, scope: pl.DataFrame,
                     wanted: set[str]) -> list[dict[str, Any]]:
        try:
            folios = self.client.list_folios(reservation_id)
        except PmsError as error:
            return [_update(key, FAILED, reason=f"folios of reservation {reservation_id} "
                            f"not read: {error}", code=error_code(error)) for key in wanted]
        fresh = self._recompute(scope, folios).filter(pl.col("key").is_in(list(wanted)))
        updates: list[dict[str, Any]] = []
        posted_on: dict[int, list[dict[str, Any]]] = {}
        for row in fresh.iter_rows(named=True):
            if row["status"] != MISSING:
                # Found on the folio since the warehouse was synced, or now blocked.
                updates.append({name: row[name] for name in ("key", *UPDATE_COLUMNS)})
                continue
            folio_id = int(row["target_folio_id"])
            try:
                self.client.post_charge(folio_id, _charge(row),
                                        idempotency_key=row["idempotency_key"])
                self.stats.posts += 1
                posted_on.setdefault(folio_id, []).append(row)
            except UnprocessableError as error:
                updates.append(self._refused(folio_id, row, error))
            except PmsError as error:
                updates.append(_update(row["key"], FAILED, folio=folio_id,
                                       reason=f"post on folio {folio_id} failed: {error}",
                                       code=error_code(error)))
        for folio_id, rows in posted_on.items():
            updates.extend(self._confirm(folio_id, rows))
        return updates

    def _recompute(self, scope: pl.DataFrame, folios: list[Folio]) -> pl.DataFrame:
        """Statuses of the reservation's charges against its folios as the API shows them."""
        folio_frame, line_frame = folio_frames(self.property_id, folios, self.stays)
        expected = scope.select(
            "property_id", "reservation_id", "reservation_room_id", "business_date",
            "item_code", "item_id", "source", "source_ref", "description", "quantity_milli",
            "unit_cents", "expected_cents", "compare_amount", "repost", "key",
            "idempotency_key")
        lines = room_lines(line_frame, self.stays)
        return outcome(match(expected, lines), self.stays,
                       folio_targets(self.stays, folio_frame, lines))

    def _refused(self, folio_id: int, row: dict[str, Any],
                 error: UnprocessableError) -> dict[str, Any]:
        """A 422: blocked when the folio is no longer open, else failed with the code."""
        try:
            folio = self.client.get_folio(folio_id)
        except PmsError:
            folio = None
        if folio is not None and folio.status.value != "open":
            return _update(row["key"], BLOCKED, folio=folio_id,
                           reason=f"folio {folio_id} is {folio.status.value}: a person must "
                                  "post the charge on another folio or reopen it")
        return _update(row["key"], FAILED, folio=folio_id,
                       reason=f"post on folio {folio_id} refused: {error}",
                       code=error_code(error))

    def _confirm(self, folio_id: int, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        try:
            folio = self.client.get_folio(folio_id)
        except PmsError as error:
            return [_update(row["key"], FAILED, folio=folio_id,
                            reason=f"posted, but folio {folio_id} could not be read again: "
                                   f"{error}", code=error_code(error)) for row in rows]
        updates = []
        for row in rows:
            line = _find_line(folio, row)
            if line is None:
                updates.append(_update(row["key"], FAILED, folio=folio_id,
                                       reason=f"posted, but the line is not on folio "
                                              f"{folio_id} when read again",
                                       code="not_confirmed"))
            else:
                updates.append(_update(row["key"], POSTED, folio=folio_id, line=line))
        return updates


def _update(key: str, status: str, *, folio: int | None = None,
            line: tuple[int, int, int] | None = None, reason: str | None = None,
            code: str | None = None) -> dict[str, Any]:
    return {"key": key, "status": status, "folio_id": folio if line else None,
            "target_folio_id": folio, "folio_line_id": line[0] if line else None,
            "posted_cents": line[1] if line else None,
            "posted_quantity_milli": line[2] if line else None, "reason": reason,
            "error_code": code, "reason_code": None}
