"""The transition table of sandbox/services/state_machine.py against the spec's table (States
and transitions): every (status, trigger) pair, allowed or refused with 422."""

from __future__ import annotations

import itertools

import pytest

from models.common import ReservationStatus as S
from sandbox.errors import ApiError
from sandbox.services.state_machine import Trigger, reservation_status, transition

SPEC_TABLE = {
    (S.OPTION, Trigger.CONFIRM): S.CONFIRMED,
    (S.CONFIRMED, Trigger.CHECK_IN): S.CHECKED_IN,
    (S.CHECKED_IN, Trigger.CHECK_OUT): S.CHECKED_OUT,
    (S.OPTION, Trigger.CANCEL): S.CANCELLED,
    (S.CONFIRMED, Trigger.CANCEL): S.CANCELLED,
}


@pytest.mark.parametrize(("status", "trigger"), list(itertools.product(S, Trigger)))
def test_every_pair_follows_the_spec_table(status: S, trigger: Trigger) -> None:
    expected = SPEC_TABLE.get((status, trigger))
    if expected is not None:
        assert transition(status, trigger) is expected
    else:
        with pytest.raises(ApiError) as refused:
            transition(status, trigger)
        assert refused.value.status == 422
        assert refused.value.code.value == "rule_violation"


@pytest.mark.parametrize(("rooms", "expected"), [
    ([S.CONFIRMED, S.OPTION], S.OPTION),
    ([S.CHECKED_IN, S.CONFIRMED], S.CONFIRMED),
    ([S.CHECKED_OUT, S.CHECKED_IN], S.CHECKED_IN),
    ([S.CHECKED_OUT, S.CANCELLED], S.CHECKED_OUT),
    ([S.CANCELLED, S.OPTION], S.OPTION),
    ([S.CANCELLED, S.CANCELLED], S.CANCELLED),
])
def test_reservation_status_is_the_least_advanced_not_cancelled(rooms: list[S],
                                                                expected: S) -> None:
    assert reservation_status(rooms) is expected
