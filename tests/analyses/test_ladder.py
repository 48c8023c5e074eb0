"""The ladder of players: the verdict rules on constructed cases (intervals, best calls), the
Bradley-Terry fit on simulated duels of known strengths, and the ladder tables recomputed the long
way from the parquet files of three tiny rungs (random, heuristic and heuristic:bid_margin=0, the
same deals): bid success, the bid forks' best call by strength and each call's value, the joker's
value by role and by context, match length."""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import pairwise
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from analyses import ladder, ladder_rating, ladder_rung, ladder_study
from analyses.bid_forks import KOUT_STRENGTH_RANGE
from analyses.ladder import (
    DEPENDS,
    HOLDS,
    SAME_SIGN,
    TIE,
    TOO_FEW,
    best_call_verdict,
    best_call_verdicts,
    verdict,
    verdict_of,
)
from analyses.ladder_section import _search_text, ladder_section, verdict_text
from analyses.section import ReportInput, open_run
from analyses.studies import StudyArgs, plan_study
from kout_sim.rules import Family

# ------------------------------------------------------------------------------------ verdicts


def test_verdict_of_constructed_cases() -> None:
    assert verdict_of([(0.70, 0.74), (0.72, 0.75), (0.73, 0.78)]) == HOLDS
    # pairwise overlap on a line: the first and the last only just touch
    assert verdict_of([(0.1, 0.2), (0.2, 0.3)]) == HOLDS
    assert verdict_of([(0.70, 0.72), (0.75, 0.80)]) == DEPENDS
    # signed answers: apart but on one side of zero
    assert verdict_of([(0.5, 1.0), (2.0, 3.0)], signed=True) == SAME_SIGN
    assert verdict_of([(-3.0, -2.0), (-1.0, -0.5)], signed=True) == SAME_SIGN
    assert verdict_of([(0.5, 1.0), (2.0, 3.0)], signed=False) == DEPENDS
    assert verdict_of([(-1.0, -0.5), (0.5, 1.0)], signed=True) == DEPENDS
    # an interval crossing zero is not of one sign
    assert verdict_of([(-0.1, 0.4), (1.0, 2.0)], signed=True) == DEPENDS
    assert verdict_of([(0.1, 0.2)]) == TOO_FEW
    assert verdict_of([(0.1, 0.2), (None, None)]) == TOO_FEW


def _answer_table() -> pl.DataFrame:
    rows = [
        # bid 5: random far off, the others agree
        ("random", "5", 500, 0.20, 0.25),
        ("heuristic", "5", 500, 0.80, 0.84),
        ("heuristic:bid_margin=0", "5", 500, 0.82, 0.86),
        # bid 7: the two heuristics disagree; random has too few hands to count
        ("random", "7", 10, 0.0, 1.0),
        ("heuristic", "7", 300, 0.80, 0.85),
        ("heuristic:bid_margin=0", "7", 300, 0.70, 0.75),
        # bid 9: only one player with enough hands
        ("heuristic", "9", 40, 0.4, 0.7),
        ("heuristic:bid_margin=0", "9", 5, 0.1, 0.9),
    ]
    return pl.DataFrame(rows, schema=["rung", "bid", "n", "low", "high"], orient="row")


def test_verdict_per_key_all_and_from_heuristic_up() -> None:
    out = {r["bid"]: r for r in verdict(_answer_table(), ["bid"], min_n=30).to_dicts()}
    assert (out["5"]["verdict"], out["5"]["verdict_up"]) == (DEPENDS, HOLDS)
    assert out["5"]["rungs"] == ["random", "heuristic", "heuristic:bid_margin=0"]
    assert (out["7"]["verdict"], out["7"]["verdict_up"]) == (DEPENDS, DEPENDS)
    assert "random" not in out["7"]["rungs"]  # n = 10 < min_n
    assert out["9"]["verdict"] == TOO_FEW
    assert out["5"]["lowest"] == pytest.approx(0.20) and out["5"]["highest"] == pytest.approx(0.86)
    assert verdict_text(out["5"]["verdict"], out["5"]["verdict_up"]).startswith("holds from")
    assert verdict_text(DEPENDS, DEPENDS) == DEPENDS


