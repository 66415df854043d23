"""Helpers of the pipeline tests: a simulated sandbox, the API read independently with httpx,
and the warehouse's content compared field by field."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import dagster as dg
import duckdb
import httpx

from pipelines.defs.partitions import instance_with
from pipelines.ingest import Endpoint, SyncSettings, sync_property
from pipelines.warehouse import connect
from sandbox.clock import SimulatedClock
from tests.conftest import every_reservation

ALL_SCOPES_KEY = "sbx_test_all_scopes"
OTHER_PROPERTY_KEY = "sbx_test_other_property"
START = datetime(2026, 3, 1, 8, 0, tzinfo=UTC)
UNLIMITED = 1_000_000
CLIENT_RATE, CLIENT_BURST = 600_000, 1_000
"""The sandbox's limit is lifted; the client's bucket stays small enough that a 429 saying
`X-RateLimit-Remaining: 0` costs it a millisecond, not the minute a huge burst would take."""
REPO = Path(__file__).resolve().parents[2]


def clock() -> SimulatedClock:
    return SimulatedClock(START)


def endpoint(base_url: str, key: str = ALL_SCOPES_KEY, code: str = "rome") -> Endpoint:
    return Endpoint(code, base_url, key, CLIENT_RATE, CLIENT_BURST)


def materialize_assets(warehouse: Path, selection: dg.AssetSelection, *,
                       raise_on_error: bool = False) -> dg.ExecuteInProcessResult:
    """`selection` of the project's assets and checks materialized in this process for the
    partition `default`: the warehouse at `warehouse`, the PMS of PMS_API_BASE_URL and
    PMS_API_KEY (the key stays in the environment, dg.EnvVar)."""
    from pipelines.definitions import defs
    from pipelines.defs.resources import PmsApiResource, WarehouseResource

    resources: dict[str, Any] = dict(defs.resources or {})
    resources["warehouse"] = WarehouseResource(path=str(warehouse))
    resources["pms"] = PmsApiResource(
        base_url=dg.EnvVar("PMS_API_BASE_URL"), api_key=dg.EnvVar("PMS_API_KEY"),
        rate_per_minute=CLIENT_RATE, burst=CLIENT_BURST)
    every = [d for d in [*(defs.assets or []), *(defs.asset_checks or [])]
             if isinstance(d, dg.AssetsDefinition)]
    with instance_with(["default"]) as instance:
        return dg.materialize(every, selection=selection, partition_key="default",
                              resources=resources, raise_on_error=raise_on_error,
                              instance=instance)


def later(sandbox: Any, delta: timedelta = timedelta(hours=1)) -> None:
    """Move the sandbox's simulated clock (the PMS's time, its HTTP Date); nothing happens."""
    sandbox.state.clock.advance(delta)


def advance(root_url: str, days: int = 1, property_ids: list[int] | None = None) -> None:
    """POST /_sandbox/advance: the simulated hotels live `days` days, then night audits."""
    body: dict[str, Any] = {"days": days}
    if property_ids:
        body["property_ids"] = property_ids
    response = httpx.post(f"{root_url}/_sandbox/advance", json=body, timeout=120)
    response.raise_for_status()


def sync(db: Path, base_url: str, run_id: str, key: str = ALL_SCOPES_KEY,
         settings: SyncSettings | None = None,
         streams: list[str] | None = None) -> dict[str, Any]:
    """One sync of `streams` (default every one: the core the assets run); {stream:
    StreamResult}."""
    with connect(db) as conn:
        results = sync_property(endpoint(base_url, key), conn, run_id, settings, streams)
    return {r.stream: r for r in results}


def query(db: Path, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
    """The rows of `sql` on the warehouse file `db`, opened for it and closed."""
    with connect(db) as conn:
        return conn.execute(sql, params or []).fetchall()


def folio_reads(db: Path, run_id: str, klass: str) -> set[int]:
    """The reservations whose folios the run read in `klass` (meta.folio_reads)."""
    return {int(r) for (r,) in query(
        db, "SELECT reservation_id FROM meta.folio_reads WHERE run_id = ? AND class = ?",
        [run_id, klass])}


def write_properties(path: Path, base_url: str, *, codes: dict[str, str]) -> Path:
    """A properties file: {code: env var name of the key} on one base URL."""
    lines = ["properties:"]
    for code, env in codes.items():
        lines += [f"  - code: {code}", f"    base_url: {base_url}", f"    api_key_env: {env}",
                  f"    rate_per_minute: {CLIENT_RATE}", f"    burst: {CLIENT_BURST}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def pmsw_env(extra: dict[str, str]) -> dict[str, str]:
    """This process's environment without its PMS_, PMSW_ and DAGSTER_ settings, and `extra`."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("PMS_", "PMSW_", "DAGSTER_"))}
    return {**clean, **extra}


