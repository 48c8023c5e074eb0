"""The rating of the ladder's players: Bradley-Terry from duplicate duels between the rungs.

Each duel (``kout-sim duel``, :func:`analyses.duel.duel`) plays the same deal sequences twice,
the teams exchanged. One *deal* (match ``m`` of both games) gives team A a score of 0, 1 or 2 games
won (a tie counts a half). The Bradley-Terry model says that A beats B in one game with probability
``1 / (1 + exp(-(r_A - r_B)))``: the ratings ``r`` are on the logit scale (a gap of 1.0 is a 73%
game win rate, 2.0 is 88%), anchored at ``heuristic = 0`` (:data:`ANCHOR`).

The fit (:func:`fit_ratings`) is a binomial GLM of statsmodels (logistic regression without
intercept: one column per player but the anchor, +1 for team A, -1 for team B), one observation
per deal with 2 trials. Its 95% intervals use the robust (sandwich, HC0) covariance, which
takes the two games of a deal, played on the same cards, as one correlated unit.

A player that won every game against an opponent (or none) makes the likelihood unbounded; every
duel therefore gets one pseudo-deal of one game each (a half-strength prior towards equal play,
stated in the table as ``pseudo_deals``), which bounds such a rating. Its value is then set
mostly by that prior: the table flags it (``separated``) and the report says the rating is a bound,
not an estimate.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from kout_sim.commands import command_line, short_player
from kout_sim.io.manifest import run_manifest, total_seconds
from kout_sim.io.read import load
from kout_sim.io.store import Store
from kout_sim.rules import get_rules

from ._common import Z95
from .ladder import RUNGS, is_search, rung_slug
from .section import jsonable

DUEL_KIND = "ladder_duel"
"""The ``kind`` of a ladder duel's run folder: the duel itself is its ``duel/`` sub-folder."""

ANCHOR = "heuristic"
"""The player whose rating is 0."""

DEFAULT_DUEL_MATCHES = 1_000
"""Deal sequences of a duel between two non-search rungs (each played twice)."""

DEFAULT_SEARCH_DUEL_MATCHES = 100
"""Deal sequences of a duel with a search rung (each played twice; at most ``matches``)."""

PSEUDO_DEALS = 1
"""Pseudo-deals of one game won each added to every duel (see the module docstring)."""


def duel_pairs(rungs: Sequence[str] = RUNGS) -> list[tuple[str, str]]:
    """The duels of the ladder, (team A, team B): every pair of non-search rungs, each search
    rung against the two strongest non-search rungs by position (the last two), and every pair
    of search rungs (the later one as team A)."""
    plain = [r for r in rungs if not is_search(r)]
    search = [r for r in rungs if is_search(r)]
    pairs = [(plain[j], plain[i]) for i in range(len(plain)) for j in range(i + 1, len(plain))]
    for rung in search:
        pairs += [(rung, other) for other in plain[-2:]]
    pairs += [(search[j], search[i]) for i in range(len(search)) for j in range(i + 1, len(search))]
    return pairs


def duel_path(team_a: str, team_b: str) -> str:
    """The folder of the duel ``team_a`` against ``team_b`` inside a ladder study."""
    return f"ladder/duels/{rung_slug(team_a)}-vs-{rung_slug(team_b)}"