def test_best_call_verdict_constructed_cases() -> None:
    # one best call under every player
    assert best_call_verdict({"a": "3", "b": "3", "c": "3"}, {"a": {"pass"}}) == HOLDS
    # different best calls, but no player shows another's best call worse: a tie
    assert best_call_verdict({"a": "3", "b": "4"}, {}) == TIE
    assert best_call_verdict({"a": "3", "b": "4"}, {"a": {"pass"}, "b": {"2"}}) == TIE
    # a's forks show b's best call (4) worse than a's own: it depends on the player
    assert best_call_verdict({"a": "3", "b": "4"}, {"a": {"4"}}) == DEPENDS
    assert best_call_verdict({"a": "3", "b": "4", "c": "3"}, {"c": {"4"}}) == DEPENDS
    assert best_call_verdict({"a": "3"}, {"a": {"4"}}) == TOO_FEW
    assert best_call_verdict({}, {}) == TOO_FEW


def test_best_call_verdicts_per_bucket_all_and_from_heuristic_up() -> None:
    best = pl.DataFrame(
        {
            "rung": ["random", "heuristic", "pimc", "random", "heuristic", "pimc", "heuristic"],
            "rung_order": [0, 1, 2, 0, 1, 2, 1],
            "from_bucket": [6, 6, 6, 9, 9, 9, 12],
            "strength": ["strength 6"] * 3 + ["strength 9-11"] * 3 + ["strength 12 or more"],
            "best_call": ["5", "pass", "pass", "3", "3", "4", "5"],
        },
        schema_overrides={"from_bucket": pl.Int16},
    )
    beats = pl.DataFrame(
        {
            "rung": ["random", "heuristic", "pimc", "heuristic"],
            "from_bucket": [6, 6, 9, 9],
            "best_call": ["5", "pass", "4", "3"],
            "other_call": ["pass", "5", "3", "4"],
            "low": [0.2, 1.5, -0.1, -0.3],
        },
        schema_overrides={"from_bucket": pl.Int16},
    )
    out = {r["from_bucket"]: r for r in best_call_verdicts(best, beats).to_dicts()}
    assert out[9]["strength"] == "strength 9-11"
    # bucket 6: random differs and its forks show pass worse; from heuristic up both pass
    assert (out[6]["verdict"], out[6]["verdict_up"]) == (DEPENDS, HOLDS)
    assert out[6]["calls"] == ["5", "pass", "pass"]
    # bucket 9: heuristic 3, pimc 4, neither shows the other's worse (low <= 0): a tie
    assert (out[9]["verdict"], out[9]["verdict_up"]) == (TIE, TIE)
    assert out[12]["verdict"] == TOO_FEW and out[12]["rungs"] == ["heuristic"]
    assert verdict_text(TIE, TIE).endswith("(a tie)")
    assert verdict_text(DEPENDS, TIE).startswith("from heuristic up")


def test_forks_refused_for_a_search_rung_are_skipped_with_the_reason() -> None:
    def refuse() -> None:
        raise ValueError("no search forks here")

    skipped: dict[str, str] = {}
    assert not ladder._forked("pimc:samples=10", "bid_forks", refuse, skipped)
    assert "no search forks here" in skipped["bid_forks"] and "pimc" in skipped["bid_forks"]
    with pytest.raises(ValueError, match="no search forks"):  # a plain rung's refusal is an error
        ladder._forked("heuristic", "bid_forks", refuse, {})
    played: list[int] = []
    assert ladder._forked("ismcts:iterations=5", "joker_forks", lambda: played.append(1), {})
    assert played == [1]


def test_the_section_names_the_players_without_a_part_and_why() -> None:
    from analyses.ladder_section import _missing, _sizes_text

    tables: dict[str, dict[str, Any]] = {
        "heuristic": {"skipped": {}},
        "pimc:samples=10": {"skipped": {"bid_forks": "kout-sim forks refused pimc:samples=10: x"}},
    }
    text = _missing(tables, "bid_forks", "kout_bo")
    assert text.startswith(" Not under pimc:samples=10") and "refused" in text
    assert "heuristic" not in text and _missing(tables, "joker_forks", "kout_bo") == ""
    settings = {"count": 200, "joker_hands": 200, "bid_hands": 50, "matches": 2}
    assert _sizes_text("pimc:samples=10", settings, "kout_bo") == (
        "pimc:samples=10: 200 hands, joker forks of 200 hands, bid forks of 50 hands, "
        "2 matches per target"
    )


