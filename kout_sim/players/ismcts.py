"""Single-observer Information Set MCTS (Cowling, Powley and Whitehouse 2012).

Every iteration draws a fresh determinization of the hidden cards from the searching seat's point of
view, descends the tree choosing among the children whose action is legal in that determinization
(UCB1 with availability counts: a child's exploration term uses the number of iterations in which it
was available, not its parent's visits), adds one node, plays the hand out with the heuristic policy
(ε-random), and backs up the reward of the team that made each move. The decision is the root child
with the most visits. The node pool is preallocated numpy, reused between decisions.

Parameters (slots of the seat's parameter row; slots 16.. hold the rollout heuristic's row):
``iterations``, ``c`` (exploration constant), ``epsilon`` (random rollout moves), ``reward``
(0: hand points, 1: contract made, 2: match-win estimate that sees the score), ``calls``; in Kout
``auction`` and ``auction_tries``: determinizations that agree with the observed calls
(:mod:`.auction`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..engine import layout as L
from ..engine._jit import jit, jit_alloc, jit_leaf, lowest_bit, nth_bit, popcount
from ..engine.game import apply_action, legal_mask
from ..engine.rng import below, next_u64
from .auction import reject_step
from .heuristic import choose_heuristic
from .kinds import Param, auction_params
from .sampler import deal_hidden, plan_position
from .turn import Turn, with_row

ISMCTS_PARAMS: tuple[Param, ...] = (
    Param("iterations", 0, 1000, 1, 1_000_000, "search iterations per decision"),
    Param("c", 1, 0.7, 0, 10, "UCB exploration constant"),
    Param("epsilon", 2, 0.1, 0, 1, "probability of a random move in a rollout"),
    Param(
        "reward",
        3,
        0,
        0,
        2,
        "0: hand points (margin, scaled to 0..1), 1: contract made or beaten, "
        "2: match-win estimate (the hand's points added to the score, against the target)",
    ),
    Param(
        "calls",
        4,
        0,
        0,
        1,
        "1: search the calls (bids, trump, Baloot buying and doubling) too; 0: make them with the "
        "heuristic and search the card play only",
    ),
)
AUCTION_PARAMS = auction_params(5, "determinization")
ISMCTS_KOUT_PARAMS = (*ISMCTS_PARAMS, *AUCTION_PARAMS)
"""Kout: the auction-aware sampler is an option (Baloot's buying auction is not replayed)."""
ROLLOUT = 16  # first slot of the rollout heuristic's parameter row
CALLS = next(p.index for p in ISMCTS_PARAMS if p.name == "calls")
"""Slot of ``calls``: 0, the policy dispatch makes the seat's calls with the rollout heuristic."""

# node pool: int rows
N_PARENT = 0
N_CHILD = 1  # first child (-1 none)
N_SIBLING = 2  # next sibling (-1 none)
N_ACTION = 3  # phase-relative action leading here
N_VISITS = 4
N_AVAIL = 5
N_TEAM = 6  # team of the seat that made the action
N_INT_ROWS = 7


@jit_leaf
def _new_node(
    nodes: np.ndarray, value: np.ndarray, n: int, parent: int, action: int, team: int
) -> None:
    nodes[N_PARENT, n] = parent
    nodes[N_CHILD, n] = -1
    nodes[N_SIBLING, n] = -1
    nodes[N_ACTION, n] = action
    nodes[N_VISITS, n] = 0
    nodes[N_AVAIL, n] = 1
    nodes[N_TEAM, n] = team
    value[n] = 0.0
    if parent >= 0:
        nodes[N_SIBLING, n] = nodes[N_CHILD, parent]
        nodes[N_CHILD, parent] = n


@jit_leaf
def _uniform(rng: np.ndarray) -> float:
    return (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit
def reward(
    D: np.ndarray, P: np.ndarray, MS: np.ndarray, team: int, mode: int, scale: float
) -> float:
    """Reward in [0, 1] of ``team`` for the finished hand ``D``."""
    if mode == 1:  # the contract: made for the bidding team, beaten for the defenders
        bidder_team = D[L.S_BIDDER] % 2
        if D[L.S_MADE] < 0:
            return 0.5
        good = D[L.S_MADE] == 1
        return 1.0 if good == (team == bidder_team) else 0.0
    margin = D[L.S_POINTS + team] - D[L.S_POINTS + 1 - team]
    if mode == 2:  # match-win estimate: the hand decides the match, or the score margin vs target
        if D[L.S_MATCH_WINNER] >= 0:
            return 1.0 if D[L.S_MATCH_WINNER] == team else 0.0
        if P[L.P_SIGNED_SCORE] == 1:
            score = MS[L.M_SCORE] if team == 0 else -MS[L.M_SCORE]
        else:
            score = MS[L.M_SCORE + team] - MS[L.M_SCORE + 1 - team]
        target = max(P[L.P_TARGET], 1)
        x = (score + margin) / target
        return min(1.0, max(0.0, 0.5 + 0.5 * x))
    return min(1.0, max(0.0, 0.5 + 0.5 * margin / scale))


@jit_leaf
def rollout(D: np.ndarray, turn: Turn, epsilon: float, family: int) -> None:
    """Play ``D`` to its end: the heuristic (row ``turn.prm[ROLLOUT:]``), a random move with
    ``epsilon``."""
    P, STR, rng = turn.P, turn.STR, turn.rng
    heuristic = with_row(turn, turn.prm[ROLLOUT:])
    while D[L.S_PHASE] != L.PH_OVER:
        mask = legal_mask(D, P, STR, family)
        if mask & (mask - 1) == 0:
            action = lowest_bit(mask)
        elif epsilon > 0 and _uniform(rng) < epsilon:
            action = nth_bit(mask, below(rng, popcount(mask)))
        else:
            action = choose_heuristic(D, heuristic, mask, family)
        apply_action(D, P, STR, action, family)


def _make_search(family: int) -> Callable[..., int]:
    @jit_alloc
    def search(S: np.ndarray, turn: Turn, mask: int) -> int:
        """The action (a bit of ``mask``) SO-ISMCTS chooses for the seat to act in ``S``.

        ``turn.nodes`` (int64[N_INT_ROWS, cap]) and ``turn.value`` (float64[cap]) are the node
        pool; the search stops early when the pool is full. It searches whatever decision it is
        given: with ``calls=0`` the policy dispatch (:func:`kout_sim.players.policy.choose`) makes
        the seat's calls with the rollout heuristic and calls this for the card play only.
        """
        P, STR, MS, rng, prm = turn.P, turn.STR, turn.MS, turn.rng, turn.prm
        nodes, value = turn.nodes, turn.value
        seat = S[L.S_TO_ACT]
        iterations = int(prm[0])
        c = prm[1]
        epsilon = prm[2]
        mode = int(prm[3])
        scale = 1.0
        for b in range(16):
            scale = max(scale, float(P[L.P_MADE + b]), float(P[L.P_FAILED + b]))
        if family == L.FAMILY_BALOOT:
            scale = 60.0
        cap = value.shape[0]
        _new_node(nodes, value, 0, -1, -1, -1)
        n_nodes = 1
        D = np.empty(L.S_SIZE, dtype=np.int64)
        best_deal = np.empty(L.S_SIZE, dtype=np.int64)  # scratch of the auction-aware sampler
        replay = np.empty(L.S_SIZE, dtype=np.int64)
        tries = max(1, int(prm[6])) if prm[5] != 0 else 0  # 0: the exact sampler alone
        # what the seat knows is the same in every iteration: found once, dealt from each time
        hidden = plan_position(S, P, STR, seat)
        for _ in range(iterations):
            t = 0
            top = np.int64(-1)
            while True:  # with auction=1 (Kout): rejection against the calls (.auction)
                deal_hidden(S, P, seat, rng, D, hidden)
                t += 1
                if family == L.FAMILY_BALOOT:  # pruned: no auction replay in Baloot
                    break
                if tries == 0:
                    break
                top = reject_step(
                    D, S, P, MS, prm[ROLLOUT:], seat, rng, tries, t, top, best_deal, replay
                )
                if top < 0:
                    break
            node = 0
            while D[L.S_PHASE] != L.PH_OVER:
                legal = legal_mask(D, P, STR, family)
                tried = np.int64(0)
                child = nodes[N_CHILD, node]
                while child >= 0:
                    a = nodes[N_ACTION, child]
                    if (legal >> a) & 1:
                        tried |= np.int64(1) << a
                        nodes[N_AVAIL, child] += 1
                    child = nodes[N_SIBLING, child]
                untried = legal & ~tried
                team = D[L.S_TO_ACT] % 2
                if untried != 0 and n_nodes < cap:
                    a = nth_bit(untried, below(rng, popcount(untried)))
                    _new_node(nodes, value, n_nodes, node, a, team)
                    node = n_nodes
                    n_nodes += 1
                    apply_action(D, P, STR, a, family)
                    break
                if tried == 0:
                    break  # pool full: roll out from here
                best = -1
                best_score = -1.0
                child = nodes[N_CHILD, node]
                while child >= 0:
                    a = nodes[N_ACTION, child]
                    if (legal >> a) & 1:
                        visits = nodes[N_VISITS, child]
                        if visits == 0:
                            score = 1e9
                        else:
                            score = value[child] / visits + c * math.sqrt(
                                math.log(nodes[N_AVAIL, child]) / visits
                            )
                        if score > best_score:
                            best_score = score
                            best = child
                    child = nodes[N_SIBLING, child]
                node = best
                apply_action(D, P, STR, nodes[N_ACTION, best], family)
            rollout(D, turn, epsilon, family)
            r0 = reward(D, P, MS, np.int64(0), mode, scale)
            r1 = reward(D, P, MS, np.int64(1), mode, scale)
            while node > 0:
                nodes[N_VISITS, node] += 1
                value[node] += r0 if nodes[N_TEAM, node] == 0 else r1
                node = nodes[N_PARENT, node]
            nodes[N_VISITS, 0] += 1
        best = -1
        most = -1
        child = nodes[N_CHILD, 0]
        while child >= 0:
            a = nodes[N_ACTION, child]
            if (mask >> a) & 1 and nodes[N_VISITS, child] > most:
                most = nodes[N_VISITS, child]
                best = a
            child = nodes[N_SIBLING, child]
        if best < 0:
            best = lowest_bit(mask)
        return best

    return search


search_kout = _make_search(L.FAMILY_KOUT)
search_baloot = _make_search(L.FAMILY_BALOOT)
SEARCH = {L.FAMILY_KOUT: search_kout, L.FAMILY_BALOOT: search_baloot}
