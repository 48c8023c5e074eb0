"""Statistical checks of the deal (slow): uniformity and known combinatorial probabilities."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kout_sim import cards as C
from kout_sim.engine import layout as L
from kout_sim.rules import get_rules, preset_names
from kout_sim.sim import play_random_hands

N = 400_000


def _chi2_critical(df: int, z: float = 4.0) -> float:
    """Wilson-Hilferty upper quantile of chi-square (z standard deviations, about 1 in 30,000)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.slow
@pytest.mark.parametrize("preset", preset_names())
def test_every_card_reaches_every_seat_equally(preset: str) -> None:
    # Baloot: without the face-up Ace restriction no random call depends on the cards, so the eight
    # cards each seat holds after completion must be exchangeable too
    rules = get_rules(preset, {"ace_sun_restriction": "none"} if preset == "baloot" else None)
    rows = play_random_hands(rules, N, 99)
    if rules.is_baloot:
        rows = rows[rows[:, L.R_MODE] != 0]  # bought hands: the eight cards after completion
    n = rules.n_players
    deck = C.cards_of(rules.deck_mask)
    counts = np.zeros((len(deck), n))
    for offset in range(n):  # seat relative to the dealer
        seat_masks = rows[np.arange(len(rows)), L.R_HAND + (rows[:, L.R_DEALER] + 1 + offset) % n]
        for k, card in enumerate(deck):
            counts[k, offset] = int(((seat_masks >> card) & 1).sum())
    assert np.all(counts.sum(axis=1) == len(rows))  # every card is dealt to someone
    expected = counts.sum(axis=1, keepdims=True) / n
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    df = len(deck) * (n - 1)
    assert chi2 < _chi2_critical(df), (chi2, df)


@pytest.mark.slow
def test_both_jokers_in_one_hand_matches_combinatorics() -> None:
    # kout_bo_4: P(a given seat holds RJ and BJ) = C(34, 7) / C(36, 9) = 72 / 1260
    rows = play_random_hands(get_rules("kout_bo_4"), N, 7)
    both = (1 << C.RJ) | (1 << C.BJ)
    hits = sum(int(((rows[:, L.R_HAND + s] & both) == both).sum()) for s in range(4))
    p = 72 / 1260
    trials = 4 * N
    sigma = math.sqrt(p * (1 - p) / trials)  # seats are dependent; this is conservative enough
    assert abs(hits / trials - p) < 5 * sigma