def test_rung_slug_and_search() -> None:
    assert ladder.rung_slug("heuristic:bid_margin=0") == "heuristic-bid_margin0"
    assert ladder.rung_slug("random") == "random"
    assert ladder.rung_slug("pimc:samples=10") == "pimc-samples10"
    assert ladder.is_search("pimc:samples=10") and ladder.is_search("pimc")
    assert ladder.is_search("ismcts:iterations=200") and not ladder.is_search("heuristic")
    assert "bids with the heuristic" in _search_text("ismcts:iterations=200", "kout_bo")
    assert "searches the calls" in _search_text("ismcts:iterations=9,calls=1", "kout_bo")


def test_plan_caps_the_search_rung_and_rates_every_rung() -> None:
    plans = plan_study("ladder", StudyArgs("kout_bo_4", Family.KOUT_BO, seed=1, hands=50_000))
    paths = [p.path for p in plans]
    assert "ladder/heuristic" in paths and "ladder/ismcts-iterations200" in paths
    duels = [p for p in plans if p.kind == ladder_rating.DUEL_KIND]
    assert {p for d in ladder_rating.duel_pairs() for p in d} == set(ladder.RUNGS)
    assert len(duels) == len(ladder_rating.duel_pairs())
    for spec in ("ismcts:iterations=200", "pimc:samples=10"):
        search = next(p for p in plans if p.path == f"ladder/{ladder.rung_slug(spec)}")
        assert search.command is not None
        caps = ladder_study.search_caps(spec, "kout_bo")
        assert f"--hands {caps['hands']}" in search.command(Path("x"))
    # the two search players duel each other and the two strongest plain rungs
    pairs = ladder_rating.duel_pairs()
    assert ("pimc:samples=10", "ismcts:iterations=200") in pairs
    assert ("pimc:samples=10", "heuristic") in pairs and ("pimc:samples=10", "random") not in pairs
    pimc = ladder_study.search_caps("pimc:samples=10", "kout_bo")
    assert ladder_study.rung_sizes("pimc:samples=10", 50_000, 1_000, "kout_bo") == {
        "hands": pimc["hands"],
        "bid_hands": pimc["bid_hands"],
        "matches": pimc["matches"],
    }
    assert ladder_study.rung_sizes("heuristic", 500, 7, "kout_bo") == {
        "hands": 500,
        "bid_hands": 500,
        "matches": 7,
    }
    # a duel with a search rung takes the smaller of the caps; baloot falls back on the defaults
    assert (
        ladder_study.duel_size("pimc:samples=10", "ismcts:iterations=200", 1_000, "kout_bo")
        == (pimc["duel"])
    )
    assert ladder_study.duel_size("heuristic", "random", 1_000, "kout_bo") == 1_000
    assert ladder_study.search_caps("ismcts", "baloot")["hands"] == ladder.DEFAULT_SEARCH_HANDS
    duel = next(
        p for p in plans if p.path == ladder_rating.duel_path("pimc:samples=10", "heuristic")
    )
    assert duel.command is not None and f"--matches {pimc['duel']}" in duel.command(Path("x"))
    assert "ladder" not in {
        s for p in plan_study("all", StudyArgs("kout_bo_4", Family.KOUT_BO)) for s in p.studies
    }


def test_plan_refuses_bad_rungs_before_playing() -> None:
    with pytest.raises(ValueError):
        plan_study(
            "ladder", StudyArgs("kout_bo_4", Family.KOUT_BO, players=("heuristic", "nonsense"))
        )
    with pytest.raises(ValueError, match="two different rungs"):
        plan_study("ladder", StudyArgs("kout_bo_4", Family.KOUT_BO, players=("heuristic",)))


# ------------------------------------------------------------------------------------- rating