def pmsw(args: list[str], env: dict[str, str], timeout: float = 900, *, ok: bool = False,
         ) -> subprocess.CompletedProcess[str]:
    """Run `pmsw ...` in a subprocess from the repository root (a fresh interpreter), in
    `pmsw_env(env)`; with `ok`, it must exit 0. The timeout only stops a hung command: under
    load (a shared machine at load 25) one sync through a test proxy took 137 s, and a test
    must not fail on a time."""
    done = subprocess.run([sys.executable, "-m", "pipelines.cli", *args], cwd=REPO,
                          env=pmsw_env(env), capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert not ok or done.returncode == 0, done.stderr[-3000:]
    return done


# -- the API, read independently -----------------------------------------------------------

class Api:
    def __init__(self, base_url: str, key: str = ALL_SCOPES_KEY) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=60,
                                 headers={"Authorization": f"Bearer {key}"})

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def get(self, path: str, **params: Any) -> Any:
        response = self.http.get(path, params=params)
        response.raise_for_status()
        return response.json()

    def reservations(self) -> list[dict[str, Any]]:
        found = {r["id"]: r for r in every_reservation(self.http, sort="created_desc")}
        return [found[i] for i in sorted(found)]

    def find_reservations(self, **filters: Any) -> list[dict[str, Any]]:
        """Every page of `GET /reservations` with these filters, in the API's order."""
        return list(every_reservation(self.http, **filters))

    def events(self) -> list[dict[str, Any]]:
        events, after = [], 0
        while True:
            body = self.get("/events", after=after, limit=500)
            events += body["data"]
            if not body["has_more"]:
                return events
            after = body["next_after"]


def _ts(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value.replace("Z", "+00:00"))


def _money(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value)).quantize(Decimal("0.01"))


def _rows(conn: duckdb.DuckDBPyConnection, sql: str, pid: int) -> dict[int, dict[str, Any]]:
    cursor = conn.execute(sql, [pid])
    names = [d[0] for d in cursor.description or []]
    return {row[0]: dict(zip(names, row, strict=True)) for row in cursor.fetchall()}


