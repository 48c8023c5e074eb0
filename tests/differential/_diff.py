"""Action-by-action comparison of the numba engine with the reference engine on random games.

The reference never takes numba's cards, options or first dealer: it resolves the options itself,
deals seeded hands and matches from its own copy of the deal stream, completes Baloot hands from its
own stock, and in the free games the positions are made without numba at all.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from kout_sim import cards as C
from kout_sim import reference as R
from kout_sim.drivers.play import random_hand_traced
from kout_sim.engine import layout as L
from kout_sim.engine.step import NumbaHand, NumbaMatch, actions_of_mask, decode_action
from kout_sim.engine.tables import tables_of
from kout_sim.reference import stream as RS
from kout_sim.rules import get_rules
from kout_sim.sim import play_matches

SCORES = ((0, 0), (120, 40), (40, 120), (101, 100), (150, 150))
BALOOT_KEYS = (
    "mode",
    "buyer",
    "ashkal",
    "void",
    "card_points",
    "projects",
    "baloot",
    "kaboot",
    "double",
    "gahwa",
    "closed",
    "game_points",
)
RESULT_KEYS = (
    "bidder",
    "contract",
    "malzoom",
    "trump",
    "trick_winners",
    "tricks",
    "made",
    "points",
    "match_winner",
    "forced_joker_lead",
)


def _ref_hand(preset: str, options: dict[str, Any] | None, dealt: RS.Dealt, score: Any) -> Any:
    """The reference hand of ``dealt`` (Baloot: the completion is given when it is due)."""
    if dealt.face_up is None:
        return R.RefHand(preset, options or {}, dealt.dealer, dealt.hands)
    return R.RefHand(
        preset,
        options or {},
        dealt.dealer,
        dealt.hands,
        face_up=dealt.face_up,
        completion=None,
        match_score=list(score),
    )


def _complete(ref: Any, dealt: RS.Dealt) -> None:
    """Baloot: the reference's own completion from its own stock (RULES.md 3.2.6)."""
    if ref.phase == "completion":
        ref.complete(dealt.completion(ref.taker))


def _masks(hands: list[list[str]]) -> list[int]:
    return [C.mask_of(C.parse_card(c) for c in hand) for hand in hands]


def compare_hands(
    preset: str,
    n_hands: int,
    seed: int,
    options: dict[str, Any] | None = None,
    pass_permille: int = -1,
) -> tuple[int, dict[str, int]]:
    """Play ``n_hands`` random hands in numba, replay each through the reference.

    Returns the number of actions compared and how often the rare joker events occurred.

    The reference deals each hand itself from the seed (:mod:`kout_sim.reference.stream`; numba's
    deal must be the same cards), completes Baloot hands from its own stock and resolves the
    options itself. At every decision the legal sets must be equal; at the end every result field
    must be equal. Odd hands use a low auction (``pass_permille``, default 800) so that late-hand
    rules occur.
    """
    rules = get_rules(preset, options)
    P, STR = tables_of(rules)
    n = rules.n_players
    hands = np.zeros(6, dtype=np.int64)
    actions = np.zeros(128, dtype=np.int64)
    legal = np.zeros(128, dtype=np.int64)
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    baloot = rules.is_baloot
    n_actions = 0
    events = {"permitted_joker_lead": 0, "rankless_joker_lead": 0, "forced_joker_lead": 0}
    for i in range(n_hands):
        bias = pass_permille if pass_permille >= 0 else (800 if i % 2 else -1)
        score = SCORES[i % len(SCORES)] if baloot else (0, 0)
        k = int(random_hand_traced(P, STR, seed, i, hands, actions, legal, S, bias, *score))
        dealt = RS.independent_hand(preset, seed, i)
        assert dealt.dealer == int(S[L.S_DEALER]), f"{preset} hand {i}: dealer"
        assert _masks(dealt.hands) == [int(hands[s]) for s in range(n)], f"{preset} hand {i}: deal"
        if baloot:
            assert C.parse_card(dealt.face_up) == int(S[L.B_FACE_UP])
        ref = _ref_hand(preset, options, dealt, score)
        for t in range(k):
            _complete(ref, dealt)
            action = decode_action(int(actions[t]), baloot)
            if baloot and int(actions[t]) >= L.CALL:
                events[f"call:{action}"] = events.get(f"call:{action}", 0) + 1
            phase = ref.phase
            numba_legal = actions_of_mask(phase, int(legal[t]), baloot)
            ref_legal = ref.legal_actions()
            assert sorted(map(str, ref_legal)) == sorted(map(str, numba_legal)), (
                f"{preset} seed {seed} hand {i} action {t} seat {ref.to_act}: "
                f"reference {ref_legal} vs numba {numba_legal}"
            )
            ref.apply(action)
        assert ref.phase == "over", f"hand {i}: reference not over after {k} actions"
        got, want = NumbaHand.from_state(rules, S).result(), ref.result()
        for key in RESULT_KEYS:
            assert got[key] == want[key], (
                f"{preset} hand {i} {key}: numba {got[key]} vs ref {want[key]}"
            )
        n_actions += k
        events["permitted_joker_lead"] += S[L.S_JOKER_LEADS] != 0
        events["rankless_joker_lead"] += S[L.S_JOKER_FORCED] != 0
        events["forced_joker_lead"] += S[L.S_FORCED_JOKER] != 0
        if baloot:
            for key, flag in (
                ("void", bool(S[L.B_VOID])),
                ("sun", S[L.B_MODE] == L.MODE_SUN),
                ("hokum", S[L.B_MODE] == L.MODE_HOKUM),
                ("ashkal", bool(S[L.B_ASHKAL])),
                ("doubled", S[L.B_DOUBLE] > 1),
                ("four", S[L.B_DOUBLE] == 4),
                ("gahwa", bool(S[L.B_GAHWA])),
                ("closed", bool(S[L.B_CLOSED])),
                ("kaboot", S[L.B_KABOOT] >= 0),
                ("projects", S[L.B_PROJ_TEAM] >= 0),
                ("baloot", S[L.B_BALOOT_SEAT] >= 0),
                ("failed", S[L.S_MADE] == 0),
            ):
                events[key] = events.get(key, 0) + int(flag)
    return n_actions, events


