"""PIMC: legal everywhere, exactly the documented sum over sampled deals, no information leak."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from kout_sim.engine import layout as L
from kout_sim.engine.game import legal_mask
from kout_sim.engine.step import actions_of_mask
from kout_sim.engine.tables import tables_of
from kout_sim.players import parse_lineup
from kout_sim.players import sampler as SP
from kout_sim.players.heuristic import choose_heuristic
from kout_sim.players.pimc import PIMC, ROLLOUT, baloot_net, baloot_threshold
from kout_sim.players.turn import turn_of
from kout_sim.rules import Rules, get_rules
from kout_sim.sim import play_hands, play_matches
from kout_sim.solver import Solver

from .test_ismcts import CLEAR, check_hidden_swaps, clear_position
from .test_sampler import random_positions, rng_of

FAST = ["kout_bo_4", "kout_bh_4", "kout_bh_6", "baloot"]
"""Presets whose mid-hand solves take milliseconds (kout_bo_6 takes seconds at its first leads)."""


def _row(preset: str, spec: str) -> np.ndarray:
    rules = get_rules(preset)
    lineup = parse_lineup(spec, rules.n_players, rules.family)
    row: np.ndarray = lineup.params(rules.family)[0]
    return row


def _plain(preset: str, spec: str) -> str:
    """``spec`` with Kout's auction-aware sampling off (``auction=0``; the default is 1): the
    oracles of this file draw their samples by :func:`kout_sim.players.sampler.determinize`."""
    return spec if get_rules(preset).is_baloot else f"{spec},auction=0"


def _decide(preset: str, S: np.ndarray, rng: np.ndarray, spec: str = "pimc:samples=4") -> int:
    rules = get_rules(preset)
    P, STR = tables_of(rules)
    fam = int(P[L.P_FAMILY])
    mask = int(legal_mask(S, P, STR, fam))
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    action = int(PIMC[fam](S.copy(), turn_of(P, STR, MS, rng, _row(preset, spec)), mask))
    assert (mask >> action) & 1, "PIMC chose an illegal action"
    return action


def _positions_with_a_choice(
    preset: str, count: int, tries: int, seed: int, wanted: Callable[[np.ndarray], bool]
) -> list[np.ndarray]:
    """The first ``count`` states that are ``wanted`` and have more than one legal action, among
    ``tries`` random positions."""
    out = []
    for pos in random_positions(preset, tries, seed):
        S = pos.S
        if not wanted(S):
            continue
        P, STR = tables_of(pos.rules)
        mask = int(legal_mask(S, P, STR, int(P[L.P_FAMILY])))
        if mask & (mask - 1):
            out.append(S.copy())
        if len(out) == count:
            break
    return out


def _play_positions(preset: str, count: int, seed: int, late: int = 0) -> list[np.ndarray]:
    """States in the play phase with a choice of cards (at least ``late`` tricks done)."""
    return _positions_with_a_choice(
        preset,
        count,
        count * (40 if late else 4),
        seed,
        lambda S: bool(S[L.S_PHASE] == L.PH_PLAY and S[L.S_N_DONE] >= late),
    )


@pytest.mark.parametrize("preset", [*FAST, "kout_bo_6"])
@pytest.mark.parametrize("objective", [0, 1, 2, 3])
def test_pimc_chooses_legal_cards(preset: str, objective: int) -> None:
    late = 5 if preset == "kout_bo_6" else 0  # its first leads take seconds a solve
    positions = _play_positions(preset, 6, 31, late)
    assert len(positions) >= 3
    for i, S in enumerate(positions):
        _decide(preset, S, rng_of(3, i), f"pimc:samples=3,objective={objective}")


def _heuristic_first(
    preset: str, S: np.ndarray, rng: np.ndarray, spec: str
) -> tuple[Rules, np.ndarray, np.ndarray, int, int]:
    """The rules, tables and legal mask of ``S``, and the heuristic's action drawn first from
    ``rng`` (as the kernel draws it, before its samples)."""
    rules = get_rules(preset)
    P, STR = tables_of(rules)
    fam = int(P[L.P_FAMILY])
    mask = int(legal_mask(S, P, STR, fam))
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    prm = _row(preset, spec)
    heuristic = int(choose_heuristic(S, turn_of(P, STR, MS, rng, prm[ROLLOUT:]), mask, fam))
    return rules, P, STR, mask, heuristic


def _oracle(preset: str, S: np.ndarray, rng: np.ndarray, samples: int, objective: int) -> int:
    """The documented rule in plain Python over the same sampled deals: the heuristic's card first
    (its draw), then per sample the solver's value of each card for the seat's team, capped at
    the contract's need (objective 0), plain (1) or made / beaten (2); the best sum, ties to the
    heuristic's card, else the lowest card."""
    rules, P, STR, mask, heuristic = _heuristic_first(
        preset, S, rng, f"pimc:samples={samples},objective={objective}"
    )
    solver = Solver(rules, tt_bits=14)
    seat = int(S[L.S_TO_ACT])
    mine = (seat & 1) == (int(S[L.S_BIDDER]) & 1)
    if solver.baloot:
        total = 10 + sum(int(STR[L.T_POINTS + S[L.S_TRUMP], c]) for c in _cards(int(P[L.P_DECK])))
        target = _baloot_target(S, total, rules.options.get("tie", "split"))
    else:
        total = rules.n_tricks
        target = int(S[L.S_HIGH_BID])
    need = target if mine else total - target + 1
    sums = {card: 0 for card in _cards(mask)}
    D = np.zeros(L.S_SIZE, dtype=np.int64)
    scratch = np.zeros(L.S_SIZE, dtype=np.int64)
    for _ in range(samples):
        assert SP.determinize(S, P, STR, seat, rng, D) == 0
        for card, v in solver.card_values(D).items():
            mine_v = v if mine else total - v
            if objective == 3 and solver.baloot:
                sums[card] += int(baloot_net(D, P, total, v, seat & 1, scratch))
                continue
            if objective == 0:
                mine_v = min(mine_v, need)
            elif objective in (2, 3):  # 3 in Kout: points follow made or failed (1.10, 2.10)
                mine_v = int(mine_v >= need)
            sums[card] += mine_v
    best = max(sums.values())
    if sums[heuristic] == best:
        return heuristic
    return min(c for c, s in sums.items() if s == best)


