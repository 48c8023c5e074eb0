"""``simulate(..., solve=True)``: the double-dummy columns of the hands table (docs/data.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

from kout_sim import cards as C
from kout_sim import load, simulate
from kout_sim.drivers.play import hand_traced
from kout_sim.engine import layout as L
from kout_sim.rules import KoutPreset, get_rules
from kout_sim.sim import play_hands
from kout_sim.sim.batch import setup_of
from kout_sim.solver import Solver, _baloot_made, dd_columns, solve


def _record(row: dict[str, Any], preset: str) -> dict[str, Any]:
    """The hand of a Kout hands-table row as a record stopped at the first lead."""
    n = get_rules(preset).n_players
    words = row["calls"].split(" ")
    calls: list[Any] = [w if w == "pass" else int(w) for w in words if w not in C.SUITS]
    return {
        "rules": preset,
        "dealer": row["dealer"],
        "hands": [C.format_mask(row[f"hand_seat{s}"]) for s in range(n)],
        "calls": calls,
        "trump": words[-1],
        "plays": [],
    }


@pytest.mark.parametrize("preset", ["kout_bh_4", "kout_bo_4"])
def test_dd_columns_are_the_solve_of_each_hand(preset: str, tmp_path: Path) -> None:
    """dd_tricks is kout_sim.solve of the hand at its first lead; dd_made compares it with the
    contract; the par over the trumps is at least the contract when the contract is makeable."""
    run = simulate(preset, hands=24, seed=3, solve=True, out=tmp_path / "r", workers=1)
    hands = load(run)["hands"].collect()
    assert hands["dd_tricks"].null_count() == 0
    for row in hands.head(8).iter_rows(named=True):
        assert solve(_record(row, preset))["tricks"] == row["dd_tricks"]
    made = hands["dd_made"].to_numpy()
    assert np.array_equal(made, (hands["dd_tricks"] >= hands["contract"]).to_numpy())
    makeable = hands.filter(pl.col("dd_made"))
    assert (makeable["dd_par_contract"] >= makeable["contract"]).all()
    assert hands["dd_points"].null_count() == len(hands)


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("kout_bo_4", None),
        ("kout_bo_4", {"joker_lead_scope": "anyone"}),
        ("kout_bh_4", None),
    ],
    ids=str,
)
def test_dd_par_columns_are_the_highest_contract_solved_contract_by_contract(
    preset: str, options: dict[str, Any] | None
) -> None:
    """RULES.md 1.6(a)(b), 2.8-2.9: every contract is solved as its own game. The par columns (the
    played trump's class answered by the hand's own value, the groups of contracts searched
    upwards) are the highest contract whose own solve reaches it, over every trump the bidder may
    name, the first of S H D C on a tie."""
    from kout_sim.engine import dd as K
    from kout_sim.engine.kout import hand as KE
    from kout_sim.solver import first_leads_of

    rules = get_rules(preset, options)
    kout = rules.preset
    assert isinstance(kout, KoutPreset)
    rows = play_hands(rules, 6, 17, "heuristic", workers=1)
    solver = Solver(rules)
    X = first_leads_of(rows, rules)
    got = solver.solve_rows(X, par=True)
    for i, x in enumerate(X):
        best, best_trump = 0, -1
        for trump in range(4):
            hand = int(x[K.X_HAND + x[K.X_BIDDER]])
            if not KE.may_name_trump(solver.P, hand, trump):
                continue
            for contract in range(kout.bid_min, kout.bid_max + 1):
                y = x.copy()
                y[K.X_TRUMP], y[K.X_CONTRACT] = trump, contract
                value = int(solver.solve_rows(y[None, :], par=False)[0, K.O_VALUE])
                if value >= contract and contract > best:
                    best, best_trump = contract, trump
        assert (int(got[i, K.O_PAR]), int(got[i, K.O_PAR_TRUMP])) == (best, best_trump)


def test_dd_columns_do_not_depend_on_the_worker_count(tmp_path: Path) -> None:
    runs = [
        simulate("kout_bh_4", hands=40, seed=9, solve=True, out=tmp_path / f"w{w}", workers=w)
        for w in (1, 2)
    ]
    cols = ["dd_tricks", "dd_made", "dd_par_contract", "dd_par_trump"]
    a, b = (load(r)["hands"].select(cols).collect() for r in runs)
    assert a.equals(b)


def test_no_par_keeps_the_value_columns_and_leaves_the_par_null(tmp_path: Path) -> None:
    """``solve=True, par=False`` (``--solve --no-par``): dd_tricks and dd_made are the full solve's,
    the par columns null; the setting is in run.json and its command, and a resume with the par
    on is refused (the columns would differ between shards)."""
    import json

    full = simulate("kout_bh_4", hands=30, seed=4, solve=True, out=tmp_path / "full", workers=1)
    bare = simulate(
        "kout_bh_4", hands=30, seed=4, solve=True, par=False, out=tmp_path / "bare", workers=1
    )
    a, b = (load(r)["hands"].collect() for r in (full, bare))
    assert b.select("dd_tricks", "dd_made").equals(a.select("dd_tricks", "dd_made"))
    assert a["dd_par_contract"].null_count() == 0
    for col in ("dd_par_contract", "dd_par_trump"):
        assert b[col].null_count() == len(b)
    settings = json.loads((bare / "run.json").read_text())
    assert settings["solve"] is True and settings["par"] is False
    assert " --solve --no-par " in settings["command"]
    assert "--no-par" not in json.loads((full / "run.json").read_text())["command"]
    with pytest.raises(ValueError, match="it was run with par=False"):
        simulate("kout_bh_4", hands=30, seed=4, solve=True, out=bare, workers=1, resume=True)
    with pytest.raises(ValueError, match="goes with solve=True"):
        simulate("kout_bh_4", hands=3, par=False, out=tmp_path / "never")
    assert not (tmp_path / "never").exists()


def test_runs_without_solve_have_null_dd_columns(tmp_path: Path) -> None:
    run = simulate("kout_bh_4", hands=10, seed=1, out=tmp_path / "plain", workers=1)
    hands = load(run)["hands"].collect()
    assert hands["dd_tricks"].null_count() == len(hands)
    assert hands["dd_made"].null_count() == len(hands)


def test_baloot_dd_points_are_the_solve_at_the_first_lead() -> None:
    """RULES.md 3.6.1: dd_points is the solver's value of the hand at its first lead (the
    same stream index played again by the traced driver)."""
    rules = get_rules("baloot")
    rows = play_hands(rules, 12, 5, "heuristic", workers=1)
    dd = dd_columns(rows, rules, par=False)
    setup = setup_of(rules, "heuristic")
    hands = np.zeros(6, dtype=np.int64)
    trace = np.zeros(256, dtype=np.int64)
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    solver = Solver(rules)
    checked = 0
    for i, row in enumerate(rows):
        index = int(row[L.R_MATCH])
        n = hand_traced(setup, 5, index, hands, trace, trace.copy(), S)
        calls = int(np.sum(trace[:n] >= L.CALL))
        hand_traced(setup, 5, index, hands, trace, trace.copy(), S, limit=calls)
        if S[L.S_PHASE] != L.PH_PLAY:
            assert dd["dd_points"][i] == -1  # a void hand
            continue
        assert solver.value(S) == dd["dd_points"][i]
        checked += 1
    assert checked >= 8


def test_baloot_made_threshold_agrees_with_the_engine_on_played_hands() -> None:
    """RULES.md 3.6.3, 3.3.3, 3.5: the threshold dd_made uses, applied to the card points the
    players actually took, gives the engine's own made flag (kaboots aside: 3.6.4 decides them)."""
    for options in ({}, {"tie": "buyer_loses"}):
        rules = get_rules("baloot", options)
        rows = play_hands(rules, 4000, 2, "heuristic", workers=1)
        bought = (rows[:, L.R_MODE] != 0) & (rows[:, L.R_KABOOT] < 0)
        rows = rows[bought]
        buyer = rows[:, L.R_BIDDER] & 1
        points = rows[np.arange(len(rows)), L.R_CARD_PTS + buyer]
        made = _baloot_made(rows, points, rules)
        assert np.array_equal(made, rows[:, L.R_MADE] == 1)
        assert (rows[:, L.R_DOUBLE] > 1).any()
