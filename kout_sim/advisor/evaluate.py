"""The advisor's numbers: every option of the decision evaluated on the same sampled deals.

For each sampled deal (the exact sampler from the advising seat's point of view, or the one known
deal of a complete record) and each option (a call, or a card):

1. copy the deal, apply the option;
2. a call: finish the auction with the heuristic's calls (every seat, the advising seat's later
   Baloot calls included); a Kout bid names the option's trump if the advising seat ends as the
   bidder (RULES.md 1.4 / 2.4), the heuristic's trump when another seat overcalled;
3. evaluate the play from the first lead (or from the card): ``dd`` solves it double dummy
   (:class:`kout_sim.solver.Solver`), ``heuristic`` / ``ismcts`` / ``pimc`` play it out with that player on
   every seat;
4. turn the outcome into the hand's points with the engine's own scoring
   (:func:`kout_sim.engine.kout.hand._score_hand`, :func:`kout_sim.engine.baloot.hand._score`).

Every option of a deal starts from the same copy of one random state (common random numbers), so
the comparison between options is paired.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..drivers.playout import play_out
from ..engine import layout as L
from ..engine.baloot import hand as EB
from ..engine.kout import hand as EK
from ..engine.rng import seed_stream
from ..players.lineup import parse_lineup
from ..players.sampler import determinize
from ..solver import LOSS, Solver, solver_for
from .position import Position

LANE_SAMPLE = 11
"""Random lane of the advisor's sampled deals (stream = sample index)."""
LANE_PLAY_OUT = 12
"""Random lane of the play after each sampled deal (the heuristic's auction, the play-outs)."""

EVALS = ("dd", "heuristic", "ismcts", "pimc")


@dataclass(frozen=True)
class Option:
    """One choice of the advising seat: ``action`` the phase-relative action (a card id, or a call
    index), ``trump`` the suit a Kout bid names if the seat ends as the bidder (-1: none), ``call``
    the record vocabulary of the action, ``label`` its text in the output."""

    label: str
    action: int
    call: str | int
    trump: int = -1


@dataclass
class Outcomes:
    """Per sample (rows) and option (columns): the results of the hand for the advising seat."""

    ours: np.ndarray  # bool: the seat's team holds the contract
    made: np.ndarray  # int8: the contract was made (1), failed (0); -1 no contract (void hand)
    value: (
        np.ndarray
    )  # float: the seat's team's tricks (Kout) or card points (Baloot); nan if unknown
    team: np.ndarray  # int: points banked by the seat's team
    other: np.ndarray  # int: points banked by the other team
    match: np.ndarray  # int8: the team the hand alone makes win the match (-1 none)

    @classmethod
    def empty(cls, n: int, k: int) -> Outcomes:
        """Outcomes of ``n`` samples and ``k`` options, nothing recorded yet."""
        return cls(
            np.zeros((n, k), dtype=bool),
            np.full((n, k), -1, dtype=np.int8),
            np.full((n, k), np.nan),
            np.zeros((n, k), dtype=np.int64),
            np.zeros((n, k), dtype=np.int64),
            np.full((n, k), -1, dtype=np.int8),
        )


def _trump_names(hand: int, P: np.ndarray) -> list[int]:
    return [t for t in range(4) if EK.may_name_trump(P, hand, t)]


def options_of(pos: Position) -> list[Option]:
    """Every legal option of the advising seat, in the order of the output."""
    from .. import cards as C
    from ..engine.step import NumbaHand

    hand = NumbaHand.from_state(pos.rules, pos.S)
    mask = hand.legal_mask()
    phase = hand.phase
    out: list[Option] = []
    if phase == "play":
        for card in C.cards_of(mask):
            out.append(Option(C.format_card(card), card, C.format_card(card)))
        return out
    if hand.baloot:
        for idx in C.cards_of(mask):
            name = L.BALOOT_CALL_NAMES[idx]
            out.append(Option(name, idx, name))
        return out
    if phase == "trump":
        for idx in C.cards_of(mask):
            suit = C.SUITS[idx - L.TRUMP]
            out.append(Option(suit, idx, suit, idx - L.TRUMP))
        return out
    own = int(pos.S[L.S_HAND + pos.seat])
    for idx in C.cards_of(mask):
        if idx == L.PASS:
            out.append(Option("pass", idx, "pass"))
            continue
        # the seat names its trump after the auction: each bid is advised with each trump it may
        # name (RULES.md 1.4 any suit, 2.4 a suit it holds)
        for t in _trump_names(own, hand.P):
            out.append(Option(f"{idx} {C.SUITS[t]}", idx, idx, t))
    return out


def _reset_projects(S: np.ndarray) -> None:
    S[L.B_PROJ : L.B_PROJ + 8] = 0
    S[L.B_PROJ_TEAM] = -1
    S[L.B_PROJ_RAW : L.B_PROJ_RAW + 2] = 0
    S[L.B_PROJ_GP : L.B_PROJ_GP + 2] = 0
    S[L.B_BALOOT_SEAT] = -1


