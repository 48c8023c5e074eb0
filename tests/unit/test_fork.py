"""Joker forks: the engine entry point that plays a position on from a forced first action, and the
fork driver that uses it at every joker decision (RULES.md 1.6-1.8, 2.6-2.8)."""

from __future__ import annotations

import numpy as np
import pytest

from kout_sim import cards as C
from kout_sim.drivers import fork as FK
from kout_sim.engine import layout as L
from kout_sim.engine.rng import seed_stream
from kout_sim.engine.tables import tables_of
from kout_sim.replay import replay_hand
from kout_sim.rules import get_rules
from kout_sim.sim import fork as F

from ._trace import kout_record, trace

SEED = 5
N_HANDS = 300


@pytest.fixture(scope="module", params=["kout_bo_4", "kout_bh_4"])
def forked(request: pytest.FixtureRequest) -> tuple[str, np.ndarray]:
    rules = get_rules(request.param)
    return request.param, F.fork_records(rules, N_HANDS, SEED, "heuristic", workers=1)


def test_fork_records_do_not_depend_on_the_split(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = get_rules("kout_bo_4")
    whole = F.fork_records(rules, 200, 9, "heuristic", workers=1)
    monkeypatch.setattr(F, "FORK_CHUNK", 37)
    split = F.fork_records(rules, 200, 9, "heuristic", workers=2)
    assert len(whole) > 0 and np.array_equal(whole, split)


def test_every_joker_decision_is_forked_and_only_those_rules_1_6_and_2_8(
    forked: tuple[str, np.ndarray],
) -> None:
    """Kout Bo: every lead where a joker and another card are legal (1.6); Bahraini: every play of
    the joker beside another legal card, which is never a lead while the holder has others (2.8)."""
    preset, records = forked
    rules = get_rules(preset)
    n = rules.n_players
    jokers = int(tables_of(rules)[0][L.P_JOKER_MASK])
    lead_only = preset.startswith("kout_bo")
    for hand in range(60):
        _, actions, legal, _ = trace(preset, SEED, hand)
        expected, plays = [], 0
        for t, (action, mask) in enumerate(zip(actions, legal)):
            if action >= L.CALL:
                continue
            leading = plays % n == 0
            plays += 1
            if mask & jokers and mask & ~jokers and (leading or not lead_only):
                expected.append(t)
        mine = records[records[:, FK.F_HAND] == hand]
        assert list(mine[:, FK.F_PLY]) == expected
        for rec in mine:
            ply = int(rec[FK.F_PLY])
            assert rec[FK.F_CHOSEN] == actions[ply]  # the hand itself went on as the policy chose
            assert (legal[ply] >> int(rec[FK.F_JOKER])) & 1 and rec[FK.F_JOKER] in C.JOKERS
            assert (legal[ply] >> int(rec[FK.F_OTHER])) & 1 and rec[FK.F_OTHER] not in C.JOKERS
            if not lead_only:
                assert rec[FK.F_LEADING] == 0


def test_both_branches_are_play_on_from_the_position_and_replay_in_the_reference_engine(
    forked: tuple[str, np.ndarray],
) -> None:
    """A branch of the driver equals play_on from the same position and random state; the whole
    hand it makes (the moves before, the forced card, the moves after) is legal in the plain-Python
    reference engine, which scores it the same."""
    preset, records = forked
    rules = get_rules(preset)
    checked = 0
    for hand in np.unique(records[:, FK.F_HAND])[:12]:
        mine = records[records[:, FK.F_HAND] == hand]
        for k, rec in enumerate(mine):
            ply = int(rec[FK.F_PLY])
            S, before, _, hands = trace(preset, SEED, int(hand), limit=ply)
            team = int(rec[FK.F_SEAT]) % 2
            rng = np.empty(4, dtype=np.uint64)
            seed_stream(rng, SEED, int(hand), FK.LANE_FORK + k)
            for b, card in enumerate((int(rec[FK.F_JOKER]), int(rec[FK.F_OTHER]))):
                final, after = F.play_on(rules, S, card, "heuristic", rng=rng)
                net = int(final[L.S_POINTS + team] - final[L.S_POINTS + 1 - team])
                assert net == rec[FK.F_NET + b]
                assert final[L.S_TRICKS + team] == rec[FK.F_TRICKS + b]
                assert final[L.S_MADE] == rec[FK.F_MADE + b]
                result = replay_hand(
                    kout_record(get_rules(preset), hands, S, [*before, card, *after]),
                    engine="reference",
                )
                assert result["tricks"] == [int(final[L.S_TRICKS]), int(final[L.S_TRICKS + 1])]
                assert result["points"] == [int(final[L.S_POINTS]), int(final[L.S_POINTS + 1])]
                checked += 1
    assert checked >= 10


def test_play_on_is_reproducible_and_starts_with_the_forced_action() -> None:
    rules = get_rules("kout_bo_4")
    S, _, _, _ = trace("kout_bo_4", SEED, 3, limit=12)
    assert S[L.S_PHASE] == L.PH_PLAY
    options = C.cards_of(_legal_now(rules, S))
    for card in options[:3]:
        a = F.play_on(rules, S, card, "random", seed=1, index=4)
        b = F.play_on(rules, S, card, "random", seed=1, index=4)
        assert np.array_equal(a[0], b[0]) and a[1] == b[1]
        assert a[0][L.S_PHASE] == L.PH_OVER


def _legal_now(rules: object, S: np.ndarray) -> int:
    from kout_sim.engine.game import legal_mask

    P, STR = tables_of(rules)  # type: ignore[arg-type]
    return int(legal_mask(S, P, STR, int(P[L.P_FAMILY])))


def test_bad_forks_are_refused_with_one_line_errors() -> None:
    rules = get_rules("kout_bo_4")
    S, _, _, _ = trace("kout_bo_4", SEED, 3, limit=12)
    illegal = next(c for c in range(54) if not (_legal_now(rules, S) >> c) & 1)
    with pytest.raises(ValueError, match="not legal"):
        F.play_on(rules, S, illegal)
    with pytest.raises(ValueError, match="Kout preset"):
        F.fork_records(get_rules("baloot"), 10, 0)
    with pytest.raises(ValueError, match="positive"):
        F.fork_records(rules, 0, 0)


def test_the_hand_itself_is_the_branch_of_the_players_own_choice(
    forked: tuple[str, np.ndarray],
) -> None:
    """The heuristic draws no random numbers (epsilon 0), so the hand as it went on from the fork
    is the branch whose card the player chose, whichever random stream each used."""
    _, records = forked
    checked = 0
    for rec in records:
        for b, card in enumerate((rec[FK.F_JOKER], rec[FK.F_OTHER])):
            if rec[FK.F_CHOSEN] == card:
                assert rec[FK.F_ACTUAL_MADE] == rec[FK.F_MADE + b]
                assert rec[FK.F_ACTUAL_NET] == rec[FK.F_NET + b]
                assert rec[FK.F_ACTUAL_TRICKS] == rec[FK.F_TRICKS + b]
                assert rec[FK.F_ACTUAL_FORCED] == rec[FK.F_FORCED + b]
                checked += 1
    assert checked > len(records) // 2
