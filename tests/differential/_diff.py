"""Action-by-action comparison of the numba engine with the reference engine on random games."""

from __future__ import annotations

from typing import Any

import numpy as np

from kout_sim import cards as C
from kout_sim import reference as R
from kout_sim.drivers.play import random_hand_traced
from kout_sim.engine import layout as L
from kout_sim.engine.baloot import completion_masks
from kout_sim.engine.step import NumbaHand, actions_of_mask, decode_action
from kout_sim.engine.tables import tables_of
from kout_sim.rules import get_rules
from kout_sim.sim import play_random_matches

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


def compare_hands(
    preset: str,
    n_hands: int,
    seed: int,
    options: dict[str, Any] | None = None,
    pass_permille: int = -1,
) -> tuple[int, dict[str, int]]:
    """Play ``n_hands`` random hands in numba, replay each through the reference.

    Returns the number of actions compared and how often the rare joker events occurred.

    At every decision the legal sets must be equal; at the end every result field must be equal.
    Odd hands use a low auction (``pass_permille``, default 800) so that late-hand rules occur.
    """
    rules = get_rules(preset, options)
    P, STR = tables_of(rules)
    n = rules.n_players
    hands = np.zeros(6, dtype=np.int64)
    actions = np.zeros(128, dtype=np.int64)
    legal = np.zeros(128, dtype=np.int64)
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    opts = dict(rules.options)
    baloot = rules.preset.family == "baloot"
    n_actions = 0
    events = {"permitted_joker_lead": 0, "rankless_joker_lead": 0, "forced_joker_lead": 0}
    for i in range(n_hands):
        bias = pass_permille if pass_permille >= 0 else (800 if i % 2 else -1)
        score = SCORES[i % len(SCORES)] if baloot else (0, 0)
        k = int(random_hand_traced(P, STR, seed, i, hands, actions, legal, S, bias, *score))
        dealer = int(S[L.S_DEALER])
        texts = [C.format_mask(int(hands[s])) for s in range(n)]
        if baloot:
            completion = np.zeros(4, dtype=np.int64)
            if S[L.B_MODE] != 0:
                completion_masks(S, completion, 0)
            ref = R.RefHand(
                preset,
                opts,
                dealer,
                texts,
                face_up=C.format_card(int(S[L.B_FACE_UP])),
                completion=[C.format_mask(int(m)) for m in completion] if S[L.B_MODE] else None,
                match_score=list(score),
            )
        else:
            ref = R.RefHand(preset, opts, dealer, texts)
        for t in range(k):
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


def result_of_row(row: np.ndarray) -> dict[str, Any]:
    """A hand result dict (as the engines give) from a numba hand row."""
    made = int(row[L.R_MADE])
    winner = int(row[L.R_MATCH_WINNER])
    return {
        "bidder": int(row[L.R_BIDDER]),
        "contract": int(row[L.R_CONTRACT]),
        "malzoom": bool(row[L.R_MALZOOM]),
        "trump": C.SUITS[int(row[L.R_TRUMP])] if row[L.R_TRUMP] >= 0 else None,
        "tricks": [int(row[L.R_TRICKS]), int(row[L.R_TRICKS + 1])],
        "made": None if made < 0 else bool(made),
        "points": [int(row[L.R_POINTS]), int(row[L.R_POINTS + 1])],
        "match_winner": winner if winner >= 0 else None,
        "forced_joker_lead": bool(row[L.R_FORCED_JOKER]),
    }


def compare_matches(
    preset: str, n_matches: int, seed: int, options: dict[str, Any] | None = None
) -> int:
    """Play random matches in numba; feed each hand's result to the reference match flow.

    Dealer of every hand, score after every hand, winner and reason must agree. Returns hands.
    """
    rules = get_rules(preset, options)
    match_rows, hand_rows = play_random_matches(rules, n_matches, seed, workers=1)
    opts = dict(rules.options)
    h = 0
    for mrow in match_rows:
        m = R.RefMatch(preset, opts, int(mrow[L.X_FIRST_DEALER]))
        for _ in range(int(mrow[L.X_N_HANDS])):
            row = hand_rows[h]
            assert m.dealer == row[L.R_DEALER], (
                f"match {mrow[L.X_MATCH]} hand {row[L.R_HAND_IDX]} dealer"
            )
            assert not m.over
            m.apply_hand(result_of_row(row))
            score = m.score if isinstance(m.score, list) else [m.score, 0]
            assert score == [int(row[L.R_SCORE_AFTER]), int(row[L.R_SCORE_AFTER + 1])]
            h += 1
        assert m.over and m.winner == mrow[L.X_WINNER]
        assert m.reason == L.REASON_NAMES[int(mrow[L.X_REASON])]
    assert h == len(hand_rows)
    return h
