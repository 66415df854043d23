"""Load the POS ledger export: one CSV per business date, each file once, bad files quarantined.

Columns (issue 3, Simulator): ticket_id, line, business_date, posted_at, reservation_id,
reservation_room_id, room, item_code, quantity, unit_price, total. Extra columns are ignored;
a missing column, a malformed value or a repeated (ticket_id, line) quarantines the whole file
with a reason naming the line and the field, and the other files still load.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import duckdb

from pipelines.warehouse import DATE, DEC, INT, STR, TS, dec, drop, stage, transaction

COLUMNS = ("ticket_id", "line", "business_date", "posted_at", "reservation_id",
           "reservation_room_id", "room", "item_code", "quantity", "unit_price", "total")

_ROW = {
    "property_id": INT, "ticket_id": STR, "line": INT, "business_date": DATE, "posted_at": TS,
    "reservation_id": INT, "reservation_room_id": INT, "room": STR, "item_code": STR,
    "quantity": DEC, "unit_price": DEC, "total": DEC, "source_file": STR,
}


class LedgerFileError(ValueError):
    """Why a ledger file cannot be loaded (the quarantine reason)."""


@dataclass
class LedgerLoad:
    loaded: list[str] = field(default_factory=list)
    quarantined: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    """Files met before with the same content (loaded or quarantined then)."""
    rows: int = 0


def _text(value: str) -> str:
    return value.strip()


def _required(value: str) -> str:
    if not value.strip():
        raise ValueError("is empty")
    return value.strip()


def _int(value: str) -> int:
    return int(value.strip())


def _opt_int(value: str) -> int | None:
    return None if not value.strip() else int(value.strip())


def _date(value: str) -> date:
    return date.fromisoformat(value.strip())


def _timestamp(value: str) -> datetime:
    parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        raise ValueError("has no time zone")
    return parsed


def _decimal(places: int) -> Callable[[str], Decimal]:
    def parse(value: str) -> Decimal:
        try:
            number = Decimal(value.strip())
        except InvalidOperation:
            raise ValueError("is not a decimal number") from None
        if not number.is_finite():
            raise ValueError("is not a finite number")
        if number.as_tuple().exponent < -places:  # type: ignore[operator]
            raise ValueError(f"has more than {places} decimals")
        if abs(number) >= Decimal(10) ** (12 - places):
            raise ValueError("is too large")
        return number
    return parse


_PARSERS: dict[str, Callable[[str], Any]] = {
    "ticket_id": _required, "line": _int, "business_date": _date, "posted_at": _timestamp,
    "reservation_id": _opt_int, "reservation_room_id": _opt_int, "room": _text,
    "item_code": _required, "quantity": _decimal(3), "unit_price": _decimal(2),
    "total": _decimal(2),
}


def parse_ledger(content: bytes, file_name: str) -> list[dict[str, Any]]:
    """The rows of a ledger file, or LedgerFileError naming the line and the field."""
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LedgerFileError(f"not UTF-8 text (byte {exc.start})") from None
    reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
    try:
        header = reader.fieldnames
    except csv.Error as exc:
        raise LedgerFileError(f"line 1: {exc}") from None
    if not header:
        raise LedgerFileError("empty file: no header line")
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise LedgerFileError(f"header: missing column(s) {', '.join(missing)}")
    rows: list[dict[str, Any]] = []
    seen: dict[tuple[str, int], int] = {}
    try:
        for record in reader:
            where = f"line {reader.line_num}"
            if None in record or any(v is None for v in record.values()):
                raise LedgerFileError(
                    f"{where}: expected {len(header)} fields as in the header")
            row: dict[str, Any] = {"source_file": file_name}
            for column in COLUMNS:
                try:
                    row[column] = _PARSERS[column](record[column])
                except ValueError as exc:
                    raise LedgerFileError(
                        f"{where}: field {column} {record[column]!r}: {exc}") from None
            key = (row["ticket_id"], row["line"])
            if key in seen:
                raise LedgerFileError(f"{where}: ticket_id {key[0]} line {key[1]} repeats "
                                      f"line {seen[key]}")
            seen[key] = reader.line_num
            rows.append(row)
    except csv.Error as exc:
        raise LedgerFileError(f"line {reader.line_num}: {exc}") from None
    return rows


def load_pos_ledger_dir(
    conn: duckdb.DuckDBPyConnection,
    property_id: int,
    folder: Path | str,
    *,
    run_id: str,
) -> LedgerLoad:
    """Load every `*.csv` of `folder` not met before; each file in its own transaction.

    A file is known by name and SHA-256: the same file again is skipped; a file whose name was
    loaded before with other content is quarantined (a ledger line is never loaded twice), as
    is a file repeating a ticket line already loaded (from another file, or from a file before
    it in this folder).

    The files met are read once (core.pos_ledger_files), not a query and a transaction per
    file: the folder holds every day's file, which a daily sync would otherwise go through
    one by one. The new files' lines are checked against the stored ones in one join and
    staged once; each file then lands in its own transaction as before.
    """
    result = LedgerLoad()
    met: dict[str, list[tuple[str, str]]] = {}
    for name, sha, status in conn.execute(
            "SELECT file_name, sha256, status FROM core.pos_ledger_files WHERE property_id = ?",
            [property_id]).fetchall():
        met.setdefault(str(name), []).append((str(sha), str(status)))
    found: list[tuple[str, str, list[dict[str, Any]] | None, str | None]] = []
    for path in sorted(Path(folder).glob("*.csv")):
        content = path.read_bytes()
        sha = hashlib.sha256(content).hexdigest()
        name = path.name
        before = met.get(name, [])
        if any(s == sha for s, _ in before):
            result.skipped.append(name)
        elif any(status == "loaded" for _, status in before):
            found.append((name, sha, None, f"{name} was already loaded with other content "
                                             "(another sha256); a changed ledger file is "
                                             "never loaded twice"))
        else:
            try:
                found.append((name, sha, parse_ledger(content, name), None))
            except LedgerFileError as exc:
                found.append((name, sha, None, str(exc)))
    stored = _stored_sources(conn, property_id, [r for _, _, rows, _ in found for r in rows or []])
    taken: dict[tuple[str, int], str] = {}  # the lines of the files loaded before, this call
    landing: list[tuple[str, str, list[dict[str, Any]] | None, str | None]] = []
    for name, sha, rows, reason in found:
        if rows is not None:
            keys = [(row["ticket_id"], row["line"]) for row in rows]
            clash = min((k for k in keys if k in stored or k in taken), default=None)
            if clash is None:
                taken.update((k, name) for k in keys)
            else:
                rows, reason = None, (f"ticket_id {clash[0]} line {clash[1]} was already "
                                      f"loaded from {stored.get(clash) or taken[clash]}")
        landing.append((name, sha, rows, reason))
    loading = [row for _, _, rows, _ in landing for row in rows or []]
    for row in loading:
        row["property_id"] = property_id
        for money in ("quantity", "unit_price", "total"):
            row[money] = dec(row[money])
    if any(rows is not None for _, _, rows, _ in landing):
        stage(conn, "_stg_pos", _ROW, loading)
    for name, sha, rows, reason in landing:
        with transaction(conn):
            if rows is None:
                _register(conn, property_id, name, sha, 0, "quarantined", reason, run_id)
                result.quarantined[name] = str(reason)
                continue
            conn.execute("INSERT INTO core.pos_ledger BY NAME SELECT * FROM _stg_pos "
                         "WHERE source_file = ?", [name])
            _register(conn, property_id, name, sha, len(rows), "loaded", None, run_id)
            result.loaded.append(name)
            result.rows += len(rows)
    drop(conn, "_stg_pos")
    return result


def _stored_sources(conn: duckdb.DuckDBPyConnection, property_id: int,
                    rows: list[dict[str, Any]]) -> dict[tuple[str, int], str]:
    """Of the ticket lines `rows`, those already in core.pos_ledger: key -> its source file."""
    if not rows:
        return {}
    stage(conn, "_stg_keys", {"ticket_id": STR, "line": INT}, rows)
    clashes = conn.execute(
        "SELECT k.ticket_id, k.line, p.source_file FROM _stg_keys k JOIN core.pos_ledger p "
        "ON p.property_id = ? AND p.ticket_id = k.ticket_id AND p.line = k.line",
        [property_id]).fetchall()
    drop(conn, "_stg_keys")
    return {(str(t), int(n)): str(f) for t, n, f in clashes}


def _register(conn: duckdb.DuckDBPyConnection, property_id: int, name: str, sha: str,
              rows: int, status: str, reason: str | None, run_id: str) -> None:
    conn.execute(
        'INSERT INTO core.pos_ledger_files (property_id, file_name, sha256, loaded_at, "rows", '
        "status, reason, run_id) VALUES (?, ?, ?, current_timestamp, ?, ?, ?, ?)",
        [property_id, name, sha, rows, status, reason, run_id])