def test_fit_recovers_known_strengths() -> None:
    truth = {"random": -2.5, "heuristic": 0.0, "tuned": -0.6, "search": 0.7}
    pairs = [("heuristic", "random"), ("tuned", "random"), ("tuned", "heuristic"),
             ("search", "heuristic"), ("search", "tuned")]  # fmt: skip
    deals = ladder_rating.simulated_deals(truth, pairs, deals=600, seed=3)
    fit = ladder_rating.fit_ratings(deals, pseudo_deals=0)
    assert fit["player"].to_list() == ["search", "heuristic", "tuned", "random"]
    for row in fit.iter_rows(named=True):
        # within 4 standard errors of the truth (the anchor is exact)
        assert abs(row["rating"] - truth[row["player"]]) <= 4 * row["se"] + 1e-12
        assert row["low"] <= row["rating"] <= row["high"]
    assert not fit["separated"].any()
    heuristic = fit.row(by_predicate=pl.col("player") == "heuristic", named=True)
    assert heuristic["games"] == 2 * 600 * 3


def test_fit_bounds_a_separated_player_and_needs_a_connected_anchor() -> None:
    deals = ladder_rating.simulated_deals(
        {"heuristic": 0.0, "x": -0.3}, [("heuristic", "x")], 300, 1
    )
    lost = pl.DataFrame(
        {"team_a": ["heuristic"] * 50, "team_b": ["random"] * 50, "match": range(50),
         "a_games": [2.0] * 50}
    )  # fmt: skip
    fit = ladder_rating.fit_ratings(
        pl.concat([deals, lost.with_columns(pl.col("match").cast(pl.Int64))])
    )
    row = fit.row(by_predicate=pl.col("player") == "random", named=True)
    assert row["separated"] and math.isfinite(row["rating"]) and row["rating"] < -3
    assert fit["player"][-1] == "random"
    with pytest.raises(ValueError, match="connects"):
        ladder_rating.fit_ratings(
            pl.concat([deals, deals.with_columns(team_a=pl.lit("p"), team_b=pl.lit("q"))])
        )


# ------------------------------------------------------------------ ladder tables, the long way


@pytest.fixture(scope="module")
def rungs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("ladder")
    return {
        spec: ladder_rung.write_rung(
            root / ladder.rung_slug(spec), "kout_bo_4", spec, hands=600, seed=21, matches=12,
            targets=(31,), workers=1, bid_hands=400,
        )
        for spec in ("random", "heuristic", "heuristic:bid_margin=0")
    }  # fmt: skip


@pytest.fixture(scope="module")
def duel_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ladder-duel")
    return ladder_rating.write_duel(
        root / "d", "kout_bo_4", "heuristic", "random", matches=6, seed=22, workers=1
    )


def _rows(folder: Path, table: str) -> list[dict[str, Any]]:
    return pl.read_parquet(folder / table / "*.parquet").to_dicts()


def test_rungs_share_their_deals(rungs: dict[str, Path]) -> None:
    a, b, _ = (pl.read_parquet(f / "hands" / "hands" / "*.parquet") for f in rungs.values())
    hand_cols = [c for c in a.columns if c.startswith("hand_") or c == "dealer"]
    assert hand_cols
    assert a.sort("hand").select(hand_cols).equals(b.sort("hand").select(hand_cols))


def test_contract_table_the_long_way(rungs: dict[str, Path]) -> None:
    tables = {spec: ladder_rung.rung_tables(f)["hands"] for spec, f in rungs.items()}
    got = ladder.contracts_by_rung(tables)
    for spec, folder in rungs.items():
        made: dict[tuple[str, bool], list[int]] = defaultdict(lambda: [0, 0])
        points: dict[tuple[str, bool], list[float]] = defaultdict(list)
        for h in _rows(folder / "hands", "hands"):
            if h["bidder"] is None or h["bidder"] < 0:
                continue
            passes = sum(1 for c in h["calls"].split() if c == "pass")
            forced = h["bidder"] == h["dealer"] and passes == 3
            key = (str(h["contract"]), forced)
            made[key][0] += int(bool(h["made"]))
            made[key][1] += 1
            team = h["bidder"] % 2
            points[key].append(h[f"points_team{team}"] - h[f"points_team{1 - team}"])
        mine = got.filter(pl.col("rung") == spec)
        assert len(mine) == len(made)
        for row in mine.iter_rows(named=True):
            k, n = made[(row["bid"], row["forced"])]
            assert (row["made_k"], row["made_n"]) == (k, n)
            assert row["made_low"] <= k / n <= row["made_high"]
            pts = points[(row["bid"], row["forced"])]
            assert row["points_mean"] == pytest.approx(sum(pts) / len(pts))


