"""Every family of the engine is one kernel bundle with one signature (docs/ARCHITECTURE.md).

``kout_sim.engine.kout`` and ``kout_sim.engine.baloot`` export the same five kernels with the same
parameters, and ``kout_sim.engine.game`` dispatches over them with ``family`` added; a hand played
through the bundle alone ends with the result row the drivers write.
"""

from __future__ import annotations

import inspect
from types import ModuleType

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

from kout_sim.engine import baloot, game, kout
from kout_sim.engine import layout as L
from kout_sim.engine.rng import LANE_DEAL, LANE_PLAY, below, seed_stream
from kout_sim.engine.tables import tables_of
from kout_sim.rules import get_rules
from kout_sim.sim.batch import play_hands

BUNDLE = ("new_hand", "legal_mask", "apply_action", "record_play", "record_hand")
FAMILIES = {"kout": kout, "baloot": baloot}


def _parameters(module: ModuleType, name: str) -> list[str]:
    kernel = getattr(module, name)
    assert isinstance(kernel, CPUDispatcher), (module.__name__, name)
    return list(inspect.signature(kernel.py_func).parameters)


@pytest.mark.parametrize("name", BUNDLE)
def test_every_family_exports_the_kernel_with_one_signature(name: str) -> None:
    signatures = {kind: _parameters(module, name) for kind, module in FAMILIES.items()}
    assert signatures["kout"] == signatures["baloot"], signatures
    assert _parameters(game, name) == [*signatures["kout"], "family"]


def test_a_family_package_exports_its_bundle_and_its_hand_kernels_apart() -> None:
    """The package's own kernels are the bundle; the step-by-step kernels live in ``.hand``."""
    for module in FAMILIES.values():
        own = {
            name
            for name, value in vars(module).items()
            if isinstance(value, CPUDispatcher)
            and value.py_func.__module__ == module.__name__
            and not name.startswith("_")
        }
        assert own <= set(BUNDLE), own
        assert set(BUNDLE) <= set(vars(module)), module.__name__
        assert isinstance(module.hand, ModuleType)


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_6", "baloot"])
def test_a_hand_played_through_the_bundle_records_the_drivers_row(preset: str) -> None:
    """RULES.md 0.4 / 3.2.1 deal, then uniformly random legal actions: the bundle's kernels called
    from Python give the row :func:`kout_sim.sim.batch.play_hands` writes for the same stream."""
    rules = get_rules(preset)
    P, STR = tables_of(rules)
    family = int(P[L.P_FAMILY])
    module = baloot if family == L.FAMILY_BALOOT else kout
    n = int(P[L.P_N_PLAYERS])
    rows = play_hands(rules, 20, 5, "random", workers=1)
    deck = np.array([c for c in range(64) if (int(P[L.P_DECK]) >> c) & 1], dtype=np.int64)
    for index in range(rows.shape[0]):
        deal_lane = np.empty(4, dtype=np.uint64)
        play_lane = np.empty(4, dtype=np.uint64)
        seed_stream(deal_lane, 5, index, LANE_DEAL)
        seed_stream(play_lane, 5, index, LANE_PLAY)
        S = np.zeros(L.S_SIZE, dtype=np.int64)
        cards = np.empty(deck.size, dtype=np.int64)
        hands = np.zeros(6, dtype=np.int64)
        dealer = int(below(deal_lane, n))
        module.new_hand(S, P, STR, deal_lane, dealer, deck, cards, hands, 0, 0)
        assert int(S[L.S_DEALER]) == dealer and int(S[L.S_PHASE]) == L.PH_AUCTION
        rng = np.random.default_rng(index)
        while int(S[L.S_PHASE]) != L.PH_OVER:
            mask = int(module.legal_mask(S, P, STR))
            assert mask != 0, (preset, index)
            bits = [b for b in range(64) if (mask >> b) & 1]
            action = bits[int(rng.integers(len(bits)))]
            if int(S[L.S_PHASE]) == L.PH_PLAY:
                before = int(S[L.S_VOIDS])
                module.record_play(S, P, STR, action)
                assert int(S[L.S_VOIDS]) & before == before  # facts only grow
            module.apply_action(S, P, STR, action)
        row = np.zeros(L.R_SIZE, dtype=np.int64)
        module.record_hand(row, S, P, STR, hands, n)
        assert int(row[L.R_DEALER]) == int(rows[index, L.R_DEALER]) == dealer
        # the deal is the drivers' own (same deal lane): the dealt hands and their holders agree
        if family == L.FAMILY_BALOOT:
            fields = slice(L.R_FIRST_DEAL, L.R_FIRST_DEAL + 4)
        else:
            fields = slice(L.R_HAND, L.R_HAND + 6)
        assert row[fields].tolist() == rows[index, fields].tolist()
        # what the hand did is recorded from its own state
        assert row[L.R_TRICKS : L.R_TRICKS + 2].tolist() == S[L.S_TRICKS : L.S_TRICKS + 2].tolist()
        assert int(row[L.R_N_DONE]) == int(S[L.S_N_DONE])
        assert int(row[L.R_BIDDER]) == int(S[L.S_BIDDER])
        played = row[L.R_HAND : L.R_HAND + n]
        assert int(np.bitwise_or.reduce(played)) & ~int(P[L.P_DECK]) == 0
