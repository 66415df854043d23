"""The group layout: a warehouse given as a DIRECTORY holds one complete warehouse per property.

`DIR/<CODE>.duckdb` is the warehouse of property CODE (migrated, written and published like the
single file: `DIR/<CODE>.read.duckdb` is its read copy), so properties are written by separate
processes at the same time, each holding only its own file's lock, and each publish copies
only its own property's file (docs/scaling.md, "A group: one file per property").

Readers open the group with `open_group()`: an in-memory DuckDB that ATTACHes every
property's read copy READ_ONLY and exposes each relation of the schema (`core.*`, `mart.*`,
`recon.*`, `meta.*`, the views) as a view over all of them (UNION ALL BY NAME). What a reader
attached stays the copy it attached (a publish swaps the name onto another file and never
writes into one a reader holds: pipelines.warehouse.publish), so a reader is never blocked by
a run and never sees half of one. The three relations without a property
(`mart.departments`, `meta.schema_migrations`, `meta.schema_state`) are the same in every
member and are read from the first.

The single file stays the default; a directory is the group layout wherever a warehouse is
named (`--warehouse`, PMSW_WAREHOUSE, Dagster's WarehouseResource).
"""

from __future__ import annotations

import re
from pathlib import Path

import duckdb

from pipelines.warehouse.connection import (
    READ_COPY_SUFFIX,
    WarehouseError,
    WarehouseMissingError,
    WarehouseSchemaError,
    resolve,
)
from pipelines.warehouse.schema import schema_gap

_CODE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
_SHARED = frozenset({("mart", "departments"), ("meta", "schema_migrations"),
                     ("meta", "schema_state")})
"""Relations without a property_id: the same rows in every member, read from the first."""


def is_group(path: str | Path | None) -> bool:
    """True when the warehouse named is a directory (the group layout)."""
    return resolve(path).is_dir()


def member_path(group: str | Path | None, code: str) -> Path:
    """The warehouse file of property `code` in the group directory: DIR/<CODE>.duckdb."""
    if not _CODE.match(code):
        raise WarehouseError(f"property code {code!r} cannot name a file of the group "
                             "(letters, digits, '-' and '_' only)")
    return resolve(group) / f"{code}.duckdb"


def member_files(group: str | Path | None) -> dict[str, Path]:
    """The warehouse files of the group's members, by property code (sorted)."""
    folder = resolve(group)
    return {path.name[:-len(".duckdb")]: path for path in sorted(folder.glob("*.duckdb"))
            if not path.name.endswith(READ_COPY_SUFFIX)}


def property_file(warehouse: str | Path | None, code: str | None) -> Path:
    """The file a writer for property `code` opens: the warehouse itself when it is a file;
    in the group layout the member DIR/<CODE>.duckdb (the code matched without regard to
    case), which must exist. One-line errors: a group and no property named (--property), a
    property without a file in the group."""
    target = resolve(warehouse)
    if not target.is_dir():
        return target
    if code is None:
        raise WarehouseError(f"the warehouse {target} is a group (one file a property): "
                             "name the property with --property")
    members = member_files(target)
    found = [path for name, path in members.items() if name.lower() == code.lower()]
    if not found:
        member_path(target, code)  # a code that cannot name a file: said so
        raise WarehouseMissingError(
            f"property {code} has no file in the group {target} (members: "
            f"{', '.join(members) or 'none'}): sync it first, "
            f"`pmsw sync --property {code} --warehouse {target}`")
    return found[0]


def files_of(warehouse: str | Path | None, code: str | None = None) -> list[Path]:
    """The files a command over `warehouse` writes, each in turn (`pmsw warehouse publish`,
    `compact`): the warehouse itself when it is a file; in the group layout the file of
    property `code` (`property_file`), else every member's. One-line errors: a property
    without a file, a group without a member yet."""
    target = resolve(warehouse)
    if not target.is_dir():
        return [target]
    if code is not None:
        return [property_file(target, code)]
    files = list(member_files(target).values())
    if not files:
        raise WarehouseMissingError(f"the group {target} has no member file yet: run "
                                    "`pmsw sync` with the group as --warehouse")
    return files


def member_copies(group: str | Path | None) -> dict[str, Path]:
    """The read copies of the group's members that have one, by property code (sorted)."""
    folder = resolve(group)
    return {path.name[:-len(READ_COPY_SUFFIX)]: path
            for path in sorted(folder.glob(f"*{READ_COPY_SUFFIX}"))}


def _quoted(text: str) -> str:
    return text.replace("'", "''")


def _ident(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def open_group(group: str | Path | None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB reading every member's read copy of the group directory, each
    relation a view over all members (module doc). A member not yet published (its first run
    is under way) is left out: it holds nothing a reader may see. One-line errors: no member
    published yet, a member of another schema than this code's."""
    folder = resolve(group)
    copies = member_copies(folder)
    if not copies:
        raise WarehouseMissingError(f"no read copy in the group {folder} yet: run `pmsw sync` "
                                    "with the group as --warehouse")
    conn = duckdb.connect(":memory:")
    try:
        aliases = _attach(conn, copies)
        _expose(conn, aliases)
    except duckdb.Error as error:
        conn.close()
        raise WarehouseError(f"cannot open the group {folder}: "
                             f"{str(error).splitlines()[0]}") from None
    gap = schema_gap(conn)
    if gap is not None:
        conn.close()
        raise WarehouseSchemaError(f"a read copy of the group {folder} {gap}")
    conn.execute("SET TimeZone = 'UTC'")
    return conn


def _attach(conn: duckdb.DuckDBPyConnection, copies: dict[str, Path]) -> list[str]:
    aliases = []
    for number, (code, path) in enumerate(copies.items()):
        alias = f"member_{number}"
        try:
            conn.execute(f"ATTACH '{_quoted(str(path))}' AS {alias} (READ_ONLY)")
        except duckdb.Error as error:
            raise WarehouseError(f"cannot open the read copy of {code} ({path}): "
                                 f"{str(error).splitlines()[0]}") from None
        aliases.append(alias)
    return aliases


def _expose(conn: duckdb.DuckDBPyConnection, aliases: list[str]) -> None:
    """Every relation of the first member as a view over all members, in the memory catalog."""
    relations = conn.execute(
        "SELECT table_schema, table_name FROM information_schema.tables "
        "WHERE table_catalog = ? ORDER BY ALL", [aliases[0]]).fetchall()
    for schema in sorted({str(s) for s, _ in relations}):
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS memory.{_ident(schema)}")
    for schema, name in relations:
        qualified = f"{_ident(str(schema))}.{_ident(str(name))}"
        members = aliases[:1] if (schema, name) in _SHARED else aliases
        union = " UNION ALL BY NAME ".join(
            f"SELECT * FROM {alias}.{qualified}" for alias in members)
        conn.execute(f"CREATE VIEW memory.{qualified} AS {union}")
    conn.execute("USE memory")
