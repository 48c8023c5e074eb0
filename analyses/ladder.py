"""The ladder of players: the headline answers under several players, side by side, with a verdict.

Every other answer of the project is one line-up's (the heuristic in every seat). The ladder plays
the same questions under each *rung* of :data:`RUNGS` (weakest first: ``random``, ``heuristic``,
a differently tuned heuristic, and the search players ``ismcts`` and ``pimc``) and says, for each
answer, whether it holds across the players or depends on the player.

What is held fixed: every rung plays the same preset, rules and seed, so hand ``i`` of every rung is
dealt the same cards (a search rung plays the first hands of those deals only, its sizes capped by
:data:`analyses.ladder_study.SEARCH_SIZES`: it is hundreds to thousands of times slower). Everything
else (the auction, the contract, the play) is the rung's own. The rung's player sits in every seat
(self-play); in its forks too (every branch is played on by the rung's player).

The answers (one table each, one row per rung and key, computed by the existing analyses on each
rung's runs):

- bid success by contract (:func:`contracts_by_rung`, :func:`analyses.bid_success.contract_results`);
- expected net points by bid level and strength bucket (:func:`points_by_rung`,
  :func:`analyses.bid_success.expected_points`);
- the best call by hand strength (:func:`best_by_rung`, :func:`analyses.bid_forks.best_calls` on the
  rung's bid forks) with its own verdict (:func:`best_call_verdict`), and each call's value over
  every hand (:func:`calls_by_rung`, :func:`analyses.bid_forks.call_values`): Kout presets;
- the joker's value, per role (:func:`joker_by_rung`, :func:`analyses.joker_lead.joker_value`) and
  per role and context (:func:`context_by_rung`: the tricks the leader's team still needs, where
  the other joker is; :mod:`analyses.joker_context`, from the rung's hands played with
  ``--actions``): Kout presets;
- hands per match by target (:func:`length_by_rung`, :func:`analyses.match_length.hands_per_match`):
  self-play matches.

A search rung whose forks ``kout-sim forks`` refuses goes without them (:data:`SEARCH_FORKS`); its
``run.json`` says why and the report names it.

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

import re
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from kout_sim.rules import Family

from ._common import Frame
from .bid_forks import (
    KOUT_STRENGTH_RANGE,
    _bucket_label,
    best_calls,
    call_values,
    guide_ranges,
    paired_differences,
)
from .bid_success import contract_results, expected_points
from .joker_context import context_value, with_context
from .joker_lead import joker_value
from .match_length import hands_per_match

RUNGS = (
    "random",
    "heuristic",
    "heuristic:bid_margin=0",
    "ismcts:iterations=200",
    "pimc:samples=10",
)
"""The rungs of the ladder, weakest first (by design; the rating measures it): uniformly random
calls and cards; the heuristic; the heuristic bidding at a margin of 0 instead of 1 (bolder bids,
same card play); ISMCTS with 200 iterations a decision and PIMC with 10 sampled deals a card
decision, both bidding with the heuristic (their default ``calls=0``) and searching the card
play."""

SEARCH_KINDS = ("ismcts", "pimc")
"""The players that search (thousands of times slower than the heuristic: smaller sizes)."""

RUNG_KIND = "ladder_rung"
"""The ``kind`` of a rung's run folder (``run.json``): its sub-runs are ``hands/``,
``joker-forks/``, ``joker-context/``, ``bid-forks/`` and ``match-length/target-T/``."""

DEFAULT_LADDER_HANDS = 200_000
"""Independent hands of each non-search rung (its joker forks are made on the same hands)."""

DEFAULT_LADDER_BID_FORK_HANDS = 200_000
"""Hands whose first free bid decision is forked, each non-search rung (the first hands)."""

DEFAULT_SEARCH_HANDS = 2_000
"""Independent hands of a search rung (the first hands of the same deals; at most ``hands``);
its joker forks are made on the same hands."""

DEFAULT_SEARCH_BID_FORK_HANDS = 300
"""Hands whose first free bid decision is forked, each search rung (every legal call is played
on by the search player: about ten hands' play a fork)."""

DEFAULT_LADDER_MATCHES = 1_000
"""Self-play matches per target of each non-search rung (match length)."""

DEFAULT_SEARCH_MATCHES = 30
"""Self-play matches per target of each search rung (match length; at most ``matches``)."""

LADDER_TARGETS: dict[str, tuple[int, ...]] = {
    Family.KOUT_BO: (31, 101, 151),
    Family.KOUT_BH: (26, 31, 51),
    Family.BALOOT: (102, 152),
}
"""The match targets of the ladder's match-length answer per game family."""

HOLDS = "holds"
SAME_SIGN = "same sign"
DEPENDS = "depends on the player"
TOO_FEW = "too few"
TIE = "tie"
"""Best call by hand only: the players' best calls differ, but no player's forks show another
player's best call worse than its own (:func:`best_call_verdict`)."""
VERDICTS = (HOLDS, SAME_SIGN, TIE, DEPENDS, TOO_FEW)


def is_search(spec: str) -> bool:
    """Whether the player ``spec`` searches (ISMCTS or PIMC): slow, so it plays smaller sizes."""
    return spec.split(":", 1)[0].strip() in SEARCH_KINDS


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


def first_bid_forks(forks: Frame) -> pl.LazyFrame:
    """The branches of the first free bid decision of each hand (``decision == 0``)."""
    return forks.lazy().filter(pl.col("decision") == 0)


def calls_by_rung(bid_forks: Mapping[str, Frame]) -> pl.DataFrame:
    """Each call's value over every hand (:func:`analyses.bid_forks.call_values` of the first
    free bid decision: net points with ``net_n``, ``low``, ``high``; made rate) of each rung's
    bid forks, stacked."""
    return _stack({rung: call_values(first_bid_forks(f)) for rung, f in bid_forks.items()})


REFERENCE = "heuristic"
"""The rung whose bid guide's strength ranges every rung's best call is read on (else the first
rung but random)."""


def reference_rung(rungs: Sequence[str]) -> str:
    """:data:`REFERENCE` if among ``rungs``, else the first rung that is not random."""
    if REFERENCE in rungs:
        return REFERENCE
    return next((r for r in rungs if not is_random(r)), rungs[0])


def strength_ranges(bid_forks: Mapping[str, Frame], min_n: int = 30) -> list[tuple[int, int]]:
    """The strength ranges of the reference rung's bid guide (:func:`reference_rung`,
    :func:`analyses.bid_forks.guide_ranges`: consecutive strength buckets with the same best
    call), as ``(from_bucket, to_bucket)`` covering :data:`KOUT_STRENGTH_RANGE`; the whole range
    if it has no best call anywhere."""
    ref = reference_rung(list(bid_forks))
    ranges = guide_ranges(first_bid_forks(bid_forks[ref]), min_n=min_n)
    if ranges.is_empty():
        return [KOUT_STRENGTH_RANGE]
    return sorted((int(lo), int(hi)) for lo, hi in zip(ranges["from_bucket"], ranges["to_bucket"]))


def in_ranges(forks: Frame, edges: Sequence[tuple[int, int]]) -> pl.LazyFrame:
    """The first free bid decisions of ``forks`` with ``from_bucket``: the first strength bucket
    of the range of ``edges`` their strength falls in (strength clipped to
    :data:`KOUT_STRENGTH_RANGE`)."""
    lo, hi = KOUT_STRENGTH_RANGE
    expr = pl.lit(None, pl.Int16)
    for a, b in reversed(list(edges)):
        expr = pl.when(pl.col("_b").is_between(a, b)).then(pl.lit(a, pl.Int16)).otherwise(expr)
    return (
        first_bid_forks(forks)
        .with_columns(_b=pl.col("strength").clip(lo, hi))
        .with_columns(from_bucket=expr)
        .drop("_b")
        .filter(pl.col("from_bucket").is_not_null())
    )


def range_label(lo: int, hi: int) -> str:
    """A strength range in words (``strength 7-9``, ``strength 4 or less``, ...)."""
    return _bucket_label(lo, hi)


def best_by_rung(
    bid_forks: Mapping[str, Frame], edges: Sequence[tuple[int, int]], min_n: int = 30
) -> pl.DataFrame:
    """The best call per strength range of ``edges`` (:func:`strength_ranges`;
    :func:`analyses.bid_forks.best_calls`, paired, Holm's correction over the rung's ranges) of
    each rung's bid forks, stacked, with ``to_bucket`` and ``strength`` (the range in words)."""
    upper = {int(a): int(b) for a, b in edges}
    parts = {}
    for rung, f in bid_forks.items():
        best = best_calls(in_ranges(f, edges), ["from_bucket"], min_n=min_n)
        if best.is_empty():
            continue
        parts[rung] = best.with_columns(
            to_bucket=pl.col("from_bucket").replace_strict(upper, return_dtype=pl.Int16),
            strength=pl.col("from_bucket").map_elements(
                lambda a: range_label(int(a), upper[int(a)]), pl.String
            ),
        )
    return _stack(parts)


def ranges_by_rung(bid_forks: Mapping[str, Frame], min_n: int = 30) -> pl.DataFrame:
    """The bid guide's strength ranges (:func:`analyses.bid_forks.guide_ranges`) of each rung,
    stacked."""
    return _stack(
        {rung: guide_ranges(first_bid_forks(f), min_n=min_n) for rung, f in bid_forks.items()}
    )


def best_call_verdict(best: Mapping[str, str], beats: Mapping[str, set[str]]) -> str:
    """The verdict of "the best call" for one strength range. ``best``: each compared rung's
    best call; ``beats``: per rung, the calls its own best call beats on its own forks (the paired
    95% interval of the difference above zero).

    - **holds**: every rung has the same best call;
    - **depends on the player**: the best calls differ, and some rung's forks show another rung's
      best call worse than its own (the call one player prefers loses under another);
    - **tie**: the best calls differ, but no rung shows another's best call worse (each player's
      best is within the noise of the others');
    - **too few**: fewer than two rungs."""
    if len(best) < 2:
        return TOO_FEW
    calls = set(best.values())
    if len(calls) == 1:
        return HOLDS
    for rung, call in best.items():
        if beats.get(rung, set()) & (calls - {call}):
            return DEPENDS
    return TIE


def best_call_beats(
    bid_forks: Mapping[str, Frame], best: pl.DataFrame, edges: Sequence[tuple[int, int]]
) -> pl.DataFrame:
    """Per rung and strength range of ``best`` (:func:`best_by_rung` on ``edges``): for every
    other rung's best call of the range, the paired difference of this rung's best call minus it on this
    rung's own forks (``other_call``, ``diff``, ``low``, ``high``, ``n``; first free bid
    decisions, intervals clustered by hand, :func:`analyses.bid_forks.paired_differences`)."""
    rows: list[dict[str, Any]] = []
    for rung, forks in bid_forks.items():
        mine = best.filter(pl.col("rung") == rung)
        if mine.is_empty():
            continue
        pairs = paired_differences(in_ranges(forks, edges), ["from_bucket"])
        for row in mine.iter_rows(named=True):
            bucket, call = row["from_bucket"], row["best_call"]
            others = best.filter((pl.col("from_bucket") == bucket) & (pl.col("best_call") != call))[
                "best_call"
            ].unique()
            for other in sorted(others.to_list()):
                hit = pairs.filter(
                    (pl.col("from_bucket") == bucket)
                    & (
                        ((pl.col("call") == call) & (pl.col("other") == other))
                        | ((pl.col("call") == other) & (pl.col("other") == call))
                    )
                )
                if hit.is_empty():
                    continue
                h = hit.row(0, named=True)
                sign = 1.0 if h["call"] == call else -1.0
                lo, hi = sorted((sign * h["low"], sign * h["high"]))
                rows.append(
                    {
                        "rung": rung,
                        "from_bucket": bucket,
                        "best_call": call,
                        "other_call": other,
                        "diff": sign * h["diff"],
                        "low": lo,
                        "high": hi,
                        "n": h["n"],
                    }
                )
    schema = {
        "rung": pl.String,
        "from_bucket": pl.Int16,
        "best_call": pl.String,
        "other_call": pl.String,
        "diff": pl.Float64,
        "low": pl.Float64,
        "high": pl.Float64,
        "n": pl.Int64,
    }
    return pl.DataFrame(rows, schema=schema)


def best_call_verdicts(best: pl.DataFrame, beats: pl.DataFrame) -> pl.DataFrame:
    """Per strength range of ``best`` (:func:`best_by_rung`; ``from_bucket``, ``strength``): ``rungs`` compared (those with a
    best call: enough forks), their ``calls``, ``verdict`` over them and ``verdict_up`` over
    those but ``random`` (:func:`best_call_verdict`, with ``beats`` of :func:`best_call_beats`)."""
    rows: list[dict[str, Any]] = []
    for (bucket,), group in best.sort("from_bucket", "rung_order").group_by(
        ["from_bucket"], maintain_order=True
    ):
        chosen = dict(zip(group["rung"].to_list(), group["best_call"].to_list()))
        won: dict[str, set[str]] = {}
        for b in beats.filter((pl.col("from_bucket") == bucket) & (pl.col("low") > 0)).iter_rows(
            named=True
        ):
            won.setdefault(b["rung"], set()).add(b["other_call"])
        up = {r: c for r, c in chosen.items() if not is_random(r)}
        rows.append(
            {
                "from_bucket": bucket,
                "strength": group["strength"][0] if "strength" in group.columns else str(bucket),
                "rungs": list(chosen),
                "calls": list(chosen.values()),
                "verdict": best_call_verdict(chosen, won),
                "verdict_up": best_call_verdict(up, won),
            }
        )
    return pl.DataFrame(
        rows,
        schema={
            "from_bucket": pl.Int16,
            "strength": pl.String,
            "rungs": pl.List(pl.String),
            "calls": pl.List(pl.String),
            "verdict": pl.String,
            "verdict_up": pl.String,
        },
    )


CONTEXTS = ("tricks_needed", "other_joker")
"""The joker contexts the ladder compares (:mod:`analyses.joker_context`, what the leader sees):
the tricks his team still needs, and where the other joker is."""

CONTEXT_LABELS = {
    "tricks_needed": "tricks still needed",
    "other_joker": "the other joker",
}
"""The words of each context in the ladder's table (its ``context`` column)."""


def _value_order(value: str) -> tuple[int, str]:
    return (int(value), "") if value.isdigit() else (10_000, value)


def context_by_rung(
    forks: Mapping[str, Frame], contexts: Mapping[str, Frame], columns: Sequence[str] = CONTEXTS
) -> pl.DataFrame:
    """The joker's value per role and context (``context``: its words, :data:`CONTEXT_LABELS`;
    ``column``: the context column; ``value``: its value as text; every fork,
    :func:`analyses.joker_context.context_value`) of each rung with both its forks and their
    context, stacked and sorted by context, role and value. A context with one value under every
    rung (the other joker of a one-joker game) is left out: it splits nothing."""
    parts: dict[str, pl.DataFrame] = {}
    for rung, f in forks.items():
        if rung not in contexts:
            continue
        df = with_context(f, contexts[rung])
        tables = [
            context_value(df, c)
            .filter(pl.col("choice") == "all")
            .with_columns(
                column=pl.lit(c),
                context=pl.lit(CONTEXT_LABELS.get(c, c)),
                value=pl.col(c).cast(pl.String),
            )
            .drop(c)
            for c in columns
        ]
        parts[rung] = pl.concat(tables, how="diagonal_relaxed")
    table = _stack(parts)
    if table.is_empty():
        return table
    split = table.group_by("column").agg(pl.col("value").n_unique().alias("_k"))
    kept = split.filter(pl.col("_k") > 1)["column"].to_list()
    order = {c: i for i, c in enumerate(columns)}
    return (
        table.filter(pl.col("column").is_in(kept))
        .with_columns(
            _c=pl.col("column").replace_strict(order, return_dtype=pl.Int64),
            _v=pl.col("value").map_elements(lambda v: _value_order(v)[0], pl.Int64),
        )
        .sort("_c", "role", "_v", "value", "rung_order")
        .drop("_c", "_v")
    )


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
    "joker_context": {"keys": ("role", "context", "value"), "signed": True},
    "calls": {"keys": ("call",), "n": "net_n", "signed": True},
    "length": {"keys": ("target",)},
}
"""How each ladder table is judged: its keys, interval and count columns, signed or not."""


def judged(name: str, table: pl.DataFrame, min_n: int = 30) -> pl.DataFrame:
    """The verdicts of the ladder table ``name`` of :data:`ANSWERS` (:func:`verdict`)."""
    spec = dict(ANSWERS[name])
    keys = spec.pop("keys")
    return verdict(table, keys, min_n=min_n, **spec)


# ------------------------------------------------------------------------------ the rung's runs


SEARCH_FORKS = True
"""Whether a search rung's forks are played (``kout-sim forks`` with a search line-up). When the
forks refuse a search line-up the rung goes without them and its ``run.json`` says why
(``skipped``); the report names the players left out."""


def _forked(spec: str, part: str, play: Any, skipped: dict[str, str]) -> bool:
    """Play the forks of ``part`` (``play()``); a search rung whose forks are refused (or off,
    :data:`SEARCH_FORKS`) records why in ``skipped`` instead. True when played."""
    if is_search(spec) and not SEARCH_FORKS:
        skipped[part] = "forks of the search players are off (analyses.ladder.SEARCH_FORKS)"
        return False
    try:
        play()
    except ValueError as exc:
        if not is_search(spec):
            raise
        skipped[part] = f"kout-sim forks refused {spec}: {exc}"
        return False
    return True
