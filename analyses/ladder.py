"""The ladder of players: the headline answers under several players, side by side, with a verdict.

Every other answer of the project is one line-up's (the heuristic in every seat). The ladder plays
the same questions under each *rung* of :data:`RUNGS` (weakest first: ``random``, ``heuristic``,
a differently tuned heuristic, and the ``ismcts`` search player) and says, for each answer, whether
it holds across the players or depends on the player.

What is held fixed: every rung plays the same preset, rules and seed, so hand ``i`` of every rung is
dealt the same cards (the search rung plays the first :data:`DEFAULT_SEARCH_HANDS` of those hands
only: it is thousands of times slower). Everything else (the auction, the contract, the play)
is the rung's own. The rung's player sits in every seat (self-play).

The answers (one table each, one row per rung and key, computed by the existing analyses on each
rung's runs):

- bid success by contract (:func:`contracts_by_rung`, :func:`analyses.bid_success.contract_results`);
- expected net points by bid level and strength bucket (:func:`points_by_rung`,
  :func:`analyses.bid_success.expected_points`);
- the joker lead's value, per role (:func:`joker_by_rung`, :func:`analyses.joker_lead.joker_value`):
  Kout presets, **non-search rungs only** (``kout-sim forks`` refuses search players);
- hands per match by target (:func:`length_by_rung`, :func:`analyses.match_length.hands_per_match`):
  self-play matches, **non-search rungs only** (a search match takes about a second).

The verdict (:func:`verdict`), stated in words
----------------------------------------------
For one answer (one key, e.g. "contract 7, made rate") the rungs with at least ``min_n``
observations are compared by their 95% intervals:

- **holds**: the intervals of all those rungs share a common value (every pair overlaps);
- **same sign** (signed answers only: points, the joker's value): they do not all overlap, but
  every interval lies on the same side of zero, so the direction of the advice holds while its
  size depends on the player;
- **depends on the player**: otherwise;
- **too few**: fewer than two rungs have ``min_n`` observations.

It is given twice: over every rung (``verdict``) and over the rungs from the heuristic up, i.e.
without ``random`` (``verdict_up``). Overlapping intervals are a lenient test (two intervals may
overlap while the difference is significant), and the rungs' intervals are computed as if
independent although the rungs share their deals; "holds" therefore means "no difference shown
at this sample size", and the intervals say how large a difference could hide in it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

import kout_sim
from kout_sim.commands import command_line, simulate_command
from kout_sim.io.store import WRITER, Store

from ._common import Frame, load_run
from .bid_success import contract_results, expected_points
from .joker_lead import joker_value
from .match_length import hands_per_match

RUNGS = ("random", "heuristic", "heuristic:bid_margin=0", "ismcts:iterations=200")
"""The rungs of the ladder, weakest first (by design; the rating measures it): uniformly random
calls and cards; the heuristic; the heuristic bidding at a margin of 0 instead of 1 (bolder bids,
same card play); ISMCTS with 200 iterations a decision, bidding with the heuristic (its default
``calls=0``) and searching the card play."""

RUNG_KIND = "ladder_rung"
"""The ``kind`` of a rung's run folder (``run.json``): its sub-runs are ``hands/``,
``joker-forks/`` and ``match-length/target-T/``."""

DEFAULT_LADDER_HANDS = 200_000
"""Independent hands of each non-search rung."""

DEFAULT_SEARCH_HANDS = 2_000
"""Independent hands of a search rung (the first hands of the same deals; at most ``hands``)."""

DEFAULT_LADDER_MATCHES = 1_000
"""Self-play matches per target of each non-search rung (match length)."""

LADDER_TARGETS: dict[str, tuple[int, ...]] = {
    "kout_bo": (31, 101, 151),
    "kout_bh": (26, 31, 51),
    "baloot": (102, 152),
}
"""The match targets of the ladder's match-length answer per game family."""

HOLDS = "holds"
SAME_SIGN = "same sign"
DEPENDS = "depends on the player"
TOO_FEW = "too few"
VERDICTS = (HOLDS, SAME_SIGN, DEPENDS, TOO_FEW)


def is_search(spec: str) -> bool:
    """Whether the player ``spec`` searches (ISMCTS): slow, and refused by ``kout-sim forks``."""
    return spec.split(":", 1)[0].strip() == "ismcts"


def is_random(spec: str) -> bool:
    """Whether ``spec`` is the random player (left out of ``verdict_up``)."""
    return spec.split(":", 1)[0].strip() == "random"


