"""The property partitions follow the properties file with no reload (issue 47, item 4;
docs/ingestion.md, "Dagster"): the definitions' own `properties_sensor` adds a property that
appeared in the file and deletes one that left it; the schedules then request the range of the
instance's partitions, and a run of that range covers exactly those properties."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import dagster as dg

from pipelines.definitions import defs
from pipelines.defs.partitions import RANGE_END, RANGE_START, codes_of_run, known_codes
from pipelines.defs.resources import PmsApiResource


def _entry(code: str) -> str:
    return f"  - {{code: {code}, base_url: 'http://127.0.0.1:9/v1', api_key_env: KEY_{code}}}\n"


def _tick(instance: dg.DagsterInstance, path: Path) -> dg.SensorResult | dg.SkipReason:
    """One tick of the sensor; its partition requests applied as Dagster's daemon does."""
    sensor = defs.resolve_sensor_def("properties_sensor")
    resources = {"pms": PmsApiResource(properties_file=str(path))}
    with dg.build_sensor_context(instance=instance, resources=resources) as context:
        result = sensor(context)
    assert isinstance(result, (dg.SensorResult, dg.SkipReason))
    if isinstance(result, dg.SensorResult):
        for request in result.dynamic_partitions_requests or []:
            if isinstance(request, dg.AddDynamicPartitionsRequest):
                instance.add_dynamic_partitions(request.partitions_def_name,
                                                list(request.partition_keys))
            else:
                for key in request.partition_keys:
                    instance.delete_dynamic_partition(request.partitions_def_name, key)
    return result


def _hourly_request(instance: dg.DagsterInstance) -> dg.RunRequest | dg.SkipReason:
    schedule = defs.resolve_schedule_def("pms_sync_hourly")
    with dg.build_schedule_context(instance=instance,
                                   scheduled_execution_time=datetime(2026, 11, 29, 3, tzinfo=UTC)
                                   ) as context:
        result = schedule(context)
    assert isinstance(result, (dg.RunRequest, dg.SkipReason))
    return result


def test_a_property_added_to_the_file_becomes_a_partition_at_the_next_tick(
        tmp_path: Path) -> None:
    path = tmp_path / "properties.yaml"
    with dg.instance_for_test() as instance:
        before = _hourly_request(instance)
        assert isinstance(before, dg.SkipReason)  # no partition yet: nothing to sync

        path.write_text("properties:\n" + _entry("ROMA01") + _entry("FIRE01"), encoding="utf-8")
        _tick(instance, path)
        assert known_codes(instance) == ["ROMA01", "FIRE01"]
        request = _hourly_request(instance)
        assert isinstance(request, dg.RunRequest)
        assert (request.tags[RANGE_START], request.tags[RANGE_END]) == ("ROMA01", "FIRE01")

        # A hotel joins, another leaves: the same code location, no reload.
        path.write_text("properties:\n" + _entry("FIRE01") + _entry("MILA01"), encoding="utf-8")
        _tick(instance, path)
        assert known_codes(instance) == ["FIRE01", "MILA01"]
        request = _hourly_request(instance)
        assert isinstance(request, dg.RunRequest)
        assert codes_of_run(request.tags, instance) == ["FIRE01", "MILA01"]

        unchanged = _tick(instance, path)
        assert isinstance(unchanged, dg.SkipReason)


def test_a_broken_file_keeps_the_partitions_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "properties.yaml"
    path.write_text("properties:\n" + _entry("ROMA01"), encoding="utf-8")
    with dg.instance_for_test() as instance:
        _tick(instance, path)
        path.write_text("properties:\n  - {code: ROMA01, burst: 0\n", encoding="utf-8")
        skipped = _tick(instance, path)
        assert isinstance(skipped, dg.SkipReason)
        assert skipped.skip_message is not None
        assert str(path) in skipped.skip_message
        assert "not valid YAML" in skipped.skip_message
        assert known_codes(instance) == ["ROMA01"]