def recompute_projects(D: np.ndarray, pos: Position, STR: np.ndarray) -> None:
    """Baloot after the completion: the projects and the Baloot (RULES.md 3.5) of the sampled
    deal ``D`` (its hands now, plus every card each seat has played), not of the placeholder."""
    full = D.copy()
    for seat, card in pos.plays:
        full[L.S_HAND + seat] |= np.int64(1) << card
    _reset_projects(full)
    EB._projects(full, STR)
    D[L.B_PROJ : L.B_PROJ + 8] = full[L.B_PROJ : L.B_PROJ + 8]
    for k in (L.B_PROJ_TEAM, L.B_BALOOT_SEAT):
        D[k] = full[k]
    D[L.B_PROJ_RAW : L.B_PROJ_RAW + 2] = full[L.B_PROJ_RAW : L.B_PROJ_RAW + 2]
    D[L.B_PROJ_GP : L.B_PROJ_GP + 2] = full[L.B_PROJ_GP : L.B_PROJ_GP + 2]


class Evaluator:
    """Evaluate the options of one position on ``samples`` sampled deals."""

    def __init__(self, pos: Position, eval: str, player: str | None = None) -> None:
        if eval not in EVALS:
            raise ValueError(f"unknown evaluation {eval!r}; valid: {', '.join(EVALS)}")
        self.pos = pos
        self.eval = eval
        rules = pos.rules
        self.family = rules.family
        self.baloot = rules.is_baloot
        self.n = rules.n_players
        self.solver: Solver | None = solver_for(rules) if eval == "dd" else None
        from ..engine.tables import tables_of

        self.P, self.STR = tables_of(rules)
        self.n_tricks = int(self.P[L.P_N_TRICKS])
        self.ladder = not self.baloot and int(self.P[L.P_JOKER_MODEL]) == L.JOKER_LADDER
        auction = parse_lineup("heuristic", self.n, self.family)
        self.auction_kinds = auction.kinds
        self.auction_params = auction.params(self.family)
        spec = player if player is not None else (eval if eval != "dd" else "heuristic")
        lineup = parse_lineup(spec, self.n, self.family)
        self.player = spec
        self.play_kinds = lineup.kinds
        self.play_params = lineup.params(self.family)
        self.MS = np.zeros(L.M_SIZE, dtype=np.int64)
        self.MS[L.M_SCORE] = pos.match_score[0]
        self.MS[L.M_SCORE + 1] = pos.match_score[1]
        self.team = pos.seat & 1

    # ---- the deals -------------------------------------------------------------------------------

    def deal(self, i: int, seed: int) -> np.ndarray:
        """Sampled deal ``i`` of ``seed`` (the known deal of a complete record)."""
        pos = self.pos
        D = np.empty_like(pos.S)
        if pos.known:
            D[:] = pos.S
            return D
        rng = np.zeros(4, dtype=np.uint64)
        seed_stream(rng, seed, i, LANE_SAMPLE)
        if determinize(pos.S, self.P, self.STR, pos.seat, rng, D) < 0:
            raise RuntimeError("the sampler found no deal consistent with the record")
        if self.baloot and int(D[L.S_PHASE]) in (L.PH_PLAY, L.PH_DOUBLING):
            recompute_projects(D, pos, self.STR)
        return D

    # ---- one option on one deal -----------------------------------------------------------------

    def _finish_auction(self, X: np.ndarray, option: Option, rng: np.ndarray) -> None:
        seat = self.pos.seat
        while int(X[L.S_PHASE]) not in (L.PH_PLAY, L.PH_OVER):
            if int(X[L.S_PHASE]) == L.PH_TRUMP and int(X[L.S_TO_ACT]) == seat and option.trump >= 0:
                play_out(X, self.P, self.STR, self.MS, rng, self.auction_kinds,
                         self.auction_params, L.TRUMP + option.trump, 0)  # fmt: skip
                continue
            if play_out(X, self.P, self.STR, self.MS, rng, self.auction_kinds,
                        self.auction_params, -1, 1) < 0:  # fmt: skip
                raise RuntimeError("the heuristic chose an illegal call")

    def _score_value(self, X: np.ndarray, v: int) -> None:
        """Close the hand in ``X`` with the bidding team's final value ``v`` (tricks or card
        points) by the engine's scoring."""
        bid_team = int(X[L.S_BIDDER]) & 1
        # the engine may have closed the hand already (the early stop, the last trick): score again
        X[L.S_POINTS : L.S_POINTS + 2] = 0
        X[L.S_MATCH_WINNER] = -1
        if self.baloot:
            X[L.B_KABOOT] = -1
            X[L.B_BALOOT_TO] = -1
            total = 130 if int(X[L.B_MODE]) == L.MODE_SUN else 162  # RULES.md 3.6.1
            X[L.B_CARD_PTS + bid_team] = v
            X[L.B_CARD_PTS + 1 - bid_team] = total - v
            # kaboot (3.6.4) is read as one team taking every card point (module notes)
            won = 8 if v == total else (0 if v == 0 else 4)
            X[L.S_TRICKS + bid_team] = won
            X[L.S_TRICKS + 1 - bid_team] = 8 - won
            EB._score(X, self.P)
            return
        if v == LOSS or v == self.n_tricks + 1:  # RULES.md 2.8: a forced joker lead
            forced = bid_team if v == LOSS else 1 - bid_team
            X[L.S_MADE] = 0 if v == LOSS else 1
            X[L.S_MATCH_WINNER] = 1 - forced
            X[L.S_PHASE] = L.PH_OVER
            return
        X[L.S_TRICKS + bid_team] = v
        X[L.S_TRICKS + 1 - bid_team] = self.n_tricks - v
        EK._score_hand(X, self.P)

    def _record(self, out: Outcomes, i: int, j: int, X: np.ndarray, value: float) -> None:
        """Read the finished hand ``X`` into ``out[i, j]``."""
        bidder = int(X[L.S_BIDDER])
        mode_void = self.baloot and int(X[L.B_MODE]) == 0
        if bidder < 0 or mode_void:
            out.made[i, j] = -1
            out.ours[i, j] = False
        else:
            out.ours[i, j] = (bidder & 1) == self.team
            out.made[i, j] = int(X[L.S_MADE])
        out.team[i, j] = int(X[L.S_POINTS + self.team])
        out.other[i, j] = int(X[L.S_POINTS + 1 - self.team])
        out.match[i, j] = int(X[L.S_MATCH_WINNER])
        out.value[i, j] = value

    def _team_value(self, X: np.ndarray, v: int) -> float:
        """The seat's team's final tricks or card points from the bidding team's value ``v``."""
        if v == LOSS or (not self.baloot and v == self.n_tricks + 1):
            return float("nan")
        if (int(X[L.S_BIDDER]) & 1) == self.team:
            return float(v)
        total = (130 if int(X[L.B_MODE]) == L.MODE_SUN else 162) if self.baloot else self.n_tricks
        return float(total - v)

    def _play_value(self, X: np.ndarray) -> float:
        if self.baloot:
            return float(X[L.B_CARD_PTS + self.team])
        return float(X[L.S_TRICKS + self.team])

    def _evaluate_play(self, X: np.ndarray, rng: np.ndarray, cache: dict[bytes, int]) -> float:
        """Play or solve ``X`` (play phase) to its end and score it; the team's value."""
        if self.solver is None:
            if play_out(X, self.P, self.STR, self.MS, rng, self.play_kinds, self.play_params) < 0:
                raise RuntimeError("the player chose an illegal action")
            return self._play_value(X)
        key = X.tobytes()
        if key in cache:
            v = cache[key]
        elif self.ladder and int(X[L.S_N_DONE]) == 0 and int(X[L.S_N_IN_TRICK]) == 0:
            # Kout Bo points depend only on made or not (RULES.md 1.10): one null-window probe
            contract = int(X[L.S_HIGH_BID])
            made = self.solver.at_least(X, contract)
            v = contract if made else contract - 1
            cache[key] = v
            self._score_value(X, v)
            return float("nan")
        else:
            v = self.solver.value(X)
            cache[key] = v
        value = self._team_value(X, v)
        self._score_value(X, v)
        return value

    def run(self, options: list[Option], samples: int, seed: int) -> Outcomes:
        """Evaluate every option on each of ``samples`` deals (one, for a complete record)."""
        pos = self.pos
        n = 1 if pos.known else samples
        out = Outcomes.empty(n, len(options))
        card = pos.phase == "play"
        for i in range(n):
            D = self.deal(i, seed)
            base = np.zeros(4, dtype=np.uint64)
            seed_stream(base, seed, i, LANE_PLAY_OUT)
            cache: dict[bytes, int] = {}
            if card and self.solver is not None:
                values = self.solver.card_values(D)
                for j, option in enumerate(options):
                    X = D.copy()
                    play_out(X, self.P, self.STR, self.MS, base.copy(), self.auction_kinds,
                             self.auction_params, option.action, 0)  # fmt: skip
                    v = values[option.action]
                    value = self._team_value(X, v)
                    self._score_value(X, v)
                    self._record(out, i, j, X, value)
                continue
            for j, option in enumerate(options):
                X = D.copy()
                rng = base.copy()  # common random numbers: every option draws the same stream
                play_out(X, self.P, self.STR, self.MS, rng, self.auction_kinds,
                         self.auction_params, option.action, 0)  # fmt: skip
                if not card:
                    self._finish_auction(X, option, rng)
                value = float("nan")
                if int(X[L.S_PHASE]) == L.PH_PLAY:
                    value = self._evaluate_play(X, rng, cache)
                elif int(X[L.S_PHASE]) == L.PH_OVER and int(X[L.S_N_DONE]) > 0:
                    value = self._play_value(X)
                self._record(out, i, j, X, value)
        return out
