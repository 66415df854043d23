"""`--format json` on the commands that print a summary (issue 47, item 7): `pmsw sync`,
`pmsw warehouse info` and `pmsw reconcile` print one JSON document on stdout, and each figure
in it is the warehouse's own (counted here with SQL), so a scheduler can read them."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from pipelines.warehouse import read_copy_path
from tests.conftest import MakeSandbox
from tests.stored_rows import stored_rows

from .helpers import ALL_SCOPES_KEY, advance, clock, pmsw, write_properties

pytestmark = pytest.mark.slow


def test_sync_info_and_reconcile_print_json(make_sandbox: MakeSandbox, tmp_path: Path) -> None:
    sandbox = make_sandbox(clock(), admin=True)
    advance(sandbox.root_url, days=2, property_ids=[1])
    props = write_properties(tmp_path / "properties.yaml", sandbox.base_url,
                             codes={"rome": "KEY_ROME"})
    db = tmp_path / "warehouse.duckdb"
    env = {"PMSW_PROPERTIES_FILE": str(props), "KEY_ROME": ALL_SCOPES_KEY}

    synced = pmsw(["sync", "--no-progress", "--no-marts", "--warehouse", str(db),
                   "--format", "json"], env, timeout=300, ok=True)
    (rome,) = json.loads(synced.stdout)
    with duckdb.connect(str(db), read_only=True) as conn:
        reservations = conn.execute("SELECT count(*) FROM core.reservations").fetchone()
        lines = conn.execute("SELECT count(*) FROM core.folio_lines").fetchone()
    assert rome["property"] == "rome"
    assert rome["error"] is None
    assert rome["streams"]["reservations"]["rows"] == (reservations or [0])[0] > 0
    assert rome["streams"]["reservations"]["status"] == "success"
    assert rome["checks_failed"] == {}
    assert (lines or [0])[0] > 0

    info = pmsw(["warehouse", "info", "--warehouse", str(db), "--format", "json"], env, ok=True)
    facts = json.loads(info.stdout)
    assert facts["read_copy_bytes"] == read_copy_path(db).stat().st_size
    assert facts["published_at"] is not None
    assert facts["error"] is None
    (held,) = facts["properties"]
    # the PMS's own code of the property the properties file calls rome
    assert (held["code"], held["reservations"]) == ("ROMA01", rome["streams"]["reservations"]
                                                    ["rows"])
    assert {run["part"] for run in held["runs"]} >= {"reservations", "folios"}

    run = pmsw(["reconcile", "--warehouse", str(db), "--format", "json"], env, timeout=300, ok=True)
    out = json.loads(run.stdout)
    [stored] = stored_rows(db, "SELECT mode, missing_count, missing_amount, matched_count "
                           "FROM recon.runs WHERE run_id = ?", [out["run_id"]])
    assert out["mode"] == stored[0] == "dry_run"
    assert out["statuses"]["missing"]["charges"] == stored[1]
    assert Decimal(str(out["statuses"]["missing"]["amount"])) == stored[2]
    assert out["statuses"]["matched"]["charges"] == stored[3]
    assert out["posted"] is None
