"""The guest archive: records of guests, companies and agencies (bookers are records too).

The spec's archive "is shared by a group of hotels"; in the sandbox each property is its own
group, so a property sees only its own records (docs/sandbox.md, "Guests").
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

from models.common import Party, PartyKind
from models.guests import Guest

from ..db import all_rows, insert, one, ts, update
from ..errors import invalid_request, not_found, rule_violation
from .countries import is_country_code

COUNTRY_FIELDS = ("birth_country", "nationality", "country_code", "doc_issue_country")
"""GuestInput fields that hold an ISO 3166-1 alpha-2 code."""
READ_ONLY_FIELDS = frozenset({"id", "display_name"})
"""Fields of the record that a client cannot set; sent as extras, they are ignored."""


def display_name(kind: str, fields: dict[str, Any]) -> str:
    """`company_name` for companies and agencies, else "first last"."""
    if kind != PartyKind.PRIVATE.value and fields.get("company_name"):
        return str(fields["company_name"])
    parts = [fields.get("first_name") or "", fields.get("last_name") or ""]
    name = " ".join(part for part in parts if part).strip()
    return name or str(fields.get("company_name") or "")


def check_countries(fields: dict[str, Any], field_prefix: str = "") -> None:
    """Refuse a country code that ISO 3166-1 does not assign: 400 naming the field."""
    for field in COUNTRY_FIELDS:
        value = fields.get(field)
        if value is not None and not (isinstance(value, str) and is_country_code(value)):
            raise invalid_request(
                f"{field_prefix}{field}: {value!r} is not an ISO 3166-1 alpha-2 country code",
                field=f"{field_prefix}{field}")


def create_guest(
    conn: sqlite3.Connection, property_id: int, fields: dict[str, Any], now: datetime,
    *, field_prefix: str = "",
) -> int:
    """Create an archive record from GuestInput-like fields (JSON-ready values).

    A record needs a name: `last_name` or `first_name` for a private guest, `company_name`
    for a company or agency. Country fields must hold assigned ISO codes; `field_prefix`
    names where the fields sit in the caller's body (e.g. "new_party.").
    """
    check_countries(fields, field_prefix)
    kind = fields.get("kind") or PartyKind.PRIVATE.value
    stored = {k: v for k, v in fields.items()
              if v is not None and k != "kind" and k not in READ_ONLY_FIELDS}
    name = display_name(kind, stored)
    if not name:
        field = "last_name" if kind == PartyKind.PRIVATE.value else "company_name"
        raise rule_violation(f"a {kind} guest needs a name: send {field}",
                             field=f"{field_prefix}{field}")
    return insert(conn, "guests", {
        "property_id": property_id, "kind": kind, "display_name": name,
        "fields": json.dumps(stored, sort_keys=True), "created_at": ts(now),
        "updated_at": ts(now),
    })


def update_guest(
    conn: sqlite3.Connection, property_id: int, guest_id: int, changes: dict[str, Any],
    now: datetime,
) -> None:
    """Change only the fields sent (spec, PATCH /guests/{id}); None clears a field.

    `kind` cannot be cleared: a null `kind` keeps the current one.
    """
    row = guest_row(conn, property_id, guest_id)
    check_countries(changes)
    stored: dict[str, Any] = json.loads(row["fields"])
    kind = changes.get("kind") or row["kind"]
    for key, value in changes.items():
        if key == "kind" or key in READ_ONLY_FIELDS:
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
    row = one(
        conn, "SELECT * FROM guests WHERE id = ? AND property_id = ?", guest_id, property_id)
    if row is None:
        raise not_found(f"guest {guest_id}")
    return row


def guest_exists(conn: sqlite3.Connection, property_id: int, guest_id: int) -> bool:
    return one(
        conn, "SELECT 1 FROM guests WHERE id = ? AND property_id = ?", guest_id, property_id
    ) is not None


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


SEARCH_FIELDS = ("first_name", "last_name", "company_name", "email", "phone", "mobile",
                 "doc_number")
PHONE_CHARS = frozenset("0123456789 +-./()")
MIN_PHONE_DIGITS = 3


def _fold(text: str) -> str:
    return text.casefold()


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def _matcher(q: str) -> Any:
    """`q` matches when every word of it is part of the name, e-mail, phone or document
    number (case-insensitive), or, for a phone-like `q`, when its digits are part of the
    digits of the phone or mobile (so "06 1234" finds "+39 061234567")."""
    words = [_fold(word) for word in q.split()]
    digits = _digits(q) if set(q) <= PHONE_CHARS else ""

    def match(text: str | None, phones: str | None) -> int:
        folded = _fold(text or "")
        if words and all(word in folded for word in words):
            return 1
        return int(len(digits) >= MIN_PHONE_DIGITS and digits in _digits(phones or ""))

    return match


def search_guests(
    conn: sqlite3.Connection, property_id: int, *, q: str | None, kind: PartyKind | None,
    limit: int,
) -> list[Guest]:
    """GET /guests: the property's records matching `q` and `kind`, by name then id."""
    sql = "SELECT * FROM guests WHERE property_id = ?"
    params: list[Any] = [property_id]
    if kind is not None:
        sql += " AND kind = ?"
        params.append(kind.value)
    if q is not None and q.strip():
        # A Python function, so that case folding works beyond ASCII (SQLite's lower() does not).
        conn.create_function("pmsw_guest_match", 2, _matcher(q.strip()), deterministic=True)
        haystack = " || char(31) || ".join(
            ["display_name"] + [f"coalesce(json_extract(fields, '$.{name}'), '')"
                                for name in SEARCH_FIELDS])
        phones = ("coalesce(json_extract(fields, '$.phone'), '') || char(31) || "
                  "coalesce(json_extract(fields, '$.mobile'), '')")
        sql += f" AND pmsw_guest_match({haystack}, {phones})"
    sql += " ORDER BY display_name COLLATE NOCASE, id LIMIT ?"
    params.append(limit)
    return [guest_model(row) for row in all_rows(conn, sql, *params)]
