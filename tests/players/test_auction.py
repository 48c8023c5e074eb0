"""The auction-aware sampler (kout_sim.players.auction): sampled deals agree with the observed calls.

Positions come from hands whose calls the heuristic made (RULES.md 1.3-1.4, 2.3-2.4) and whose
cards are played at random (so voids are shown, 1.5 / 2.6). Every deal the sampler accepts is
checked against the heuristic's own entry point (``choose_kout``) replayed on a fresh hand dealt
from the sample, not against the sampler's replay; voids and the rest of what the seat knows are
checked by the exact sampler's own consistency check (the record of the position replays legally
with the sampled hands, to the same state).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from kout_sim import cards as C
from kout_sim.engine import layout as L
from kout_sim.engine.game import legal_mask
from kout_sim.engine.kout.hand import record_card
from kout_sim.engine.step import NumbaHand
from kout_sim.engine.tables import tables_of
from kout_sim.players import parse_lineup
from kout_sim.players.auction import auction_agreement, determinize_auction
from kout_sim.players.kout_heuristic import choose_kout
from kout_sim.players.sampler import determinize
from kout_sim.players.turn import turn_of
from kout_sim.rules import get_rules
from kout_sim.sim import play_hands

from .test_ismcts import _search, check_hidden_swaps
from .test_pimc import _decide
from .test_sampler import Position, _check_sample, original_hands, rng_of

TRIES = 400


def _heuristic_row(n: int) -> np.ndarray:
    row: np.ndarray = parse_lineup("heuristic", n, "kout").params("kout")[0]
    return row


def heuristic_auction_position(
    preset: str, rnd: random.Random, plays: int, MS: np.ndarray
) -> Position:
    """Deal, let the heuristic make every call (score ``MS``), then play ``plays`` random cards
    (a plain card when one is legal, so voids are shown)."""
    rules = get_rules(preset)
    P, STR = tables_of(rules)
    n = rules.n_players
    row = _heuristic_row(n)
    deck = C.cards_of(rules.deck_mask)
    rnd.shuffle(deck)
    dealer = rnd.randrange(n)
    size = rules.n_tricks
    deal = [C.mask_of(deck[size * s : size * s + size]) for s in range(n)]
    pos = Position(rules, dealer, deal)
    hand = pos.hand = NumbaHand(rules, dealer, deal)
    play = rng_of(99, rnd.randrange(1000))
    while hand.phase in ("auction", "trump"):
        mask = hand.legal_mask()
        if mask & (mask - 1):
            action = int(choose_kout(hand.S, turn_of(P, STR, MS, play, row), mask))
        else:
            action = (mask & -mask).bit_length() - 1
        if hand.phase == "auction":
            call: int | str = "pass" if action == L.PASS else action
            pos.calls.append(call)
            hand.apply(call)
        else:
            pos.trump = C.SUITS[action - L.TRUMP]
            hand.apply(pos.trump)
    for _ in range(plays):
        if hand.phase != "play":
            break
        seat = hand.to_act
        assert seat is not None
        legal = hand.legal_actions()
        trump = int(hand.S[L.S_TRUMP])
        quiet = [a for a in legal if C.suit_of(C.parse_card(a)) not in (-1, trump)]
        card = C.parse_card(rnd.choice(quiet or legal))
        pos.plays.append((seat, card))
        record_card(hand.S, seat, card)  # as the searching play loops do
        hand.apply(C.format_card(card))
    return pos


def observed(pos: Position) -> tuple[list[int], int]:
    calls = [L.PASS if c == "pass" else int(c) for c in pos.calls]
    assert pos.trump is not None
    return calls, L.TRUMP + C.parse_suit(pos.trump)


def _sample(
    pos: Position, seat: int, rng: np.ndarray, MS: np.ndarray, tries: int = TRIES
) -> tuple[int, np.ndarray]:
    P, STR = tables_of(pos.rules)
    D = np.zeros(L.S_SIZE, dtype=np.int64)
    best = np.zeros(L.S_SIZE, dtype=np.int64)
    R = np.zeros(L.S_SIZE, dtype=np.int64)
    row = _heuristic_row(pos.rules.n_players)
    got = int(determinize_auction(pos.S, P, STR, MS, seat, rng, D, row, tries, best, R))
    return got, D


def _agrees(pos: Position, seat: int, D: np.ndarray, MS: np.ndarray) -> bool:
    """Does the heuristic (``choose_kout``), dealt the sampled hands, make every observed call of
    the other seats that had a choice, each at the observed auction's state (RULES.md 1.3 / 2.3
    auction, 1.4 / 2.4 trump)?"""
    rules = pos.rules
    P, STR = tables_of(rules)
    row = _heuristic_row(rules.n_players)
    calls, trump = observed(pos)
    hand = NumbaHand(rules, pos.dealer, original_hands(pos, D))
    for want in [*calls, trump]:
        caller = hand.to_act
        choice = hand.legal_mask()
        mine = caller != seat and choice & (choice - 1)
        if mine and int(choose_kout(hand.S, turn_of(P, STR, MS, rng_of(1), row), choice)) != want:
            return False
        if hand.phase == "auction":
            hand.apply("pass" if want == L.PASS else want)
        else:
            hand.apply(C.SUITS[want - L.TRUMP])
    assert hand.phase == "play"
    return True


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4", "kout_bo_6"])
def test_accepted_deals_make_the_observed_calls_rules_1_3_2_3(preset: str) -> None:
    rnd = random.Random(3)
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    accepted = fallback = 0
    for i in range(25):
        pos = heuristic_auction_position(preset, rnd, rnd.randrange(0, 12), MS)
        if pos.hand is None or pos.hand.phase != "play":
            continue
        seat = int(pos.S[L.S_TO_ACT])
        # the true deal makes the calls: the check itself must accept it
        assert _agrees(pos, seat, pos.S, MS)
        for j in range(8):
            got, D = _sample(pos, seat, rng_of(5, 100 * i + j), MS)
            _check_sample(pos, seat, D)  # voids and hand sizes respected, the record replays
            if got > 0:
                accepted += 1
                assert _agrees(pos, seat, D, MS), (i, j)
            else:
                fallback += 1
    assert accepted > 10 * fallback
    assert accepted >= 100


def test_a_deal_that_breaks_a_call_is_rejected() -> None:
    """Auctions where a seat's call is not the heuristic's from some sampled hand: the agreement
    check flags exactly the deals whose replayed calls differ (checked through choose_kout)."""
    rnd = random.Random(8)
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    P, STR = tables_of(get_rules("kout_bo_4"))
    row = _heuristic_row(4)
    R = np.zeros(L.S_SIZE, dtype=np.int64)
    seen = {True: 0, False: 0}
    for i in range(30):
        pos = heuristic_auction_position("kout_bo_4", rnd, rnd.randrange(0, 9), MS)
        if pos.hand is None or pos.hand.phase != "play":
            continue
        seat = int(pos.S[L.S_TO_ACT])
        for j in range(20):
            D = np.zeros(L.S_SIZE, dtype=np.int64)
            assert determinize(pos.S, P, STR, seat, rng_of(6, 100 * i + j), D) == 0
            ratio, _ = auction_agreement(D, pos.S, P, MS, row, seat, R)
            assert ratio in (0.0, 1.0)  # the heuristic's epsilon is 0: a deterministic bidder
            agree = _agrees(pos, seat, D, MS)
            assert (ratio == 1.0) == agree
            seen[agree] += 1
    assert seen[True] > 50 and seen[False] > 50


def _bidder_strength(preset: str, tries: int, n_positions: int) -> tuple[float, float, float]:
    """Mean trumps, jokers and high bid over sampled bidder hands at the first lead of heuristic
    auctions won by a bid of 7 or more (the observer: a seat other than the bidder)."""
    rnd = random.Random(21)
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    P = tables_of(get_rules(preset))[0]
    trumps, jokers, true_trumps = [], [], []
    found = 0
    while found < n_positions:
        pos = heuristic_auction_position(preset, rnd, 0, MS)
        S = pos.S
        bidder = int(S[L.S_BIDDER])
        if int(S[L.S_HIGH_BID]) < 7:
            continue
        found += 1
        seat = (bidder + 1) % pos.rules.n_players  # an opponent of the bidder observes
        trump_mask = int(P[L.P_SUIT_MASK + int(S[L.S_TRUMP])])
        true_trumps.append(bin(int(S[L.S_HAND + bidder]) & trump_mask).count("1"))
        for j in range(40):
            if tries > 0:
                _, D = _sample(pos, seat, rng_of(9, 100 * found + j), MS, tries)
            else:
                P_, STR_ = tables_of(pos.rules)
                D = np.zeros(L.S_SIZE, dtype=np.int64)
                assert determinize(S, P_, STR_, seat, rng_of(9, 100 * found + j), D) == 0
            hand = int(D[L.S_HAND + bidder])
            trumps.append(bin(hand & trump_mask).count("1"))
            jokers.append(bin(hand & int(P[L.P_JOKER_MASK])).count("1"))
    return float(np.mean(trumps)), float(np.mean(jokers)), float(np.mean(true_trumps))


def test_a_bid_of_seven_deals_the_bidder_a_strong_hand_rule_1_3() -> None:
    plain_t, plain_j, true_t = _bidder_strength("kout_bo_4", 0, 12)
    auct_t, auct_j, true_t2 = _bidder_strength("kout_bo_4", TRIES, 12)
    assert true_t == true_t2  # the same positions
    # uniform sampling gives the bidder an average share of the unseen trumps and jokers; the
    # auction-aware sampler gives the hands that bid 7+: more of both, nearer the true hands
    assert auct_t > plain_t + 1.0, (plain_t, auct_t, true_t)
    assert auct_j > plain_j + 0.3, (plain_j, auct_j)
    assert abs(auct_t - true_t) < abs(plain_t - true_t)


def test_the_sampler_is_deterministic_by_seed() -> None:
    rnd = random.Random(4)
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    pos = heuristic_auction_position("kout_bo_4", rnd, 5, MS)
    seat = int(pos.S[L.S_TO_ACT])
    a = [_sample(pos, seat, rng_of(2, k), MS) for k in range(5)]
    b = [_sample(pos, seat, rng_of(2, k), MS) for k in range(5)]
    for (ga, Da), (gb, Db) in zip(a, b, strict=True):
        assert ga == gb and np.array_equal(Da, Db)
    assert len({bytes(D.tobytes()) for _, D in a}) > 1  # different streams, different deals


def test_without_a_log_nothing_is_constrained() -> None:
    """A state built by hand (no call log) is sampled as by the exact sampler, first draw taken."""
    rnd = random.Random(4)
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    pos = heuristic_auction_position("kout_bo_4", rnd, 3, MS)
    pos.S[L.K_CALL_LOG] = 0
    seat = int(pos.S[L.S_TO_ACT])
    got, D = _sample(pos, seat, rng_of(2), MS)
    P, STR = tables_of(pos.rules)
    D0 = np.zeros(L.S_SIZE, dtype=np.int64)
    assert determinize(pos.S, P, STR, seat, rng_of(2), D0) == 0
    assert got == 1 and np.array_equal(D, D0)


def test_the_option_off_plays_as_before() -> None:
    """auction=0 (the default) ignores auction_tries and draws no extra random numbers: the rows
    are the default's, and auction=1 plays other hands."""
    rules = get_rules("kout_bo_4")
    base = play_hands(rules, 8, 5, ["ismcts:iterations=30", "heuristic"], workers=1)
    off = play_hands(
        rules, 8, 5, ["ismcts:iterations=30,auction=0,auction_tries=7", "heuristic"], workers=1
    )
    on = play_hands(rules, 8, 5, ["ismcts:iterations=30,auction=1", "heuristic"], workers=1)
    assert np.array_equal(base, off)
    assert not np.array_equal(base, on)


