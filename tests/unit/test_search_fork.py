"""Joker and bid forks under search players (ISMCTS, PIMC; RULES.md 1.3, 1.6, 2.3, 3.2): the hands
are those of play_hands with the same seed and players, the branches replay in the reference
engine, the search picks the other card among the non-joker cards only, and the records never
depend on the worker split (kout_sim.sim.search_fork)."""

from __future__ import annotations

import numpy as np
import pytest

from kout_sim import cards as C
from kout_sim.drivers import fork as FK
from kout_sim.drivers.loop import Setup
from kout_sim.drivers.play import hand_traced, random_lineup
from kout_sim.drivers.playout import play_out
from kout_sim.engine import layout as L
from kout_sim.engine.game import legal_mask
from kout_sim.engine.rng import seed_stream
from kout_sim.engine.step import decode_action
from kout_sim.engine.tables import tables_of
from kout_sim.players import parse_lineup
from kout_sim.players.ismcts import N_INT_ROWS, SEARCH
from kout_sim.players.kinds import KIND_ISMCTS, KIND_PIMC
from kout_sim.players.pimc import PIMC
from kout_sim.players.turn import turn_of
from kout_sim.replay import replay_hand
from kout_sim.rules import Rules, get_rules
from kout_sim.sim import bid_fork as BF
from kout_sim.sim import fork as F
from kout_sim.sim import play_hands
from kout_sim.sim import search_fork as SF

from ._trace import kout_record

SEED = 11
ISMCTS = "ismcts:iterations=20"
PIMC_LINEUP = ["pimc:samples=2", "heuristic"]
# searched calls draw from the play lane, so the bid forks' common random numbers are put to the test
ISMCTS_CALLS = "ismcts:iterations=20,calls=1"
PIMC_CALLS = ["pimc:samples=2,calls=1", "heuristic"]


class Hand:
    """Hand ``index`` of play_hands (seed :data:`SEED`), replayed move by move: the position
    before each decision and its legal mask."""

    def __init__(
        self, rules: Rules, players: object, index: int, row: np.ndarray, trace: np.ndarray
    ) -> None:
        self.rules = rules
        self.P, self.STR = tables_of(rules)
        lineup = parse_lineup(players, rules.n_players, rules.family)  # type: ignore[arg-type]
        self.kinds, self.params = lineup.kinds, lineup.params(rules.family)
        self.row = row
        self.actions = [int(c) & 0xFF for c in trace[: int(row[L.R_N_ACTIONS])]]
        self.dealt = np.zeros(6, dtype=np.int64)
        S = np.zeros(L.S_SIZE, dtype=np.int64)
        none = np.zeros(0, dtype=np.int64)
        random_setup = Setup(self.P, self.STR, *random_lineup())
        hand_traced(random_setup, SEED, index, self.dealt, none, none, S, limit=0)
        self.states: list[np.ndarray] = []
        self.legal: list[int] = []
        family = int(self.P[L.P_FAMILY])
        for code in self.actions:
            mask = int(legal_mask(S, self.P, self.STR, family))
            action = code if code < L.CALL else code - L.CALL
            assert (mask >> action) & 1, "the trace of play_hands replays legally"
            self.states.append(S.copy())
            self.legal.append(mask)
            self._apply(S, action)
        self.final = S
        assert S[L.S_PHASE] == L.PH_OVER
        assert list(S[L.S_POINTS : L.S_POINTS + 2]) == list(row[L.R_POINTS : L.R_POINTS + 2])

    def _apply(self, S: np.ndarray, action: int) -> None:
        MS = np.zeros(L.M_SIZE, dtype=np.int64)
        rng = np.zeros(4, dtype=np.uint64)
        assert play_out(S, self.P, self.STR, MS, rng, self.kinds, self.params, action, 0) == 0

    def net(self, team: int) -> int:
        points = self.row[L.R_POINTS : L.R_POINTS + 2]
        return int(points[team] - points[1 - team])


def _hands(rules: Rules, players: object, n: int) -> list[Hand]:
    """Hands ``0 .. n`` of play_hands with seed :data:`SEED` and ``players``."""
    trace = np.zeros((n, L.MAX_ACTIONS), dtype=np.int32)
    rows = play_hands(rules, n, SEED, players, trace=trace, workers=1)  # type: ignore[arg-type]
    return [Hand(rules, players, i, rows[i], trace[i]) for i in range(n)]


def _step_branch(
    hand: Hand, S: np.ndarray, first: int, rng: np.ndarray
) -> tuple[np.ndarray, list[int], list[int]]:
    """The branch from ``S`` with ``first`` forced, stepped one decision at a time: the final
    state, the global actions after ``first`` and every seat's cards when the play began."""
    B = S.copy()
    stream = rng.copy()
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    one = np.zeros(1, dtype=np.int64)
    assert play_out(B, hand.P, hand.STR, MS, stream, hand.kinds, hand.params, first, 0) == 0
    after: list[int] = []
    cards: list[int] = []
    while B[L.S_PHASE] != L.PH_OVER:
        if B[L.S_PHASE] == L.PH_PLAY and not cards:
            cards = [int(B[L.S_HAND + s]) for s in range(hand.rules.n_players)]
        t = play_out(B, hand.P, hand.STR, MS, stream, hand.kinds, hand.params, -1, 1, -1, one)
        assert t == 1
        after.append(int(one[0]))
    return B, after, cards


