"""Same seed, same rows, whatever the number of workers; different seeds differ."""

from __future__ import annotations

import numpy as np
import pytest

from kout_sim.engine import layout as L
from kout_sim.rules import get_rules
from kout_sim.sim import available_workers, play_random_hands, play_random_matches

PRESETS = ["kout_bo_4", "kout_bo_6", "kout_bh_4", "kout_bh_6", "baloot"]
WORKERS = [1, 2] if available_workers() >= 2 else [1]


@pytest.mark.parametrize("preset", PRESETS)
def test_hands_identical_across_workers(preset: str) -> None:
    rules = get_rules(preset)
    runs = [play_random_hands(rules, 5_000, 42, workers=w) for w in WORKERS]
    for other in runs[1:]:
        assert np.array_equal(runs[0], other)
    again = play_random_hands(rules, 5_000, 42, workers=1)
    assert np.array_equal(runs[0], again)
    assert not np.array_equal(runs[0], play_random_hands(rules, 5_000, 43, workers=1))


def test_a_hand_replays_alone_from_its_stream_index() -> None:
    rules = get_rules("kout_bo_4")
    batch = play_random_hands(rules, 3_000, 9)
    alone = play_random_hands(rules, 1, 9, first=2_345)
    assert np.array_equal(batch[2_345], alone[0])


@pytest.mark.parametrize("preset", PRESETS)
def test_matches_identical_across_workers_and_chunks(preset: str) -> None:
    rules = get_rules(preset)
    m1, h1 = play_random_matches(rules, 5_000, 7, workers=1)
    m2, h2 = play_random_matches(rules, 5_000, 7, workers=WORKERS[-1])
    assert np.array_equal(m1, m2) and np.array_equal(h1, h2)
    # match 4100 alone (a later chunk) equals its row in the batch
    m3, h3 = play_random_matches(rules, 1, 7, first=4_100)
    assert np.array_equal(m3[0], m1[4_100])
    assert np.array_equal(h3, h1[h1[:, L.R_MATCH] == 4_100])