def test_baloot_has_no_auction_option() -> None:
    with pytest.raises(ValueError, match="no parameter 'auction'"):
        parse_lineup("ismcts:auction=1", 4, "baloot")


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4"])
def test_ismcts_with_the_auction_ignores_hidden_cards(preset: str) -> None:
    """The replayed calls read the sampled hands only: permuting the hidden cards within what the
    seat knows changes no decision (the calls and who played which card are public)."""
    check_hidden_swaps(preset, lambda S, rng: _search(preset, S, rng, "ismcts:auction=1"))


def test_pimc_with_the_auction_is_legal_and_ignores_hidden_cards() -> None:
    rnd = random.Random(12)
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    decided = 0
    for i in range(12):
        pos = heuristic_auction_position("kout_bo_4", rnd, rnd.randrange(0, 12), MS)
        if pos.hand is None or pos.hand.phase != "play":
            continue
        P, STR = tables_of(pos.rules)
        mask = int(legal_mask(pos.S, P, STR, L.FAMILY_KOUT))
        if mask & (mask - 1):
            _decide("kout_bo_4", pos.S, rng_of(3, i), "pimc:samples=3,auction=1")  # asserts legal
            decided += 1
    assert decided >= 5
    check_hidden_swaps(
        "kout_bo_4", lambda S, rng: _decide("kout_bo_4", S, rng, "pimc:samples=3,auction=1")
    )
    # calls=1: the par calls sample deals that agree with the calls before the seat's
    check_hidden_swaps(
        "kout_bo_4",
        lambda S, rng: _decide("kout_bo_4", S, rng, "pimc:samples=2,calls=1,auction=1"),
    )


