"""Rule cases as data (tests/scenarios/*.json), each run against both engines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import kout_sim
from kout_sim import IllegalAction, InvalidRecord

HERE = Path(__file__).parent
ENGINES = ["numba", "reference"]
CALLS = {
    "legal_actions": kout_sim.legal_actions,
    "replay_hand": kout_sim.replay_hand,
    "replay_match": kout_sim.replay_match,
}
ERRORS = {"IllegalAction": IllegalAction, "InvalidRecord": InvalidRecord}


def _cases() -> list[Any]:
    out = []
    for path in sorted(HERE.glob("*.json")):
        if path.name.startswith("decisions_"):
            continue  # the players' decision positions (tests/players), not rule cases
        for case in json.loads(path.read_text())["cases"]:
            out.append(pytest.param(case, id=f"{path.stem}:{case['id']}"))
    return out


def _subset(want: Any, got: Any, where: str) -> None:
    if isinstance(want, dict):
        assert isinstance(got, dict), f"{where}: expected a dict, got {got!r}"
        for key, value in want.items():
            assert key in got, f"{where}: missing key {key!r}"
            _subset(value, got[key], f"{where}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: {got!r} != {want!r}"
        for i, (w, g) in enumerate(zip(want, got)):
            _subset(w, g, f"{where}[{i}]")
    else:
        assert got == want and type(got) is type(want), f"{where}: {got!r} != {want!r}"


def test_case_ids_are_unique_and_cite_a_rule() -> None:
    ids = [p.values[0]["id"] for p in _cases()]
    assert len(ids) == len(set(ids))
    for p in _cases():
        assert p.values[0]["rule"], p.values[0]["id"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", _cases())
def test_scenario(case: dict[str, Any], engine: str) -> None:
    call = CALLS[case["call"]]
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(ERRORS[expect["error"]]) as info:
            call(case["record"], engine=engine)
        message = str(info.value).lower()
        assert "\n" not in message
        for part in expect.get("message_contains", []):
            assert part.lower() in message, f"{part!r} not in {message!r}"
        return
    got = call(case["record"], engine=engine)
    if "legal" in expect:
        assert sorted(map(str, got)) == sorted(map(str, expect["legal"]))
    else:
        _subset(expect["result"], got, "result")
