"""Double-dummy (perfect-information) solver for every preset.

The value of a position is what the bidding team (the buyer in Baloot) takes to the end of the hand
when all hands are known and both sides play perfectly: tricks (Kout, every trick played, RULES.md
1.11 / 2.9 early stop ignored) or card points with the last trick's 10 (Baloot, RULES.md 3.6.1).
A Bahraini line that ends in a forced joker lead (RULES.md 2.8) is worth :data:`LOSS` (-1) to the
bidding team when its own player is forced, ``n_tricks + 1`` when a defender is: worse, or better,
than any number of tricks. The kernels are in :mod:`kout_sim.engine.dd`; :class:`Solver` owns the tables
they share (one transposition table, allocated once, reused solve after solve).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..engine import dd as K
from ..engine import layout as L
from ..engine.tables import tables_of
from ..rules import Rules

LOSS = -1
"""Kout value of a line in which the bidding team's player must lead his lone joker (RULES.md 2.8)."""


def _table(rows: int) -> np.ndarray:
    """A zeroed transposition table ``int64[rows, TT_COLS]`` whose buckets (``TT_WAYS`` rows, 64
    bytes) each sit in one cache line."""
    buf = np.zeros(rows * K.TT_COLS + 8, dtype=np.int64)
    skip = (-buf.ctypes.data % 64) // 8
    table: np.ndarray = buf[skip : skip + rows * K.TT_COLS].reshape(rows, K.TT_COLS)
    return table


class Solver:
    """Solve positions of one rule set.

    Parameters
    ----------
    rules
        The rules (preset and options) the positions are played under.
    tt_bits
        The transposition table holds ``2 ** tt_bits`` entries (16 bytes each, in buckets of
        ``TT_WAYS``); 20 by default (16 MB), enough for a 6-seat Kout hand.
    """

    def __init__(self, rules: Rules, tt_bits: int = 20) -> None:
        if not 10 <= tt_bits <= 28:
            raise ValueError(f"tt_bits must be in 10..28, got {tt_bits}")
        self.rules = rules
        self.P, self.STR = tables_of(rules)
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
        self.tt = _table(1 << tt_bits)
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
        K.begin(S, self.P, self.STR, self.W)

    def _total(self, S: np.ndarray, future: int) -> int:
        """A future value as the value of the whole hand (what was taken before included)."""
        return int(K.total_of(S, self.C, future))

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
        while mask:
            card = (mask & -mask).bit_length() - 1
            mask &= mask - 1
            values[card] = self._total(S, int(out[card]))
        return values

    def solve_rows(self, X: np.ndarray, par: bool = True) -> np.ndarray:
        """Solve each hand of ``X`` (``int64[h, X_SIZE]``, see :mod:`kout_sim.engine.dd`) from its first
        lead: ``int64[h, O_SIZE]`` (the value, and with ``par`` the Kout par contract and trump)."""
        out = np.zeros((len(X), K.O_SIZE), dtype=np.int64)
        K.solve_rows(
            np.ascontiguousarray(X, dtype=np.int64), self.P, self.STR, self.W, self.tt, out, par
        )
        return out

    def par(self, S: np.ndarray) -> np.ndarray:
        """The double-dummy table of the deal in ``S`` (its contract ignored): see
        :func:`par`."""
        x = np.zeros(K.X_SIZE, dtype=np.int64)
        x[K.X_DEALER] = S[L.S_DEALER]
        n = int(self.C[K.C_N])
        x[K.X_HAND : K.X_HAND + n] = S[L.S_HAND : L.S_HAND + n]
        out = np.zeros((5 if self.baloot else 4, n), dtype=np.int64)
        K.par_table(x, self.P, self.STR, self.W, self.tt, out)
        return out


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


_CLOSED_CALLS = (L.BC_DOUBLE_CLOSED + 1, L.BC_FOUR_CLOSED + 1)
_RAISES = range(L.BC_DOUBLE + 1, L.BC_GAHWA + 2)


def first_leads_of(rows: np.ndarray, rules: Rules) -> np.ndarray:
    """The hands of simulation result rows (``int64[h, R_SIZE]``, :mod:`kout_sim.engine.layout`)
    as solver input ``X``: dealer, bidder, contract, trump, Baloot mode and closed flag, hands."""
    h = len(rows)
    X = np.zeros((h, K.X_SIZE), dtype=np.int64)
    X[:, K.X_DEALER] = rows[:, L.R_DEALER]
    X[:, K.X_BIDDER] = rows[:, L.R_BIDDER]
    X[:, K.X_CONTRACT] = rows[:, L.R_CONTRACT]
    X[:, K.X_TRUMP] = rows[:, L.R_TRUMP]
    X[:, K.X_HAND : K.X_HAND + 6] = rows[:, L.R_HAND : L.R_HAND + 6]
    if rules.is_baloot:
        X[:, K.X_MODE] = rows[:, L.R_MODE]
        X[rows[:, L.R_MODE] == 0, K.X_BIDDER] = -1  # a void hand: nothing to solve
        # RULES.md 3.3.1: closed while the last raise is a closed Double or a closed Four
        calls = np.ascontiguousarray(rows[:, L.R_CALLS : L.R_CALLS + 4]).view(np.uint8)
        last = np.zeros(h, dtype=np.int64)
        for j in range(calls.shape[1]):
            c = calls[:, j].astype(np.int64)
            raise_ = np.isin(c, list(_RAISES))
            last = np.where(raise_, c, last)
        X[:, K.X_CLOSED] = np.isin(last, _CLOSED_CALLS)
    return X


