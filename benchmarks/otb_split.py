"""mart.otb_snapshots split by reservation type: group rooms vs the rest (transient).

Built with the very code of the mart (Inputs.versions(): history rebuilt before the first
sync; Inputs.ranges(); otb_snapshots() with the property's time zone, VAT and horizon), on the
versions of each part alone, over the ranges of all versions, so that the parts sum back to
mart.otb_snapshots.rooms_otb exactly (otb_snapshots is a sum over room entries).
"""

from __future__ import annotations

import duckdb
import polars as pl

from pipelines.marts import read
from pipelines.marts.build import Inputs, MartSettings
from pipelines.marts.logic.otb import RANGE_COLUMNS, otb_snapshots
from pipelines.marts.logic.otb_changes import book_changes, cumulative_grid, version_nights
from pipelines.vocabulary.frames import lazy
from pipelines.warehouse.frames import query_frame

GROUP_TYPES = ("group", "allotment")


FIRM_PLANS = ("NREF", "CORP")
FIRM_CHANNELS = ("walk_in",)


def classes_default() -> pl.Expr:
    """group (group, allotment) / transient."""
    return (pl.when(pl.col("reservation_type").is_in(GROUP_TYPES)).then(pl.lit("group"))
            .otherwise(pl.lit("transient")))


def classes_firm() -> pl.Expr:
    """group / firm (transient on a rate plan or channel that seldom cancels) / soft."""
    return (pl.when(pl.col("reservation_type").is_in(GROUP_TYPES)).then(pl.lit("group"))
            .when(pl.col("rate_plan_code").is_in(FIRM_PLANS)
                  | pl.col("channel").is_in(FIRM_CHANNELS)).then(pl.lit("firm"))
            .otherwise(pl.lit("soft")))


def split_otb(conn: duckdb.DuckDBPyConnection, pid: int,
              classify: pl.Expr | None = None) -> pl.DataFrame:
    """property_id, snapshot_date, stay_date, rooms_otb_<class> per class of room entry
    (default: rooms_otb_group, rooms_otb_transient); the classes sum to rooms_otb."""
    inputs = Inputs(conn, read.property_facts(conn, pid), MartSettings())
    versions = inputs.versions()
    types = query_frame(conn,
        "SELECT DISTINCT reservation_room_id, reservation_type, rate_plan_code, channel FROM "
        "core.reservation_room_versions WHERE property_id = ?", [pid])
    if types["reservation_room_id"].n_unique() != types.height:
        raise ValueError("a room entry changes type, rate plan or channel between versions")
    types = types.select("reservation_room_id",
                         cls=(classify if classify is not None else classes_default()))
    typed = versions.join(types, on="reservation_room_id", how="left")
    assert typed["cls"].null_count() == 0
    ranges = inputs.ranges()
    key = ["property_id", "snapshot_date", "stay_date"]
    out = None
    names = sorted(typed["cls"].unique().to_list())
    for name in names:
        part = otb_snapshots(typed.filter(pl.col("cls") == name).drop("cls"), ranges,
                             inputs.facts.timezone, inputs.vat, inputs.settings.horizon_days)
        part = part.select(*key, pl.col("rooms_otb").alias(f"rooms_otb_{name}"))
        out = part if out is None else out.join(part, on=key, how="full", coalesce=True)
    assert out is not None
    return out.with_columns(pl.col(f"rooms_otb_{n}" for n in names).fill_null(0))


def gross_otb(conn: duckdb.DuckDBPyConnection, pid: int) -> pl.DataFrame:
    """property_id, snapshot_date, stay_date, rooms_gross (room nights for D ever on the books
    by the end of S: those cancelled or moved off since counted too, options never) and
    rooms_otb, from the mart's own change records (otb_changes.book_changes, cumulated as the
    mart cumulates them): rooms_otb = rooms_gross - the room nights gone off by S."""
    inputs = Inputs(conn, read.property_facts(conn, pid), MartSettings())
    changes = book_changes(version_nights(inputs.versions(), inputs.facts.timezone, inputs.vat))
    grid = cumulative_grid(changes, lazy(inputs.ranges(), "ranges", RANGE_COLUMNS),
                           inputs.settings.horizon_days)
    return grid.select("property_id", "snapshot_date", "stay_date", rooms_gross="rooms_new",
                       rooms_otb=pl.col("rooms_new") - pl.col("rooms_cancelled")).collect()


def check(conn: duckdb.DuckDBPyConnection, pid: int, split: pl.DataFrame) -> str:
    mart = (query_frame(conn,
        "SELECT property_id, snapshot_date, stay_date, rooms_otb FROM mart.otb_snapshots "
        "WHERE property_id = ?", [pid]))
    both = mart.join(split, on=["property_id", "snapshot_date", "stay_date"], how="full",
                     coalesce=True)
    missing = both["rooms_otb"].null_count() + both["rooms_otb_group"].null_count()
    parts = [c for c in split.columns if c.startswith("rooms_otb_")]
    bad = both.filter(pl.sum_horizontal(parts) != pl.col("rooms_otb")).height
    return (f"property {pid}: {mart.height} mart rows, {split.height} split rows, "
            f"{missing} unmatched, {bad} where the classes ({' + '.join(parts)}) do not sum "
            "to rooms_otb")


if __name__ == "__main__":
    import sys
    con = duckdb.connect(sys.argv[1] if len(sys.argv) > 1 else "data/warehouse.read.duckdb",
                         read_only=True)
    for (p,) in con.execute("SELECT property_id FROM core.property ORDER BY 1").fetchall():
        print(check(con, p, split_otb(con, p, classes_firm())))
        s = split_otb(con, p)
        print(check(con, p, s))
        fin = s.filter(pl.col("snapshot_date") == pl.col("stay_date"))
        group, transient = float(fin["rooms_otb_group"].sum()), float(
            fin["rooms_otb_transient"].sum())
        print(f"  finals: group share of rooms {group / (group + transient):.3f}")