def test_joker_and_length_tables_the_long_way(rungs: dict[str, Path]) -> None:
    parts = {spec: ladder_rung.rung_tables(f) for spec, f in rungs.items()}
    joker = ladder.joker_by_rung({s: t["forks"] for s, t in parts.items()})
    length = ladder.length_by_rung({s: t["matches"] for s, t in parts.items()})
    for spec, folder in rungs.items():
        diffs: dict[str, list[float]] = defaultdict(list)
        for f in _rows(folder / "joker-forks", "forks"):
            if f["net_joker"] is not None and f["net_other"] is not None:
                role = "bidding team" if f["bidding_team"] else "defenders"
                diffs[role].append(f["net_joker"] - f["net_other"])
        mine = joker.filter(pl.col("rung") == spec)
        assert sorted(mine["role"].to_list()) == sorted(diffs)
        for row in mine.iter_rows(named=True):
            d = diffs[row["role"]]
            assert row["n"] == len(d) and row["diff"] == pytest.approx(sum(d) / len(d))
        n_hands = [m["n_hands"] for m in _rows(folder / "match-length" / "target-31", "matches")]
        row = length.filter(pl.col("rung") == spec).row(0, named=True)
        assert row["target"] == 31 and row["n"] == len(n_hands) == 12
        assert row["mean"] == pytest.approx(sum(n_hands) / len(n_hands))


def _first_bid_rows(folder: Path) -> list[dict[str, Any]]:
    return [r for r in _rows(folder / "bid-forks", "bid_forks") if r["decision"] == 0]


def test_call_values_and_best_calls_the_long_way(rungs: dict[str, Path]) -> None:
    bid = {spec: ladder_rung.rung_tables(f)["bid_forks"] for spec, f in rungs.items()}
    calls = ladder.calls_by_rung(bid)
    edges = ladder.strength_ranges(bid, 30)
    # the ranges of the heuristic's guide cover every strength bucket, in order, without a gap
    lo, hi = KOUT_STRENGTH_RANGE
    assert edges[0][0] == lo and edges[-1][1] == hi
    assert all(b[0] == a[1] + 1 for a, b in pairwise(edges))
    best = ladder.best_by_rung(bid, edges, 30)
    beats = ladder.best_call_beats(bid, best, edges)

    def range_of(strength: int) -> int:
        clipped = min(max(int(strength), lo), hi)
        return next(a for a, b in edges if a <= clipped <= b)

    for spec, folder in rungs.items():
        rows = _first_bid_rows(folder)
        assert rows and {r["hand"] for r in rows} <= set(range(400))  # the first 400 hands
        valued = [r for r in rows if r["net"] is not None and not r["forced_joker"]]
        # each call's mean net points over every hand where it was legal
        nets: dict[str, list[float]] = defaultdict(list)
        for r in valued:
            nets[str(r["call"])].append(float(r["net"]))
        mine = calls.filter(pl.col("rung") == spec)
        assert sorted(mine["call"].to_list()) == sorted(nets)
        for row in mine.iter_rows(named=True):
            v = nets[row["call"]]
            assert row["net_n"] == len(v) and row["mean"] == pytest.approx(sum(v) / len(v))
        # the best call per strength range: the highest mean among calls with 30 valued hands
        cells: dict[tuple[int, str], list[float]] = defaultdict(list)
        by_fork: dict[tuple[int, int], dict[str, float]] = defaultdict(dict)
        where: dict[tuple[int, int], int] = {}
        for r in valued:
            cells[(range_of(r["strength"]), str(r["call"]))].append(float(r["net"]))
            by_fork[(r["hand"], r["ply"])][str(r["call"])] = float(r["net"])
            where[(r["hand"], r["ply"])] = range_of(r["strength"])
        expected: dict[int, str] = {}
        for a in {b for b, _ in cells}:
            ok = {c: sum(v) / len(v) for (b, c), v in cells.items() if b == a and len(v) >= 30}
            if ok:
                expected[a] = max(ok, key=lambda c: ok[c])
        got = {
            r["from_bucket"]: r["best_call"]
            for r in best.filter(pl.col("rung") == spec).iter_rows(named=True)
        }
        assert got == expected
        # this rung's best call minus another rung's best call, on the forks where both were legal
        for b in beats.filter(pl.col("rung") == spec).iter_rows(named=True):
            d = [
                f[b["best_call"]] - f[b["other_call"]]
                for key, f in by_fork.items()
                if b["best_call"] in f and b["other_call"] in f and where[key] == b["from_bucket"]
            ]
            assert b["n"] == len(d) and b["diff"] == pytest.approx(sum(d) / len(d))
            assert b["low"] <= b["diff"] <= b["high"]
    assert not best.is_empty()


