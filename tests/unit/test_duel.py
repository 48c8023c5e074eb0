"""Duplicate duels: the same deals with the teams exchanged, paired statistics."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import kout_sim
from analyses.duel import _paired_rate, analyse, duel, report
from kout_sim.stats import paired_wilson, wilson


def test_both_games_deal_the_same_cards(tmp_path: Path) -> None:
    result = duel("kout_bo_4", "random", "random:pass=0.7", matches=300, seed=4, out=tmp_path)
    ab = kout_sim.load(tmp_path / "ab")["hands"].collect()
    ba = kout_sim.load(tmp_path / "ba")["hands"].collect()
    seats = [f"hand_seat{s}" for s in range(4)]
    first = ["match", "dealer", *seats]
    # the first hand of every match is the same deal in both games, whatever was played after
    one = ab.filter(pl.col("hand") == 0).select(first).sort("match")
    two = ba.filter(pl.col("hand") == 0).select(first).sort("match")
    assert one.equals(two) and len(one) == 300
    # Kout Bo's dealer rotation does not depend on results: every paired hand is the same deal
    both = ab.join(ba, on=["match", "hand"], suffix="_ba")
    assert all((both[c] == both[f"{c}_ba"]).all() for c in seats)
    assert result["matches"] == 600 and result["paired_hands"] == len(both)
    players = kout_sim.load(tmp_path / "ab")["matches"].collect()["players_team0"].unique()
    assert players.to_list() == ["random:pass=-1"]


def test_a_player_against_itself_is_exactly_even(tmp_path: Path) -> None:
    # Same deals and the same play streams: the swapped game is the mirror of the first, so
    # every deal sequence is won once by each side and the paired margin is exactly zero.
    result = duel("kout_bh_4", "random", "random", matches=500, seed=1, out=tmp_path)
    rate, margin = result["a_win_rate"], result["point_margin_per_hand"]
    assert (margin.mean, margin.low, margin.high) == (0.0, 0.0, 0.0)
    # every pair split: the paired score interval is narrow but stays an interval
    assert rate.mean == 0.5 and rate.low < 0.5 < rate.high
    assert (rate.low, rate.high) == pytest.approx(paired_wilson(500, 0, 0))
    unpaired_low, unpaired_high = result["a_win_rate_wilson"]
    assert unpaired_low < rate.low and rate.high < unpaired_high  # an unpaired comparison
    assert "A wins 500 of 1,000" in report(result) and "variance reduction" in report(result)


def test_the_match_win_rate_interval_stays_an_interval_at_0_and_100_percent() -> None:
    """A wins every game (or none): the normal interval of the paired mean is a point, the paired
    score interval is Wilson's on the deal sequences, each pair counted as one trial."""
    for won in (True, False):
        games = pl.Series([won] * 40)
        rate = _paired_rate(games, games)
        assert rate.mean == (1.0 if won else 0.0) and rate.n == 40
        assert rate.high - rate.low > 0.05
        assert (rate.low, rate.high) == pytest.approx(wilson(40 if won else 0, 40))
        assert "variance reduction n/a" in rate.text()
    # in between: the counts of pairs won twice, once and never
    one = pl.Series([True, True, False, False, True])
    two = pl.Series([True, False, False, True, True])
    rate = _paired_rate(one, two)
    assert rate.mean == pytest.approx(0.6)
    assert (rate.low, rate.high) == pytest.approx(paired_wilson(2, 2, 1))


def test_swapping_the_teams_mirrors_the_statistics(tmp_path: Path) -> None:
    duel("baloot", "random", "random:pass=0.8", hands=3_000, seed=2, out=tmp_path)
    forward = analyse(tmp_path / "ab", tmp_path / "ba")
    backward = analyse(tmp_path / "ba", tmp_path / "ab")
    f, b = forward["point_margin_per_hand"], backward["point_margin_per_hand"]
    assert abs(f.mean + b.mean) < 1e-9 and f.n == b.n == 3_000
    assert forward["points_per_hand"]["A"] == backward["points_per_hand"]["B"]
    assert "matches" not in forward


def test_a_searching_duel_says_how_long_it_will_take_before_it_starts(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kout_sim.cli import main

    args = ["duel", "--team-a", "ismcts:iterations=5", "--team-b", "heuristic", "--hands", "6"]
    result = CliRunner().invoke(main, [*args, "--seed", "2", "--out", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    first = result.stderr.splitlines()[0]
    assert first.startswith("duel: 2 x 6 hands of kout_bo_4 (ismcts:") and " vs heuristic" in first
    assert "a searching seat: about " in first and "on 1 worker(s)" in first  # 6 hands: one shard
    assert "s a hand on one core" in first
    # a duel without a searching seat starts at once, without an estimate
    plain = CliRunner().invoke(
        main,
        [
            "duel",
            "--team-a",
            "random",
            "--team-b",
            "heuristic",
            "--hands",
            "6",
            "--out",
            str(tmp_path / "p"),
        ],
    )
    assert plain.exit_code == 0 and "about" not in plain.stderr


def test_estimate_scales_the_probe_to_both_runs_over_the_busy_workers() -> None:
    from kout_sim.sim.duel import estimate

    players = ["ismcts:iterations=5", "heuristic"]
    small = estimate("kout_bo_4", players, "matches", 20, 0, workers=2)
    assert small["parallel"] == 2  # 20 matches: two 16-match shards, both workers busy
    assert small["seconds"] == pytest.approx(2 * 20 * small["per_unit"] / 2)
    one = estimate("kout_bo_4", players, "matches", 16, 0, workers=2)
    assert one["parallel"] == 1  # one shard keeps one worker busy
    assert 0 < one["per_unit"] < 60
