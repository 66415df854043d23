"""Stream `pos_ledger`: the POS ledger CSV files of the property's folder (`pos_ledger_dir` of
the sync settings, else of the properties file, else `PMS_POS_LEDGER_DIR`), each file once, a
bad file quarantined with its reason while the others load (pipelines.ingest.store.pos_ledger)."""

from __future__ import annotations

from pathlib import Path

from pipelines.ingest._preview import preview
from pipelines.ingest.context import StreamResult, SyncContext
from pipelines.ingest.progress import report
from pipelines.ingest.store import load_pos_ledger_dir

STREAM = "pos_ledger"


def sync_pos_ledger(ctx: SyncContext, result: StreamResult) -> None:
    named = ctx.settings.pos_ledger_dir
    folder = Path(named) if named else ctx.endpoint.pos_ledger_dir
    if folder is None or not folder.is_dir():
        result.message = ("no POS ledger folder: set PMS_POS_LEDGER_DIR or pos_ledger_dir"
                          if folder is None else f"POS ledger folder {folder} does not exist")
        result.details = {"loaded": 0, "quarantined": 0, "skipped": 0}
        return
    report(ctx.endpoint.code, STREAM, 0, 1)
    load = load_pos_ledger_dir(ctx.conn, ctx.property_id, folder, run_id=ctx.run_id)
    report(ctx.endpoint.code, STREAM, 1, 1)
    result.rows = load.rows
    result.details = {"loaded": len(load.loaded), "quarantined": len(load.quarantined),
                      "skipped": len(load.skipped)}
    if load.quarantined:
        result.message = "; ".join(f"{name}: {why}" for name, why in load.quarantined.items())
    result.preview = preview(
        ctx.conn, "SELECT file_name, status, \"rows\", reason FROM core.pos_ledger_files "
        "WHERE property_id = ? ORDER BY loaded_at DESC", [ctx.property_id])