def rung_slug(spec: str) -> str:
    """A folder name for the rung ``spec``: ``heuristic:bid_margin=0`` -> ``heuristic-bid_margin0``."""
    name, _, params = spec.partition(":")
    slug = name + ("-" + re.sub(r"[^A-Za-z0-9_.]+", "", params.replace(",", "-")) if params else "")
    return re.sub(r"-+", "-", slug.replace("=", ""))


# ------------------------------------------------------------------------------------ the verdict


def verdict_of(
    intervals: Sequence[tuple[float | None, float | None]], *, signed: bool = False
) -> str:
    """The verdict of one answer from the 95% intervals ``(low, high)`` of the rungs compared
    (those with enough data; see the module docstring for the rule)."""
    kept = [(lo, hi) for lo, hi in intervals if lo is not None and hi is not None]
    if len(kept) < 2:
        return TOO_FEW
    if max(lo for lo, _ in kept) <= min(hi for _, hi in kept):
        return HOLDS
    if signed and (all(lo > 0 for lo, _ in kept) or all(hi < 0 for _, hi in kept)):
        return SAME_SIGN
    return DEPENDS


def verdict(
    table: pl.DataFrame,
    keys: Sequence[str],
    *,
    low: str = "low",
    high: str = "high",
    n: str = "n",
    signed: bool = False,
    min_n: int = 30,
) -> pl.DataFrame:
    """Per key of a long ladder ``table`` (one row per ``rung`` and key): ``rungs`` (the rungs
    with at least ``min_n`` observations in column ``n``), ``verdict`` over those rungs and
    ``verdict_up`` over those but ``random`` (:func:`verdict_of`), and the range of the interval
    bounds compared (``lowest``, ``highest``) for the text."""
    rows: list[dict[str, Any]] = []
    for key, group in table.group_by(list(keys), maintain_order=True):
        ok = group.filter(pl.col(n).fill_null(0) >= min_n)
        bounds = list(zip(ok[low].to_list(), ok[high].to_list()))
        up = ok.filter(
            pl.Series([not is_random(r) for r in ok["rung"].to_list()], dtype=pl.Boolean)
        )
        rows.append(
            {
                **dict(zip(keys, key)),
                "rungs": ok["rung"].to_list(),
                "verdict": verdict_of(bounds, signed=signed),
                "verdict_up": verdict_of(
                    list(zip(up[low].to_list(), up[high].to_list())), signed=signed
                ),
                "lowest": min((b[0] for b in bounds), default=None),
                "highest": max((b[1] for b in bounds), default=None),
            }
        )
    schema = {k: table.schema[k] for k in keys}
    return pl.DataFrame(
        rows,
        schema={
            **schema,
            "rungs": pl.List(pl.String),
            "verdict": pl.String,
            "verdict_up": pl.String,
            "lowest": pl.Float64,
            "highest": pl.Float64,
        },
    )


# ---------------------------------------------------------------------------------- the answers


