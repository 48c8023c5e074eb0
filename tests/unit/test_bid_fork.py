"""Bid forks: the fork driver in its bid modes plays the first free bid decision of a hand (or every
one) on once per legal call (RULES.md 1.3, 2.3, 3.2), from the hand's own random state."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from kout_sim import cards as C
from kout_sim.drivers import fork as FK
from kout_sim.drivers.play import hand_traced
from kout_sim.engine import layout as L
from kout_sim.io.forks import bid_fork_table
from kout_sim.replay import replay_hand
from kout_sim.rules import get_rules
from kout_sim.sim import bid_fork as BF
from kout_sim.sim import fork as F
from kout_sim.sim import play_hands
from kout_sim.sim.batch import setup_of

from ._trace import kout_record, trace

SEED = 7
N_HANDS = 200


@pytest.fixture(scope="module", params=["kout_bo_4", "kout_bh_4", "baloot"])
def first_forks(request: pytest.FixtureRequest) -> tuple[str, np.ndarray]:
    rules = get_rules(request.param)
    return request.param, BF.bid_fork_records(rules, N_HANDS, SEED, "heuristic", workers=1)


@pytest.fixture(scope="module")
def every_forks() -> np.ndarray:
    rules = get_rules("kout_bo_4")
    return BF.bid_fork_records(rules, N_HANDS, SEED, "heuristic", every=True, workers=1)


def _bits(mask: int) -> list[int]:
    return [b for b in range(64) if (mask >> b) & 1]


def _free_calls(preset: str, hand: int) -> list[tuple[int, int, int]]:
    """(ply, legal mask, call made) of every auction decision of the hand with two or more legal
    calls, as the hand was played."""
    _, actions, legal, _ = trace(preset, SEED, hand)
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    rules = get_rules(preset)
    setup = setup_of(rules, "heuristic")
    free = []
    for ply, (action, mask) in enumerate(zip(actions, legal)):
        if action >= L.CALL and bin(mask).count("1") > 1:
            hands = np.zeros(6, dtype=np.int64)
            none = np.zeros(0, dtype=np.int64)
            hand_traced(setup, SEED, hand, hands, none, none, S, limit=ply)
            if S[L.S_PHASE] == L.PH_AUCTION:
                free.append((ply, mask, action - L.CALL))
    return free


def test_bid_fork_records_do_not_depend_on_the_split(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = get_rules("kout_bo_4")
    whole = BF.bid_fork_records(rules, 150, 3, "heuristic", every=True, workers=1)
    monkeypatch.setattr(BF, "BID_CHUNK", 37)
    split = BF.bid_fork_records(rules, 150, 3, "heuristic", every=True, workers=2)
    assert len(whole) > 150 and np.array_equal(whole, split)


def test_the_first_free_bid_decision_is_forked_once_per_legal_call(
    first_forks: tuple[str, np.ndarray],
) -> None:
    preset, records = first_forks
    for hand in range(40):
        free = _free_calls(preset, hand)
        mine = records[records[:, FK.F_HAND] == hand]
        if not free:
            assert len(mine) == 0
            continue
        ply, mask, made = free[0]
        assert list(mine[:, FK.F_PLY]) == [ply] * len(_bits(mask))
        assert list(mine[:, FK.G_CALL]) == _bits(mask)  # every legal call once, in call order
        assert (mine[:, FK.G_CHOSEN] == made).all() and (mine[:, FK.G_N_LEGAL] == len(mine)).all()
        assert (mine[:, FK.G_DECISION] == 0).all()


def test_every_free_bid_decision_is_forked(every_forks: np.ndarray) -> None:
    for hand in range(40):
        free = _free_calls("kout_bo_4", hand)
        mine = every_forks[every_forks[:, FK.F_HAND] == hand]
        expected = [(ply, call) for ply, mask, _ in free for call in _bits(mask)]
        assert [(int(r[FK.F_PLY]), int(r[FK.G_CALL])) for r in mine] == expected
        decisions = [int(r[FK.G_DECISION]) for r in mine]
        assert decisions == sorted(decisions) and set(decisions) == set(range(len(free)))


def test_the_branch_of_the_call_made_is_the_hand_as_played(
    first_forks: tuple[str, np.ndarray],
) -> None:
    """The chosen call's branch equals the hand of play_hands with the same seed: same contract,
    bidder, trump and points (the fork starts from the hand's own random state)."""
    preset, records = first_forks
    rules = get_rules(preset)
    rows = play_hands(rules, N_HANDS, SEED, "heuristic", workers=1)
    chosen = records[records[:, FK.G_CALL] == records[:, FK.G_CHOSEN]]
    assert len(chosen) == len(np.unique(records[:, FK.F_HAND])) > N_HANDS // 2
    for rec in chosen:
        row = rows[int(rec[FK.F_HAND])]
        team = int(rec[FK.F_SEAT]) % 2
        points = row[L.R_POINTS : L.R_POINTS + 2]
        assert rec[FK.F_NET] == points[team] - points[1 - team] == rec[FK.F_ACTUAL_NET]
        assert rec[FK.G_BIDDER] == row[L.R_BIDDER]
        if rec[FK.G_BIDDER] >= 0:
            trump = int(rec[FK.G_TRUMP]) if 0 <= rec[FK.G_TRUMP] < 4 else -1  # Baloot Sun: none
            assert rec[FK.G_CONTRACT] == row[L.R_CONTRACT] and trump == row[L.R_TRUMP]
            assert rec[FK.F_MADE] == row[L.R_MADE] == rec[FK.F_ACTUAL_MADE]
    # and the calls differ in what they lead to: not every branch of a fork scores the same
    table = bid_fork_table(records, rules)
    spread = table.group_by("hand").agg(pl.col("net").n_unique().alias("k"))
    assert spread.select((pl.col("k") > 1).mean()).item() > 0.5


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4"])
def test_every_branch_is_play_on_and_replays_in_the_reference_engine(
    preset: str, every_forks: np.ndarray
) -> None:
    """A branch equals play_on from the position with the random state the record gives; the whole
    hand it makes (the calls before, the forced call, everything after) is legal in the
    plain-Python reference engine, which scores it the same."""
    rules = get_rules(preset)
    records = (
        every_forks
        if preset == "kout_bo_4"
        else BF.bid_fork_records(rules, 30, SEED, "heuristic", every=True, workers=1)
    )
    checked = 0
    for hand in np.unique(records[:, FK.F_HAND])[:8]:
        for rec in records[records[:, FK.F_HAND] == hand]:
            ply = int(rec[FK.F_PLY])
            S, before, _, hands = trace(preset, SEED, int(hand), limit=ply)
            assert S[L.S_PHASE] == L.PH_AUCTION and S[L.S_TO_ACT] == rec[FK.F_SEAT]
            rng = np.array(rec[list(FK.G_RNG)], dtype=np.int64).view(np.uint64)
            call = int(rec[FK.G_CALL])
            final, after = F.play_on(rules, S, call, "heuristic", rng=rng)
            team = int(rec[FK.F_SEAT]) % 2
            assert final[L.S_POINTS + team] - final[L.S_POINTS + 1 - team] == rec[FK.F_NET]
            assert final[L.S_HIGH_BID] == rec[FK.G_CONTRACT]
            assert final[L.S_BIDDER] == rec[FK.G_BIDDER]
            actions = [*before, L.CALL + call, *after]
            result = replay_hand(
                kout_record(get_rules(preset), hands, final, actions), engine="reference"
            )
            assert result["tricks"] == [int(final[L.S_TRICKS]), int(final[L.S_TRICKS + 1])]
            assert result["points"] == [int(final[L.S_POINTS]), int(final[L.S_POINTS + 1])]
            checked += 1
    assert checked >= 30


def test_the_table_columns_follow_the_records(first_forks: tuple[str, np.ndarray]) -> None:
    preset, records = first_forks
    rules = get_rules(preset)
    table = bid_fork_table(records, rules)
    assert len(table) == len(records)
    assert (table["is_chosen"] == (table["call"] == table["chosen"])).all()
    assert (
        table.group_by("hand").agg(pl.col("is_chosen").sum())["is_chosen"].to_list()
        == [1] * table["hand"].n_unique()
    )
    bids = table.filter(pl.col("bids") & (pl.col("bidder") >= 0))
    assert ((bids["bidder"] % 2) == (bids["seat"] % 2)).all()
    if rules.is_kout:
        assert set(table["call"]) <= {"pass", *(str(b) for b in range(5, 10))}
        # the strength of a hand: its strongest suit (length + A K Q J) plus its jokers
        for row in table.head(20).iter_rows(named=True):
            cards = C.cards_of(int(row["seat_cards"]))
            best = max(
                sum(1 for c in cards if C.suit_of(c) == s)
                + sum(1 for c in cards if C.suit_of(c) == s and C.rank_of(c) >= 9)
                for s in range(4)
            )
            assert row["strength"] == best + sum(1 for c in cards if c in C.JOKERS)


@pytest.mark.parametrize(
    ("at", "words"),
    [("lead", "unknown bid fork point 'lead'"), ("", "unknown bid fork point")],
)
def test_a_bad_fork_point_is_one_line(at: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        BF.bid_forks("kout_bo_4", 5, 0, at=at)