@pytest.mark.parametrize("searching", [False, True])
def test_the_searching_loop_records_who_played_which_card(searching: bool) -> None:
    """The public record K_SEAT_PLAYED (read by the auction-aware sampler) is written by the
    searching play loop before each card, so at every decision of a searching line-up it holds
    exactly the cards played, each under its player; a line-up without a search leaves it empty
    (the engine does not write it: no cost on the fast path), and the sampler then does not
    constrain by the auction."""
    from kout_sim.drivers.loop import Setup
    from kout_sim.drivers.play import hand_traced, random_lineup
    from kout_sim.drivers.playout import play_out
    from kout_sim.engine.rng import LANE_PLAY, seed_stream
    from kout_sim.engine.tables import tables_of
    from kout_sim.players import parse_lineup
    from kout_sim.rules import get_rules

    rules = get_rules("kout_bo_4")
    P, STR = tables_of(rules)
    spec = "ismcts:iterations=20,auction=1" if searching else "heuristic"
    lineup = parse_lineup(spec, 4, rules.family)
    kinds, params = lineup.kinds, lineup.params(rules.family)
    empty = np.zeros(0, dtype=np.int64)
    checked = 0
    for index in range(3):
        S = np.zeros(L.S_SIZE, dtype=np.int64)
        random_setup = Setup(P, STR, *random_lineup())
        hand_traced(random_setup, 7, index, np.zeros(6, np.int64), empty, empty, S, limit=0)
        play = np.empty(4, dtype=np.uint64)
        seed_stream(play, 7, index, LANE_PLAY)
        MS = np.zeros(L.M_SIZE, dtype=np.int64)
        mine: dict[int, int] = {}
        while S[L.S_PHASE] != L.PH_OVER:
            seat, before = int(S[L.S_TO_ACT]), int(S[L.S_PHASE])
            chosen = np.zeros(1, dtype=np.int64)
            assert play_out(S, P, STR, MS, play, kinds, params, -1, 1, -1, chosen) == 1
            if before == L.PH_PLAY:
                mine[seat] = mine.get(seat, 0) | (1 << int(chosen[0]))
            recorded = {s: int(S[L.K_SEAT_PLAYED + s]) for s in range(4)}
            if S[L.S_PHASE] != L.PH_OVER:
                checked += 1
                if searching:
                    assert recorded == {s: mine.get(s, 0) for s in range(4)}
                else:
                    assert not any(recorded.values())
    assert checked > 50
