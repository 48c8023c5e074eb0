"""The heuristics decide on what their seat knows: permuting the hidden cards never changes a choice.

At positions of heuristic games of every preset (dealt and stepped from Python), the cards the
deciding seat cannot see (the other seats' hands; in a Baloot auction also the undealt stock) are
permuted among their holders, keeping what the seat knows: its own hand, every card played, the
hand sizes, the shown voids of ``S_VOIDS`` (RULES.md 1.5, 1.8, 2.6, 3.3.1, 3.4.1-3.4.3), the
Bahraini bidder's trump until he has played one (2.4) and the Baloot face-up card with its taker
(3.2.6). The heuristic, given the same random state, must choose the same action.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from kout_sim import cards as C
from kout_sim.engine import layout as L
from kout_sim.engine.rng import LANE_PLAY, seed_stream
from kout_sim.engine.step import NumbaHand
from kout_sim.engine.tables import tables_of
from kout_sim.players import parse_lineup
from kout_sim.players.baloot_heuristic import choose_baloot
from kout_sim.players.kout_heuristic import choose_kout
from kout_sim.players.turn import Turn, turn_of
from kout_sim.reference import stream as RS
from kout_sim.rules import KoutPreset, Rules, get_rules, preset_names

Chooser = Callable[..., int]


def _allowed(S: np.ndarray, rules: Rules, seat: int, card: int) -> bool:
    """May ``seat`` hold ``card`` given what the plays have shown (``S_VOIDS``)?"""
    voids = int(S[L.S_VOIDS])
    if card >= 52:
        return not (voids >> (seat * 8 + 4 + card - 52)) & 1
    if (voids >> (seat * 8 + C.suit_of(card))) & 1:
        return False
    baloot = rules.is_baloot
    if baloot and int(S[L.B_MODE]) == L.MODE_HOKUM and C.suit_of(card) == int(S[L.S_TRUMP]):
        return not (voids >> (32 + seat * 8 + C.rank_of(card) - 5)) & 1
    return True


def _must_hold_trump(S: np.ndarray, rules: Rules) -> int:
    """RULES.md 2.4: the Bahraini bidder who has not played a trump still holds one (-1: none)."""
    pre = rules.preset
    if not (isinstance(pre, KoutPreset) and pre.trump_must_hold) or S[L.S_PHASE] != L.PH_PLAY:
        return -1
    bidder = int(S[L.S_BIDDER])
    return -1 if (int(S[L.S_VOIDS]) >> (bidder * 8 + 7)) & 1 else bidder


def permute_hidden(S: np.ndarray, rules: Rules, rng: random.Random) -> tuple[np.ndarray, bool]:
    """A copy of ``S`` with the hidden cards permuted (random swaps that keep every known fact),
    and whether anything moved."""
    seat = int(S[L.S_TO_ACT])
    n = rules.n_players
    baloot = rules.is_baloot
    slots: list[list[int]] = [
        [] if s == seat else C.cards_of(int(S[L.S_HAND + s])) for s in range(n)
    ]
    if baloot and int(S[L.S_PHASE]) == L.PH_AUCTION:
        slots.append([int(c) for c in S[L.B_STOCK : L.B_STOCK + 11]])  # the stock: slot n
    face_up, taker = int(S[L.B_FACE_UP]), int(S[L.B_TAKER]) if baloot else -1
    keeper = _must_hold_trump(S, rules)
    trump = int(S[L.S_TRUMP])
    pool = [(s, k) for s, cards in enumerate(slots) for k in range(len(cards))]
    pool = [(s, k) for s, k in pool if not (s == taker and slots[s][k] == face_up)]
    moved = False
    for _ in range(2 * len(pool)):
        (s1, k1), (s2, k2) = pool[rng.randrange(len(pool))], pool[rng.randrange(len(pool))]
        if s1 == s2:
            continue
        c1, c2 = slots[s1][k1], slots[s2][k2]
        if (s2 < n and not _allowed(S, rules, s2, c1)) or (
            s1 < n and not _allowed(S, rules, s1, c2)
        ):
            continue
        slots[s1][k1], slots[s2][k2] = c2, c1
        if keeper >= 0 and not any(C.suit_of(c) == trump for c in slots[keeper]):
            slots[s1][k1], slots[s2][k2] = c1, c2  # 2.4: the bidder still holds a trump
            continue
        moved = True
    out = S.copy()
    for s in range(n):
        if s != seat:
            out[L.S_HAND + s] = C.mask_of(slots[s])
    if len(slots) > n:
        out[L.B_STOCK : L.B_STOCK + 11] = slots[n]
    return out, moved


def check_preset(
    preset: str, n_hands: int, seed: int, chooser: Chooser | None = None
) -> tuple[int, int]:
    """Heuristic hands of ``preset``; returns (decisions checked, permutations that moved cards).

    ``chooser`` replaces the family's heuristic (to show that a peeking player is caught)."""
    rules = get_rules(preset)
    P, STR = tables_of(rules)
    n = rules.n_players
    family = rules.family
    baloot = rules.is_baloot
    choose: Chooser = chooser or (choose_baloot if baloot else choose_kout)
    prm = parse_lineup("heuristic", n, family).params(family)[0]
    rng = random.Random(seed)
    play = np.empty(4, dtype=np.uint64)
    seed_stream(play, seed, 0, LANE_PLAY)
    checked = moved = 0
    signed = isinstance(rules.preset, KoutPreset) and rules.preset.signed_score  # RULES.md 2.10
    for _ in range(n_hands):
        MS = np.zeros(L.M_SIZE, dtype=np.int64)
        MS[L.M_SCORE] = rng.randrange(-20, 21) if signed else rng.randrange(60)
        MS[L.M_SCORE + 1] = 0 if signed else rng.randrange(60)
        cards = RS.deck(preset)
        rng.shuffle(cards)
        dealt = RS.deal_shuffled(preset, rng.randrange(n), cards)
        masks = [C.mask_of(C.parse_card(c) for c in h) for h in dealt.hands]
        if baloot:
            score = (int(MS[L.M_SCORE]), int(MS[L.M_SCORE + 1]))
            hand = NumbaHand(
                rules, dealt.dealer, masks, face_up=C.parse_card(dealt.face_up), match_score=score
            )
            hand.S[L.B_STOCK : L.B_STOCK + 11] = [C.parse_card(c) for c in dealt.stock]
        else:
            hand = NumbaHand(rules, dealt.dealer, masks)
        while hand.phase != "over":
            if hand.phase == "completion":
                completion = dealt.completion(int(hand.S[L.B_TAKER]))
                hand.complete([C.mask_of(C.parse_card(c) for c in h) for h in completion])
                continue
            mask = hand.legal_mask()
            if mask & (mask - 1):  # more than one legal action: the heuristic decides
                before = play.copy()
                action = int(choose(hand.S, turn_of(P, STR, MS, play, prm), mask))
                for _ in range(2):
                    S2, changed = permute_hidden(hand.S, rules, rng)
                    again = int(choose(S2, turn_of(P, STR, MS, before.copy(), prm), mask))
                    assert again == action, (preset, hand.phase, int(hand.S[L.S_TO_ACT]))
                    moved += changed
                checked += 1
            else:
                action = (mask & -mask).bit_length() - 1
            _apply(hand, action)
    return checked, moved