def write_duel(
    out: str | os.PathLike[str],
    preset: str,
    team_a: str,
    team_b: str,
    *,
    matches: int,
    seed: int,
    workers: int | None = None,
) -> Path:
    """Play the duplicate duel into ``out/duel`` and write ``out/run.json`` (``"kind":
    "ladder_duel"``, the teams, the size, the command and the duel's statistics). Returns
    ``out``."""
    from .duel import duel

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    result = duel(
        preset,
        team_a,
        team_b,
        matches=matches,
        seed=seed,
        out=folder / "duel",
        workers=workers,
        overwrite=True,
    )
    command = command_line(
        "duel", preset=preset, team_a=team_a, team_b=team_b, matches=matches, seed=seed, out="duel"
    )
    meta = {
        "kind": DUEL_KIND,
        "preset": result["preset"],
        "options": {},
        "players": [team_a, team_b],
        "team_a": team_a,
        "team_b": team_b,
        "seed": seed,
        "unit": "matches",
        "count": matches,
        "status": "complete",
        "play": "duel",
        "duel": jsonable(
            {
                "matches": result.get("matches"),
                "a_wins": result.get("a_wins"),
                "a_win_rate": vars(result["a_win_rate"]) if "a_win_rate" in result else None,
            }
        ),
    }
    runs = [json.loads((folder / "duel" / side / "run.json").read_text()) for side in ("ab", "ba")]
    Store(folder).write_json(run_manifest(meta, command, **total_seconds(runs)), "run.json")
    return folder


def deal_outcomes(folder: str | os.PathLike[str]) -> pl.DataFrame:
    """One row per deal of a ladder duel folder (or a bare duel folder with ``ab/`` and ``ba/``):
    ``team_a``, ``team_b``, ``match`` and ``a_games`` (games of the deal won by A: 0, 0.5, 1,
    1.5 or 2)."""
    root = Path(folder)
    duel_dir = root / "duel" if (root / "duel").is_dir() else root
    meta = json.loads((duel_dir / "duel.json").read_text())
    if (root / "run.json").exists() and root != duel_dir:
        # the ladder's own specs (duel.json spells every parameter out)
        meta.update(
            {
                k: v
                for k, v in json.loads((root / "run.json").read_text()).items()
                if k in ("team_a", "team_b")
            }
        )
    else:
        family = get_rules(str(meta["preset"])).family
        meta.update({k: short_player(str(meta[k]), family) for k in ("team_a", "team_b")})

    def score(run: str, a_team: int) -> pl.DataFrame:
        m = load(duel_dir / run)["matches"].collect()
        won = pl.col("winner") == a_team
        tie = (pl.col("winner") != 0) & (pl.col("winner") != 1)
        return m.select("match", pl.when(tie).then(0.5).otherwise(won.cast(pl.Float64)).alias(run))

    both = score("ab", 0).join(score("ba", 1), on="match")
    return both.select(
        pl.lit(str(meta["team_a"])).alias("team_a"),
        pl.lit(str(meta["team_b"])).alias("team_b"),
        "match",
        (pl.col("ab") + pl.col("ba")).alias("a_games"),
    ).sort("match")


