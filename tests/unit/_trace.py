"""A heuristic hand of ``play_hands`` played again step by step, and a played Kout hand as a hand
record, for the fork tests."""

from __future__ import annotations

import numpy as np

from kout_sim import cards as C
from kout_sim.drivers.play import hand_traced
from kout_sim.engine import layout as L
from kout_sim.rules import Rules, get_rules
from kout_sim.sim.batch import setup_of


def trace(
    preset: str, seed: int, hand: int, limit: int = -1
) -> tuple[np.ndarray, list[int], list[int], np.ndarray]:
    """(S, actions, legal masks, dealt hands) of heuristic hand ``hand`` of play_hands with run
    seed ``seed``, stopped before decision ``limit`` (-1: played out)."""
    rules = get_rules(preset)
    hands = np.zeros(6, dtype=np.int64)
    actions = np.zeros(256, dtype=np.int64)
    legal = np.zeros(256, dtype=np.int64)
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    setup = setup_of(rules, "heuristic")
    t = hand_traced(setup, seed, hand, hands, actions, legal, S, limit=limit)
    return S, [int(a) for a in actions[:t]], [int(m) for m in legal[:t]], hands


def kout_record(
    rules: Rules, dealt: np.ndarray, S: np.ndarray, actions: list[int]
) -> dict[str, object]:
    """The hand record of a Kout hand: dealt ``dealt``, played by ``actions`` to the state ``S``."""
    calls = [a - L.CALL for a in actions if a >= L.CALL]
    bids: list[object] = ["pass" if c == L.PASS else c for c in calls if c < L.TRUMP]
    return {
        "rules": rules.name,
        "dealer": int(S[L.S_DEALER]),
        "hands": [C.format_mask(int(dealt[s])) for s in range(rules.n_players)],
        "calls": bids,
        "trump": C.SUITS[int(S[L.S_TRUMP])],
        "plays": [C.format_card(a) for a in actions if a < L.CALL],
    }
