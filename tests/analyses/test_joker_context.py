"""The joker's value by context: the context of every fork recomputed the long way from the parquet
files of the hands run (plain Python loops over the cards played), the context tables recomputed
from the forks, and the splits adding up to the overall table."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

import kout_sim
from analyses import joker_context as jc
from analyses import joker_lead as jl
from kout_sim import cards as C
from kout_sim.sim.fork import write_forks

HONOURS = "AKQJ"


@pytest.fixture(scope="session")
def context_runs(runs_root: Path) -> tuple[Path, Path]:
    """kout_bo_4, heuristic players: the joker leads of 6,000 hands and their context run."""
    forks = Path(write_forks(runs_root / "ctx-forks", "kout_bo_4", 6_000, 31, workers=1))
    context = jc.write_context(runs_root / "ctx-context", forks, workers=1)
    return forks, context


def _read(folder: Path, table: str) -> pl.DataFrame:
    return pl.read_parquet(folder / table / "*.parquet")


def _long_context(
    forks: pl.DataFrame, hands: pl.DataFrame, actions: pl.DataFrame
) -> list[dict[str, Any]]:
    """The context of every fork, one plain loop over the cards played before it."""
    dealt = {r["match"]: r for r in hands.iter_rows(named=True)}
    played: dict[int, list[tuple[int, int, str]]] = {}
    for r in actions.iter_rows(named=True):
        played.setdefault(r["match"], []).append((r["ply"], r["seat"], r["action"]))
    out = []
    for f in forks.iter_rows(named=True):
        hand, seat, trump = dealt[f["hand"]], f["seat"], f["trump"]
        honours = {r + trump for r in HONOURS}
        other = "BJ" if f["joker"] == "RJ" else "RJ"
        before = [(s, a) for p, s, a in played[f["hand"]] if p < f["ply"]]
        own_mask = hand[f"hand_seat{seat}"]
        own = {C.format_card(c) for c in C.cards_of(own_mask)}
        gone = [a for _, a in before if a in honours]
        mine = [a for s, a in before if a in honours and s == seat]
        by = [s for s, a in before if a == other]
        holder = hand["rj_holder"] if other == "RJ" else hand["bj_holder"]
        if by:
            where = (
                "played by self"
                if by[0] == seat
                else "played by partner"
                if by[0] % 2 == seat % 2
                else "played by an opponent"
            )
        else:
            where = "in own hand" if holder == seat else "still out"
        bidding = seat % 2 == f["bidder"] % 2
        n_tricks = len(own)
        needed = (
            f["contract"] - f["team_tricks"]
            if bidding
            else n_tricks + 1 - f["contract"] - f["team_tricks"]
        )
        if bidding and f["contract"] == 9:
            permission = "contract 9 (Bawan)"
        elif bidding and f["contract"] == 8 and f["joker"] == "RJ":
            permission = "contract 8, big joker"
        else:
            permission = "trump A K Q J all played"
        out.append(
            {
                "hand": f["hand"],
                "ply": f["ply"],
                "tricks_needed": needed,
                "honours_left": 4 - len(gone),
                "honours_held": len(honours & own) - len(mine),
                "other_joker": where,
                "other_joker_holder": jc.SEEN
                if where != "still out"
                else "partner"
                if holder % 2 == seat % 2
                else "opponent",
                "other_joker_dealt": "self"
                if holder == seat
                else "partner"
                if holder % 2 == seat % 2
                else "opponent",
                "permission": permission,
            }
        )
    return out


def test_the_context_recomputes_the_long_way_from_the_hands_run(
    context_runs: tuple[Path, Path],
) -> None:
    forks_dir, context_dir = context_runs
    forks = _read(forks_dir, "forks")
    play = context_dir / jc.PLAY_FOLDER
    hands, actions = _read(play, "hands"), _read(play, "actions")
    context = _read(context_dir, "context")
    assert len(forks) > 500 and len(context) == len(forks)
    expected = _long_context(forks, hands, actions)
    got = {(r["hand"], r["ply"]): r for r in context.iter_rows(named=True)}
    for row in expected:
        assert got[(row["hand"], row["ply"])] == row
    # every context value occurs in this run, so each branch of the derivation is checked
    assert set(context["other_joker"]) == set(jc.OTHER_JOKER_STATES)
    meta = json.loads((context_dir / "run.json").read_text())
    assert meta["kind"] == jc.CONTEXT_KIND and meta["forks"] == len(forks)
    assert jc.same_hands(json.loads((forks_dir / "run.json").read_text()), meta)


def test_the_context_agrees_with_the_rules_and_the_tricks_won(
    context_runs: tuple[Path, Path],
) -> None:
    """A lead not permitted by the contract is permitted by the fall of trump A K Q J (RULES.md
    1.6), and the team's tricks before the fork are those the hands run's trick winners give."""
    forks_dir, context_dir = context_runs
    df = jc.with_context(_read(forks_dir, "forks"), _read(context_dir, "context"))
    honours_rule = df.filter(pl.col("permission") == "trump A K Q J all played")
    assert (honours_rule["honours_left"] == 0).all()
    assert (df["honours_held"] <= df["honours_left"]).all()
    hands = {
        r["match"]: r["trick_winners"]
        for r in _read(context_dir / jc.PLAY_FOLDER, "hands").iter_rows(named=True)
    }
    for r in df.iter_rows(named=True):
        won = [int(w) % 2 for w in hands[r["hand"]][: r["trick"] - 1]]
        assert won.count(r["seat"] % 2) == r["team_tricks"]


def test_a_hands_run_of_another_seed_is_refused(
    context_runs: tuple[Path, Path], tmp_path: Path
) -> None:
    forks_dir, _ = context_runs
    other = kout_sim.simulate(
        "kout_bo_4", hands=6_000, seed=32, actions=True, out=tmp_path / "other", workers=1
    )
    tables = kout_sim.load(other)
    with pytest.raises(ValueError, match="do not match the hands run"):
        jc.play_context(_read(forks_dir, "forks"), tables["hands"], tables["actions"])


def _clustered(values: np.ndarray, hands: np.ndarray) -> tuple[float, float]:
    mean = values.mean()
    sums: dict[int, float] = {}
    for v, h in zip(values, hands):
        sums[h] = sums.get(h, 0.0) + (v - mean)
    return float(mean), float(math.sqrt(sum(s * s for s in sums.values())) / len(values))


@pytest.mark.parametrize("column", [*jc.VISIBLE, *jc.HIDDEN])
def test_context_value_recomputes_and_its_splits_add_up(
    context_runs: tuple[Path, Path], column: str
) -> None:
    forks_dir, context_dir = context_runs
    df = jc.with_context(_read(forks_dir, "forks"), _read(context_dir, "context"))
    table = jc.context_value(df, column)
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in df.iter_rows(named=True):
        role = "bidding team" if r["bidding_team"] else "defenders"
        for choice in ("all", "led it" if r["chose_joker"] else "declined"):
            groups.setdefault((role, choice, r[column]), []).append(r)
    assert len(table) == len(groups)
    for row in table.iter_rows(named=True):
        part = groups[(row["role"], row["choice"], row[column])]
        d = np.array([p["net_joker"] - p["net_other"] for p in part], dtype=float)
        diff, se = _clustered(d, np.array([p["hand"] for p in part]))
        assert row["n"] == len(part)
        assert row["diff"] == pytest.approx(diff)
        assert row["low"] == pytest.approx(diff - 1.96 * se)
        assert row["hidden"] == (column in jc.HIDDEN)
        total = sum(len(v) for k, v in groups.items() if k[:2] == (row["role"], row["choice"]))
        assert row["share"] == pytest.approx(len(part) / total)
    # the splits add up: every context value's forks are those of the overall table, and each
    # value's led and declined forks are its forks
    overall = {r["role"]: r["n"] for r in jl.joker_value(df).iter_rows(named=True)}
    alls = table.filter(pl.col("choice") == "all")
    assert alls.group_by("role").agg(pl.col("n").sum()).sort("role").rows() == sorted(
        overall.items()
    )
    for row in alls.iter_rows(named=True):
        split = table.filter(
            (pl.col("role") == row["role"])
            & (pl.col(column).eq_missing(row[column]))
            & (pl.col("choice") != "all")
        )
        assert split["n"].sum() == row["n"]
    assert table.filter(pl.col("choice") == "all")["share"].sum() == pytest.approx(len(overall))


def test_context_cells_partition_the_forks_and_apply_holm(
    context_runs: tuple[Path, Path],
) -> None:
    forks_dir, context_dir = context_runs
    df = jc.with_context(_read(forks_dir, "forks"), _read(context_dir, "context"))
    cells = jc.context_cells(df, min_n=50)
    assert cells["n"].sum() == len(df)
    # recompute one cell by hand: tricks 4-6 of contract 5, the other joker played by an opponent
    part = [
        r
        for r in df.iter_rows(named=True)
        if r["bidding_team"]
        and r["contract"] == 5
        and 4 <= r["trick"] <= 6
        and r["other_joker"] == "played by an opponent"
    ]
    row = cells.filter(
        (pl.col("role") == "bidding team")
        & (pl.col("contract_band") == "5")
        & (pl.col("trick_band") == "4-6")
        & (pl.col("other_joker") == "played by an opponent")
    ).row(0, named=True)
    d = np.array([p["net_joker"] - p["net_other"] for p in part], dtype=float)
    diff, se = _clustered(d, np.array([p["hand"] for p in part]))
    assert row["n"] == len(part) and row["diff"] == pytest.approx(diff)
    assert row["p"] == pytest.approx(math.erfc(abs(diff / se) / math.sqrt(2)))
    tested = cells.filter(pl.col("tested"))
    expected = jc.holm(tested["p"].to_list())
    assert tested["holm"].to_list() == expected
    assert not cells.filter(~pl.col("tested"))["holm"].any()


def test_holm_steps_down() -> None:
    # 0.01 <= 0.05/3; 0.02 <= 0.05/2; 0.04 <= 0.05/1: all rejected
    assert jc.holm([0.04, 0.01, 0.02]) == [True, True, True]
    # 0.03 > 0.05/2 stops the procedure: the larger p-values are kept too
    assert jc.holm([0.01, 0.03, 0.04]) == [True, False, False]
    assert jc.holm([0.2, 0.5]) == [False, False]


def test_report_leads_the_joker_section_with_the_contexts(
    context_runs: tuple[Path, Path], tmp_path: Path
) -> None:
    from analyses import report as rp

    from .test_report import blob, rows

    forks_dir, context_dir = context_runs
    out = tmp_path / "joker.html"
    rp.write_report([forks_dir, context_dir], out)
    data = blob(out.read_text())
    df = jc.with_context(_read(forks_dir, "forks"), _read(context_dir, "context"))
    for column in jc.VISIBLE:
        shown = rows(data, "joker", f"context_{column}")
        table = jc.context_value(df, column)
        assert [r["n"] for r in shown] == table["n"].to_list()
        assert [r["diff"] for r in shown] == pytest.approx(table["diff"].to_list())
    findings = data["sections"]["joker"]["findings"]
    assert any("is an average over every legal joker lead" in f for f in findings)
    share = jc.opportunity_shares(df)["bidding team"]
    honours_only = (
        df.filter(
            pl.col("bidding_team") & (pl.col("permission") == "trump A K Q J all played")
        ).height
        / df.filter(pl.col("bidding_team")).height
    )
    assert share["honours_only"] == pytest.approx(honours_only)
    # the leads the player made and declined, recomputed the long way
    for row in rows(data, "joker", "context_choice"):
        part = [
            r
            for r in df.iter_rows(named=True)
            if (r["bidding_team"] == (row["role"] == "bidding team"))
            and r["chose_joker"] == (row["choice"] == "led it")
        ]
        d = np.array([p["net_joker"] - p["net_other"] for p in part], dtype=float)
        diff, se = _clustered(d, np.array([p["hand"] for p in part]))
        assert row["n"] == len(part) and row["diff"] == pytest.approx(diff)
        assert row["high"] == pytest.approx(diff + 1.96 * se)
    assert sum(r["n"] for r in rows(data, "joker", "context_choice")) == len(df)
    # the context run's command plays its hands into its play/ folder
    commands = [c for c in data["commands"]["runs"] if c and "--actions" in c]
    assert len(commands) == 1 and commands[0].endswith(f"/{jc.PLAY_FOLDER}")


def test_the_section_compares_the_contexts_across_line_ups(
    context_runs: tuple[Path, Path], runs_root: Path, tmp_path: Path
) -> None:
    """A second line-up's forks and context (same deals) give a table of both line-ups' values per
    context, each verdict following from the two intervals; the first line-up's tables are not
    pooled with the second's."""
    from analyses import report as rp

    from .test_report import blob, rows

    forks_dir, context_dir = context_runs
    spec = "heuristic:bid_margin=0"
    forks_b = Path(write_forks(tmp_path / "forks-b", "kout_bo_4", 6_000, 31, [spec], workers=1))
    context_b = jc.write_context(tmp_path / "context-b", forks_b, workers=1)
    out = tmp_path / "two.html"
    rp.write_report([forks_dir, context_dir, forks_b, context_b], out)
    data = blob(out.read_text())
    a = jc.with_context(_read(forks_dir, "forks"), _read(context_dir, "context"))
    b = jc.with_context(_read(forks_b, "forks"), _read(context_b, "context"))
    assert rows(data, "joker", "value_net")[0]["n"] + rows(data, "joker", "value_net")[1][
        "n"
    ] == len(a)
    table = rows(data, "joker", "context_lineups")
    ta = jc.context_value(a, "contract").filter(pl.col("choice") == "all")
    tb = jc.context_value(b, "contract").filter(pl.col("choice") == "all")
    contract = [r for r in table if r["context"] == "contract"]
    assert len(contract) == len(
        set(ta["role", "contract"].rows()) | set(tb["role", "contract"].rows())
    )
    for r in contract:
        ra = ta.filter((pl.col("role") == r["role"]) & (pl.col("contract") == int(r["value"])))
        rb = tb.filter((pl.col("role") == r["role"]) & (pl.col("contract") == int(r["value"])))
        for i, part in enumerate((ra, rb)):
            if part.is_empty():
                assert r[f"n_{i}"] is None
                continue
            assert r[f"n_{i}"] == part["n"][0] and r[f"diff_{i}"] == pytest.approx(part["diff"][0])
        if ra.is_empty() or rb.is_empty() or min(ra["n"][0], rb["n"][0]) < 200:
            assert r["sign"].startswith("fewer")
            continue
        ends = [(p["low"][0], p["high"][0]) for p in (ra, rb)]
        if all(lo > 0 for lo, _ in ends) or all(hi < 0 for _, hi in ends):
            assert r["sign"].startswith("holds")
        elif any(lo > 0 for lo, _ in ends) and any(hi < 0 for _, hi in ends):
            assert r["sign"] == "reverses"
        else:
            assert not r["sign"].startswith("holds")
    counts = data["sections"]["joker"]["data"]["sign_across_lineups"]
    assert counts["contexts"] == sum(not r["sign"].startswith("fewer") for r in table)
    # each advised context cell says what the second line-up shows in the same cell
    cells_b = jc.context_cells(b, min_n=200)
    keys = ("role", "contract_band", "trick_band", "other_joker")
    advised = [r for r in rows(data, "joker", "context_cells")]
    advice = data["sections"]["joker"]["advice"]
    cell_advice = [x for x in advice if "Bawan (contract 9), the" not in x["text"]]
    assert len(cell_advice) == min(2, sum(r["diff"] > 0 for r in advised)) + min(
        2, sum(r["diff"] < 0 for r in advised)
    )
    for x in cell_advice:
        assert x["players"] == "heuristic" and spec in x["holds"]
        r = next(r for r in advised if f"n={r['n']:,} forks" in x["text"])
        same = cells_b.filter(*(pl.col(k) == r[k] for k in keys))
        if same.is_empty() or same["n"][0] < 200:
            assert x["holds"].startswith("too few forks")
            continue
        o = same.row(0, named=True)
        agrees = o["low"] > 0 if r["diff"] > 0 else o["high"] < 0
        assert x["holds"].startswith("holds under") == agrees
        assert f"n={o['n']:,} forks" in x["holds"]


