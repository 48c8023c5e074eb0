"""The fuzzer as a test: mutated records of every preset through both engines give a result,
``InvalidRecord`` or ``IllegalAction``, never another error, and the same class from both.

A short profile runs always (a few hundred records); the ``slow`` set runs tens of thousands.
``python -m tests.invariants._fuzz N`` prints the figures of N records."""

from __future__ import annotations

import json
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kout_sim import InvalidRecord, preset_names, replay_hand, replay_match  # noqa: E402

from . import _fuzz  # noqa: E402

SHORT = settings(
    max_examples=300,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LONG = settings(SHORT, max_examples=30_000, derandomize=False)


class DataChooser:
    """The choices of a mutation drawn by hypothesis (so that a failure shrinks)."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def integer(self, low: int, high: int) -> int:
        value: int = self.data.draw(st.integers(low, high))
        return value

    def pick(self, items: Any) -> Any:
        return self.data.draw(st.sampled_from(list(items)))


@SHORT
@given(st.data())
def test_mutated_records_get_the_same_class_from_both_engines(data: Any) -> None:
    _fuzz.check(_fuzz.mutated(DataChooser(data)))


@pytest.mark.slow
@LONG
@given(st.data())
def test_mutated_records_get_the_same_class_from_both_engines_long(data: Any) -> None:
    _fuzz.check(_fuzz.mutated(DataChooser(data)))


def test_the_valid_records_replay_on_both_engines() -> None:
    for preset in preset_names():
        for text in _fuzz.valid_records(preset):
            assert _fuzz.check(json.loads(text)) == dict.fromkeys(_fuzz.ENGINES, "result")


@pytest.mark.parametrize("engine", _fuzz.ENGINES)
@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        (("options", "target"), 2**63, "option 'target'"),
        (("options", "target"), 40_000, "up to 1,000"),
        (("calls", 0), 2**70, "a bid is a small integer"),
    ],
)
def test_out_of_range_integers_are_invalid_records_on_both_engines(
    engine: str, path: tuple[Any, ...], value: int, words: str
) -> None:
    record = json.loads(_fuzz.valid_records("kout_bo_4")[0])
    node = record
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(InvalidRecord, match=words):
        replay_hand(record, engine=engine)


@pytest.mark.parametrize("engine", _fuzz.ENGINES)
@pytest.mark.parametrize("score", [[2**63, 0], [0, 10**7], [-1, 0]])
def test_a_baloot_match_score_out_of_range_is_an_invalid_record(
    engine: str, score: list[int]
) -> None:
    record = json.loads(_fuzz.valid_records("baloot")[0])
    record["match_score"] = score
    with pytest.raises(InvalidRecord, match=r"match_score must be two scores 0\.\.1,000,000"):
        replay_hand(record, engine=engine)


def test_a_match_record_with_a_huge_target_is_an_invalid_record() -> None:
    record = json.loads(_fuzz.valid_records("kout_bh_4")[-1])
    record["options"]["target"] = 2**64
    for engine in _fuzz.ENGINES:
        with pytest.raises(InvalidRecord, match="option 'target'"):
            replay_match(record, engine=engine)
