"""The read copy as an asset: published after the property's streams and marts, in pool `duckdb`.

It follows every ingestion stream and every mart of the property, so a run that lands data
and rebuilds the marts publishes once, at its end, a state where core and marts come from the
same run; a run whose steps failed publishes nothing (readers keep the previous copy). Every
job that writes (pms_sync, pms_availability_snapshot, pms_marts) ends with it. Design:
docs/operations.md, "Reading while syncing".
"""

import dagster as dg

from pipelines.defs.keys import OWNERS, POOL, PUBLISH_GROUP, READ_COPY_KEY, stream_key
from pipelines.defs.marts.assets import MART_ASSETS
from pipelines.defs.partitions import ONE_RUN, PROPERTIES, one_run_accepted
from pipelines.defs.resources import WarehouseResource
from pipelines.warehouse import publish

STREAMS = ("reference", "events", "reservations", "folios", "availability", "pos_ledger")


def _read_copy(context: dg.AssetExecutionContext,
               warehouse: WarehouseResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    # The group layout: each property of the run publishes its own file's copy.
    for code in context.partition_keys if warehouse.grouped() else [None]:
        with warehouse.connect(code) as conn:
            done = publish(conn, warehouse.file(code))
        context.log.info(f"published {done.path} ({done.size} bytes) in {done.seconds:.2f} s: "
                         f"{done.how}, {done.written} bytes written")
    return dg.MaterializeResult(metadata={
        "path": str(done.path), "bytes": done.size, "seconds": round(done.seconds, 3),
        "published_at": done.published_at.isoformat(), "how": done.how,
        "bytes_written": done.written})


with one_run_accepted():
    read_copy = dg.asset(
        key=READ_COPY_KEY, group_name=PUBLISH_GROUP, owners=OWNERS, kinds={"duckdb"}, pool=POOL,
        partitions_def=PROPERTIES, backfill_policy=ONE_RUN,
        deps=[*(stream_key(s) for s in STREAMS), *(k for a in MART_ASSETS for k in a.keys)],
        description="The read copy <warehouse>.read.duckdb that readers open (pmsw report, "
                    "notebooks, duckdb -readonly): the warehouse as this run left it, in DuckDB "
                    "1.4's storage format, swapped in atomically; meta.published says what it "
                    "holds.")(_read_copy)


defs = dg.Definitions(assets=[read_copy])
