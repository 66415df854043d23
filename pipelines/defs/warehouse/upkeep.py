"""The warehouse files' upkeep as an asset: compaction, weekly, one partition per property.

`meta/compaction` rewrites each property's file whose free blocks reach the threshold
(`pipelines.warehouse.compact`: atomic swap, then the read copy published) and records the
file's bytes before and after. The single file is compacted once per run, whatever the
partitions; in the group layout each partition's own file. Nothing is deleted from any table:
what must stay and why is in docs/operations.md, "Upkeep of the warehouse files". The job
`warehouse_upkeep` runs it, started by the schedule `warehouse_upkeep_weekly` (Sundays 04:00
UTC, before the daily availability snapshot; stopped until switched on, like every schedule).
"""

import dagster as dg

from pipelines.defs.automation import every_property
from pipelines.defs.keys import COMPACTION_KEY, OWNERS, POOL, UPKEEP_GROUP
from pipelines.defs.partitions import ONE_RUN, PROPERTIES, one_run_accepted
from pipelines.defs.resources import WarehouseResource
from pipelines.warehouse import COMPACT_THRESHOLD, compact


class CompactionConfig(dg.Config):
    threshold: float = COMPACT_THRESHOLD
    """Rewrite a file when at least this share of its blocks is free."""
    force: bool = False
    """Rewrite whatever the free share."""


def _compaction(context: dg.AssetExecutionContext, config: CompactionConfig,
                warehouse: WarehouseResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    before = after = rewritten = 0
    for code in context.partition_keys if warehouse.grouped() else [None]:
        done = compact(warehouse.file(code), threshold=config.threshold, force=config.force,
                       wait=warehouse.wait_seconds)
        before, after = before + done.before.file_bytes, after + done.after_bytes
        rewritten += done.rewritten
        context.log.info(
            f"{done.path}: {done.before.file_bytes} bytes, {done.before.free_share:.1%} free: "
            + (f"rewritten to {done.after_bytes} bytes in {done.seconds:.2f} s"
               if done.rewritten else f"left as it is (threshold {config.threshold:.0%})"))
    return dg.MaterializeResult(metadata={
        "bytes_before": before, "bytes_after": after, "files_rewritten": rewritten})


with one_run_accepted():
    compaction = dg.asset(
        key=COMPACTION_KEY, group_name=UPKEEP_GROUP, owners=OWNERS, kinds={"duckdb"},
        pool=POOL, partitions_def=PROPERTIES, backfill_policy=ONE_RUN,
        description=f"The property's warehouse file rewritten when {COMPACT_THRESHOLD:.0%} or "
                    "more of it is free blocks (a DuckDB file never shrinks), swapped in "
                    "atomically, its read copy then published; nothing deleted from any "
                    "table.")(_compaction)

warehouse_upkeep = dg.define_asset_job(
    "warehouse_upkeep", selection=dg.AssetSelection.assets(COMPACTION_KEY),
    description="Compact the warehouse files whose free space passed the threshold.")


@dg.schedule(job=warehouse_upkeep, cron_schedule="0 4 * * 0", name="warehouse_upkeep_weekly",
             description="Compact every property's warehouse file once a week: one run (a "
                         "single file), or one run per property (a group directory).")
def warehouse_upkeep_weekly(context: dg.ScheduleEvaluationContext, warehouse: WarehouseResource
                            ) -> list[dg.RunRequest] | dg.SkipReason:
    stamp = context.scheduled_execution_time.isoformat() if context.scheduled_execution_time \
        else ""
    return every_property(stamp, context.instance, warehouse.grouped(),
                          warehouse_upkeep.name)


defs = dg.Definitions(assets=[compaction], jobs=[warehouse_upkeep],
                      schedules=[warehouse_upkeep_weekly])