def _cards(mask: int) -> list[int]:
    return [c for c in range(64) if (mask >> c) & 1]


def _baloot_target(S: np.ndarray, total: int, tie: str) -> int:
    """RULES.md 3.6.3 for an unraised contract: the buyer's team makes it with more than the other
    team's card points + raw projects + 20 per Baloot (a tie as the ``tie`` option says)."""
    assert int(S[L.B_DOUBLE]) == 1 and int(S[L.B_GAHWA]) == 0
    buyer = int(S[L.S_BIDDER]) & 1
    sun = int(S[L.B_MODE]) == L.MODE_SUN
    bal = int(S[L.B_BALOOT_SEAT])
    big = [int(S[L.B_PROJ_RAW + t]) + (20 if bal >= 0 and bal % 2 == t else 0) for t in (0, 1)]
    tie_fails = tie == "buyer_loses" or (tie == "buyer_loses_hokum_only" and not sun)
    for p in range(total + 1):
        mine, other = p + big[buyer], total - p + big[1 - buyer]
        if mine > other or (mine == other and not tie_fails):
            return p
    return total + 1


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4", "baloot"])
@pytest.mark.parametrize("objective", [0, 1, 2, 3])
def test_pimc_plays_the_best_sum_over_its_samples(preset: str, objective: int) -> None:
    """The kernel's card is the documented rule computed apart (the solver's per-card values over
    the same sampled deals, the same tie-break)."""
    checked = 0
    for i, S in enumerate(_play_positions(preset, 10, 7 + objective)):
        if preset == "baloot" and (int(S[L.B_DOUBLE]) != 1 or int(S[L.B_GAHWA]) != 0):
            continue
        got = _decide(
            preset, S, rng_of(9, i), _plain(preset, f"pimc:samples=5,objective={objective}")
        )
        assert got == _oracle(preset, S, rng_of(9, i), 5, objective), f"position {i}"
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("preset", ["baloot"])
def test_baloot_net_scores_a_finished_hand_as_the_engine_did_rule_3_6(preset: str) -> None:
    """The net points ``baloot_net`` reads off the buyer's card points equal the points the engine
    gave the finished hand (hands without a kaboot, where card points alone decide)."""
    rules = get_rules(preset)
    P, _ = tables_of(rules)
    rows = play_hands(rules, 300, 12, "heuristic", workers=1)
    checked = 0
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    for row in rows:
        if row[L.R_MODE] == 0 or row[L.R_KABOOT] >= 0 or row[L.R_GAHWA] != 0:
            continue
        buyer = int(row[L.R_BIDDER]) & 1
        S[:] = 0
        S[L.S_BIDDER] = row[L.R_BIDDER]
        S[L.B_MODE] = row[L.R_MODE]
        S[L.B_DOUBLE] = row[L.R_DOUBLE]
        S[L.B_BALOOT_SEAT] = row[L.R_BALOOT_SEAT]
        sun = row[L.R_MODE] == L.MODE_SUN
        S[L.B_PROJ_GP : L.B_PROJ_GP + 2] = row[L.R_PROJ_GP : L.R_PROJ_GP + 2]
        # raw project points are the game points times 5 (Sun) or 10 (Hokum), RULES.md 3.5
        S[L.B_PROJ_RAW : L.B_PROJ_RAW + 2] = S[L.B_PROJ_GP : L.B_PROJ_GP + 2] * (5 if sun else 10)
        total = 130 if sun else 162
        p = int(row[L.R_CARD_PTS + buyer])
        for team in (0, 1):
            want = int(row[L.R_POINTS + team] - row[L.R_POINTS + 1 - team])
            got = int(baloot_net(S, P, total, p, team, np.zeros(L.S_SIZE, dtype=np.int64)))
            assert got == want, f"team {team}, buyer {buyer}, {p} card points"
        checked += 1
    assert checked >= 100