def _step_both(
    rules: Any,
    options: dict[str, Any] | None,
    dealt: RS.Dealt,
    score: Any,
    rng: random.Random,
    pass_bias: float,
    where: str,
) -> tuple[NumbaHand, Any, int]:
    """Play one hand in both engines side by side, the choices made here (``rng``): uniform over
    the legal set, an auction pass with probability ``pass_bias`` when >= 0. The legal sets must
    be equal at every decision. Returns the two hands and the number of decisions."""
    preset = rules.name
    face_up = None if dealt.face_up is None else C.parse_card(dealt.face_up)
    fast = NumbaHand(
        rules, dealt.dealer, _masks(dealt.hands), face_up=face_up, match_score=tuple(score)
    )
    ref = _ref_hand(preset, options, dealt, score)
    t = 0
    while ref.phase != "over":
        if ref.phase == "completion":
            assert fast.phase == "completion" and int(fast.S[L.B_TAKER]) == ref.taker, where
            completion = dealt.completion(ref.taker)
            ref.complete(completion)
            fast.complete(_masks(completion))
            continue
        assert (fast.phase, fast.to_act) == (ref.phase, ref.to_act), f"{where} action {t}"
        ref_legal = ref.legal_actions()
        fast_legal = fast.legal_actions()
        assert sorted(map(str, ref_legal)) == sorted(map(str, fast_legal)), (
            f"{where} action {t} seat {ref.to_act}: reference {ref_legal} vs numba {fast_legal}"
        )
        choices = ref_legal
        if pass_bias >= 0 and ref.phase == "auction" and "pass" in choices and len(choices) > 1:
            if rng.random() < pass_bias:
                choices = ["pass"]
            else:
                choices = [a for a in choices if a != "pass"]
        action = rng.choice(sorted(choices, key=str))
        ref.apply(action)
        fast.apply(action)
        t += 1
    assert fast.phase == "over", where
    got, want = fast.result(), ref.result()
    for key in RESULT_KEYS + (BALOOT_KEYS if dealt.face_up is not None else ()):
        assert got[key] == want[key], f"{where} {key}: numba {got[key]} vs ref {want[key]}"
    return fast, ref, t


def _python_deal(preset: str, dealer: int, rng: random.Random) -> RS.Dealt:
    cards = RS.deck(preset)
    rng.shuffle(cards)
    return RS.deal_shuffled(preset, dealer, cards)