def assert_core_equals_api(conn: duckdb.DuckDBPyConnection, api: Api, pid: int,
                           *, guests: bool = True) -> dict[str, int]:
    """Every reservation, room entry, stay guest, folio, folio line and event of the API is in
    core with the same fields, and core holds nothing more (but the events that fell out of
    the API's log). Returns the counts compared."""
    reservations = api.reservations()
    heads = _rows(conn, "SELECT reservation_id, * FROM core.reservations WHERE property_id = ?",
                  pid)
    rooms = _rows(conn, "SELECT reservation_room_id, * FROM core.reservation_rooms "
                        "WHERE property_id = ?", pid)
    assert sorted(heads) == [r["id"] for r in reservations], "reservation ids differ"
    api_rooms = {s["id"]: (r, s) for r in reservations for s in r["rooms"]}
    assert sorted(rooms) == sorted(api_rooms), "room entry ids differ"
    for r in reservations:
        h = heads[r["id"]]
        expected = {
            "status": r["status"], "arrival": date.fromisoformat(r["arrival"]),
            "departure": date.fromisoformat(r["departure"]), "nights": r["nights"],
            "reservation_type": r["type"], "channel": r["channel"], "source": r["source"],
            "market": r["market"], "external_ref": r["external_ref"],
            "booking_code": r["booking_code"], "total": _money(r["total"]),
            "created_at": _ts(r["created_at"]), "updated_at": _ts(r["updated_at"]),
            "booker_id": r["booker"]["id"] if r["booker"] else None,
            "booker_name": r["booker"]["name"] if r["booker"] else None,
            "rooms_count": len(r["rooms"]),
            "option_expires_on": (date.fromisoformat(r["option_expires_on"])
                                  if r["option_expires_on"] else None),
        }
        got = {k: (_money(h[k]) if k == "total" else h[k]) for k in expected}
        assert got == expected, f"reservation {r['id']}"
    for room_id, (r, s) in api_rooms.items():
        row = rooms[room_id]
        expected = {
            "reservation_id": r["id"], "status": s["status"],
            "arrival": date.fromisoformat(s["arrival"]),
            "departure": date.fromisoformat(s["departure"]), "nights": s["nights"],
            "adults": s["adults"], "room_type_id": s["room_type"]["id"],
            "room_id": s["room"]["id"] if s["room"] else None,
            "room_code": s["room"]["code"] if s["room"] else None,
            "rate_plan_id": s["rate_plan"]["id"] if s["rate_plan"] else None,
            "total": _money(s["total"]), "updated_at": _ts(s["updated_at"]),
            "checked_in_at": _ts(s["checked_in_at"]), "checked_out_at": _ts(s["checked_out_at"]),
            "cancelled_by": s["cancelled_by"], "arrival_time": s["arrival_time"],
        }
        got = {k: (_money(row[k]) if k == "total" else row[k]) for k in expected}
        assert got == expected, f"room entry {room_id}"

    folios = _rows(conn, "SELECT folio_id, * FROM core.folios WHERE property_id = ?", pid)
    lines = _rows(conn, "SELECT folio_line_id, * FROM core.folio_lines WHERE property_id = ?",
                  pid)
    api_folios: dict[int, dict[str, Any]] = {}
    stay_guests: dict[int, dict[str, Any]] = {}
    for r in reservations:
        for folio in api.get(f"/reservations/{r['id']}/folios")["data"]:
            api_folios[folio["id"]] = folio
        if guests:
            for s in api.get(f"/reservations/{r['id']}")["rooms"]:
                stay_guests.update({g["id"]: {**g, "room": s["id"]} for g in s["guests"]})
    assert sorted(folios) == sorted(api_folios), "folio ids differ"
    api_lines = {ln["id"]: (f, ln) for f in api_folios.values() for ln in f["lines"]}
    assert sorted(lines) == sorted(api_lines), "folio line ids differ"
    for folio_id, f in api_folios.items():
        row = folios[folio_id]
        expected = {"reservation_id": f["reservation_id"], "status": f["status"],
                    "document": f["document"], "guest_name": f["guest_name"],
                    "charges": _money(f["charges"]), "payments": _money(f["payments"]),
                    "balance": _money(f["balance"])}
        got = {k: (_money(row[k]) if k in ("charges", "payments", "balance") else row[k])
               for k in expected}
        assert got == expected, f"folio {folio_id}"
    for line_id, (f, ln) in api_lines.items():
        row = lines[line_id]
        expected = {"folio_id": f["id"], "type": ln["type"], "description": ln["description"],
                    "posted_on": date.fromisoformat(ln["posted_on"]),
                    "quantity": Decimal(str(ln["quantity"])), "total": _money(ln["total"]),
                    "unit_price": _money(ln["unit_price"]), "room": ln["room"],
                    "service_item_id": ln["service_item_id"], "reversal_of": ln["reversal_of"]}
        got = {k: (_money(row[k]) if k in ("total", "unit_price") else row[k])
               for k in expected}
        assert got == expected, f"folio line {line_id}"

    if guests:
        landed = _rows(conn, "SELECT stay_guest_id, * FROM core.stay_guests "
                             "WHERE property_id = ?", pid)
        assert sorted(landed) == sorted(stay_guests), "stay guests differ"
        for gid, g in stay_guests.items():
            got = {k: landed[gid][k] for k in ("guest_id", "is_main", "name")}
            assert got == {"guest_id": g["guest_id"], "is_main": g["is_main"],
                           "name": g["name"]}, f"stay guest {gid}"
            assert landed[gid]["reservation_room_id"] == g["room"]

    events = api.events()
    landed_events = _rows(conn, "SELECT event_id, * FROM core.events WHERE property_id = ?", pid)
    # The warehouse keeps the events the API's 30-day log has dropped (spec, Event log).
    oldest = events[0]["id"] if events else 0
    assert sorted(i for i in landed_events if i >= oldest) == [e["id"] for e in events], \
        "event ids differ"
    for e in events:
        row = landed_events[e["id"]]
        assert (row["type"], row["entity"], row["entity_id"], row["created_at"]) == (
            e["type"], e["entity"], e["entity_id"], _ts(e["created_at"])), f"event {e['id']}"
    return {"reservations": len(heads), "rooms": len(rooms), "folios": len(folios),
            "lines": len(lines), "events": len(events), "stay_guests": len(stay_guests)}


# -- the warehouse, compared between runs ---------------------------------------------------

RUN_COLUMNS = {"run_id", "last_seen_run", "first_seen_run", "fetched_at", "updated_at_meta"}
TABLES = ("core.property", "core.room_types", "core.rooms", "core.rate_plans",
          "core.age_brackets", "core.items", "core.classifications", "core.reservations",
          "core.reservation_rooms", "core.reservation_room_versions", "core.stay_guests",
          "core.guests", "core.folios", "core.folio_lines", "core.events", "core.availability")


def snapshot(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every core table (without the columns naming the run or the fetch time) and the
    cursors: what an uninterrupted run and an interrupted one must agree on."""
    with duckdb.connect(str(db), read_only=True) as conn:
        conn.execute("SET TimeZone = 'UTC'")
        out: dict[str, list[tuple[Any, ...]]] = {}
        for table in TABLES:
            schema, name = table.split(".")
            columns = [c for (c,) in conn.execute(
                "SELECT column_name FROM duckdb_columns() WHERE schema_name = ? AND "
                "table_name = ? ORDER BY column_index", [schema, name]).fetchall()
                if c not in RUN_COLUMNS]
            select = ", ".join(f'"{c}"' for c in columns)
            out[table] = sorted(conn.execute(f"SELECT {select} FROM {table}").fetchall(),
                                key=repr)
        out["meta.sync_state"] = sorted(conn.execute(
            "SELECT property_id, stream, cursor_value, full_resync_required "
            "FROM meta.sync_state").fetchall(), key=repr)
        return out
