"""The joker's value by context: what the leader can see at the fork, and what it cannot.

The joker forks of ``kout-sim forks`` (:mod:`analyses.joker_lead`) record the position only by a few
counts (trick, contract, trumps still out, ...). What a card player weighs before leading a joker is
more: how many tricks his team still needs, whether the trump A K Q J have fallen, where the other
joker is. This module derives those from the hand as it was played and splits every paired table
by them.

Where the context comes from
----------------------------
The hand of a fork is the hand of ``kout-sim simulate --hands`` with the same preset, options,
players and seed (the forks' ``hand`` is the hands run's ``match``, the hand's stream index; the
hand itself goes on as if nothing had been forked). With ``--actions`` that run holds every card
played before the fork (the decisions of ``ply`` below the fork's ``ply``) and the hands as dealt.
:func:`play_context` joins the three and checks the join: the card the player played at the fork's
``ply`` in the hands run must be the fork's ``chosen`` card, for every fork, or it refuses.

Columns of the context (one row per fork, keyed by ``hand`` and ``ply``):

- visible to the leader: ``tricks_needed`` (tricks his team still needs: the bidding team to make
  the contract, the defenders to set it), ``honours_left`` (trump A K Q J not yet played, his own
  included), ``honours_held`` (of those, in his hand), ``other_joker`` (the joker he does not lead:
  ``in own hand``, ``played by partner``, ``played by an opponent``, ``played by self`` or
  ``still out``), ``permission`` (why the lead is legal, RULES.md 1.6), ``choice`` (the player's
  own decision in the hand: ``led it`` or ``declined``);
- hidden from the leader (a fact of the deal, labelled so in every table):
  ``other_joker_holder`` (for an other joker still out, the seat that holds it, ``partner`` or
  ``opponent``; :data:`SEEN` otherwise), ``other_joker_dealt`` (the seat dealt the other joker,
  ``self``, ``partner`` or ``opponent``: hidden until it is played).

The tables (:func:`context_value`, :func:`context_cells`) are the paired differences of
:func:`analyses.joker_lead.paired_value` (joker minus the policy's best other card on the same
position with common random numbers, 95% intervals clustered by hand), per role and context value,
for all forks and split by the player's own choice, with each group's share of the role's forks.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

import kout_sim
from kout_sim import cards as C
from kout_sim.io.manifest import run_manifest, total_seconds
from kout_sim.io.store import Store

from ._common import Frame, collect
from .joker_lead import ROLE, paired_value

CONTEXT_KIND = "joker_context"
"""The ``kind`` of a context folder's ``run.json`` (:func:`write_context`)."""
PLAY_FOLDER = "play"
"""The sub-folder of a context folder holding the hands run (with ``--actions``) it is read from."""
HONOUR_RANKS = "AKQJ"
"""The trump honours whose fall permits any joker lead (RULES.md 1.6 (c))."""

VISIBLE = ("contract", "tricks_needed", "trick", "other_joker", "honours_left", "permission")
"""The context columns a leader can see at the fork (``trick`` is numbered from 1 in the tables)."""
HIDDEN = ("other_joker_holder", "other_joker_dealt")
"""Context columns that are facts of the deal the leader cannot see."""
LABELS = {
    "contract": "contract",
    "tricks_needed": "tricks the leader's team still needs",
    "trick": "trick (1 = first)",
    "other_joker": "the other joker",
    "honours_left": "trump A K Q J not yet played",
    "permission": "why the joker may be led",
    "other_joker_holder": "who holds an unplayed other joker (hidden from the leader)",
    "other_joker_dealt": "who was dealt the other joker (hidden from the leader until played)",
    "choice": "the player's own choice",
}
CHOICES = ("all", "led it", "declined")
SEEN = "none hidden: held or played"
"""``other_joker_holder`` where the leader knows where the other joker is."""
OTHER_JOKER_STATES = (
    "in own hand",
    "played by partner",
    "played by an opponent",
    "played by self",
    "still out",
)
"""The values of ``other_joker``: where the joker the leader does not lead is, as he sees it."""


def _card_ids() -> tuple[dict[str, int], list[int]]:
    names = {C.format_card(c): c for c in range(52)}
    names.update({"RJ": C.RJ, "BJ": C.BJ})
    return names, [C.RJ, C.BJ]


