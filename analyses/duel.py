"""The statistics of a duplicate duel: the same deals played twice with the teams exchanged
(:mod:`kout_sim.sim.duel` plays the two runs).

Pairing the two plays of a deal removes most of the luck of the cards from the comparison; the
report states how much (the variance reduction of each paired estimate). Team A's match win rate
takes the paired score interval of :func:`kout_sim.stats.paired_wilson` on the deal sequences won
twice, once and never, which stays a proper interval at 0% and 100%; the point margin per hand the
normal interval of the paired mean.
"""

from __future__ import annotations

import inspect
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ParamSpec

import numpy as np
import polars as pl

from kout_sim.io.manifest import run_manifest, total_seconds
from kout_sim.io.read import load
from kout_sim.io.store import Store
from kout_sim.sim.duel import DuelRuns, play_duel
from kout_sim.stats import paired_wilson, wilson

P = ParamSpec("P")


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% interval, and the variance reduction pairing gave."""

    mean: float
    low: float
    high: float
    n: int
    variance_reduction: float

    def text(self, fmt: str = "{:.3f}") -> str:
        """The estimate as one line: mean, interval, n and the variance reduction."""
        m, lo, hi = (fmt.format(x) for x in (self.mean, self.low, self.high))
        r = self.variance_reduction
        reduction = f"{r:.1f}x" if math.isfinite(r) else "n/a"
        return f"{m} (95% CI {lo} .. {hi}, n={self.n:,}, variance reduction {reduction})"


def _paired(s1: pl.Series, s2: pl.Series) -> Estimate:
    """Mean of (x1 + x2) / 2 over pairs; reduction = unpaired variance / paired variance."""
    x1 = s1.to_numpy().astype(np.float64)
    x2 = s2.to_numpy().astype(np.float64)
    n = len(x1)
    if n < 2:
        return Estimate(float("nan"), float("nan"), float("nan"), n, float("nan"))
    d = (x1 + x2) / 2
    var_paired = float(d.var(ddof=1)) / n
    var_unpaired = (float(x1.var(ddof=1)) + float(x2.var(ddof=1))) / (4 * n)
    se = math.sqrt(var_paired)
    mean = float(d.mean())
    if var_paired > 0:
        reduction = var_unpaired / var_paired
    else:
        reduction = float("inf") if var_unpaired > 0 else float("nan")
    return Estimate(mean, mean - 1.96 * se, mean + 1.96 * se, n, reduction)


def _paired_rate(won1: pl.Series, won2: pl.Series) -> Estimate:
    """Team A's match win rate over the pairs of games of the same deal sequence (``won1``,
    ``won2``: A won the first, the second game), with the paired score interval of
    :func:`kout_sim.stats.paired_wilson` on the pairs won twice, once and never. The normal
    interval of :func:`_paired` is a point when every pair is alike (A won all games or none, or
    one of every pair); this one stays a proper interval there. The variance reduction is that of
    :func:`_paired`."""
    normal = _paired(won1.cast(pl.Float64), won2.cast(pl.Float64))
    wins = won1.cast(pl.Int64).to_numpy() + won2.cast(pl.Int64).to_numpy()
    split, both = int((wins == 1).sum()), int((wins == 2).sum())
    if len(wins) == 0:
        return normal
    low, high = paired_wilson(split, both, len(wins) - split - both)
    mean = (split / 2 + both) / len(wins)
    return Estimate(mean, low, high, len(wins), normal.variance_reduction)


def _side_hands(hands: pl.DataFrame, a_team: int) -> pl.DataFrame:
    """Hand rows seen from team A (on team ``a_team`` in this game)."""
    a_pts = pl.col(f"points_team{a_team}")
    b_pts = pl.col(f"points_team{1 - a_team}")
    return hands.select(
        "match",
        "hand",
        a_pts.cast(pl.Int32).alias("a_points"),
        b_pts.cast(pl.Int32).alias("b_points"),
        pl.when(pl.col("bidder") % 2 == a_team)
        .then(pl.lit("A"))
        .otherwise(pl.lit("B"))
        .alias("bidding_side"),
        pl.col("mode") if "mode" in hands.columns else pl.lit(None).alias("mode"),
        "contract",
        "malzoom",
        "made",
    )


def analyse(ab: str | os.PathLike[str], ba: str | os.PathLike[str]) -> dict[str, Any]:
    """The duel statistics of two runs of the same deals with the teams exchanged."""
    t_ab, t_ba = load(ab), load(ba)
    h1 = _side_hands(t_ab["hands"].collect(), 0)
    h2 = _side_hands(t_ba["hands"].collect(), 1)
    both = h1.join(h2, on=["match", "hand"], suffix="_2")
    diff1 = (both["a_points"] - both["b_points"]).cast(pl.Float64)
    diff2 = (both["a_points_2"] - both["b_points_2"]).cast(pl.Float64)
    all_hands = pl.concat([h1, h2])
    out: dict[str, Any] = {
        "hands": len(all_hands),
        "paired_hands": len(both),
        "points_per_hand": {
            "A": float(all_hands["a_points"].to_numpy().mean()),
            "B": float(all_hands["b_points"].to_numpy().mean()),
        },
        "point_margin_per_hand": _paired(diff1, diff2),
    }
    bids = (
        all_hands.filter((pl.col("contract") > 0) | pl.col("mode").is_not_null())
        .group_by("bidding_side", "contract", "mode")
        .agg(pl.len().alias("n"), pl.col("made").sum().alias("made"))
        .sort("bidding_side", "contract", "mode")
    )
    out["bids"] = [
        {**r, "rate": r["made"] / r["n"], "ci": wilson(r["made"], r["n"])}
        for r in bids.iter_rows(named=True)
    ]
    if "matches" in t_ab:
        m1 = t_ab["matches"].collect().select("match", (pl.col("winner") == 0).alias("a1"))
        m2 = t_ba["matches"].collect().select("match", (pl.col("winner") == 1).alias("a2"))
        pairs = m1.join(m2, on="match")
        wins = int(pairs["a1"].to_numpy().sum() + pairs["a2"].to_numpy().sum())
        out["matches"] = 2 * len(pairs)
        out["a_wins"] = wins
        out["a_win_rate"] = _paired_rate(pairs["a1"], pairs["a2"])
        out["a_win_rate_wilson"] = wilson(wins, 2 * len(pairs))
    return out


def record_duel(runs: DuelRuns) -> dict[str, Any]:
    """The statistics (:func:`analyse`) of the duel played as ``runs``
    (:func:`kout_sim.sim.duel.play_duel`), with its settings, written with the duel's manifest
    (:func:`kout_sim.io.manifest.run_manifest`) to ``out/duel.json``."""
    result = analyse(runs.ab, runs.ba)
    result.update(
        preset=runs.preset,
        team_a=runs.team_a,
        team_b=runs.team_b,
        seed=runs.seed,
        seconds=round(time.perf_counter() - runs.started, 2),
        out=runs.out,
    )
    played = [Store(run).read_json("run.json") for run in (runs.ab, runs.ba)]
    settings = {**jsonable(result), "options": runs.options, "unit": runs.unit, "count": runs.count}
    # the manifest's seconds: the compile and the play of both runs; wall_seconds: the whole duel
    seconds = total_seconds(played)
    meta = run_manifest(settings, runs.command, wall_seconds=result["seconds"], **seconds)
    Store(runs.out).write_json(meta, "duel.json")
    return result


def _recorded(play: Callable[P, DuelRuns]) -> Callable[P, dict[str, Any]]:
    def duel(*args: P.args, **kwargs: P.kwargs) -> dict[str, Any]:
        return record_duel(play(*args, **kwargs))

    duel.__doc__ = """Play the duplicate duel (:func:`kout_sim.sim.duel.play_duel`, the same
    arguments: runs under ``out/ab`` and ``out/ba``), write its statistics to ``out/duel.json``
    and return them (:func:`record_duel`)."""
    # help() and inspect show play_duel's parameters
    signature = inspect.signature(play).replace(return_annotation="dict[str, Any]")
    duel.__signature__ = signature  # type: ignore[attr-defined]
    return duel


duel = _recorded(play_duel)


def jsonable(value: Any) -> Any:
    """``value`` as JSON can hold it: an :class:`Estimate` as an object, NaN and infinities as
    null."""
    if isinstance(value, Estimate):
        return {k: jsonable(v) for k, v in value.__dict__.items()}
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def report(result: dict[str, Any]) -> str:
    """The duel statistics as text."""
    lines = [
        f"duplicate duel, {result['preset']}, seed {result['seed']} ({result['seconds']} s): "
        f"A = {result['team_a']}  vs  B = {result['team_b']}",
    ]
    if "matches" in result:
        lo, hi = result["a_win_rate_wilson"]
        lines.append(
            f"A wins {result['a_wins']:,} of {result['matches']:,} matches: "
            + result["a_win_rate"].text("{:.1%}")
            + f"; unpaired Wilson {lo:.1%} .. {hi:.1%}"
        )
    pph = result["points_per_hand"]
    lines.append(
        f"points per hand over {result['hands']:,} hands: A {pph['A']:.3f}, B {pph['B']:.3f}; "
        "A - B on the same deals: " + result["point_margin_per_hand"].text()
    )
    lines += ["", f"{'side':>4} {'contract':>8} {'mode':>6} {'bids':>9} {'made':>7}  95% CI"]
    for b in result["bids"]:
        lo, hi = b["ci"]
        lines.append(
            f"{b['bidding_side']:>4} {b['contract']:>8} {b['mode'] or '':>6} {b['n']:>9,} "
            f"{b['rate']:>7.1%}  {lo:.1%} .. {hi:.1%}"
        )
    return "\n".join(lines)