@pytest.mark.parametrize("tie", ["split", "buyer_loses"])
def test_baloot_threshold_is_the_fewest_points_that_make_rule_3_6_3(tie: str) -> None:
    rules = get_rules("baloot", {"tie": tie})
    P, STR = tables_of(rules)
    checked = 0
    for pos in random_positions("baloot", 60, 4, tie=tie):
        S = pos.S
        if S[L.S_PHASE] != L.PH_PLAY or S[L.B_DOUBLE] != 1 or S[L.B_GAHWA] != 0:
            continue
        total = 10 + sum(int(STR[L.T_POINTS + S[L.S_TRUMP], c]) for c in _cards(int(P[L.P_DECK])))
        assert total == (130 if S[L.B_MODE] == L.MODE_SUN else 162)
        got = baloot_threshold(S, P, total, np.zeros(L.S_SIZE, dtype=np.int64))
        assert got == _baloot_target(S, total, tie)
        checked += 1
    assert checked >= 10


def _auction_positions(preset: str, count: int, seed: int) -> list[np.ndarray]:
    """States at a Kout call (a bid or the trump) with a choice."""
    return _positions_with_a_choice(
        preset, count, count * 20, seed, lambda S: S[L.S_PHASE] in (L.PH_AUCTION, L.PH_TRUMP)
    )


