"""The record types of the hand state (kout_sim.engine.state) name exactly what the kernels use."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from kout_sim.engine import layout as L
from kout_sim.engine.state import FIELDS, STATE_DTYPE, Kind, state_view
from kout_sim.engine.step import NumbaHand
from kout_sim.rules import get_rules
from tests.unit._trace import trace


def _constants(prefix: str) -> dict[str, int]:
    pattern = re.compile(rf"^{prefix}_[A-Z0-9_]+$")
    return {k: v for k, v in vars(L).items() if pattern.match(k) and k != "S_SIZE"}


OWN: dict[Kind, str] = {"kout": "K", "baloot": "B"}


@pytest.mark.parametrize("kind", ["kout", "baloot"])
def test_every_state_offset_of_the_layout_is_a_field_of_its_family(kind: Kind) -> None:
    offsets = {offset for _, offset, _ in FIELDS[kind]}
    expected = {**_constants("S"), **_constants(OWN[kind])}
    assert len(expected) > 20
    missing = {name for name, offset in expected.items() if offset not in offsets}
    assert not missing, f"layout constants without a {kind} field: {sorted(missing)}"
    # and nothing else: every field starts at one of the family's constants
    assert offsets <= set(expected.values())


@pytest.mark.parametrize("kind", ["kout", "baloot"])
def test_no_two_fields_of_a_family_overlap_and_all_lie_in_the_state(kind: Kind) -> None:
    spans = sorted((offset, offset + n, name) for name, offset, n in FIELDS[kind])
    for (_, end, name), (start, _, nxt) in itertools.pairwise(spans):
        assert end <= start, f"{name} overlaps {nxt}"
    assert spans[-1][1] <= L.S_SIZE
    assert STATE_DTYPE[kind].itemsize == 8 * L.S_SIZE


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_6", "baloot"])
def test_the_view_reads_a_played_hand_by_name(preset: str) -> None:
    """At the end of heuristic hands: the tricks add up to the tricks played (Kout, RULES.md 1.11
    may stop early), the card points of a played Baloot hand to 130 (Sun) or 162 (Hokum, 3.6.1:
    the last trick's 10 included); writing a field writes the state."""
    rules = get_rules(preset)
    kind: Kind = rules.family.kind
    for hand in range(20):
        S, _, _, _ = trace(preset, 5, hand)
        view = state_view(S, kind)
        assert view["phase"] == L.PH_OVER
        assert list(view["hand"]) == list(S[L.S_HAND : L.S_HAND + 6])
        assert int(np.sum(view["tricks"])) == int(view["n_done"])
        if kind == "baloot" and view["mode"] != 0:
            assert int(np.sum(view["card_points"])) == (130 if view["mode"] == L.MODE_SUN else 162)
    view["trump"] = 3
    assert S[L.S_TRUMP] == 3
    stepped = NumbaHand.from_state(rules, S)
    assert stepped.fields["trump"] == 3 and stepped.fields["dealer"] == S[L.S_DEALER]


def test_a_state_of_the_wrong_shape_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="contiguous int64"):
        state_view(np.zeros(10, dtype=np.int64), "kout")
    with pytest.raises(ValueError, match="unknown family kind"):
        state_view(np.zeros(L.S_SIZE, dtype=np.int64), "bridge")  # type: ignore[arg-type]