def _stack(parts: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """The per-rung tables stacked with a ``rung`` column (rungs in the given order)."""
    frames = [
        df.with_columns(pl.lit(rung).alias("rung"), pl.lit(i).alias("rung_order"))
        for i, (rung, df) in enumerate(parts.items())
    ]
    if not frames:
        return pl.DataFrame()
    return pl.concat(frames, how="diagonal_relaxed")


def contracts_by_rung(hands: Mapping[str, Frame]) -> pl.DataFrame:
    """Bid success by contract (:func:`analyses.bid_success.contract_results`) of each rung's
    hands (``{rung: hands table}``), stacked with a ``rung`` and ``rung_order`` column."""
    return _stack({rung: contract_results(h) for rung, h in hands.items()})


def points_by_rung(hands: Mapping[str, Frame]) -> pl.DataFrame:
    """Expected net points by strength bucket and bid level (free bids,
    :func:`analyses.bid_success.expected_points`) of each rung, stacked."""
    return _stack({rung: expected_points(h) for rung, h in hands.items()})


def joker_by_rung(forks: Mapping[str, Frame]) -> pl.DataFrame:
    """The joker lead's value in net points per role (:func:`analyses.joker_lead.joker_value`)
    of each rung's forks, stacked."""
    return _stack({rung: joker_value(f) for rung, f in forks.items()})


def length_by_rung(matches: Mapping[str, Frame]) -> pl.DataFrame:
    """Hands per match by target (:func:`analyses.match_length.hands_per_match`) of each rung's
    self-play matches (the ``matches`` tables of its target runs, stacked), stacked."""
    return _stack({rung: hands_per_match(m) for rung, m in matches.items()})


ANSWERS: dict[str, dict[str, Any]] = {
    "contracts": {"keys": ("bid", "forced"), "low": "made_low", "high": "made_high", "n": "made_n"},
    "contract_points": {
        "keys": ("bid", "forced"),
        "low": "points_low",
        "high": "points_high",
        "n": "points_n",
        "signed": True,
    },
    "points": {"keys": ("strength_bucket", "bid"), "signed": True},
    "joker": {"keys": ("role",), "signed": True},
    "length": {"keys": ("target",)},
}
"""How each ladder table is judged: its keys, interval and count columns, signed or not."""


def judged(name: str, table: pl.DataFrame, min_n: int = 30) -> pl.DataFrame:
    """The verdicts of the ladder table ``name`` of :data:`ANSWERS` (:func:`verdict`)."""
    spec = dict(ANSWERS[name])
    keys = spec.pop("keys")
    return verdict(table, keys, min_n=min_n, **spec)


# ------------------------------------------------------------------------------ the rung's runs


def rung_tables(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """The tables of a rung run folder: ``settings`` (its run.json), ``hands`` (LazyFrame),
    ``forks`` (LazyFrame or None) and ``matches`` (the target runs' matches stacked, or None)."""
    root = Path(folder)
    settings = json.loads((root / "run.json").read_text())
    parts = settings.get("parts", {})
    hands = load_run(root / parts.get("hands", "hands"))["hands"]
    forks = None
    if parts.get("joker_forks"):
        forks = pl.scan_parquet(root / parts["joker_forks"] / "forks" / "*.parquet")
    matches = None
    targets = parts.get("match_length") or {}
    if targets:
        frames = [load_run(root / path)["matches"] for path in targets.values()]
        matches = pl.concat(frames, how="diagonal_relaxed")
    return {"settings": settings, "hands": hands, "forks": forks, "matches": matches}


def write_rung(
    out: str | os.PathLike[str],
    preset: str,
    spec: str,
    *,
    hands: int,
    seed: int,
    matches: int | None = None,
    targets: Sequence[int] = (),
    workers: int | None = None,
) -> Path:
    """Play the runs of one rung into ``out``: ``hands/`` (``hands`` independent hands of ``spec``
    in every seat, seed ``seed``); for a non-search rung of a Kout preset also ``joker-forks/``
    (``kout-sim forks`` of the same hands); for a non-search rung with ``matches`` also
    ``match-length/target-T/`` (``matches`` self-play matches at each of ``targets``, seed
    ``seed``). Then ``run.json`` (``"kind": "ladder_rung"``, the rung, the parts and the command
    of each). Sub-runs are replaced. Returns ``out``."""
    from kout_sim.sim.fork import write_forks

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    rules = kout_sim.get_rules(preset)
    family = rules.preset.family
    kout_sim.simulate(
        preset,
        players=[spec],
        hands=hands,
        seed=seed,
        out=folder / "hands",
        workers=workers,
        overwrite=True,
    )
    commands = [simulate_command(json.loads((folder / "hands" / "run.json").read_text()), "hands")]
    parts: dict[str, Any] = {"hands": "hands"}
    if family != "baloot" and not is_search(spec):
        write_forks(
            folder / "joker-forks", preset, hands, seed, [spec], workers=workers, overwrite=True
        )
        parts["joker_forks"] = "joker-forks"
        commands.append(
            command_line(
                "forks", preset=preset, hands=hands, seed=seed, players=[spec], out="joker-forks"
            )
        )
    if matches and not is_search(spec):
        parts["match_length"] = {}
        for t in targets:
            path = f"match-length/target-{int(t)}"
            kout_sim.simulate(
                preset,
                options={"target": int(t)},
                players=[spec],
                matches=matches,
                seed=seed,
                out=folder / path,
                workers=workers,
                overwrite=True,
            )
            parts["match_length"][str(int(t))] = path
            commands.append(
                simulate_command(json.loads((folder / path / "run.json").read_text()), path)
            )
    meta = {
        "kind": RUNG_KIND,
        "preset": rules.name,
        "family": family,
        "options": {},
        "players": [spec],
        "rung": spec,
        "search": is_search(spec),
        "seed": seed,
        "unit": "hands",
        "count": hands,
        "matches": matches if parts.get("match_length") else None,
        "parts": parts,
        "status": "complete",
        "command": commands[0],
        "play": "hands",
        "commands": commands,
        "writer": WRITER,
    }
    Store(folder).write_json(meta, "run.json")
    return folder