def test_an_advised_cell_says_whether_it_holds_under_another_line_up() -> None:
    """_cell_holds compares a cell with the same cell under each other line-up: it holds when
    that interval excludes 0 on the same side, reverses on the other, else is not separated;
    a missing or small cell is too few; no other line-up: None."""
    from analyses.joker_context_section import _cell_holds

    key = {"role": "bidding team", "contract_band": "7", "trick_band": "4-6", "other_joker": "x"}
    cell = {**key, "diff": -2.0, "low": -2.5, "high": -1.5, "n": 1_000}

    def other(low: float, high: float, n: int = 500) -> pl.DataFrame:
        return pl.DataFrame([{**key, "diff": (low + high) / 2, "low": low, "high": high, "n": n}])

    assert _cell_holds(cell, []) is None
    assert str(_cell_holds(cell, [("b", other(-1.0, -0.2))])).startswith("holds under b: -0.60")
    assert str(_cell_holds(cell, [("b", other(0.2, 1.0))])).startswith("reverses under b")
    assert str(_cell_holds(cell, [("b", other(-1.0, 0.5))])).startswith(
        "not separated from 0 under b"
    )
    assert _cell_holds(cell, [("b", other(-1.0, -0.2, 50))]) == "too few forks under b to check"
    elsewhere = other(-1.0, -0.2).with_columns(trick_band=pl.lit("1-3"))
    both = _cell_holds(cell, [("b", elsewhere), ("c", other(-3.0, -1.0))])
    assert both == (
        "too few forks under b to check; holds under c: -2.00 points per hand "
        "(95% CI -3.00 .. -1.00, n=500 forks)"
    )