def _honour_mask(suit: int) -> int:
    return sum(1 << C.card_id(suit, C.RANKS.index(r)) for r in HONOUR_RANKS)


def _dealt_hand(seat: pl.Expr, n_seats: int) -> pl.Expr:
    """The hand dealt to ``seat`` (a card bitmask) from the hands table's ``hand_seat*``."""
    expr = pl.lit(None, dtype=pl.Int64)
    for s in range(n_seats):
        expr = pl.when(seat == s).then(pl.col(f"hand_seat{s}")).otherwise(expr)
    return expr


def _has(mask: pl.Expr, card: pl.Expr) -> pl.Expr:
    """Whether the card ids ``card`` are in the bitmasks ``mask``."""
    return (mask.cast(pl.UInt64) // (pl.lit(2, dtype=pl.UInt64) ** card.cast(pl.UInt64))) % 2 == 1


def play_context(forks: Frame, hands: Frame, actions: Frame) -> pl.DataFrame:
    """One row per fork (``hand``, ``ply``): the context of the module docstring, derived from the
    hands run the forks were forked from (``hands`` and ``actions``: its tables, same preset,
    options, players and seed).

    Raises
    ------
    ValueError
        If a fork's hand is missing from the hands run, or the card played at a fork's ``ply``
        in it is not the fork's ``chosen`` card (the runs were not played with the same settings).
    """
    names, _ = _card_ids()
    f = (
        collect(forks)
        .select("hand", "ply", "seat", "bidder", "contract", "team_tricks", "trump", "joker")
        .with_columns(pl.col("hand").cast(pl.Int64), pl.col("ply").cast(pl.Int64))
    )
    if f.select(pl.struct("hand", "ply").is_duplicated().any()).item():
        raise ValueError("the forks hold two rows for one decision (hand, ply)")
    wanted = f.select(pl.col("hand").unique().alias("match"))
    plays = (
        actions.lazy()
        .select(
            pl.col("match").cast(pl.Int64),
            pl.col("ply").cast(pl.Int64),
            pl.col("seat").cast(pl.Int64).alias("by"),
            pl.col("action"),
        )
        .join(wanted.lazy(), on="match", how="semi")
        .collect()
    )
    dealt = (
        hands.lazy()
        .select(
            pl.col("match").cast(pl.Int64),
            *(pl.col(c) for c in hands.collect_schema().names() if c.startswith("hand_seat")),
            pl.col("bj_holder").cast(pl.Int64),
            pl.col("rj_holder").cast(pl.Int64),
        )
        .join(wanted.lazy(), on="match", how="semi")
        .collect()
    )
    seats = [c for c in dealt.columns if c.startswith("hand_seat")]
    n_seats = max((i + 1 for i, c in enumerate(seats) if (dealt[c] != 0).any()), default=0)
    # the join check: the card played at each fork is the fork's chosen card
    at = f.join(plays, left_on=["hand", "ply"], right_on=["match", "ply"], how="left")
    chosen = collect(forks).select(pl.col("chosen")).to_series()
    bad = (at["action"].is_null() | (at["action"] != chosen) | (at["by"] != at["seat"])).sum()
    if len(f) and f["hand"].is_in(dealt["match"].implode()).not_().any():
        raise ValueError("a fork's hand is not in the hands run: fork and hands runs differ")
    if bad:
        raise ValueError(
            f"{bad} of {len(f):,} forks do not match the hands run (the card played at the fork "
            "is not the fork's chosen card): the runs differ in preset, options, players or seed"
        )
    cards = plays.filter(pl.col("action").is_in(list(names))).with_columns(
        card=pl.col("action").replace_strict(names, return_dtype=pl.Int64)
    )
    other = pl.when(pl.col("joker") == "RJ").then(pl.lit(C.BJ)).otherwise(pl.lit(C.RJ))
    suit = pl.col("trump").replace_strict(list(C.SUITS), list(range(4)), return_dtype=pl.Int64)
    honour_ids = pl.concat_list([suit * C.N_RANKS + C.RANKS.index(r) for r in HONOUR_RANKS]).alias(
        "_honours"
    )
    base = f.with_columns(_other=other, _honours=honour_ids)
    before = (
        base.select("hand", "ply", "seat", "_other", "_honours")
        .join(cards.rename({"ply": "_at"}), left_on="hand", right_on="match")
        .filter(pl.col("_at") < pl.col("ply"))
        .with_columns(_is_honour=pl.col("_honours").list.contains(pl.col("card")))
        .group_by("hand", "ply")
        .agg(
            pl.col("_is_honour").sum().alias("honours_played"),
            (pl.col("_is_honour") & (pl.col("by") == pl.col("seat")))
            .sum()
            .alias("_own_honours_played"),
            pl.col("by").filter(pl.col("card") == pl.col("_other")).first().alias("_other_by"),
        )
    )
    seat, team = pl.col("seat"), pl.col("seat") % 2
    holder = (
        pl.when(pl.col("_other") == C.RJ).then(pl.col("rj_holder")).otherwise(pl.col("bj_holder"))
    )
    own = _dealt_hand(seat, n_seats)
    out = (
        base.join(before, on=["hand", "ply"], how="left")
        .join(dealt, left_on="hand", right_on="match", how="left")
        .with_columns(
            pl.col("honours_played", "_own_honours_played").fill_null(0).cast(pl.Int64),
            _holder=holder,
            _own=own,
            _tricks=own.bitwise_count_ones().cast(pl.Int64),
        )
    )
    held = pl.sum_horizontal(
        _has(pl.col("_own"), pl.col("_honours").list.get(i)).cast(pl.Int64)
        for i in range(len(HONOUR_RANKS))
    )
    by = pl.col("_other_by")
    other_joker = (
        pl.when(by.is_not_null() & (by == seat))
        .then(pl.lit("played by self"))
        .when(by.is_not_null() & (by % 2 == team))
        .then(pl.lit("played by partner"))
        .when(by.is_not_null())
        .then(pl.lit("played by an opponent"))
        .when(pl.col("_holder") == seat)
        .then(pl.lit("in own hand"))
        .otherwise(pl.lit("still out"))
    )
    bidding = team == pl.col("bidder") % 2
    needed = (
        pl.when(bidding)
        .then(pl.col("contract") - pl.col("team_tricks"))
        .otherwise(pl.col("_tricks") + 1 - pl.col("contract") - pl.col("team_tricks"))
    )
    permission = (
        pl.when(pl.col("contract") == 9)
        .then(pl.lit("contract 9 (Bawan)"))
        .when((pl.col("contract") == 8) & (pl.col("joker") == "RJ"))
        .then(pl.lit("contract 8, big joker"))
        .otherwise(pl.lit("trump A K Q J all played"))
    )
    dealt_to = (
        pl.when(pl.col("_holder") == seat)
        .then(pl.lit("self"))
        .when(pl.col("_holder") % 2 == team)
        .then(pl.lit("partner"))
        .otherwise(pl.lit("opponent"))
    )
    hidden_holder = (
        pl.when(other_joker != "still out")
        .then(pl.lit(SEEN))
        .when(pl.col("_holder") % 2 == team)
        .then(pl.lit("partner"))
        .otherwise(pl.lit("opponent"))
    )
    return (
        out.with_columns(
            tricks_needed=needed.cast(pl.Int64),
            honours_left=(4 - pl.col("honours_played")).cast(pl.Int64),
            honours_held=(held - pl.col("_own_honours_played")).cast(pl.Int64),
            other_joker=other_joker,
            other_joker_holder=hidden_holder,
            other_joker_dealt=dealt_to,
        )
        .with_columns(
            permission=pl.when(~bidding & (pl.col("honours_left") == 0))
            .then(pl.lit("trump A K Q J all played"))
            .otherwise(permission)
        )
        .select(
            "hand",
            "ply",
            "tricks_needed",
            "honours_left",
            "honours_held",
            "other_joker",
            "other_joker_holder",
            "other_joker_dealt",
            "permission",
        )
        .sort("hand", "ply")
    )


def with_context(forks: Frame, context: Frame) -> pl.DataFrame:
    """The forks with their context columns (:func:`play_context`) and ``role`` (bidding team or
    defenders), ``choice`` (``led it``: the player itself played the joker in the hand;
    ``declined``) and ``trick`` numbered from 1; ``ValueError`` if a fork has no context row."""
    f = collect(forks).with_columns(pl.col("hand").cast(pl.Int64), pl.col("ply").cast(pl.Int64))
    ctx = collect(context)
    out = f.join(ctx, on=["hand", "ply"], how="left", validate="1:1")
    if len(f) and out["other_joker"].is_null().any():
        raise ValueError("a fork has no context row: the context is of another forks run")
    choice = pl.when(pl.col("chose_joker")).then(pl.lit("led it")).otherwise(pl.lit("declined"))
    return out.with_columns(ROLE, choice=choice, trick=pl.col("trick") + 1)


def _banded(column: str) -> pl.Expr:
    """Context values as the tables show them: tricks in bands of three, contracts by name."""
    if column == "trick":
        band = (pl.col("trick") - 1) // 3 * 3 + 1
        return pl.format("{}-{}", band, band + 2)
    if column == "contract":
        return (
            pl.when(pl.col("contract") == 9)
            .then(pl.lit("9 (Bawan)"))
            .otherwise(pl.col("contract").cast(pl.String))
        )
    return pl.col(column).cast(pl.String)


def context_value(df: pl.DataFrame, column: str, measure: str = "net") -> pl.DataFrame:
    """The joker's value per ``role`` and value of the context ``column`` (of
    :func:`with_context`), for every fork (``choice == "all"``) and for the leads the player
    itself made (``led it``) and declined (``declined``): the columns of
    :func:`analyses.joker_lead.paired_value` plus ``share`` (the group's share of the role's
    forks of that choice) and ``hidden`` (the column is a fact the leader cannot see)."""
    if column not in df.columns:
        raise ValueError(f"no context column {column!r}")
    parts = []
    for choice in CHOICES:
        part = df if choice == "all" else df.filter(pl.col("choice") == choice)
        if part.is_empty():
            continue
        table = paired_value(part, ["role", column], measure)
        total = part.group_by("role").agg(pl.len().alias("_total"))
        parts.append(
            table.join(total, on="role")
            .with_columns(
                choice=pl.lit(choice),
                share=pl.col("n") / pl.col("_total"),
                hidden=pl.lit(column in HIDDEN),
            )
            .drop("_total")
        )
    order = {c: i for i, c in enumerate(CHOICES)}
    return (
        pl.concat(parts, how="diagonal_relaxed")
        .with_columns(_o=pl.col("choice").replace_strict(order, return_dtype=pl.Int64))
        .sort("role", "_o", column)
        .drop("_o")
    )


CELL_COLUMNS = ("contract", "trick", "other_joker")
"""The visible contexts crossed by :func:`context_cells`."""


def _p_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm's step-down rejections at family-wise error ``alpha`` for ``p_values``, in order."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    rejected = [False] * len(p_values)
    for rank, i in enumerate(order):
        if p_values[i] > alpha / (len(p_values) - rank):
            break
        rejected[i] = True
    return rejected


def context_cells(
    df: pl.DataFrame,
    columns: Sequence[str] = CELL_COLUMNS,
    measure: str = "net",
    min_n: int = 200,
    choice: str = "all",
) -> pl.DataFrame:
    """The joker's value in every cell of the crossed visible contexts ``columns`` (tricks in
    bands of three, contract 9 named Bawan), per ``role``, with ``share`` (the cell's share of
    the role's forks), the two-sided normal ``p`` of the paired difference, and ``holm``:
    whether the cell's sign survives Holm's correction over the cells with at least ``min_n``
    forks (``tested``); smaller cells are kept with ``tested`` false."""
    part = df if choice == "all" else df.filter(pl.col("choice") == choice)
    keys = [f"{c}_band" if c in ("trick", "contract") else c for c in columns]
    banded = part.with_columns(_banded(c).alias(k) for c, k in zip(columns, keys) if k != c)
    table = paired_value(banded, ["role", *keys], measure)
    total = banded.group_by("role").agg(pl.len().alias("_total"))
    table = (
        table.join(total, on="role")
        .with_columns(share=pl.col("n") / pl.col("_total"), tested=pl.col("n") >= min_n)
        .drop("_total")
    )
    z = [
        (d / s) if s and s > 0 else 0.0
        for d, s in zip(table["diff"].to_list(), table["se"].to_list())
    ]
    p = [_p_two_sided(v) for v in z]
    tested = table["tested"].to_list()
    rejected = holm([pv for pv, t in zip(p, tested) if t])
    flags = iter(rejected)
    holm_col = [next(flags) if t else False for t in tested]
    return table.with_columns(p=pl.Series(p), holm=pl.Series(holm_col, dtype=pl.Boolean))


def opportunity_shares(df: pl.DataFrame) -> dict[str, Any]:
    """What the overall average is an average of, per role: the share of forks whose lead is
    permitted only by the fall of trump A K Q J (``honours_only``), whose two branches end with
    the same net points (``no_change``), in which the leader's team needs one more trick
    (``one_trick``; ``one_trick_n`` forks, ``one_trick_changed`` of them whose branches end with
    different net points), and that the player itself led (``led``); ``n`` forks."""
    out: dict[str, Any] = {}
    for role, part in df.group_by("role", maintain_order=True):
        n = len(part)
        out[str(role[0])] = {
            "n": n,
            "honours_only": part.filter(pl.col("permission") == "trump A K Q J all played").height
            / n,
            "no_change": part.filter(pl.col("net_joker") == pl.col("net_other")).height / n,
            "one_trick": part.filter(pl.col("tricks_needed") == 1).height / n,
            "one_trick_n": part.filter(pl.col("tricks_needed") == 1).height,
            "one_trick_changed": part.filter(
                (pl.col("tricks_needed") == 1) & (pl.col("net_joker") != pl.col("net_other"))
            ).height,
            "led": part["chose_joker"].sum() / n,
        }
    return out


def same_hands(forks_settings: dict[str, Any], settings: dict[str, Any]) -> bool:
    """Whether a forks run and a hands (or context) run were played with the same preset,
    options, players and seed, the hands run covering at least the forks' hands."""
    keys = ("preset", "seed", "players", "options")
    return all(forks_settings.get(k) == settings.get(k) for k in keys) and int(
        settings.get("count", 0)
    ) >= int(forks_settings.get("count", 0))


def write_context(
    out: str | os.PathLike[str],
    forks_folder: str | os.PathLike[str],
    *,
    workers: int | None = None,
    overwrite: bool = False,
) -> Path:
    """Play the hands of the forks run ``forks_folder`` again with ``--actions`` (same preset,
    options, players, seed and count) into ``out/play``, derive the context of every fork
    (:func:`play_context`) and write it as ``out/context/part-00000.parquet`` with a
    ``run.json`` (``"kind": "joker_context"``, the forks run's settings and the command of the
    hands run). Returns ``out``."""
    forks_folder = Path(forks_folder)
    fs = json.loads((forks_folder / "run.json").read_text())
    folder = Path(out)
    if (folder / "run.json").exists() and not overwrite:
        raise ValueError(f"output folder {folder} exists; pass --overwrite")
    folder.mkdir(parents=True, exist_ok=True)
    play = folder / PLAY_FOLDER
    kout_sim.simulate(
        fs["preset"],
        options=fs.get("options"),
        players=fs["players"],
        hands=int(fs["count"]),
        seed=int(fs["seed"]),
        out=play,
        workers=workers,
        actions=True,
        overwrite=True,
    )
    tables = kout_sim.load(play)
    forks = pl.scan_parquet(forks_folder / "forks" / "*.parquet")
    context = play_context(forks, tables["hands"], tables["actions"])
    settings = json.loads((play / "run.json").read_text())
    meta = {
        key: fs[key]
        for key in ("preset", "family", "options", "players", "seed", "count", "unit")
        if key in fs
    }
    meta.update(kind=CONTEXT_KIND, forks=len(context), status="complete", play=PLAY_FOLDER)
    meta = run_manifest(meta, settings.get("command"), **total_seconds([settings]))
    write_context_table(folder, context, meta)
    return folder


def write_context_table(folder: Path, context: pl.DataFrame, meta: dict[str, Any]) -> None:
    """Write the forks' contexts as ``folder/context/part-00000.parquet``, then ``meta`` as the
    folder's ``run.json`` (each file atomically, through :class:`~kout_sim.io.store.Store`)."""
    (folder / "context").mkdir(parents=True, exist_ok=True)
    store = Store(folder)
    store.write_table(context.to_arrow(), "context", "part-00000.parquet")
    store.write_json(meta, "run.json")
