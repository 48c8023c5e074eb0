"""What a reference match of either family keeps between hands, written from RULES.md 1.2 / 2.2 /
3.6.6: the target, the dealer, the hands played, the winner and why the match ended.

:class:`kout_sim.reference.kout.RefMatch` and :class:`kout_sim.reference.baloot.RefMatch` bank a
hand each in their own way (:meth:`MatchState._bank`); the bookkeeping around it is this one class.
Like the rest of the reference engine it shares no code with the fast engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class MatchState:
    """The state of a reference match between hands; a family's match class banks the hands.

    Its ``__init__`` checks the preset, the options and the first dealer in its own order, then
    calls :meth:`_start`.
    """

    target: int
    dealer: int
    n_hands: int
    winner: int | None
    reason: str | None
    over: bool

    def _start(self, options: Mapping[str, Any], first_dealer: int) -> None:
        """A match before its first hand: the target of ``options``, dealt by ``first_dealer``."""
        self.target = int(options["target"])
        self.dealer = first_dealer
        self.n_hands = 0
        self.winner = None
        self.reason = None
        self.over = False

    def apply_hand(self, result: Mapping[str, Any]) -> None:
        """Bank a finished hand's ``result``, check for the match end and advance the dealer."""
        if self.over:
            raise RuntimeError("the match is already over")
        self.n_hands += 1
        self._bank(result)

    def _bank(self, result: Mapping[str, Any]) -> None:
        """The family's part of :meth:`apply_hand`: the score, the match end, the next dealer."""
        raise NotImplementedError

    def _finish(self, winner: int, reason: str) -> None:
        self.winner = winner
        self.reason = reason
        self.over = True