def compare_free_hands(
    preset: str, n_hands: int, seed: int, options: dict[str, Any] | None = None
) -> int:
    """Random hands generated without numba: Python's ``random`` deals, picks the dealer and
    makes every choice; both engines are stepped side by side (see :func:`_step_both`). Odd hands
    use a low auction (pass 0.8). Returns the number of decisions compared."""
    rules = get_rules(preset, options)
    rng = random.Random(seed)
    n = rules.n_players
    baloot = rules.is_baloot
    n_actions = 0
    for i in range(n_hands):
        score = SCORES[i % len(SCORES)] if baloot else (0, 0)
        dealt = _python_deal(preset, rng.randrange(n), rng)
        where = f"{preset} seed {seed} free hand {i}"
        n_actions += _step_both(rules, options, dealt, score, rng, 0.8 if i % 2 else -1, where)[2]
    return n_actions


def compare_free_matches(
    preset: str, n_matches: int, seed: int, options: dict[str, Any] | None = None
) -> int:
    """Random matches generated without numba: the reference draws the first dealer (its own
    RULES.md 1.2 / 2.2 draw, or option ``first_dealer``), Python's ``random`` deals and chooses;
    each hand is stepped in both engines and banked in both match flows, which must agree on
    the dealer, the score, the end and its reason after every hand. Returns the hands played."""
    rules = get_rules(preset, options)
    rng = random.Random(seed)
    n_hands = 0
    for m in range(n_matches):
        first = R.resolve_first_dealer(preset, options or {}, rng)
        ref_match = R.RefMatch(preset, options or {}, first)
        fast_match = NumbaMatch(rules, first)
        while not ref_match.over:
            assert not fast_match.over and fast_match.dealer == ref_match.dealer
            score = list(ref_match.score) if isinstance(ref_match.score, list) else (0, 0)
            dealt = _python_deal(preset, ref_match.dealer, rng)
            where = f"{preset} seed {seed} match {m} hand {ref_match.n_hands}"
            fast, ref, _ = _step_both(rules, options, dealt, score, rng, -1, where)
            ref_match.apply_hand(ref.result())
            fast_match.apply_hand(fast)
            assert fast_match.score == ref_match.score, where
            n_hands += 1
        assert fast_match.over and fast_match.winner == ref_match.winner
        assert fast_match.reason == ref_match.reason
    return n_hands


def compare_matches(
    preset: str, n_matches: int, seed: int, options: dict[str, Any] | None = None
) -> int:
    """Play random matches in numba; the reference plays each match itself from the record.

    The reference draws the first dealer and deals every hand from the seed's deal stream
    (:mod:`kout_sim.reference.stream`; numba's cards must be the same), completes Baloot hands from
    its own stock, replays numba's decisions (seat and number of legal actions checked at each)
    and banks its own results: the dealer of every hand, the score after every hand, the winner
    and the reason must agree. Returns the number of hands.
    """
    rules = get_rules(preset, options)
    match_rows, hand_rows, trace = play_matches(rules, n_matches, seed, workers=1, traced=True)
    baloot = rules.is_baloot
    n = rules.n_players
    h = 0
    for mrow in match_rows:
        deals = RS.MatchDeals(preset, options, seed, int(mrow[L.X_MATCH]))
        assert deals.first_dealer == mrow[L.X_FIRST_DEALER], f"match {mrow[L.X_MATCH]} first dealer"
        m = R.RefMatch(preset, options or {}, deals.first_dealer)
        for _ in range(int(mrow[L.X_N_HANDS])):
            row = hand_rows[h]
            where = f"{preset} match {mrow[L.X_MATCH]} hand {row[L.R_HAND_IDX]}"
            assert m.dealer == row[L.R_DEALER], f"{where} dealer"
            assert not m.over
            dealt = deals.next_hand(m.dealer)
            first = L.R_FIRST_DEAL if baloot else L.R_HAND
            assert _masks(dealt.hands) == [int(row[first + s]) for s in range(n)], f"{where} deal"
            score = list(m.score) if isinstance(m.score, list) else (0, 0)
            ref = _ref_hand(preset, options, dealt, score)
            for packed in trace[h]:
                if packed == 0:
                    break
                _complete(ref, dealt)
                code, seat, n_legal = packed & 0xFF, (packed >> 8) & 0xF, packed >> 12
                assert (ref.to_act, len(ref.legal_actions())) == (seat, n_legal), where
                ref.apply(decode_action(int(code), baloot))
            assert ref.phase == "over", where
            m.apply_hand(ref.result())
            score_after = m.score if isinstance(m.score, list) else [m.score, 0]
            assert score_after == [int(row[L.R_SCORE_AFTER]), int(row[L.R_SCORE_AFTER + 1])]
            h += 1
        assert m.over and m.winner == mrow[L.X_WINNER]
        assert m.reason == L.REASON_NAMES[int(mrow[L.X_REASON])]
    assert h == len(hand_rows)
    return h
