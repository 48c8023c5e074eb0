"""benchmarks/floor_kernel.py: the plain bitmask kernel behind issue 20's floor figure."""

from __future__ import annotations

import numpy as np

from benchmarks import floor_kernel as fk


def test_every_hand_plays_nine_tricks_of_four_cards_rules_1_5_and_1_9() -> None:
    tricks = np.full(2_000, -1, dtype=np.int64)
    cards = fk.plain_hands(2_000, 7, tricks)
    assert cards == 2_000 * 36
    assert tricks.min() >= 0 and tricks.max() <= 9
    # the two teams are alike: seats 0 and 2 take half the tricks, give or take the noise
    assert abs(tricks.mean() - 4.5) < 0.15


def test_the_hands_are_the_seeds_and_only_the_seeds() -> None:
    a, b, c = (np.zeros(500, dtype=np.int64) for _ in range(3))
    fk.plain_hands(500, 3, a)
    fk.plain_hands(500, 3, b)
    fk.plain_hands(500, 4, c)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_floor_per_card_times_a_positive_cost() -> None:
    timed, cards = fk.floor_per_card(200, seed=1)
    assert cards == 200 * 36
    assert 0 < timed() < 1e6