def _baloot_made(rows: np.ndarray, points: np.ndarray, rules: Rules) -> np.ndarray:
    """Would the buyer make the contract with ``points`` card points (RULES.md 3.6.3, 3.3.3), the
    projects and the Baloot as dealt? Raw project points are the game points times 10 (Hokum) or 5
    (Sun), RULES.md 3.5."""
    sun = rows[:, L.R_MODE] == L.MODE_SUN
    total = np.where(sun, 130, 162)
    buyer = rows[:, L.R_BIDDER] & 1
    raw = rows[:, L.R_PROJ_GP : L.R_PROJ_GP + 2] * np.where(sun, 5, 10)[:, None]
    bal_seat = rows[:, L.R_BALOOT_SEAT]
    bal = np.zeros((len(rows), 2), dtype=np.int64)
    for team in (0, 1):
        bal[:, team] = np.where((bal_seat >= 0) & ((bal_seat & 1) == team), 20, 0)
    big = raw + bal
    idx = np.arange(len(rows))
    a_buyer = points + big[idx, buyer]
    a_other = total - points + big[idx, 1 - buyer]
    tie = rules.options.get("tie", "split")
    tie_fails = np.full(len(rows), tie == "buyer_loses") | (
        (tie == "buyer_loses_hokum_only") & ~sun
    )
    made = (a_other < a_buyer) | ((a_other == a_buyer) & ~tie_fails)
    double = rows[:, L.R_DOUBLE]
    gahwa = rows[:, L.R_GAHWA] != 0
    raised = (double > 1) | gahwa
    buyer_raised = gahwa | (double == 3)  # 3.3.3: the last raiser is judged like a buyer
    made_raised = np.where(buyer_raised, a_buyer > a_other, a_buyer >= a_other)
    out: np.ndarray = np.where(raised, made_raised, made)
    return out


def dd_columns(rows: np.ndarray, rules: Rules, *, par: bool = True) -> dict[str, np.ndarray]:
    """The double-dummy columns of the hands table for simulation result rows (docs/data.md):
    ``dd_tricks`` (Kout) or ``dd_points`` (Baloot), ``dd_made``, and for Kout ``dd_par_contract``
    and ``dd_par_trump``. -1 is null (no contract: a void Baloot hand)."""
    solver = Solver(rules)
    out = solver.solve_rows(first_leads_of(rows, rules), par=par)
    value = out[:, K.O_VALUE]
    void = value == K.NO_CONTRACT
    cols: dict[str, np.ndarray] = {}
    if solver.baloot:
        cols["dd_points"] = np.where(void, -1, value)
        made = _baloot_made(rows, value, rules)
    else:
        cols["dd_tricks"] = value
        # a defender forced to lead his lone joker loses the match for his team (RULES.md 2.8)
        made = (value >= rows[:, L.R_CONTRACT]) & (value != LOSS)
        if par:
            cols["dd_par_contract"] = out[:, K.O_PAR]
            cols["dd_par_trump"] = out[:, K.O_PAR_TRUMP]
    cols["dd_made"] = np.where(void, -1, made.astype(np.int64))
    return cols


def par(record: Mapping[str, Any]) -> dict[str, list[int | None]]:
    """The double-dummy table of a deal: what each seat makes as the bidder (buyer) in each trump.

    Parameters
    ----------
    record
        A hand record (docs/records.md) whose auction is complete: the deal is its hands at the
        first lead (Baloot: completed as the record's auction completed them); its contract and any
        plays are ignored.

    Returns
    -------
    dict
        Kout: ``{"S": [...], "H": [...], "D": [...], "C": [...]}``, per seat the highest contract
        that seat makes double dummy as the bidder with that trump (``0``: not even the lowest
        bid; ``None``: a trump it may not name, RULES.md 2.4). Baloot: ``{"sun": [...],
        "hokum:S": [...], ...}``, per seat the card points its team takes as the buyer
        (RULES.md 3.6.1), P1 leading (3.2.6), the hand played open.
    """
    from .. import cards as Cd

    rules, S = position_of({**record, "plays": []})  # the deal at the first lead
    solver = solver_for(rules)
    table = solver.par(S)
    if solver.baloot:
        names = ["sun"] + [f"hokum:{suit}" for suit in Cd.SUITS]
    else:
        names = list(Cd.SUITS)
    return {name: [None if v < 0 else int(v) for v in table[i]] for i, name in enumerate(names)}
