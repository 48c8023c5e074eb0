"""Invariants at every step of random hands in the numba engine (all Kout presets)."""

from __future__ import annotations

import numpy as np
import pytest

from kout_sim import cards as C
from kout_sim.drivers.play import random_hand_traced
from kout_sim.engine import baloot, game, kout
from kout_sim.engine import layout as L
from kout_sim.engine.tables import tables_of
from kout_sim.rules import get_rules

PRESETS = ["kout_bo_4", "kout_bo_6", "kout_bh_4", "kout_bh_6"]


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


@pytest.mark.parametrize("preset", PRESETS)
def test_invariants_hold_at_every_step(preset: str) -> None:
    rules = get_rules(preset)
    P, STR = tables_of(rules)
    n, n_tricks = rules.n_players, rules.n_tricks
    hands = np.zeros(6, dtype=np.int64)
    actions = np.zeros(128, dtype=np.int64)
    legal = np.zeros(128, dtype=np.int64)
    trace_state = np.zeros(L.S_SIZE, dtype=np.int64)
    for i in range(1_500):
        k = int(
            random_hand_traced(
                P, STR, 5, i, hands, actions, legal, trace_state, 800 * (i % 2), 0, 0
            )
        )
        dealer = int(trace_state[L.S_DEALER])
        # the deal: every card of the deck once, n_tricks to each seat
        dealt = [int(h) for h in hands[:n]]
        assert all(_popcount(h) == n_tricks for h in dealt)
        assert np.bitwise_or.reduce(hands[:n]) == rules.deck_mask
        S = np.zeros(L.S_SIZE, dtype=np.int64)
        kout.hand.reset_hand(S, P, dealer, hands)
        played_by: dict[int, int] = {}
        for t in range(k):
            assert int(game.legal_mask(S, P, STR, int(P[L.P_FAMILY]))) == int(
                legal[t]
            )  # step API = batch kernel
            seat = int(S[L.S_TO_ACT])
            action = int(actions[t])
            if action < L.CALL:
                hand = int(S[L.S_HAND + seat])
                assert legal[t] != 0 and (int(legal[t]) & ~hand) == 0  # legal is within the hand
                played_by[action] = seat
                game.apply_action(S, P, STR, action, int(P[L.P_FAMILY]))
                # each card once; held + played = dealt
                in_trick = [int(c) for c in S[L.S_TRICK : L.S_TRICK + int(S[L.S_N_IN_TRICK])]]
                held = int(np.bitwise_or.reduce(S[L.S_HAND : L.S_HAND + n]))
                assert held & int(S[L.S_PLAYED]) == 0
                assert held | int(S[L.S_PLAYED]) | C.mask_of(in_trick) == rules.deck_mask
                # one card per seat per trick
                assert len({played_by[c] for c in in_trick}) == len(in_trick)
            else:
                game.apply_action(S, P, STR, action - L.CALL, int(P[L.P_FAMILY]))
            done = int(S[L.S_N_DONE])
            assert int(S[L.S_TRICKS]) + int(S[L.S_TRICKS + 1]) == done
            assert all(_popcount(int(S[L.S_HAND + s])) >= n_tricks - done - 1 for s in range(n))
        assert S[L.S_PHASE] == L.PH_OVER
        points = [int(S[L.S_POINTS]), int(S[L.S_POINTS + 1])]
        if S[L.S_MATCH_WINNER] >= 0:
            assert points == [0, 0]  # Inzili or forced joker: the hand decides the match
        else:
            assert (points[0] > 0) != (points[1] > 0)  # exactly one team scores (1.10, 2.10)
            team = int(S[L.S_BIDDER]) & 1
            assert bool(S[L.S_MADE]) == (points[team] > 0)
            assert bool(S[L.S_MADE]) == (int(S[L.S_TRICKS + team]) >= int(S[L.S_HIGH_BID]))


def test_baloot_invariants_hold_at_every_step() -> None:
    rules = get_rules("baloot")
    P, STR = tables_of(rules)
    hands = np.zeros(6, dtype=np.int64)
    actions = np.zeros(128, dtype=np.int64)
    legal = np.zeros(128, dtype=np.int64)
    traced = np.zeros(L.S_SIZE, dtype=np.int64)
    scores = ((0, 0), (120, 40), (150, 150))
    for i in range(1_500):
        score = scores[i % 3]
        k = int(
            random_hand_traced(P, STR, 6, i, hands, actions, legal, traced, 500 * (i % 2), *score)
        )
        S = np.zeros(L.S_SIZE, dtype=np.int64)
        # replay the traced decisions from the same deal through the step kernels
        baloot.hand.reset_hand(S, int(traced[L.S_DEALER]), hands, int(traced[L.B_FACE_UP]), *score)
        S[L.B_STOCK : L.B_STOCK + 11] = traced[L.B_STOCK : L.B_STOCK + 11]
        assert all(_popcount(int(h)) == 5 for h in hands[:4])
        n_plays = 0
        for t in range(k):
            assert int(game.legal_mask(S, P, STR, int(P[L.P_FAMILY]))) == int(legal[t])
            action = int(actions[t])
            if action < L.CALL:
                seat = int(S[L.S_TO_ACT])
                hand = int(S[L.S_HAND + seat])
                assert _popcount(hand) == 8 - int(S[L.S_N_DONE])  # eight cards after completion
                assert (int(legal[t]) & ~hand) == 0
                game.apply_action(S, P, STR, action, int(P[L.P_FAMILY]))
                n_plays += 1
                held = int(np.bitwise_or.reduce(S[L.S_HAND : L.S_HAND + 4]))
                trick = C.mask_of(int(c) for c in S[L.S_TRICK : L.S_TRICK + int(S[L.S_N_IN_TRICK])])
                assert held | int(S[L.S_PLAYED]) | trick == rules.deck_mask
                assert held & (int(S[L.S_PLAYED]) | trick) == 0
            else:
                game.apply_action(S, P, STR, action - L.CALL, int(P[L.P_FAMILY]))
        assert S[L.S_PHASE] == L.PH_OVER and np.array_equal(S, traced)
        if S[L.B_VOID]:
            assert n_plays == 0 and S[L.S_POINTS] == S[L.S_POINTS + 1] == 0
            continue
        assert n_plays == 32 and int(S[L.S_TRICKS]) + int(S[L.S_TRICKS + 1]) == 8
        total = 130 if S[L.B_MODE] == L.MODE_SUN else 162  # RULES.md 3.1, 3.6.1
        assert int(S[L.B_CARD_PTS]) + int(S[L.B_CARD_PTS + 1]) == total
        assert S[L.S_POINTS] >= 0 and S[L.S_POINTS + 1] >= 0
