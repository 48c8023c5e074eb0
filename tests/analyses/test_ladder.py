"""The ladder of players: the verdict rule on constructed cases, the Bradley-Terry fit on simulated
duels of known strengths, and the ladder tables recomputed the long way from the parquet files of
three tiny rungs (random, heuristic and heuristic:bid_margin=0, the same deals)."""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from analyses import ladder, ladder_rating
from analyses.ladder import DEPENDS, HOLDS, SAME_SIGN, TOO_FEW, verdict, verdict_of
from analyses.ladder_section import _search_text, ladder_section, verdict_text
from analyses.section import ReportInput, open_run
from analyses.studies import StudyArgs, plan_study

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


def test_rung_slug_and_search() -> None:
    assert ladder.rung_slug("heuristic:bid_margin=0") == "heuristic-bid_margin0"
    assert ladder.rung_slug("random") == "random"
    assert ladder.is_search("ismcts:iterations=200") and not ladder.is_search("heuristic")
    assert "bids with the heuristic" in _search_text("ismcts:iterations=200", "kout_bo")
    assert "searches the calls" in _search_text("ismcts:iterations=9,calls=1", "kout_bo")


def test_plan_caps_the_search_rung_and_rates_every_rung() -> None:
    plans = plan_study("ladder", StudyArgs("kout_bo_4", "kout_bo", seed=1, hands=50_000))
    paths = [p.path for p in plans]
    assert "ladder/heuristic" in paths and "ladder/ismcts-iterations200" in paths
    duels = [p for p in plans if p.kind == ladder_rating.DUEL_KIND]
    assert {p for d in ladder_rating.duel_pairs() for p in d} == set(ladder.RUNGS)
    assert len(duels) == len(ladder_rating.duel_pairs())
    search = next(p for p in plans if p.path == "ladder/ismcts-iterations200")
    assert search.command is not None
    assert f"--hands {ladder.DEFAULT_SEARCH_HANDS}" in search.command(Path("x"))
    assert "ladder" not in {
        s for p in plan_study("all", StudyArgs("kout_bo_4", "kout_bo")) for s in p.studies
    }


def test_plan_refuses_bad_rungs_before_playing() -> None:
    with pytest.raises(ValueError):
        plan_study("ladder", StudyArgs("kout_bo_4", "kout_bo", players=("heuristic", "nonsense")))
    with pytest.raises(ValueError, match="two different rungs"):
        plan_study("ladder", StudyArgs("kout_bo_4", "kout_bo", players=("heuristic",)))


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
        spec: ladder.write_rung(
            root / ladder.rung_slug(spec), "kout_bo_4", spec, hands=600, seed=21, matches=12,
            targets=(31,), workers=1,
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
    tables = {spec: ladder.rung_tables(f)["hands"] for spec, f in rungs.items()}
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
    parts = {spec: ladder.rung_tables(f) for spec, f in rungs.items()}
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
    assert len(commands) == 3 * 3 + 1  # per rung: hands, forks, one target; the duel
    assert all(c.startswith("kout-sim ") and "--out" in c for c in commands)
    for key in ("ladder_contracts", "ladder_contract_points", "ladder_joker", "ladder_length"):
        table = tables[key]
        labels = [c.label for c in table.columns]
        assert "random" in labels and "heuristic" in labels and labels[-1] == "verdict"
        assert set(table.frame["verdict"]) <= set(ladder.VERDICTS)
    text = " ".join(b.text for b in sec.blocks if hasattr(b, "text"))
    assert "kout-sim forks refuses search players" in tables["ladder_joker"].caption
    assert "under heuristic" in text and "under random" in text
    assert sec.findings and "Bradley-Terry" in sec.findings[0]
    # the answers of a few rows are advice from every rung, each with its verdict in words
    assert sec.advice and all(a.text in sec.findings for a in sec.advice)
    assert all(a.players == "random, heuristic, heuristic:bid_margin=0" for a in sec.advice)
    words = {verdict_text(v, u) for v in ladder.VERDICTS for u in ladder.VERDICTS}
    assert all(a.holds in words for a in sec.advice)
    assert any(a.text.startswith("How often a Kout 5 bid is made") for a in sec.advice)
    # the verdict tally of the summary is that of the verdicts recomputed from the tables
    hands = {s: ladder.rung_tables(f)["hands"] for s, f in rungs.items()}
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