def _replays(hand: Hand, ply: int, first: int, rng: np.ndarray) -> np.ndarray:
    """Play the branch (``first`` at decision ``ply``) by steps and replay the whole hand in the
    reference engine, which must find it legal and score it the same; the branch's final state."""
    S = hand.states[ply]
    final, after, cards = _step_branch(hand, S, first, rng)
    code = first if S[L.S_PHASE] == L.PH_PLAY else L.CALL + first
    actions = [*hand.actions[:ply], code, *after]
    if hand.rules.is_baloot:
        codes = [decode_action(a, True) for a in actions if a >= L.CALL]
        record: dict[str, object] = {
            "rules": hand.rules.name,
            "dealer": int(S[L.S_DEALER]),
            "hands": [C.format_mask(int(hand.dealt[s])) for s in range(4)],
            "face_up": C.format_card(int(S[L.B_FACE_UP])),
            "calls": codes,
            "plays": [C.format_card(a) for a in actions if a < L.CALL],
        }
        if cards:
            up = 1 << int(S[L.B_FACE_UP])
            record["completion"] = [
                C.format_mask(cards[s] & ~int(hand.dealt[s]) & ~up) for s in range(4)
            ]
        result = replay_hand(record, engine="reference")
        if cards:
            assert result["card_points"] == [int(final[L.B_CARD_PTS + t]) for t in range(2)]
    else:
        result = replay_hand(
            kout_record(hand.rules, hand.dealt, final, actions), engine="reference"
        )
        assert result["tricks"] == [int(final[L.S_TRICKS]), int(final[L.S_TRICKS + 1])]
    assert result["points"] == [int(final[L.S_POINTS]), int(final[L.S_POINTS + 1])]
    return final


def _restricted_choice(hand: Hand, S: np.ndarray, rng: np.ndarray, allowed: int) -> int | None:
    """The seat's search called directly on ``allowed`` (an oracle beside play_out): its choice,
    or None for a seat that does not search."""
    seat = int(S[L.S_TO_ACT])
    family = int(hand.P[L.P_FAMILY])
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    row = hand.params[seat]
    if hand.kinds[seat] == KIND_ISMCTS:
        cap = int(row[0]) + 2
        nodes = np.empty((N_INT_ROWS, cap), dtype=np.int64)
        value = np.empty(cap, dtype=np.float64)
        search = SEARCH[family]
        turn = turn_of(hand.P, hand.STR, MS, rng.copy(), row, (nodes, value))
        return int(search(S.copy(), turn, allowed))
    if hand.kinds[seat] == KIND_PIMC:
        turn = turn_of(hand.P, hand.STR, MS, rng.copy(), row)
        return int(PIMC[family](S.copy(), turn, allowed))
    return None