def fit_ratings(
    deals: pl.DataFrame, *, anchor: str = ANCHOR, pseudo_deals: int = PSEUDO_DEALS
) -> pl.DataFrame:
    """Bradley-Terry ratings from the deal outcomes of :func:`deal_outcomes` (several duels
    stacked), fitted as described in the module docstring.

    One row per player, strongest first: ``player``, ``rating`` with its 95% interval ``low``,
    ``high`` and standard error ``se`` (0 for the anchor, which is fixed), ``games``, ``wins``
    (ties count a half), ``opponents`` and ``separated`` (it won all or none of its games against
    some opponent: its rating is held by the pseudo-deals). ``ValueError`` when the anchor is not
    among the players or the duels do not connect every player to it."""
    import statsmodels.api as sm

    players = sorted(set(deals["team_a"].to_list()) | set(deals["team_b"].to_list()))
    if anchor not in players:
        raise ValueError(f"the anchor {anchor!r} played no duel (players: {', '.join(players)})")
    _check_connected(deals, players, anchor)
    free = [p for p in players if p != anchor]
    column = {p: i for i, p in enumerate(free)}
    pairs = deals.select("team_a", "team_b").unique(maintain_order=True)
    pseudo = pl.DataFrame(
        {
            "team_a": [a for a in pairs["team_a"] for _ in range(pseudo_deals)],
            "team_b": [b for b in pairs["team_b"] for _ in range(pseudo_deals)],
            "a_games": [1.0] * (len(pairs) * pseudo_deals),
        },
        schema={"team_a": pl.String, "team_b": pl.String, "a_games": pl.Float64},
    )
    rows = pl.concat([deals.select("team_a", "team_b", "a_games"), pseudo])
    x = np.zeros((len(rows), len(free)))
    for i, (a, b) in enumerate(zip(rows["team_a"], rows["team_b"])):
        if a in column:
            x[i, column[a]] += 1.0
        if b in column:
            x[i, column[b]] -= 1.0
    won = rows["a_games"].to_numpy().astype(np.float64)
    endog = np.column_stack([won, 2.0 - won])
    result = sm.GLM(endog, x, family=sm.families.Binomial()).fit(cov_type="HC0")
    params = np.asarray(result.params, dtype=np.float64)
    ses = np.asarray(result.bse, dtype=np.float64)
    out = []
    for p in players:
        r, se = (0.0, 0.0) if p == anchor else (params[column[p]], ses[column[p]])
        out.append({"player": p, "rating": float(r), "se": float(se), **_record(deals, p)})
    table = pl.DataFrame(out).with_columns(
        low=pl.col("rating") - Z95 * pl.col("se"),
        high=pl.col("rating") + Z95 * pl.col("se"),
        pseudo_deals=pl.lit(pseudo_deals),
    )
    return table.sort("rating", descending=True).select(
        "player",
        "rating",
        "low",
        "high",
        "se",
        "games",
        "wins",
        "opponents",
        "separated",
        "pseudo_deals",
    )


def _record(deals: pl.DataFrame, player: str) -> dict[str, Any]:
    """A player's games, wins (ties a half), opponents and whether a duel of it is separated."""
    games = wins = 0.0
    opponents: list[str] = []
    separated = False
    for (a, b), g in deals.group_by(["team_a", "team_b"], maintain_order=True):
        if player not in (a, b):
            continue
        own = g["a_games"].sum() if player == a else 2 * len(g) - g["a_games"].sum()
        games += 2 * len(g)
        wins += float(own)
        opponents.append(str(b if player == a else a))
        separated = separated or own in (0, 2 * len(g))
    return {
        "games": int(games),
        "wins": wins,
        "opponents": sorted(opponents),
        "separated": separated,
    }


def _check_connected(deals: pl.DataFrame, players: list[str], anchor: str) -> None:
    links: dict[str, set[str]] = {p: set() for p in players}
    for a, b in deals.select("team_a", "team_b").unique().iter_rows():
        links[a].add(b)
        links[b].add(a)
    seen, todo = {anchor}, [anchor]
    while todo:
        for q in links[todo.pop()] - seen:
            seen.add(q)
            todo.append(q)
    if missing := sorted(set(players) - seen):
        raise ValueError(f"no duel connects {', '.join(missing)} to {anchor}: cannot rate them")


def game_win_rate(gap: float) -> float:
    """The one-game win rate of a rating gap (``1 / (1 + exp(-gap))``)."""
    return 1.0 / (1.0 + math.exp(-gap))


def simulated_deals(
    strengths: dict[str, float], pairs: Sequence[tuple[str, str]], deals: int, seed: int
) -> pl.DataFrame:
    """Deal outcomes drawn from the Bradley-Terry model with known ``strengths`` (two independent
    games a deal), in the layout of :func:`deal_outcomes`: for testing :func:`fit_ratings`."""
    rng = np.random.default_rng(seed)
    parts = []
    for a, b in pairs:
        p = game_win_rate(strengths[a] - strengths[b])
        parts.append(
            pl.DataFrame(
                {
                    "team_a": [a] * deals,
                    "team_b": [b] * deals,
                    "match": np.arange(deals),
                    "a_games": rng.binomial(2, p, deals).astype(np.float64),
                }
            )
        )
    return pl.concat(parts)
