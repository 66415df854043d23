"""The guest archive: records of guests, companies and agencies (bookers are records too)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

from models.common import Party, PartyKind
from models.guests import Guest

from ..db import insert, one, ts, update
from ..errors import not_found, rule_violation


def display_name(kind: str, fields: dict[str, Any]) -> str:
    """`company_name` for companies and agencies, else "first last"."""
    if kind != PartyKind.PRIVATE.value and fields.get("company_name"):
        return str(fields["company_name"])
    parts = [fields.get("first_name") or "", fields.get("last_name") or ""]
    name = " ".join(part for part in parts if part).strip()
    return name or str(fields.get("company_name") or "")


def create_guest(
    conn: sqlite3.Connection, property_id: int, fields: dict[str, Any], now: datetime
) -> int:
    """Create an archive record from GuestInput-like fields (JSON-ready values).

    A record needs a name: `last_name` or `first_name` for a private guest, `company_name`
    for a company or agency.
    """
    kind = fields.get("kind") or PartyKind.PRIVATE.value
    stored = {k: v for k, v in fields.items() if v is not None and k != "kind"}
    name = display_name(kind, stored)
    if not name:
        field = "last_name" if kind == PartyKind.PRIVATE.value else "company_name"
        raise rule_violation(f"a {kind} guest needs a name: send {field}", field=field)
    return insert(conn, "guests", {
        "property_id": property_id, "kind": kind, "display_name": name,
        "fields": json.dumps(stored, sort_keys=True), "created_at": ts(now),
        "updated_at": ts(now),
    })


def update_guest(
    conn: sqlite3.Connection, property_id: int, guest_id: int, changes: dict[str, Any],
    now: datetime,
) -> None:
    """Change only the fields sent (spec, PATCH /guests/{id}); None clears a field."""
    row = guest_row(conn, property_id, guest_id)
    stored: dict[str, Any] = json.loads(row["fields"])
    kind = changes.get("kind") or row["kind"]
    for key, value in changes.items():
        if key == "kind":
            continue
        if value is None:
            stored.pop(key, None)
        else:
            stored[key] = value
    name = display_name(kind, stored)
    if not name:
        raise rule_violation("the guest would be left without a name", field="last_name")
    update(conn, "guests", guest_id, {
        "kind": kind, "display_name": name, "fields": json.dumps(stored, sort_keys=True),
        "updated_at": ts(now),
    })


def guest_row(conn: sqlite3.Connection, property_id: int, guest_id: int) -> sqlite3.Row:
    row = one(conn, "SELECT * FROM guests WHERE id = ? AND property_id = ?", guest_id, property_id)
    if row is None:
        raise not_found(f"guest {guest_id}")
    return row


def guest_exists(conn: sqlite3.Connection, property_id: int, guest_id: int) -> bool:
    return one(conn, "SELECT 1 FROM guests WHERE id = ? AND property_id = ?",
               guest_id, property_id) is not None


def guest_model(row: sqlite3.Row) -> Guest:
    fields: dict[str, Any] = json.loads(row["fields"])
    return Guest.model_validate({
        **fields, "id": row["id"], "kind": row["kind"], "display_name": row["display_name"],
    })


def party_model(conn: sqlite3.Connection, guest_id: int | None) -> Party | None:
    """The booker or billing party of a reservation, as the spec's small Party shape."""
    if guest_id is None:
        return None
    row = one(conn, "SELECT * FROM guests WHERE id = ?", guest_id)
    if row is None:
        return None
    fields: dict[str, Any] = json.loads(row["fields"])
    return Party(id=row["id"], kind=PartyKind(row["kind"]), name=row["display_name"],
                 email=fields.get("email") or "", phone=fields.get("phone") or "")
