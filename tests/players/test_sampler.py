"""The exact determinization sampler (kout_sim.players.sampler).

(a) uniformity: in small late positions every deal consistent with the observer's information is
    enumerated by brute force (each candidate replayed through the engine, whose legality kernels
    are the ground truth) and the sampler's frequencies are compared with uniform by a chi-square
    test; (b) consistency: every sample replays legally (``kout_sim.replay.legal_actions``) and
    reproduces the observed state; (c) no leak: moving hidden cards within what the observer knows
    changes neither the constraints nor the sample.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from kout_sim import cards as C
from kout_sim.engine import layout as L
from kout_sim.engine.rng import seed_stream
from kout_sim.engine.step import NumbaHand
from kout_sim.engine.tables import tables_of
from kout_sim.errors import InvalidRecord
from kout_sim.players import sampler as SP
from kout_sim.replay import legal_actions
from kout_sim.rules import Rules, get_rules

PRESETS = ["kout_bo_4", "kout_bo_6", "kout_bh_4", "kout_bh_6", "baloot"]
BALOOT_VARIANTS: list[dict[str, Any]] = [
    {},
    {"mercy": "none", "undertrump_required": True, "overtrump_on_trump_lead": "always"},
]
PROJECT_FIELDS = [L.B_BALOOT_SEAT, L.B_PROJ_TEAM, *range(L.B_PROJ, L.B_PROJ_GP + 2)]


# ---- random positions --------------------------------------------------------------------------


@dataclass
class Position:
    """A hand played at random up to some point, with its full history (the test's omniscience)."""

    rules: Rules
    dealer: int
    deal: list[int]  # dealt hands (Baloot: the five-card first deal)
    face_up: int = -1
    completion: list[int] = field(default_factory=list)  # Baloot: completion masks
    calls: list[Any] = field(default_factory=list)
    trump: str | None = None
    plays: list[tuple[int, int]] = field(default_factory=list)  # (seat, card)
    hand: NumbaHand | None = None

    @property
    def S(self) -> np.ndarray:
        assert self.hand is not None
        return self.hand.S

    @property
    def baloot(self) -> bool:
        return self.rules.is_baloot


def _completion(dealer: int, taker: int, stock: list[int]) -> list[int]:
    """RULES.md 3.2.6 as in baloot.completion_masks: priority order, the taker receives two."""
    out = [0] * 4
    k = 0
    for p in range(4):
        seat = (dealer + 1 + p) % 4
        for _ in range(2 if seat == taker else 3):
            out[seat] |= 1 << stock[k]
            k += 1
    return out


def play_random(
    rules: Rules, rnd: random.Random, n_actions: int, until_left: int = -1, plain: bool = False
) -> Position | None:
    """Deal and play ``n_actions`` random legal actions, or until the hands hold ``until_left``
    cards in the play phase (None if the hand ended before). ``plain``: play a card that is
    neither a joker nor a trump when the rules allow one (keeps jokers to the end, so rankless
    joker leads occur, and makes Hokum players decline to trump, so overtrump facts occur)."""
    n = rules.n_players
    deck = C.cards_of(rules.deck_mask)
    rnd.shuffle(deck)
    dealer = rnd.randrange(n)
    if rules.is_baloot:
        deal = [C.mask_of(deck[5 * s : 5 * s + 5]) for s in range(4)]
        pos = Position(rules, dealer, deal, face_up=deck[20])
        pos.hand = NumbaHand(rules, dealer, deal, face_up=deck[20])
        stock = deck[21:]
    else:
        size = rules.n_tricks
        deal = [C.mask_of(deck[size * s : size * s + size]) for s in range(n)]
        pos = Position(rules, dealer, deal)
        pos.hand = NumbaHand(rules, dealer, deal)
        stock = []
    hand = pos.hand
    for _ in range(n_actions):
        if hand.phase == "completion":
            pos.completion = _completion(dealer, int(hand.S[L.B_TAKER]), stock)
            hand.complete(pos.completion)
            continue
        if hand.phase == "over":
            return None
        held = sum(bin(int(h)).count("1") for h in hand.S[L.S_HAND : L.S_HAND + n])
        if hand.phase == "play" and held <= until_left:
            break
        seat = hand.to_act
        legal = hand.legal_actions()
        if plain and hand.phase == "play":
            trump = int(hand.S[L.S_TRUMP])
            quiet = [a for a in legal if C.suit_of(C.parse_card(a)) not in (-1, trump)]
            legal = quiet or legal
        action = rnd.choice(legal)
        if hand.phase == "play":
            assert seat is not None
            pos.plays.append((seat, C.parse_card(action)))
        elif hand.phase == "trump":
            pos.trump = str(action)
        else:
            pos.calls.append(action)
        hand.apply(action)
    return None if hand.phase == "over" else pos


def random_positions(preset: str, count: int, seed: int, **options: Any) -> list[Position]:
    """``count`` positions at uniformly random points of random hands."""
    rules = get_rules(preset, options or None)
    rnd = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = play_random(rules, rnd, rnd.randrange(0, rules.n_players * rules.n_tricks + 12))
        if pos is not None:
            out.append(pos)
    return out


# ---- replay with other hands -----------------------------------------------------------------------


def original_hands(pos: Position, S_det: np.ndarray) -> list[int]:
    """Each seat's dealt cards (Baloot: all eight or the first five) implied by ``S_det``'s hands."""
    played = [0] * pos.rules.n_players
    for seat, card in pos.plays:
        played[seat] |= 1 << card
    return [int(S_det[L.S_HAND + s]) | played[s] for s in range(pos.rules.n_players)]


def record_of(pos: Position, S_det: np.ndarray) -> dict[str, Any]:
    """The hand record of ``pos``'s history with the hands of ``S_det`` substituted."""
    orig = original_hands(pos, S_det)
    record: dict[str, Any] = {
        "rules": pos.rules.name,
        "options": dict(pos.rules.options),
        "dealer": pos.dealer,
        "calls": list(pos.calls),
        "plays": [C.format_card(c) for _, c in pos.plays],
    }
    if not pos.baloot:
        record["hands"] = [C.format_mask(h) for h in orig]
        if pos.trump is not None:
            record["trump"] = pos.trump
        return record
    record["face_up"] = C.format_card(pos.face_up)
    record["match_score"] = [int(S_det[L.B_MATCH_SCORE]), int(S_det[L.B_MATCH_SCORE + 1])]
    if SP.before_completion(S_det, tables_of(pos.rules)[0]):
        record["hands"] = [C.format_mask(h) for h in orig]
        return record
    face = 1 << pos.face_up
    first, completion = [], []
    for h in orig:
        cards = C.cards_of(h & ~face)  # eight cards, seven for the taker (3.2.6)
        first.append(cards[:5])
        completion.append(cards[5:])
    record["hands"] = [C.format_mask(C.mask_of(c)) for c in first]
    record["completion"] = [C.format_mask(C.mask_of(c)) for c in completion]
    return record


def replay_state(pos: Position, S_det: np.ndarray) -> np.ndarray | None:
    """Replay ``pos``'s history with ``S_det``'s hands in the engine; None if any step is illegal
    or the hand would have ended (the ground truth of consistency)."""
    orig = original_hands(pos, S_det)
    rules = pos.rules
    if pos.baloot:
        if SP.before_completion(S_det, tables_of(rules)[0]):
            first = orig
        else:
            face = 1 << pos.face_up
            first = []
            for h in orig:
                cards = C.cards_of(h & ~face)
                first.append(C.mask_of(cards[:5]))
        score = (int(S_det[L.B_MATCH_SCORE]), int(S_det[L.B_MATCH_SCORE + 1]))
        hand = NumbaHand(rules, pos.dealer, first, face_up=pos.face_up, match_score=score)
    else:
        hand = NumbaHand(rules, pos.dealer, orig)
    actions: list[Any] = [*pos.calls]
    if pos.trump is not None:
        actions.append(pos.trump)
    actions += [C.format_card(c) for _, c in pos.plays]
    k = 0
    while k < len(actions):
        if hand.phase == "completion":
            completion = [orig[s] & ~first[s] & ~(1 << pos.face_up) for s in range(4)]
            hand.complete(completion)
            continue
        if hand.phase == "over" or actions[k] not in hand.legal_actions():
            return None
        hand.apply(actions[k])
        k += 1
    if pos.baloot and hand.phase == "completion" and pos.hand and pos.hand.phase != "completion":
        completion = [orig[s] & ~first[s] & ~(1 << pos.face_up) for s in range(4)]
        hand.complete(completion)
    if hand.phase != pos.hand.phase:  # type: ignore[union-attr]
        return None
    return hand.S


def rng_of(seed: int, index: int = 0) -> np.ndarray:
    rng = np.zeros(4, dtype=np.uint64)
    seed_stream(rng, seed, index, 7)
    return rng


def determinize(pos: Position, seat: int, rng: np.ndarray) -> np.ndarray:
    P, STR = tables_of(pos.rules)
    out = np.zeros(L.S_SIZE, dtype=np.int64)
    assert SP.determinize(pos.S, P, STR, seat, rng, out) == 0
    return out


def constraints_of(pos: Position, S: np.ndarray, seat: int) -> tuple[np.ndarray, ...]:
    P, STR = tables_of(pos.rules)
    known = np.zeros(SP.MAX_SLOTS, dtype=np.int64)
    need = np.zeros(SP.MAX_SLOTS, dtype=np.int64)
    cls = np.zeros(SP.MAX_CLASSES, dtype=np.int64)
    lo = np.zeros((SP.MAX_SLOTS, SP.MAX_CLASSES), dtype=np.int64)
    hi = np.zeros((SP.MAX_SLOTS, SP.MAX_CLASSES), dtype=np.int64)
    n_cls = SP.constraints(S, P, STR, seat, known, need, cls, lo, hi)
    return np.array([n_cls]), known, need, cls, lo, hi


def observer_of(pos: Position, rnd: random.Random) -> int:
    to_act = pos.hand.to_act if pos.hand else None
    return (
        to_act if to_act is not None and rnd.random() < 0.7 else rnd.randrange(pos.rules.n_players)
    )


# ---- (b) consistency --------------------------------------------------------------------------------


def _check_sample(pos: Position, seat: int, S_det: np.ndarray) -> None:
    S = pos.S
    n = pos.rules.n_players
    assert S_det[L.S_HAND + seat] == S[L.S_HAND + seat]
    gone = int(S[L.S_PLAYED])
    for i in range(int(S[L.S_N_IN_TRICK])):
        gone |= 1 << int(S[L.S_TRICK + i])
    union = gone
    for s in range(n):
        h = int(S_det[L.S_HAND + s])
        assert h & union == 0
        assert bin(h).count("1") == bin(int(S[L.S_HAND + s])).count("1")
        union |= h
    if pos.baloot:
        union |= 1 << pos.face_up
        if SP.before_completion(S, tables_of(pos.rules)[0]):
            stock = [int(c) for c in S_det[L.B_STOCK : L.B_STOCK + 11]]
            assert len(set(stock)) == 11
            union |= C.mask_of(stock)
        elif not gone >> pos.face_up & 1:
            taker = int(S[L.B_TAKER])
            assert S_det[L.S_HAND + taker] >> pos.face_up & 1  # 3.2.6: the taker holds it
    assert union == pos.rules.deck_mask
    # the record replays legally, to the same legal actions
    record = record_of(pos, S_det)
    if pos.hand and pos.hand.phase == "completion":
        # docs/records.md: a finished auction without its completion is an InvalidRecord
        with pytest.raises(InvalidRecord, match="completion"):
            legal_actions(record)
    else:
        got = legal_actions(record)
        if pos.hand:
            expect = NumbaHand.from_state(pos.rules, S_det.copy()).legal_actions()
            assert sorted(map(str, got)) == sorted(map(str, expect))
    # and the engine's own replay reaches exactly the determinized state
    replayed = replay_state(pos, S_det)
    assert replayed is not None
    diff = np.flatnonzero(replayed != S_det)
    allowed = set(PROJECT_FIELDS) | set(range(L.B_STOCK, L.B_STOCK + 11)) if pos.baloot else set()
    if not pos.baloot:  # who played which card: the searching play loops' record, not the engine's
        allowed |= set(range(L.K_SEAT_PLAYED, L.K_SEAT_PLAYED + 6))
    assert set(diff.tolist()) <= allowed, diff


@pytest.mark.parametrize("preset", PRESETS)
def test_every_sample_replays_legally(preset: str) -> None:
    variants = BALOOT_VARIANTS if preset == "baloot" else [{}]
    rnd = random.Random(11)
    checked = 0
    for v, options in enumerate(variants):
        for i, pos in enumerate(random_positions(preset, 60, 100 + v, **options)):
            seat = observer_of(pos, rnd)
            for j in range(3):
                _check_sample(pos, seat, determinize(pos, seat, rng_of(5, 100 * i + j)))
                checked += 1
    assert checked >= 180


# ---- (a) uniformity -------------------------------------------------------------------------------


def candidates(pos: Position, seat: int) -> list[np.ndarray]:
    """Every state with the hidden cards assigned to the other seats in the right numbers (the
    observer's hand, the played cards and the Baloot face-up card in place)."""
    S = pos.S
    n = pos.rules.n_players
    P = tables_of(pos.rules)[0]
    gone = int(S[L.S_PLAYED])
    for i in range(int(S[L.S_N_IN_TRICK])):
        gone |= 1 << int(S[L.S_TRICK + i])
    known = [0] * n
    known[seat] = int(S[L.S_HAND + seat])
    hidden = pos.rules.deck_mask & ~gone & ~known[seat]
    sizes = [int(SP.hand_size(S, P, s)) if s != seat else 0 for s in range(n)]
    if pos.baloot:
        hidden &= ~(1 << pos.face_up)
        taker = int(S[L.B_TAKER])
        if taker != seat and not gone >> pos.face_up & 1:
            known[taker] |= 1 << pos.face_up
            sizes[taker] -= 1
    others = [s for s in range(n) if s != seat]
    out: list[np.ndarray] = []

    def rec(i: int, left: list[int], chosen: list[int]) -> None:
        if i == len(others) - 1:
            S_try = S.copy()
            for s, h in zip(others, [*chosen, C.mask_of(left)]):
                S_try[L.S_HAND + s] = known[s] | h
            out.append(S_try)
            return
        for combo in itertools.combinations(left, sizes[others[i]]):
            rest = [c for c in left if c not in combo]
            rec(i + 1, rest, [*chosen, C.mask_of(combo)])

    rec(0, C.cards_of(hidden), [])
    return out


def consistent_deals(pos: Position, seat: int) -> tuple[list[tuple[int, ...]], int]:
    """Every assignment of the hidden cards to the other seats that replays legally (brute force
    over all assignments with the right hand sizes), and the number of assignments tried."""
    n = pos.rules.n_players
    tried = candidates(pos, seat)
    deals = [
        tuple(int(S_try[L.S_HAND + s]) for s in range(n))
        for S_try in tried
        if replay_state(pos, S_try) is not None
    ]
    return deals, len(tried)


def within_bounds(S_try: np.ndarray, constraints: tuple[np.ndarray, ...], n: int) -> bool:
    """The hands of ``S_try`` respect the per-(seat, class) bounds of :func:`SP.constraints`."""
    n_cls, _, need, cls, lo, hi = constraints
    for s in range(n):
        if need[s] == 0:
            continue
        for k in range(int(n_cls[0])):
            count = bin(int(S_try[L.S_HAND + s]) & int(cls[k])).count("1")
            if not lo[s, k] <= count <= hi[s, k]:
                return False
    return True


EXACT_CASES: list[tuple[str, dict[str, Any], bool]] = [
    (preset, {}, plain) for preset in PRESETS for plain in (False, True)
] + [
    ("baloot", BALOOT_VARIANTS[1], False),
    ("baloot", BALOOT_VARIANTS[1], True),
]


@pytest.mark.parametrize(("preset", "options", "plain"), EXACT_CASES)
def test_constraints_are_exactly_the_consistent_deals(
    preset: str, options: dict[str, Any], plain: bool
) -> None:
    """Over many small late positions and any observer: a deal replays legally (the engine's
    legality kernels decide) if and only if it is within the bounds the sampler deals from."""
    rules = get_rules(preset, options or None)
    rnd = random.Random(f"{preset}-{plain}-{bool(options)}")
    n = rules.n_players
    checked = binding = 0
    while checked < 25:
        left = rnd.randrange(n, n + 5) if n == 6 else rnd.randrange(n, 3 * n)
        pos = play_random(rules, rnd, 200, left, plain)
        if pos is None or pos.hand is None or pos.hand.phase != "play":
            continue
        seat = rnd.randrange(n)
        cons = constraints_of(pos, pos.S, seat)
        sizes = [int(x) for x in cons[2] if x > 0]
        if math.factorial(sum(sizes)) // math.prod(math.factorial(x) for x in sizes) > 1_000:
            continue
        tried = candidates(pos, seat)
        ok = [replay_state(pos, S_try) is not None for S_try in tried]
        assert ok == [within_bounds(S_try, cons, n) for S_try in tried]
        checked += 1
        binding += not all(ok)
    assert binding >= 5


def chi2_sf(x: float, df: int) -> float:
    """Upper tail P(X > x) of a chi-square law: the regularized gamma Q(df/2, x/2)
    (series / Lentz continued fraction, Numerical Recipes 6.2; scipy is not installed)."""
    a, z = df / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    lg = math.lgamma(a)
    if z < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= z / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return 1.0 - total * math.exp(-z + a * math.log(z) - lg)
    b = z + 1 - a
    c = 1e300
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(-z + a * math.log(z) - lg) * h


def test_chi2_sf_against_tables() -> None:
    # critical values from the standard table (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4)
    assert abs(chi2_sf(3.841, 1) - 0.05) < 1e-3
    assert abs(chi2_sf(18.307, 10) - 0.05) < 1e-3
    assert abs(chi2_sf(124.342, 100) - 0.05) < 1e-3
    assert abs(chi2_sf(149.449, 100) - 0.001) < 1e-4


def _binds(pos: Position, seat: int, need: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> bool:
    """Some shown information excludes a hidden card from a seat that holds hidden cards."""
    return bool(lo.any()) or any(
        need[s] > 0 and hi[s, k] == 0 and hi[:, k].any()
        for s in range(SP.MAX_SLOTS)
        for k in range(SP.MAX_CLASSES)
    )


def _rankless(pos: Position, seat: int) -> bool:
    """1.8: an unseen seat led a rankless joker, so it holds no suited card."""
    voids = int(pos.S[L.S_VOIDS])
    return any((voids >> (8 * s)) & 15 == 15 for s in range(pos.rules.n_players) if s != seat)


def _trump_bands(pos: Position, seat: int) -> bool:
    """3.4.2-3: an unseen seat is shown to hold no trump above some rank."""
    voids = int(pos.S[L.S_VOIDS])
    return any((voids >> (32 + 8 * s)) & 0xFF for s in range(4) if s != seat)


def _last_lead(pos: Position, seat: int) -> bool:
    """2.8: the leader of the last trick (unseen) cannot hold the hidden joker."""
    S = pos.S
    hidden = int(pos.rules.deck_mask) & ~int(S[L.S_PLAYED]) & ~int(S[L.S_HAND + seat])
    return int(S[L.S_N_IN_TRICK]) == 0 and int(S[L.S_LEADER]) != seat and bool(hidden >> C.JK & 1)


FOCUS = {
    "any": None,
    "rankless": _rankless,
    "bands": _trump_bands,
    "last_lead": _last_lead,
    "bidder_trump": None,  # 2.4: checked through lo below
}


def late_positions(
    preset: str, options: dict[str, Any], plain: bool, focus: str, seed: int, want: int
) -> list[tuple[Position, int]]:
    """Late positions (few hidden cards) where some shown information binds, with an observer
    (any seat); ``focus`` asks for a particular kind of information."""
    rules = get_rules(preset, options or None)
    rnd = random.Random(seed)
    out: list[tuple[Position, int]] = []
    n = rules.n_players
    lo_left, hi_left = (n, n + 4) if n == 6 else (2 * n, 3 * n)
    if focus == "last_lead":
        lo_left = hi_left = n
    if focus == "rankless":
        lo_left = n
    for _ in range(20_000):
        if len(out) == want:
            break
        pos = play_random(rules, rnd, 200, rnd.randrange(lo_left, hi_left + 1), plain)
        if pos is None or pos.hand is None or pos.hand.phase != "play":
            continue
        seat = rnd.randrange(n)
        _, _, need, _, lo, hi = constraints_of(pos, pos.S, seat)
        sizes = [int(x) for x in need if x > 0]
        free = math.factorial(sum(sizes)) // math.prod(math.factorial(x) for x in sizes)
        check = FOCUS[focus]
        if free > 2_000 or not _binds(pos, seat, need, lo, hi):
            continue
        if (check is not None and not check(pos, seat)) or (
            focus == "bidder_trump" and not lo.any()
        ):
            continue
        out.append((pos, seat))
    assert len(out) == want, f"only {len(out)} positions found"
    return out


STRICT = BALOOT_VARIANTS[1]
UNIFORMITY_CASES = [
    ("kout_bo_4", {}, False, "any", 1),
    ("kout_bh_4", {}, False, "any", 2),
    ("baloot", {}, False, "any", 3),
    ("kout_bo_6", {}, False, "any", 4),
    ("kout_bh_6", {}, False, "any", 5),
    ("kout_bo_4", {}, True, "rankless", 6),
    ("kout_bh_4", {}, True, "bidder_trump", 7),
    ("kout_bh_4", {}, True, "last_lead", 8),
    ("baloot", {}, True, "bands", 9),
    ("baloot", STRICT, True, "bands", 10),
]


@pytest.mark.parametrize(("preset", "options", "plain", "focus", "seed"), UNIFORMITY_CASES)
def test_samples_are_uniform_over_consistent_deals(
    preset: str, options: dict[str, Any], plain: bool, focus: str, seed: int
) -> None:
    n_samples = 20_000
    for k, (pos, seat) in enumerate(late_positions(preset, options, plain, focus, seed, 3)):
        deals, tried = consistent_deals(pos, seat)
        index = {d: i for i, d in enumerate(deals)}
        n = pos.rules.n_players
        truth = tuple(int(pos.S[L.S_HAND + s]) for s in range(n))
        assert truth in index, "the true deal is consistent"
        assert len(deals) < tried, "the shown information binds"
        counts = Counter[int]()
        rng = rng_of(seed, k)
        for _ in range(n_samples):
            out = determinize(pos, seat, rng)
            deal = tuple(int(out[L.S_HAND + s]) for s in range(n))
            assert deal in index, "a sample outside the consistent deals"
            counts[index[deal]] += 1
        expected = n_samples / len(deals)
        chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(len(deals)))
        df = len(deals) - 1
        p = chi2_sf(chi2, df) if df > 0 else 1.0
        print(
            f"{preset}{' strict' if options else ''} [{focus}] position {k} (observer {seat}): "
            f"{len(deals)} consistent deals of {tried}, chi2 = {chi2:.1f}, df = {df}, p = {p:.3f}"
        )
        assert p > 1e-3


# ---- (c) no information leak ---------------------------------------------------------------------


def hidden_swaps(
    pos: Position, S: np.ndarray, seat: int, rnd: random.Random
) -> Iterator[np.ndarray]:
    """For each pair of the other seats and each hidden class both of them hold a card of and
    may hold (as far as ``seat`` knows): ``S`` with one such card of each swapped between them,
    chosen by ``rnd``. Asserts that ``seat``'s constraints are unchanged by the swap. Lazy: ``rnd``
    is drawn from only as far as the swaps are taken."""
    base = constraints_of(pos, S, seat)
    cls, hi = base[3], base[5]
    others = [s for s in range(pos.rules.n_players) if s != seat]
    for s1, s2 in itertools.combinations(others, 2):
        h1, h2 = int(S[L.S_HAND + s1]), int(S[L.S_HAND + s2])
        for k in range(int(base[0][0])):
            c1 = C.cards_of(h1 & int(cls[k]))
            c2 = C.cards_of(h2 & int(cls[k]))
            if not c1 or not c2 or hi[s1, k] == 0 or hi[s2, k] == 0:
                continue
            a, b = rnd.choice(c1), rnd.choice(c2)
            S2 = S.copy()
            S2[L.S_HAND + s1] = h1 ^ (1 << a) ^ (1 << b)
            S2[L.S_HAND + s2] = h2 ^ (1 << a) ^ (1 << b)
            for x, y in zip(base, constraints_of(pos, S2, seat)):
                assert np.array_equal(x, y)
            yield S2


@pytest.mark.parametrize("preset", PRESETS)
def test_hidden_swaps_change_nothing(preset: str) -> None:
    rnd = random.Random(3)
    swaps = 0
    for i, pos in enumerate(random_positions(preset, 40, 200)):
        seat = observer_of(pos, rnd)
        S = pos.S
        for S2 in hidden_swaps(pos, S, seat, rnd):
            P, STR = tables_of(pos.rules)
            out1 = np.zeros(L.S_SIZE, dtype=np.int64)
            out2 = np.zeros(L.S_SIZE, dtype=np.int64)
            assert SP.determinize(S, P, STR, seat, rng_of(9, i), out1) == 0
            assert SP.determinize(S2, P, STR, seat, rng_of(9, i), out2) == 0
            assert np.array_equal(out1, out2)
            swaps += 1
    assert swaps >= 20


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_6", "baloot"])
def test_a_plan_reused_draws_what_determinize_draws(preset: str) -> None:
    """ISMCTS plans a position once and deals many times (``plan_position``, ``deal_hidden``): the
    deals equal those of ``determinize`` on the same stream, draw after draw (the plan is read,
    never changed), at positions with shown voids (a constrained class) and without."""
    from kout_sim.bench import first_leads

    rules = get_rules(preset)
    P, STR = tables_of(rules)
    constrained = 0
    for tricks in (1, 3):
        for S in first_leads(rules, 6, seed=3, tricks=tricks):
            seat = int(S[L.S_TO_ACT])
            hidden = SP.plan_position(S, P, STR, seat)
            constrained += int(hidden.plan[SP.PL_K] > 0)
            a, b = np.empty(4, np.uint64), np.empty(4, np.uint64)
            seed_stream(a, 5, tricks, 0)
            b[:] = a
            D1, D2 = np.empty_like(S), np.empty_like(S)
            for _ in range(20):
                assert SP.determinize(S, P, STR, seat, a, D1) == 0
                assert SP.deal_hidden(S, P, seat, b, D2, hidden) == 0
                assert np.array_equal(D1, D2)
    assert constrained > 0  # some positions had a constrained class (the DP path)