def _apply(hand: NumbaHand, action: int) -> None:
    """Apply a phase-relative action index through the step API's vocabulary."""
    if hand.phase == "play":
        hand.apply(C.format_card(action))
    elif hand.baloot:
        hand.apply(L.BALOOT_CALL_NAMES[action])
    elif hand.phase == "auction":
        hand.apply("pass" if action == L.PASS else action)
    else:
        hand.apply(C.SUITS[action - L.TRUMP])


@pytest.mark.parametrize("preset", preset_names())
def test_heuristic_choices_ignore_the_hidden_cards(preset: str) -> None:
    checked, moved = check_preset(preset, 80, seed=31)
    assert checked > 80 * 10
    assert moved > checked  # two permutations per decision: nearly every one moved cards


def _peeking(S: np.ndarray, turn: Turn, mask: int) -> int:
    """A player that looks at the next seat's cards: the test must catch it."""
    n = 4 if turn.P[L.P_N_PLAYERS] == 4 else 6
    nxt = int(S[L.S_HAND + (int(S[L.S_TO_ACT]) + 1) % n])
    legal = C.cards_of(mask)
    return legal[(nxt & -nxt).bit_length() % len(legal)]


@pytest.mark.parametrize("preset", ["kout_bo_4", "baloot"])
def test_a_player_that_peeks_is_caught(preset: str) -> None:
    with pytest.raises(AssertionError):
        check_preset(preset, 5, seed=33, chooser=_peeking)


@pytest.mark.slow
@pytest.mark.parametrize("preset", preset_names())
def test_heuristic_choices_ignore_the_hidden_cards_many_positions(preset: str) -> None:
    checked, _ = check_preset(preset, 3_000, seed=32)
    assert checked > 3_000 * 10