def test_joker_context_table_the_long_way(rungs: dict[str, Path]) -> None:
    parts = {spec: ladder_rung.rung_tables(f) for spec, f in rungs.items()}
    table = ladder.context_by_rung(
        {s: t["forks"] for s, t in parts.items()}, {s: t["context"] for s, t in parts.items()}
    )
    for spec, folder in rungs.items():
        context = {
            (c["hand"], c["ply"]): c
            for c in pl.read_parquet(folder / "joker-context" / "context" / "*.parquet").to_dicts()
        }
        forks = _rows(folder / "joker-forks", "forks")
        assert len(context) == len(forks)
        for column in ladder.CONTEXTS:
            diffs: dict[tuple[str, str], list[float]] = defaultdict(list)
            for f in forks:
                if f["net_joker"] is None or f["net_other"] is None:
                    continue
                role = "bidding team" if f["bidding_team"] else "defenders"
                value = str(context[(f["hand"], f["ply"])][column])
                diffs[(role, value)].append(f["net_joker"] - f["net_other"])
            mine = table.filter((pl.col("rung") == spec) & (pl.col("column") == column))
            assert set(mine["context"]) == {ladder.CONTEXT_LABELS[column]}
            assert len(mine) == len(diffs)  # kout_bo_4: two jokers, both contexts split
            for row in mine.iter_rows(named=True):
                d = diffs[(row["role"], row["value"])]
                assert row["n"] == len(d) and row["diff"] == pytest.approx(sum(d) / len(d))


def test_a_context_with_one_value_is_left_out() -> None:
    forks = pl.DataFrame(
        {
            "hand": [0, 1, 2, 3],
            "ply": [9, 9, 9, 9],
            "bidding_team": [True, True, False, False],
            "chose_joker": [True, False, True, False],
            "trick": [1, 2, 1, 2],
            "net_joker": [1.0, 2.0, -1.0, 0.0],
            "net_other": [0.0, 2.0, 0.0, 0.0],
        }
    )
    context = pl.DataFrame(
        {
            "hand": [0, 1, 2, 3],
            "ply": [9, 9, 9, 9],
            "tricks_needed": [1, 2, 1, 2],
            "other_joker": ["still out"] * 4,
        }
    )
    table = ladder.context_by_rung({"a": forks, "b": forks}, {"a": context, "b": context})
    assert set(table["column"]) == {"tricks_needed"}  # one joker: the other joker splits nothing
    # sorted by context, role, value, then rung
    assert table.select("role", "value", "rung").rows()[:4] == [
        ("bidding team", "1", "a"), ("bidding team", "1", "b"),
        ("bidding team", "2", "a"), ("bidding team", "2", "b"),
    ]  # fmt: skip
    first = table.row(0, named=True)
    assert first["diff"] == pytest.approx(1.0) and first["n"] == 1


@pytest.mark.slow
def test_a_search_rung_forks_and_plays_matches(tmp_path: Path) -> None:
    """A search rung has every part (its forks by the search player itself), and its joker
    forks join its hands run card by card (play_context refuses a fork whose chosen card is not
    the card the hand played at that decision)."""
    spec = "ismcts:iterations=5"
    folder = ladder_rung.write_rung(
        tmp_path / "s", "kout_bo_4", spec, hands=20, seed=5, matches=2, targets=(31,),
        workers=1, bid_hands=8,
    )  # fmt: skip
    parts = ladder_rung.rung_tables(folder)
    assert parts["skipped"] == {}
    assert parts["settings"]["search"] and parts["settings"]["bid_hands"] == 8
    bid = parts["bid_forks"].collect()
    assert set(bid["hand"].to_list()) <= set(range(8)) and len(bid) > 8
    forks = parts["forks"].collect()
    assert len(parts["context"]) == len(forks) > 0
    assert parts["matches"].collect().height == 2


