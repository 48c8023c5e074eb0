"""Step-by-step access to the numba engine from Python (used by the replay API and the tests).

:class:`NumbaHand` and :class:`NumbaMatch` speak the replay vocabulary (``"pass"``, int bids, suit
letters, Baloot call names, card texts) and drive the same kernels the batch drivers use.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import cards as C
from ..rules import Rules
from . import baloot, kout, match
from . import layout as L
from .game import record_play
from .state import state_view
from .tables import tables_of

Action = str | int


def actions_of_mask(phase: str, mask: int, baloot_calls: bool = False) -> list[Action]:
    """The replay vocabulary of a phase-relative legal mask."""
    if phase == "play":
        return list[Action](C.format_mask(mask))
    if baloot_calls:
        return [L.BALOOT_CALL_NAMES[idx] for idx in C.cards_of(mask)]
    if phase == "auction":
        return ["pass" if idx == L.PASS else idx for idx in C.cards_of(mask)]
    return [C.SUITS[idx - L.TRUMP] for idx in C.cards_of(mask)]


def decode_action(action: int, baloot_calls: bool = False) -> Action:
    """The replay vocabulary of a global action id (card id, or ``CALL + call index``)."""
    if action < L.CALL:
        return C.format_card(action)
    idx = action - L.CALL
    if baloot_calls:
        return L.BALOOT_CALL_NAMES[idx]
    if idx >= L.TRUMP:
        return C.SUITS[idx - L.TRUMP]
    return "pass" if idx == L.PASS else idx


def _project(code: int, seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "type": L.PROJ_NAMES[code // 1000],
        "top": "789TJQKA"[code % 100],
    }


class NumbaHand:
    """One hand in the numba engine: ``legal_actions`` / ``apply`` / ``result``.

    Baloot hands also take the face-up card, the completion (int masks, or ``None`` to give it later
    with :meth:`complete`) and the match score before the hand.
    """

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        hands: list[int],
        *,
        face_up: int | None = None,
        completion: list[int] | None = None,
        match_score: tuple[int, int] = (0, 0),
    ) -> None:
        self.rules = rules
        self.P, self.STR = tables_of(rules)
        self.baloot = int(self.P[L.P_FAMILY]) == L.FAMILY_BALOOT
        self.S = np.zeros(L.S_SIZE, dtype=np.int64)
        self._completion = completion
        dealt = np.zeros(6, dtype=np.int64)
        dealt[: len(hands)] = hands
        if self.baloot:
            if face_up is None:
                raise ValueError("a Baloot hand needs its face-up card")
            baloot.hand.reset_hand(self.S, dealer, dealt, face_up, *match_score)
        else:
            kout.hand.reset_hand(self.S, self.P, dealer, dealt)

    @classmethod
    def from_state(cls, rules: Rules, S: np.ndarray) -> NumbaHand:
        """A hand wrapping an existing state array (e.g. one a batch kernel traced)."""
        hand = cls.__new__(cls)
        hand.rules = rules
        hand.P, hand.STR = tables_of(rules)
        hand.baloot = int(hand.P[L.P_FAMILY]) == L.FAMILY_BALOOT
        hand.S = S
        hand._completion = None
        return hand

    @property
    def fields(self) -> np.void:
        """The state by field name (:func:`kout_sim.engine.state.state_view`: a view, no copy)."""
        return state_view(self.S, "baloot" if self.baloot else "kout")

    @property
    def phase(self) -> str:
        """The phase of the hand, by name."""
        return L.PHASE_NAMES[int(self.S[L.S_PHASE])]

    @property
    def to_act(self) -> int | None:
        """The seat to act (None when no seat is)."""
        seat = int(self.S[L.S_TO_ACT])
        return None if seat < 0 else seat

    def legal_mask(self) -> int:
        """The kernel's phase-relative legal mask."""
        if self.baloot:
            return int(baloot.legal_mask(self.S, self.P, self.STR))
        return int(kout.legal_mask(self.S, self.P, self.STR))

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act (none once the hand is over or awaits its
        completion)."""
        if self.phase in ("over", "completion"):
            return []
        return actions_of_mask(self.phase, self.legal_mask(), self.baloot)

    def _index(self, action: Action) -> int:
        phase = self.phase
        if phase == "play":
            return C.parse_card(action)
        if self.baloot:
            if action not in L.BALOOT_CALL_NAMES:
                raise ValueError(f"unknown call {action!r}")
            return L.BALOOT_CALL_NAMES.index(str(action))
        if phase == "auction":
            return L.PASS if action == "pass" else int(action)
        if phase == "trump":
            return L.TRUMP + C.parse_suit(action)
        raise ValueError(f"no action is due in the {phase} phase")

    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to act (``ValueError`` when it is illegal)."""
        idx = self._index(action)
        if not (self.legal_mask() >> idx) & 1:
            raise ValueError(f"illegal action {action!r}")
        if self.phase == "play":  # what the card shows, for the samplers
            record_play(self.S, self.P, self.STR, idx, int(self.P[L.P_FAMILY]))
        if self.baloot:
            baloot.hand.apply_action(self.S, self.P, self.STR, idx)  # the completion is given
            if self.phase == "completion" and self._completion is not None:
                self.complete(self._completion)
        else:
            kout.apply_action(self.S, self.P, self.STR, idx)

    def completion_sizes(self) -> list[int]:
        """Baloot: how many completion cards each seat is due (the face-up taker gets 2)."""
        taker = int(self.S[L.B_TAKER])
        return [2 if seat == taker else 3 for seat in range(4)]

    def complete(self, completion: list[int]) -> None:
        """Baloot: give each seat its completion cards (masks, without the face-up card)."""
        if self.phase != "completion":
            raise ValueError("no completion is due")
        baloot.hand.complete(self.S, self.P, self.STR, np.asarray(completion, dtype=np.int64))

    def result(self) -> dict[str, Any]:
        """The result of the hand, in the replay API's form."""
        S = self.S
        n_done = int(S[L.S_N_DONE])
        made = int(S[L.S_MADE])
        winner = int(S[L.S_MATCH_WINNER])
        trump = int(S[L.S_TRUMP])
        bidder = int(S[L.S_BIDDER])
        out: dict[str, Any] = {
            "bidder": bidder if bidder >= 0 else None,
            "contract": int(S[L.S_HIGH_BID]),
            "malzoom": bool(S[L.S_MALZOOM]),
            "trump": C.SUITS[trump] if 0 <= trump < 4 else None,
            "trick_winners": [int(w) for w in S[L.S_WINNERS : L.S_WINNERS + n_done]],
            "tricks": [int(S[L.S_TRICKS]), int(S[L.S_TRICKS + 1])],
            "made": None if made < 0 else bool(made),
            "points": [int(S[L.S_POINTS]), int(S[L.S_POINTS + 1])],
            "match_winner": winner if winner >= 0 else None,
            "forced_joker_lead": bool(S[L.S_FORCED_JOKER]),
        }
        if not self.baloot:
            return out
        mode = int(S[L.B_MODE])
        team = int(S[L.B_PROJ_TEAM])
        projects: list[list[dict[str, Any]]] = [[], []]
        if team >= 0:
            for seat in (team, team + 2):
                for k in range(2):
                    code = int(S[L.B_PROJ + 2 * seat + k])
                    if code:
                        projects[team].append(_project(code, seat))
        baloot_to = int(S[L.B_BALOOT_TO])
        kaboot = int(S[L.B_KABOOT])
        out.update(
            contract=None,
            mode=(None, "sun", "hokum")[mode],
            buyer=out["bidder"],
            ashkal=bool(S[L.B_ASHKAL]),
            void=bool(S[L.B_VOID]),
            kawesh=int(S[L.B_VOID]) == 2,
            card_points=[int(S[L.B_CARD_PTS]), int(S[L.B_CARD_PTS + 1])],
            projects=projects,
            baloot=[int(baloot_to == t) for t in range(2)],
            kaboot=kaboot if kaboot >= 0 else None,
            double=int(S[L.B_DOUBLE]),
            gahwa=bool(S[L.B_GAHWA]),
            closed=bool(S[L.B_CLOSED]),
            game_points=list(out["points"]),
        )
        return out


