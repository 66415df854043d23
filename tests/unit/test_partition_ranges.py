"""A Dagster run takes one range of partitions (pipelines.materialize.contiguous): the
properties asked are grouped into runs of neighbours in the properties file's order."""

from pipelines.materialize import contiguous

KNOWN = ["A", "B", "C", "D", "E"]


def test_every_property_is_one_range() -> None:
    assert contiguous(KNOWN, KNOWN) == [KNOWN]


def test_a_gap_splits_the_ranges_and_the_order_asked_does_not_matter() -> None:
    assert contiguous(["D", "A", "B", "E"], KNOWN) == [["A", "B"], ["D", "E"]]


def test_a_property_asked_twice_runs_once() -> None:
    assert contiguous(["C", "C"], KNOWN) == [["C"]]


def test_the_survivors_of_a_failed_range_split_around_the_property_that_failed() -> None:
    survivors = [c for c in KNOWN if c != "C"]
    assert contiguous(survivors, KNOWN) == [["A", "B"], ["D", "E"]]