def test_duel_outcomes_the_long_way(duel_folder: Path) -> None:
    deals = ladder_rating.deal_outcomes(duel_folder)
    ab = {m["match"]: m["winner"] for m in _rows(duel_folder / "duel" / "ab", "matches")}
    ba = {m["match"]: m["winner"] for m in _rows(duel_folder / "duel" / "ba", "matches")}
    assert len(deals) == 6
    for row in deals.iter_rows(named=True):
        assert row["a_games"] == (ab[row["match"]] == 0) + (ba[row["match"]] == 1)


def test_section_labels_every_answer_with_its_players(
    rungs: dict[str, Path], duel_folder: Path
) -> None:
    runs = [open_run(f) for f in rungs.values()] + [open_run(duel_folder)]
    sec = ladder_section(ReportInput.from_runs(runs))
    assert sec is not None and sec.title == "The ladder of players"
    tables = sec.tables()
    assert list(tables)[:2] == ["ladder_rating", "ladder_duels"]
    commands = tables["ladder_commands"].frame["command"].to_list()
    # per rung: hands, joker forks, bid forks, one target; the duel
    assert len(commands) == 3 * 4 + 1
    assert all(c.startswith("kout-sim ") and "--out" in c for c in commands)
    keys = ("ladder_contracts", "ladder_contract_points", "ladder_joker", "ladder_length",
            "ladder_calls", "ladder_best_calls", "ladder_joker_context")  # fmt: skip
    for key in keys:
        table = tables[key]
        labels = [c.label for c in table.columns]
        assert "random" in labels and "heuristic" in labels and labels[-1] == "verdict"
        assert set(table.frame["verdict"]) <= set(ladder.VERDICTS)
    text = " ".join(b.text for b in sec.blocks if hasattr(b, "text"))
    assert "Not under" not in tables["ladder_joker"].caption  # every rung has its forks
    best = sec.data["ladder_best_calls"]
    assert set(best["from_heuristic_up"]) == {HOLDS, TIE, DEPENDS}
    assert all(v["verdict"] in ladder.VERDICTS for v in best["verdicts"])
    assert "bid guide of each player" in text
    assert "under heuristic" in text and "under random" in text
    assert sec.findings and "Bradley-Terry" in sec.findings[0]
    # the answers of a few rows are advice from every rung, each with its verdict in words
    assert sec.advice and all(a.text in sec.findings for a in sec.advice)
    assert all(a.players == "random, heuristic, heuristic:bid_margin=0" for a in sec.advice)
    words = {verdict_text(v, u) for v in ladder.VERDICTS for u in ladder.VERDICTS}
    assert all(a.holds in words for a in sec.advice)
    assert any(a.text.startswith("How often a Kout 5 bid is made") for a in sec.advice)
    # the verdict tally of the summary is that of the verdicts recomputed from the tables
    hands = {s: ladder_rung.rung_tables(f)["hands"] for s, f in rungs.items()}
    free = ladder.contracts_by_rung(hands).filter(~pl.col("forced"))
    up = ladder.judged("contracts", free)["verdict_up"].to_list()
    tally = sec.data["ladder_contracts"]["from_heuristic_up"]
    assert tally == {v: up.count(v) for v in (HOLDS, SAME_SIGN, DEPENDS)}
    assert sec.findings[-1].startswith("Across the ladder's players from heuristic up")
    assert TOO_FEW not in tables["ladder_points"].frame["verdict"].to_list()
    assert "forced" not in [c.label for c in tables["ladder_contracts"].columns]  # all free bids
    # a player left out of a verdict (too few hands) is marked so in its cell
    for row in tables["ladder_points"].frame.iter_rows(named=True):
        for i, rung in enumerate(rungs):
            if row[f"r{i}"]:
                assert row[f"r{i}"].endswith("(not compared: under 30)") == (
                    rung not in row["rungs"]
                )
    # without rung runs the section is left out
    assert ladder_section(ReportInput.from_runs([open_run(duel_folder)])) is None
