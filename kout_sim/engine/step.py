"""Step-by-step access to the numba engine from Python (used by the replay API and the tests).

:class:`NumbaHand` and :class:`NumbaMatch` speak the replay vocabulary (``"pass"``, int bids, suit
letters, card texts) and drive the same kernels the batch drivers use.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import cards as C
from ..rules import Rules
from . import kout, match
from . import layout as L

Action = str | int


def _phase_name(phase: int) -> str:
    return ("auction", "trump", "play", "over")[phase]


def actions_of_mask(phase: str, mask: int) -> list[Action]:
    """The replay vocabulary of a phase-relative legal mask."""
    if phase == "play":
        return list[Action](C.format_mask(mask))
    if phase == "auction":
        return ["pass" if idx == L.PASS else idx for idx in C.cards_of(mask)]
    return [C.SUITS[idx - L.TRUMP] for idx in C.cards_of(mask)]


def decode_action(action: int) -> tuple[str, Action]:
    """``(phase, action)`` in the replay vocabulary of a global action id."""
    if action < L.CALL:
        return "play", C.format_card(action)
    idx = action - L.CALL
    if idx >= L.TRUMP:
        return "trump", C.SUITS[idx - L.TRUMP]
    return "auction", "pass" if idx == L.PASS else idx


class NumbaHand:
    """One hand in the numba engine: ``legal_actions`` / ``apply`` / ``result``."""

    def __init__(self, rules: Rules, dealer: int, hands: list[int]) -> None:
        self.rules = rules
        self.P, self.STR = rules.tables
        self.S = np.zeros(L.S_SIZE, dtype=np.int64)
        dealt = np.zeros(6, dtype=np.int64)
        dealt[: len(hands)] = hands
        kout.new_hand(self.S, self.P, dealer, dealt)

    @property
    def phase(self) -> str:
        return _phase_name(int(self.S[L.S_PHASE]))

    @property
    def to_act(self) -> int | None:
        seat = int(self.S[L.S_TO_ACT])
        return None if self.phase == "over" else seat

    def legal_mask(self) -> int:
        """The kernel's phase-relative legal mask."""
        return int(kout.legal_mask(self.S, self.P))

    def legal_actions(self) -> list[Action]:
        return actions_of_mask(self.phase, self.legal_mask())

    def apply(self, action: Action) -> None:
        phase = self.phase
        if phase == "play":
            idx = C.parse_card(action)
        elif phase == "auction":
            idx = L.PASS if action == "pass" else int(action)
        elif phase == "trump":
            idx = L.TRUMP + C.parse_suit(action)
        else:
            raise ValueError("the hand is over")
        if not (self.legal_mask() >> idx) & 1:
            raise ValueError(f"illegal action {action!r}")
        kout.apply_action(self.S, self.P, self.STR, idx)

    def result(self) -> dict[str, Any]:
        S = self.S
        n_done = int(S[L.S_N_DONE])
        made = int(S[L.S_MADE])
        winner = int(S[L.S_MATCH_WINNER])
        trump = int(S[L.S_TRUMP])
        return {
            "bidder": int(S[L.S_BIDDER]),
            "contract": int(S[L.S_HIGH_BID]),
            "malzoom": bool(S[L.S_MALZOOM]),
            "trump": C.SUITS[trump] if trump >= 0 else None,
            "trick_winners": [int(w) for w in S[L.S_WINNERS : L.S_WINNERS + n_done]],
            "tricks": [int(S[L.S_TRICKS]), int(S[L.S_TRICKS + 1])],
            "made": None if made < 0 else bool(made),
            "points": [int(S[L.S_POINTS]), int(S[L.S_POINTS + 1])],
            "match_winner": winner if winner >= 0 else None,
            "forced_joker_lead": bool(S[L.S_FORCED_JOKER]),
        }


class NumbaMatch:
    """Match flow in the numba engine: bank hands, detect the end, rotate the dealer."""

    def __init__(self, rules: Rules, first_dealer: int) -> None:
        self.rules = rules
        self.P, _ = rules.tables
        self.MS = np.zeros(L.M_SIZE, dtype=np.int64)
        match.new_match(self.MS, first_dealer)

    @property
    def dealer(self) -> int:
        return int(self.MS[L.M_DEALER])

    @property
    def over(self) -> bool:
        return int(self.MS[L.M_WINNER]) >= 0

    @property
    def winner(self) -> int | None:
        w = int(self.MS[L.M_WINNER])
        return w if w >= 0 else None

    @property
    def reason(self) -> str | None:
        return L.REASON_NAMES[int(self.MS[L.M_REASON])]

    @property
    def score(self) -> list[int] | int:
        if self.P[L.P_SIGNED_SCORE]:
            return int(self.MS[L.M_SCORE])
        return [int(self.MS[L.M_SCORE]), int(self.MS[L.M_SCORE + 1])]

    def apply_hand(self, hand: NumbaHand) -> None:
        match.apply_hand(self.MS, hand.S, self.P)
