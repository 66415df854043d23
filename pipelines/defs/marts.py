"""The revenue marts (issue 6): one asset per mart.* table, partitioned by property like the
ingestion assets they follow, all in pool `duckdb`.

Each asset reads core.* (and the marts before it) into polars, runs the transforms of
`pipelines.transforms` and replaces the property's rows in one transaction
(`pipelines.marts.build_mart`). Definitions: docs/kpi.md.
"""

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import dagster as dg
import duckdb
import polars as pl

from pipelines.marts import MARTS, MartSettings, build_mart
from pipelines.properties import DEFAULT_CODE
from pipelines.warehouse import property_row

from .ingest import markdown
from .keys import OWNERS, POOL, stream_key
from .partitions import PROPERTIES
from .resources import WarehouseResource

MARTS_GROUP = "marts"
PREVIEW_ROWS = 5

DESCRIPTIONS = {
    "stay_nights": "One row per room entry and night with status, segments, persons and the "
                   "night's room revenue (folio postings for nights lived, the stay total split "
                   "evenly for nights to come).",
    "revenue_daily": "Revenue by posting date and department (accommodation, food and "
                     "beverage, other; city tax apart, never revenue), net, gross and VAT.",
    "occupancy_daily": "Rooms available (STR basis and net of out-of-order), sold, "
                       "complimentary, in option; occupancy, ADR, RevPAR, TRevPAR per night.",
    "occupancy_by_room_type": "mart.occupancy_daily per room type.",
    "segment_daily": "Rooms sold, room revenue and ADR per night by channel, source, market, "
                     "rate plan and room type.",
    "otb_snapshots": "On the books at the end of every business date for the next 365 nights "
                     "(rooms, net revenue, options apart), rebuilt from the room versions.",
    "pickup": "Pickup over 1, 7, 14 and 30 days per stay date: new, cancelled and net room "
              "nights, net revenue.",
    "pace": "On the books by days before arrival beside the same time last year (STLY).",
    "booking_kpis": "Bookings by month of arrival and channel: room nights, cancellation "
                    "rates, lead time, ALOS, no-show rate.",
}
INGESTED = ("reference", "events", "reservations", "folios", "availability")
"""Ingestion streams every mart follows (the POS ledger feeds the reconciliation only)."""


def mart_key(name: str) -> dg.AssetKey:
    return dg.AssetKey(["mart", name])


class MartConfig(dg.Config):
    """Run config of a mart asset (docs/kpi.md); e.g. `accommodation_vat_pct: "10"`."""

    accommodation_vat_pct: str | None = None
    """Accommodation VAT in percent; unset: the VAT of the property's accommodation item."""
    horizon_days: int = 365

    def settings(self) -> MartSettings:
        vat = None if self.accommodation_vat_pct is None else Decimal(self.accommodation_vat_pct)
        return MartSettings(vat_pct=vat, horizon_days=self.horizon_days)


def property_of_partition(conn: duckdb.DuckDBPyConnection, code: str, run_id: str) -> int:
    """The property id of partition `code`: as this run's ingestion logged it, else the
    warehouse's property of that PMS code (its only one for the default property)."""
    found = conn.execute("SELECT DISTINCT property_id FROM meta.sync_runs WHERE run_id = ?",
                         [run_id]).fetchall()
    if len(found) == 1:
        return int(found[0][0])
    return property_row(conn, None if code == DEFAULT_CODE else code)[0]


def _metadata(property_id: int, rows: pl.DataFrame) -> dict[str, Any]:
    return {"property_id": property_id, "rows": rows.height,
            "columns": len(rows.columns),
            "preview": dg.MetadataValue.md(markdown(rows.columns,
                                                    rows.head(PREVIEW_ROWS).iter_rows()))}


def _mart_asset(name: str, reads: Sequence[str]) -> dg.AssetsDefinition:
    @dg.asset(
        key=mart_key(name), group_name=MARTS_GROUP, description=DESCRIPTIONS[name],
        owners=OWNERS, kinds={"polars", "duckdb"}, pool=POOL, partitions_def=PROPERTIES,
        deps=[*(stream_key(s) for s in INGESTED), *(mart_key(m) for m in reads)],
        automation_condition=dg.AutomationCondition.eager(),
    )
    def _asset(context: dg.AssetExecutionContext, warehouse: WarehouseResource,
               config: MartConfig) -> dg.MaterializeResult:  # type: ignore[type-arg]
        with warehouse.connect() as conn:
            pid = property_of_partition(conn, context.partition_key, context.run_id)
            rows = build_mart(conn, name, pid, config.settings())
        context.log.info(f"mart.{name} of property {pid}: {rows.height} rows")
        return dg.MaterializeResult(metadata=_metadata(pid, rows))

    return _asset


def _asset_of(name: str) -> dg.AssetsDefinition:
    return _mart_asset(name, MARTS[name][1])


# Module-scope names: pipelines.definitions collects the assets of each module from them.
stay_nights_asset = _asset_of("stay_nights")
revenue_daily_asset = _asset_of("revenue_daily")
occupancy_daily_asset = _asset_of("occupancy_daily")
occupancy_by_room_type_asset = _asset_of("occupancy_by_room_type")
segment_daily_asset = _asset_of("segment_daily")
otb_snapshots_asset = _asset_of("otb_snapshots")
pickup_asset = _asset_of("pickup")
pace_asset = _asset_of("pace")
booking_kpis_asset = _asset_of("booking_kpis")
MART_ASSETS = [stay_nights_asset, revenue_daily_asset, occupancy_daily_asset,
               occupancy_by_room_type_asset, segment_daily_asset, otb_snapshots_asset,
               pickup_asset, pace_asset, booking_kpis_asset]

pms_marts = dg.define_asset_job(
    "pms_marts", selection=dg.AssetSelection.groups(MARTS_GROUP), partitions_def=PROPERTIES,
    description="Rebuild every mart of a property from the warehouse (no API call).")