def _par_oracle(preset: str, S: np.ndarray, rng: np.ndarray, samples: int, p_make: float) -> int:
    """calls=1 in plain Python over the same samples: a sample's par for a trump is the highest
    contract from the lowest legal one that the seat makes double dummy as bidder
    (``Solver.at_least`` from the first lead, RULES.md 1.4 / 2.5 leader); bid the highest contract
    whose par reaches it in a ``p_make`` share, else pass (the forced dealer: the lowest bid);
    at the trump choice, the trump whose par reaches the contract most often."""
    from kout_sim.engine import dd as K
    from kout_sim.engine.kout.hand import may_name_trump

    rules, P, STR, mask, heuristic = _heuristic_first(
        preset, S, rng, f"pimc:samples={samples},calls=1,p_make={p_make}"
    )
    solver = Solver(rules, tt_bits=14)
    seat = int(S[L.S_TO_ACT])
    auction = int(S[L.S_PHASE]) == L.PH_AUCTION
    lo, hi = int(P[L.P_BID_MIN]), int(P[L.P_BID_MAX])
    floor = max(int(S[L.S_HIGH_BID]) + 1, lo) if auction else int(S[L.S_HIGH_BID])
    counts = np.zeros((4, 64), dtype=np.int64)
    D = np.zeros(L.S_SIZE, dtype=np.int64)
    for _ in range(samples):
        assert SP.determinize(S, P, STR, seat, rng, D) == 0
        for t in range(4):
            if not may_name_trump(P, int(D[L.S_HAND + seat]), t):
                continue
            par = 0
            for c in range(hi, floor - 1, -1):
                x = np.zeros(K.X_SIZE, dtype=np.int64)
                x[K.X_DEALER], x[K.X_BIDDER], x[K.X_CONTRACT], x[K.X_TRUMP] = (
                    D[L.S_DEALER],
                    seat,
                    c,
                    t,
                )
                x[K.X_HAND : K.X_HAND + rules.n_players] = D[L.S_HAND : L.S_HAND + rules.n_players]
                F = np.zeros(L.S_SIZE, dtype=np.int64)
                K.first_lead(F, P, solver.C, x)
                if solver.at_least(F, c):
                    par = c
                    break
            counts[t, floor : par + 1] += 1
    if not auction:
        legal = [t for t in range(4) if (mask >> (L.TRUMP + t)) & 1]
        best = max(counts[t, floor] for t in legal)
        h = heuristic - L.TRUMP
        if h in legal and counts[h, floor] == best:
            return heuristic
        return L.TRUMP + min(t for t in legal if counts[t, floor] == best)
    made = [c for c in range(floor, hi + 1) if (counts[:, c] >= max(p_make * samples, 1)).any()]
    if made and (mask >> max(made)) & 1:
        return max(made)
    return L.PASS if mask & 1 else min(_cards(mask))


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4"])
def test_pimc_calls_from_the_par_of_its_samples(preset: str) -> None:
    """calls=1: the kernel's bid / trump is the rule computed apart (module notes of pimc)."""
    positions = _auction_positions(preset, 6, 17)
    assert len(positions) >= 4
    seen = set()
    for i, S in enumerate(positions):
        for p_make in (0.3, 0.7):
            spec = _plain(preset, f"pimc:samples=4,calls=1,p_make={p_make}")
            got = _decide(preset, S, rng_of(5, i), spec)
            assert got == _par_oracle(preset, S, rng_of(5, i), 4, p_make), f"position {i}"
            seen.add(got)
    assert len(seen) >= 2  # not one call for every position


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4", "baloot"])
def test_pimc_plugs_into_the_hand_driver(preset: str) -> None:
    # RULES.md 0.5: the drivers raise if a policy chose an illegal action
    rules = get_rules(preset)
    rows = play_hands(rules, 3, 2, ["pimc:samples=2", "heuristic"], workers=1)
    assert (rows[:, L.R_N_ACTIONS] > 0).all()
    if not rules.is_baloot:  # calls=1 is Kout's
        rows = play_hands(rules, 2, 3, ["pimc:samples=2,calls=1", "heuristic"], workers=1)
        assert (rows[:, L.R_N_ACTIONS] > 0).all()


def test_pimc_plugs_into_the_match_driver() -> None:
    """One family's match driver (each compiles the engine and the solver again: the other
    family's is the same code with its own policies, covered by the hand driver above)."""
    matches, _, _ = play_matches(
        get_rules("kout_bh_4"), 1, 2, ["heuristic", "pimc:samples=1,objective=2"], workers=1
    )
    assert matches[0, L.X_WINNER] in (0, 1)


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4", "baloot"])
def test_pimc_ignores_hidden_cards_the_seat_cannot_know(preset: str) -> None:
    check_hidden_swaps(preset, lambda S, rng: _decide(preset, S, rng, "pimc:samples=3"))


@pytest.mark.parametrize("case_id", sorted(CLEAR))
def test_pimc_finds_the_clearly_right_move(case_id: str) -> None:
    preset, hand = clear_position(case_id)
    action = _decide(preset, hand.S, rng_of(21, 0))
    assert actions_of_mask(hand.phase, 1 << action)[0] == CLEAR[case_id]
