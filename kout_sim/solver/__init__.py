"""Double-dummy (perfect-information) solver for every preset.

The value of a position is what the bidding team (the buyer in Baloot) takes to the end of the hand
when all hands are known and both sides play perfectly: tricks (Kout, every trick played, RULES.md
1.11 / 2.9 early stop ignored) or card points with the last trick's 10 (Baloot, RULES.md 3.6.1).
A Bahraini line that ends in a forced joker lead (RULES.md 2.8) is worth :data:`LOSS` (-1) to the
bidding team when its own player is forced, ``n_tricks + 1`` when a defender is: worse, or better,
than any number of tricks. The kernels are in :mod:`._kernels`; :class:`Solver` owns the tables
they share (one transposition table, allocated once, reused solve after solve).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..engine import layout as L
from ..rules import Rules
from . import _kernels as K

LOSS = -1
"""Kout value of a line in which the bidding team's player must lead his lone joker (RULES.md 2.8)."""


class Solver:
    """Solve positions of one rule set.

    Parameters
    ----------
    rules
        The rules (preset and options) the positions are played under.
    tt_bits
        The transposition table holds ``2 ** tt_bits`` entries (24 bytes each); 20 by default
        (24 MB), enough for a 6-seat Kout hand.
    """

    def __init__(self, rules: Rules, tt_bits: int = 20) -> None:
        if not 10 <= tt_bits <= 28:
            raise ValueError(f"tt_bits must be in 10..28, got {tt_bits}")
        self.rules = rules
        self.P, self.STR = rules.tables
        P = self.P
        self.baloot = int(P[L.P_FAMILY]) == L.FAMILY_BALOOT
        self.n_tricks = int(P[L.P_N_TRICKS])
        self.W = np.zeros((K.W_ROWS, K.W_COLS), dtype=np.int64)
        C = self.W[K.R_C, : K.C_SIZE]
        C[K.C_BALOOT] = int(self.baloot)
        C[K.C_N] = P[L.P_N_PLAYERS]
        C[K.C_N_TRICKS] = P[L.P_N_TRICKS]
        C[K.C_FORCED] = int(not self.baloot and P[L.P_JOKER_MODEL] == L.JOKER_SINGLE)
        C[K.C_LADDER] = int(not self.baloot and P[L.P_JOKER_MODEL] == L.JOKER_LADDER)
        C[K.C_TT_MASK] = (1 << tt_bits) - 1
        self.C = C
        self.tt = np.zeros((1 << tt_bits, K.TT_COLS), dtype=np.int64)
        self.Q = self.W[K.R_Q : K.R_Q + 4, : K.Q_COLS]
        self._out = np.zeros(64, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Nodes searched since the solver was made."""
        return int(self.C[K.C_NODES])

    def _begin(self, S: np.ndarray) -> None:
        """A new search generation for the deal and contract of ``S``."""
        if int(S[L.S_PHASE]) != L.PH_PLAY:
            raise ValueError(
                f"the hand is not in the play phase ({L.PHASE_NAMES[int(S[L.S_PHASE])]})"
            )
        C = self.C
        C[K.C_GEN] += 1
        C[K.C_TEAM] = int(S[L.S_BIDDER]) & 1
        trow = int(S[L.S_TRUMP])
        if self.baloot:
            C[K.C_TOTAL] = int(self.STR[L.T_POINTS + trow, :64].sum()) + 10
        K.order_table(self.P, self.STR, trow, self.Q)

    def _total(self, S: np.ndarray, future: int) -> int:
        """A future value as the value of the whole hand (what was taken before included)."""
        team = int(S[L.S_BIDDER]) & 1
        if self.baloot:
            return int(S[L.B_CARD_PTS + team]) + future
        if future <= -K.SENT:
            return LOSS
        if future >= K.SENT:
            return self.n_tricks + 1
        return int(S[L.S_TRICKS + team]) + future

    def value(self, S: np.ndarray) -> int:
        """The bidding team's tricks (Baloot: card points) at the end of the hand under perfect
        play from ``S`` (a play-phase state of :mod:`kout_sim.engine.layout`; left unchanged)."""
        self._begin(S)
        return self._total(S, int(K.value(S, self.P, self.STR, self.W, self.tt)))

    def at_least(self, S: np.ndarray, target: int) -> bool:
        """Can the bidding team end the hand with at least ``target`` tricks (Baloot: card points)?
        One null-window search."""
        self._begin(S)
        team = int(S[L.S_BIDDER]) & 1
        taken = int(S[(L.B_CARD_PTS if self.baloot else L.S_TRICKS) + team])
        need = target - taken
        g = int(K.search(S, self.P, self.STR, self.W, self.tt, need - 1, need))
        return g >= need

    def card_values(self, S: np.ndarray) -> dict[int, int]:
        """Each legal card of the seat to act -> :meth:`value` after it is played."""
        self._begin(S)
        out = self._out
        mask = int(K.card_values(S, self.P, self.STR, self.W, self.tt, out))
        values: dict[int, int] = {}
        team = int(S[L.S_BIDDER]) & 1
        key = (L.B_CARD_PTS if self.baloot else L.S_TRICKS) + team
        base = int(S[key])
        while mask:
            card = (mask & -mask).bit_length() - 1
            mask &= mask - 1
            future = int(out[card])
            if self.baloot:
                values[card] = base + future
            elif future <= -K.SENT:
                values[card] = LOSS
            elif future >= K.SENT:
                values[card] = self.n_tricks + 1
            else:
                values[card] = base + future
        return values


_SOLVERS: dict[tuple[str, tuple[tuple[str, Any], ...]], Solver] = {}


def solver_for(rules: Rules) -> Solver:
    """One :class:`Solver` per rule set in this process (its table is allocated once)."""
    key = (rules.name, tuple(sorted((k, repr(v)) for k, v in rules.options.items())))
    solver = _SOLVERS.get(key)
    if solver is None:
        solver = _SOLVERS[key] = Solver(rules)
    return solver


def position_of(record: Mapping[str, Any]) -> tuple[Rules, np.ndarray]:
    """The rules and the play-phase state after a hand record (docs/records.md).

    A Kout record that stopped at the early stop (RULES.md 1.11 / 2.9) continues from the next
    trick: the solver plays every trick.
    """
    from ..errors import InvalidRecord
    from ..replay import _need, _rules_of, _run_hand, _seat, get_engine

    rules = _rules_of(record)
    dealer = _seat(_need(record, "dealer", "record"), rules, "record.dealer")
    hand = _run_hand(record, rules, dealer, get_engine("numba"), "record", "")
    S = np.array(hand.S, dtype=np.int64)  # type: ignore[attr-defined]
    phase = int(S[L.S_PHASE])
    if phase == L.PH_OVER and int(S[L.S_BIDDER]) >= 0 and int(S[L.S_TRUMP]) >= 0:
        if not int(S[L.S_FORCED_JOKER]):
            # the hand is over (all tricks, or the early stop): play on from the next trick
            S[L.S_PHASE] = L.PH_PLAY
            S[L.S_TO_ACT] = S[L.S_LEADER]
        return rules, S
    if phase != L.PH_PLAY:
        where = "the auction is not complete" if phase != L.PH_OVER else "the hand is void"
        raise InvalidRecord(
            f"record: cannot solve: {where} (phase {L.PHASE_NAMES[phase]}); "
            "the solver starts once the contract is known"
        )
    return rules, S


def solve(record: Mapping[str, Any]) -> dict[str, Any]:
    """Solve a hand record double dummy: all hands known, perfect play by both sides.

    Parameters
    ----------
    record
        A hand record (docs/records.md) whose auction is complete; its plays may stop anywhere.

    Returns
    -------
    dict
        Kout: ``"tricks"``, the bidding team's tricks at the end of the hand (tricks already taken
        included; every trick played), ``-1`` (:data:`LOSS`) when the line ends in a forced joker
        lead by the bidding team (RULES.md 2.8) and ``n_tricks + 1`` when by a defender. Baloot:
        ``"points"``, the buyer team's card points at the end (RULES.md 3.6.1). Both: ``"to_act"``
        (the seat to act, ``None`` when every trick is played), ``"cards"`` (each legal card of that
        seat -> the same value after it is played) and ``"forced_joker_loser"`` (the team a forced
        joker lead loses the match for on the perfect line, else ``None``).

    Raises
    ------
    InvalidRecord, IllegalAction
        As :func:`kout_sim.legal_actions` does, and when the auction is not complete.
    """
    from .. import cards as Cd

    rules, S = position_of(record)
    solver = solver_for(rules)
    key = "points" if solver.baloot else "tricks"
    if int(S[L.S_PHASE]) == L.PH_OVER:  # a forced joker lead ended the hand (RULES.md 2.8)
        forced = 1 - int(S[L.S_MATCH_WINNER])
        bidding = int(S[L.S_BIDDER]) & 1
        total = LOSS if forced == bidding else solver.n_tricks + 1
        return {key: total, "to_act": None, "cards": {}, "forced_joker_loser": forced}
    if int(S[L.S_N_DONE]) == solver.n_tricks:
        team = int(S[L.S_BIDDER]) & 1
        taken = int(S[(L.B_CARD_PTS if solver.baloot else L.S_TRICKS) + team])
        return {key: taken, "to_act": None, "cards": {}, "forced_joker_loser": None}
    total = solver.value(S)
    cards = solver.card_values(S)
    loser: int | None = None
    if not solver.baloot and total in (LOSS, solver.n_tricks + 1):
        bidding = int(S[L.S_BIDDER]) & 1
        loser = bidding if total == LOSS else 1 - bidding
    return {
        key: total,
        "to_act": int(S[L.S_TO_ACT]),
        "cards": {Cd.format_card(c): v for c, v in sorted(cards.items())},
        "forced_joker_loser": loser,
    }
