"""Checks shared by creation and head PATCH: classifications, parties, external_ref."""

from __future__ import annotations

import sqlite3

from models.errors import ErrorCode

from ..db import all_rows, one
from ..errors import conflict, rule_violation
from .guests import guest_exists

KINDS = ("source", "channel", "market")


def check_classifications(conn: sqlite3.Connection, property_id: int,
                          values: dict[str, str | None], *, creating: bool) -> None:
    """Spec, Creation rules 4: values of GET /classifications; `required` ones must be sent.

    On creation every kind is checked; on PATCH only the kinds sent (`values` keys).
    """
    prop = one(conn, "SELECT required_source, required_channel, required_market FROM properties "
               "WHERE id = ?", property_id)
    assert prop is not None
    for kind in KINDS:
        if not creating and kind not in values:
            continue
        value = values.get(kind) or ""
        if not value:
            if prop[f"required_{kind}"]:
                raise rule_violation(f"{kind} is required by the property", field=kind)
            continue
        allowed = [row["value"] for row in all_rows(
            conn, "SELECT value FROM classifications WHERE property_id = ? AND kind = ? "
            "ORDER BY sort", property_id, kind)]
        if value not in allowed:
            raise rule_violation(
                f"{kind} {value!r} is not a value of GET /classifications ({', '.join(allowed)})",
                field=kind)


def check_party(conn: sqlite3.Connection, property_id: int, party_id: int, field: str) -> None:
    if not guest_exists(conn, property_id, party_id):
        raise rule_violation(f"party {party_id} is not in the archive of the property",
                             field=field)


def check_external_ref(conn: sqlite3.Connection, property_id: int, external_ref: str,
                       reservation_id: int | None = None) -> None:
    """Spec, Creation rules 6: 409 `duplicate_external_ref` carrying `reservation_id`."""
    if not external_ref:
        return
    row = one(conn, "SELECT id FROM reservations WHERE property_id = ? AND external_ref = ? "
              "AND id IS NOT ?", property_id, external_ref, reservation_id)
    if row is not None:
        raise conflict(ErrorCode.DUPLICATE_EXTERNAL_REF,
                       f"reservation {row['id']} already has external_ref {external_ref!r}",
                       reservation_id=row["id"])
