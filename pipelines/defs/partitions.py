"""One dynamic partition per property of the properties file (docs/ingestion.md).

The partitions live in the Dagster instance, not in the code: the sensor `properties_sensor`
(pipelines.defs.automation) adds a property when it appears in the file and deletes one that
left it, so a hotel added to the file is synced at the next tick, with no reload of the code
location. `pmsw sync` and the demo add the file's properties to their own ephemeral instance
before each run (pipelines.materialize). The order of the partitions is the order they were
added in: a range (a single-run backfill, what the schedules request) is read in that order.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

import dagster as dg

PROPERTIES_NAME = "properties"
PROPERTIES = dg.DynamicPartitionsDefinition(name=PROPERTIES_NAME)

RANGE_START, RANGE_END = "dagster/asset_partition_range_start", "dagster/asset_partition_range_end"
"""The tags of a run over a range of partitions (what a single-run backfill launches)."""
ONE_RUN = dg.BackfillPolicy.single_run()
"""Every partitioned asset of a sync takes a range of properties in one run: the steps sync
them concurrently (pipelines.defs.each_property), one writer process for the DuckDB file."""


@contextmanager
def one_run_accepted() -> Iterator[None]:
    """Define assets with `backfill_policy=ONE_RUN`: the parameter is marked beta in dagster
    1.13 (BetaWarning on every definition); we rely on it knowingly, tested in
    tests/pipeline/test_group_sync.py, so its warning is not repeated to every user."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=dg.BetaWarning,
                                message=".*backfill_policy.*")
        yield


def known_codes(instance: dg.DagsterInstance) -> list[str]:
    """The property partitions of the instance, in the order they were added."""
    return list(instance.get_dynamic_partitions(PROPERTIES_NAME))


@contextmanager
def instance_with(codes: Sequence[str]) -> Iterator[dg.DagsterInstance]:
    """An ephemeral Dagster instance holding the property partitions `codes` (an in-process
    run: `pmsw sync`, the demo, tests), disposed on exit."""
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions(PROPERTIES_NAME, list(codes))
        _remember_partitions(instance)
        yield instance


def _remember_partitions(instance: dg.DagsterInstance) -> None:
    """Dagster asks a run's instance whether its partition exists some 20 times a step, a query
    of the event log each (174 in a one-property `pmsw sync`, about a tenth of its run's CPU):
    the instance answers from the partitions it holds, read once, read again after any is
    added or deleted through it (an ephemeral instance has no other writer)."""
    held: dict[str, frozenset[str]] = {}
    add, delete = instance.add_dynamic_partitions, instance.delete_dynamic_partition

    def has_dynamic_partition(partitions_def_name: str, partition_key: str) -> bool:
        if partitions_def_name not in held:
            held[partitions_def_name] = frozenset(instance.get_dynamic_partitions(
                partitions_def_name))
        return partition_key in held[partitions_def_name]

    def add_dynamic_partitions(partitions_def_name: str, partition_keys: Sequence[str]) -> None:
        held.pop(partitions_def_name, None)
        add(partitions_def_name, partition_keys)

    def delete_dynamic_partition(partitions_def_name: str, partition_key: str) -> None:
        held.pop(partitions_def_name, None)
        delete(partitions_def_name, partition_key)

    for method in (has_dynamic_partition, add_dynamic_partitions, delete_dynamic_partition):
        setattr(instance, method.__name__, method)


def partition_requests(in_file: Sequence[str], known: Sequence[str]) -> list[
        dg.AddDynamicPartitionsRequest | dg.DeleteDynamicPartitionsRequest]:
    """What makes the instance's partitions the file's: add the new codes (in the file's
    order), delete those no longer in the file (their history stays in the event log)."""
    added = [code for code in in_file if code not in known]
    gone = [code for code in known if code not in in_file]
    return ([PROPERTIES.build_add_request(added)] if added else []) + \
        ([PROPERTIES.build_delete_request(gone)] if gone else [])


def codes_of_run(tags: Mapping[str, str], instance: dg.DagsterInstance) -> list[str] | None:
    """The property partitions a run covers, from its tags (one partition, or a range of the
    instance's partitions); None for a run of no partition."""
    if "dagster/partition" in tags:
        return [tags["dagster/partition"]]
    if RANGE_START in tags and RANGE_END in tags:
        known = known_codes(instance)
        first, last = (known.index(tags[t]) for t in (RANGE_START, RANGE_END))
        return known[first:last + 1]
    return None