class NumbaMatch:
    """Match flow in the numba engine: bank hands, detect the end, rotate the dealer."""

    def __init__(self, rules: Rules, first_dealer: int) -> None:
        self.rules = rules
        self.P, _ = tables_of(rules)
        self.MS = np.zeros(L.M_SIZE, dtype=np.int64)
        match.new_match(self.MS, first_dealer)

    @property
    def dealer(self) -> int:
        """The dealer of the next hand."""
        return int(self.MS[L.M_DEALER])

    @property
    def over(self) -> bool:
        """Whether the match has ended."""
        return int(self.MS[L.M_WINNER]) >= 0

    @property
    def winner(self) -> int | None:
        """The winning team (None while the match goes on)."""
        w = int(self.MS[L.M_WINNER])
        return w if w >= 0 else None

    @property
    def reason(self) -> str | None:
        """Why the match ended, by name (None while it goes on)."""
        return L.REASON_NAMES[int(self.MS[L.M_REASON])]

    @property
    def score(self) -> list[int] | int:
        """The match score: one signed number (signed-score presets) or one per team."""
        if self.P[L.P_SIGNED_SCORE]:
            return int(self.MS[L.M_SCORE])
        return [int(self.MS[L.M_SCORE]), int(self.MS[L.M_SCORE + 1])]

    def apply_hand(self, hand: NumbaHand) -> None:
        """Bank the finished ``hand``: the score, the end of the match, the next dealer."""
        match.apply_hand(self.MS, hand.S, self.P)