@pytest.mark.parametrize(
    ("preset", "players"),
    [("kout_bo_4", ISMCTS), ("kout_bo_4", PIMC_LINEUP), ("kout_bh_4", ISMCTS)],
    ids=["bo-ismcts", "bo-pimc", "bh-ismcts"],
)
def test_joker_forks_under_a_search_player_rules_1_6_and_2_8(preset: str, players: object) -> None:
    """Every joker lead (Kout Bo, 1.6) or joker play beside another legal card (Bahraini, 2.8) of
    the hands of play_hands is forked; branch 1's card is the seat's search among its non-joker
    cards (the search called directly agrees); both branches replay in the reference engine; the
    hand itself goes on as played; records never depend on the worker split."""
    rules = get_rules(preset)
    lead_only = preset.startswith("kout_bo")
    n = 40 if lead_only else 10
    records = F.fork_records(rules, n, SEED, players, workers=1)  # type: ignore[arg-type]
    jokers = int(tables_of(rules)[0][L.P_JOKER_MASK])
    searched = 0
    for index, hand in enumerate(_hands(rules, players, n)):
        expected = [
            t
            for t, (S, mask) in enumerate(zip(hand.states, hand.legal))
            if S[L.S_PHASE] == L.PH_PLAY
            and (S[L.S_N_IN_TRICK] == 0 or not lead_only)
            and mask & jokers
            and mask & ~jokers
        ]
        mine = records[records[:, FK.F_HAND] == index]
        assert list(mine[:, FK.F_PLY]) == expected
        for k, rec in enumerate(mine):
            ply = int(rec[FK.F_PLY])
            S = hand.states[ply]
            team = int(rec[FK.F_SEAT]) % 2
            assert rec[FK.F_CHOSEN] == hand.actions[ply]
            assert rec[FK.F_ACTUAL_NET] == hand.net(team)
            assert rec[FK.F_ACTUAL_TRICKS] == hand.row[L.R_TRICKS + team]
            assert rec[FK.F_ACTUAL_MADE] == hand.row[L.R_MADE]
            others = hand.legal[ply] & ~jokers
            assert rec[FK.F_JOKER] == max(C.cards_of(hand.legal[ply] & jokers))
            assert (others >> int(rec[FK.F_OTHER])) & 1
            rng = np.empty(4, dtype=np.uint64)
            seed_stream(rng, SEED, index, FK.LANE_FORK + k)
            oracle = _restricted_choice(hand, S, rng, others)
            if oracle is not None and bin(others).count("1") > 1:
                assert rec[FK.F_OTHER] == oracle
                searched += 1
            for b, card in enumerate((int(rec[FK.F_JOKER]), int(rec[FK.F_OTHER]))):
                final = _replays(hand, ply, card, rng)
                assert final[L.S_POINTS + team] - final[L.S_POINTS + 1 - team] == rec[FK.F_NET + b]
                assert final[L.S_TRICKS + team] == rec[FK.F_TRICKS + b]
                assert final[L.S_MADE] == rec[FK.F_MADE + b]
                played = F.play_on(rules, S, card, players, rng=rng)[0]  # type: ignore[arg-type]
                assert np.array_equal(played, final)
    assert len(records) >= 3 and searched >= 1
    # one hand a chunk, two threads: the same records
    split = _split(lambda: F.fork_records(rules, n, SEED, players, workers=2))  # type: ignore[arg-type]
    assert np.array_equal(records, split)


def _split(run: object) -> np.ndarray:
    chunk = SF.SEARCH_CHUNK
    SF.SEARCH_CHUNK = 1
    try:
        return run()  # type: ignore[operator, no-any-return]
    finally:
        SF.SEARCH_CHUNK = chunk


@pytest.mark.parametrize(
    ("preset", "players", "every"),
    [
        ("kout_bo_4", ISMCTS_CALLS, False),
        ("kout_bo_4", PIMC_CALLS, False),
        ("baloot", ISMCTS_CALLS, False),
        ("baloot", PIMC_LINEUP, False),  # Baloot PIMC calls with the heuristic
        ("kout_bo_4", ISMCTS_CALLS, True),
    ],
    ids=["bo-ismcts", "bo-pimc", "baloot-ismcts", "baloot-pimc", "bo-ismcts-every"],
)
def test_bid_forks_under_a_search_player_rules_1_3_and_3_2(
    preset: str, players: object, every: bool
) -> None:
    """The first free bid decision of each hand of play_hands (or every one) is played on once
    per legal call; the branch of the call made is the hand as played; every branch replays in
    the reference engine and scores as recorded; records never depend on the worker split."""
    rules = get_rules(preset)
    n = 4
    records = BF.bid_fork_records(rules, n, SEED, players, every=every, workers=1)  # type: ignore[arg-type]
    for index, hand in enumerate(_hands(rules, players, n)):
        free = [
            t
            for t, (S, mask) in enumerate(zip(hand.states, hand.legal))
            if S[L.S_PHASE] == L.PH_AUCTION and bin(mask).count("1") > 1
        ]
        mine = records[records[:, FK.F_HAND] == index]
        plies = free if every else free[:1]
        expected = [(t, c) for t in plies for c in range(64) if (hand.legal[t] >> c) & 1]
        assert [(int(r[FK.F_PLY]), int(r[FK.G_CALL])) for r in mine] == expected
        for rec in mine:
            ply = int(rec[FK.F_PLY])
            assert rec[FK.G_CHOSEN] == hand.actions[ply] - L.CALL
            assert rec[FK.G_DECISION] == plies.index(ply)
            team = int(rec[FK.F_SEAT]) % 2
            rng = np.array(rec[list(FK.G_RNG)], dtype=np.int64).view(np.uint64)
            final = _replays(hand, ply, int(rec[FK.G_CALL]), rng)
            assert final[L.S_POINTS + team] - final[L.S_POINTS + 1 - team] == rec[FK.F_NET]
            assert final[L.S_BIDDER] == rec[FK.G_BIDDER]
            assert rec[FK.F_ACTUAL_NET] == hand.net(team)
            if rec[FK.G_CALL] == rec[FK.G_CHOSEN]:  # the hand itself
                assert np.array_equal(final, hand.final)
                assert rec[FK.F_NET] == hand.net(team)
    assert len(np.unique(records[:, FK.F_HAND])) >= 2
    if every:
        assert len(np.unique(records[:, FK.G_DECISION])) >= 2
    split = _split(lambda: BF.bid_fork_records(rules, n, SEED, players, every=every, workers=2))  # type: ignore[arg-type]
    assert np.array_equal(records, split)
