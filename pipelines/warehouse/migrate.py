"""Apply the numbered DuckDB migrations of `sql/migrations/` in order, once each.

Each migration runs in its own transaction together with its row in `meta.schema_migrations`,
so a failure leaves the warehouse at the previous version. A migration already applied whose
file has changed since is refused: the history of a warehouse is never rewritten silently.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipelines.warehouse.transaction import transaction

_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")



class MigrationError(RuntimeError):
    """The migrations on disk do not fit the warehouse (changed, duplicated, misnamed)."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


def sql_dir() -> Path:
    """The `sql/` folder: packaged inside the wheel next to this module, else the repository's.

    The wheel carries it as `pipelines/warehouse/sql` (pyproject `force-include`); a checkout
    or an editable install finds it at the repository root.
    """
    here = Path(__file__).resolve().parent
    for candidate in (here / "sql", here.parents[1] / "sql"):
        if (candidate / "migrations").is_dir():
            return candidate
    raise MigrationError(f"no sql/migrations folder next to {here} or at the repository root")


def discover(folder: Path | None = None) -> list[Migration]:
    """The migrations of `folder` (default `sql_dir()/migrations`), by version."""
    folder = folder if folder is not None else sql_dir() / "migrations"
    found: dict[int, Migration] = {}
    for path in sorted(folder.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise MigrationError(
                f"migration file {path.name}: name must be NNNN_lower_snake.sql")
        version = int(match.group(1))
        if version in found:
            raise MigrationError(
                f"migration version {version} appears twice: {found[version].name}, {path.name}")
        found[version] = Migration(version, path.name, path.read_text(encoding="utf-8"))
    return [found[v] for v in sorted(found)]


def applied(conn: duckdb.DuckDBPyConnection) -> dict[int, tuple[str, str]]:
    """Applied migrations: version -> (name, sha256). Empty on a new warehouse."""
    exists = conn.execute(
        "SELECT count(*) FROM duckdb_tables() "
        "WHERE schema_name = 'meta' AND table_name = 'schema_migrations'").fetchone()
    if exists is None or exists[0] == 0:
        return {}
    rows = conn.execute("SELECT version, name, sha256 FROM meta.schema_migrations").fetchall()
    return {int(v): (str(n), str(s)) for v, n, s in rows}


def migrate(conn: duckdb.DuckDBPyConnection, folder: Path | None = None) -> list[str]:
    """Bring the warehouse to the latest migration; return the names applied now (idempotent)."""
    migrations = discover(folder)
    done = applied(conn)
    if not done:
        with transaction(conn):
            conn.execute((sql_dir() / "schema_migrations.sql").read_text(encoding="utf-8"))
    newly: list[str] = []
    for migration in migrations:
        if migration.version in done:
            name, sha = done[migration.version]
            if sha != migration.sha256:
                raise MigrationError(
                    f"migration {migration.name} changed after it was applied (as {name}); "
                    "add a new migration instead of editing an applied one")
            continue
        with transaction(conn):
            conn.execute(migration.sql)
            conn.execute(
                "INSERT INTO meta.schema_migrations VALUES (?, ?, ?, current_timestamp)",
                [migration.version, migration.name, migration.sha256])
        newly.append(migration.name)
    return newly
