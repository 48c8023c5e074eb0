"""The fork tables: the ``forks`` and ``bid_forks`` tables built from the fork records, and the
folder of ``kout-sim forks`` they are written to.

The fork driver (:mod:`kout_sim.drivers.fork`, run over many hands by :mod:`kout_sim.sim.fork` and
:mod:`kout_sim.sim.bid_fork`) writes int64 records (:data:`kout_sim.io.records.FORK_RECORD`,
:data:`kout_sim.io.records.BID_FORK_RECORD`); :func:`fork_table` and :func:`bid_fork_table` turn
them into DataFrames of the columns of :data:`kout_sim.io.schema.FORK_COLUMNS` and
:data:`kout_sim.io.schema.BID_FORK_COLUMNS`, as :func:`kout_sim.io.schema.hands_table` does for the
hand rows. A forks folder holds ``run.json`` and the one shard of its table
(:func:`forks_folder`, :func:`fork_settings`, :func:`write_table`).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import polars as pl

from .. import cards as C
from ..engine import layout as L
from ..engine.tables import tables_of
from ..players import Lineup
from ..rules import Rules
from .features import call_names
from .manifest import provenance, run_manifest
from .records import BID_FORK_RECORD, FORK_RECORD
from .schema import BID_FORK_COLUMNS, BRANCHES, FORK_COLUMNS, conform, record_columns
from .store import Manifest, Store, one_line, opened

FORK_FOLDERS = {"joker_forks": "forks", "bid_forks": "bid_forks"}
"""The kind of a forks folder (its ``run.json``'s ``"kind"``) and the one table it holds."""


def fork_table(records: np.ndarray, rules: Rules) -> pl.DataFrame:
    """The fork records (:data:`kout_sim.io.records.FORK_RECORD`) as a DataFrame of the columns
    of :data:`kout_sim.io.schema.FORK_COLUMNS`: the position, the cards of both branches, every
    outcome per branch (e.g. ``net_joker`` and ``net_other``) and of the hand itself
    (``net_actual``: as the policy played it on from the fork)."""
    data: dict[str, object] = dict(record_columns(FORK_COLUMNS, FORK_RECORD, records))

    def field(name: str, entry: int = 0) -> np.ndarray:
        return FORK_RECORD.column(records, name, entry)

    seat = field("seat")
    data["bidding_team"] = (seat % 2) == (field("bidder") % 2)
    data["leading"] = field("leading") == 1
    data["trump"] = [C.SUITS[t] for t in field("trump")]
    for name in ("joker", "other", "chosen"):
        data[name] = [C.format_card(int(c)) for c in field(name)]
    data["chose_joker"] = field("chosen") == field("joker")
    for b, branch in enumerate(BRANCHES):
        data[f"made_{branch}"] = field("made", b)
        data[f"forced_joker_{branch}"] = field("forced", b) == 1
        winner = field("match_winner", b)
        data[f"match_lost_{branch}"] = (winner >= 0) & (winner != seat % 2)
    # the hand itself, as the policies played it on from the fork
    data["made_actual"] = field("actual_made")
    data["forced_joker_actual"] = field("actual_forced") == 1
    made = [f"made_{branch}" for branch in (*BRANCHES, "actual")]
    frame = pl.DataFrame(data).with_columns(
        pl.when(pl.col(m) < 0).then(None).otherwise(pl.col(m) == 1).alias(m) for m in made
    )
    return conform(frame.with_columns(preset=pl.lit(rules.name)), FORK_COLUMNS)


def hand_features(cards: np.ndarray, jokers: np.ndarray) -> dict[str, np.ndarray]:
    """Features of the hands ``cards`` (card bitmasks) that do not depend on a trump: ``jokers``,
    ``long_suit`` and ``long_honours`` (the length and the A K Q J held of the suit with the most
    cards plus honours, the first such suit in S H D C order), ``aces``, ``voids`` and
    ``strength`` (``long_suit + long_honours + jokers``). ``jokers`` is the deck's joker mask."""
    cards = np.asarray(cards, dtype=np.int64)
    length = np.zeros((len(cards), C.N_SUITS), dtype=np.int64)
    honours = np.zeros_like(length)
    aces = np.zeros(len(cards), dtype=np.int64)
    for s in range(C.N_SUITS):
        for r in range(C.N_RANKS):
            held = (cards >> (s * C.N_RANKS + r)) & 1
            length[:, s] += held
            if r >= C.RANKS.index("J"):
                honours[:, s] += held
            if r == C.RANKS.index("A"):
                aces += held
    score = length + honours
    best = np.argmax(score, axis=1)
    rows = np.arange(len(cards))
    n_jokers = np.zeros(len(cards), dtype=np.int64)
    for bit in range(64):
        if (int(jokers) >> bit) & 1:
            n_jokers += (cards >> bit) & 1
    return {
        "jokers": n_jokers,
        "long_suit": length[rows, best],
        "long_honours": honours[rows, best],
        "aces": aces,
        "voids": (length == 0).sum(axis=1),
        "strength": score[rows, best] + n_jokers,
    }


def bid_fork_table(records: np.ndarray, rules: Rules) -> pl.DataFrame:
    """The bid fork records (:data:`kout_sim.io.records.BID_FORK_RECORD`) as a DataFrame, one row
    per branch, of the columns of :data:`kout_sim.io.schema.BID_FORK_COLUMNS` (docs/data.md)."""
    family = rules.family
    P, _ = tables_of(rules)
    names = call_names(family)
    data: dict[str, object] = dict(record_columns(BID_FORK_COLUMNS, BID_FORK_RECORD, records))

    def field(name: str) -> np.ndarray:
        return BID_FORK_RECORD.column(records, name)

    seat, bidder = field("seat"), field("bidder")
    data["seat_rel"] = (seat - field("dealer")) % rules.n_players
    data["call"] = field("call")
    data["chosen"] = field("chosen")
    data["is_chosen"] = field("call") == field("chosen")
    data["bids"] = (bidder >= 0) & (bidder % 2 == seat % 2)
    data["_trump"] = field("trump")
    data["_made"] = field("made")
    data["forced_joker"] = field("forced") == 1
    winner = field("match_winner")
    data["match_lost"] = (winner >= 0) & (winner != seat % 2)
    data["_made_actual"] = field("actual_made")
    # the branches of a fork share the seat's cards: the features of each distinct hand once
    distinct, where = np.unique(field("seat_hand"), return_inverse=True)
    data.update({k: v[where] for k, v in hand_features(distinct, P[L.P_JOKER_MASK]).items()})
    suits = dict(enumerate(C.SUITS))
    vocabulary = {i: name for i, name in enumerate(names) if name}
    frame = pl.DataFrame(data).with_columns(
        pl.col("call", "chosen").replace_strict(vocabulary, return_dtype=pl.String),
        trump=pl.col("_trump").replace_strict(suits, default=None, return_dtype=pl.String),
        # null: a forced joker lead (-1), or no bidder (a void Baloot hand)
        made=pl.when((pl.col("_made") < 0) | (pl.col("bidder") < 0))
        .then(None)
        .otherwise(pl.col("_made") == 1),
        made_actual=pl.when(pl.col("_made_actual") < 0)
        .then(None)
        .otherwise(pl.col("_made_actual") == 1),
    )
    frame = frame.with_columns(
        # a hand without a bidder (void) has no made result of its own either
        made_actual=pl.when(pl.col("made").is_null() & pl.col("is_chosen"))
        .then(None)
        .otherwise(pl.col("made_actual")),
        can_pass=(pl.col("call") == "pass").any().over("hand", "ply"),
        preset=pl.lit(rules.name),
    ).drop("_trump", "_made", "_made_actual")
    return conform(frame, BID_FORK_COLUMNS)


def fork_settings(
    kind: str, command: str, rules: Rules, lineup: Lineup, seed: int, hands: int, **extra: Any
) -> dict[str, Any]:
    """The settings of a forks folder of ``kind`` (``joker_forks``, ``bid_forks``): its
    ``run.json`` and parquet metadata, the run's settings first, then ``extra`` in the order
    given, then the provenance."""
    return {
        "kind": kind,
        "command": command,
        "preset": rules.name,
        "options": dict(rules.options),
        "family": rules.family.value,
        "players": lineup.describe(),
        "seed": seed,
        "unit": "hands",
        "count": hands,
        **extra,
        **provenance(),
    }


def write_table(
    store: Store,
    settings: dict[str, Any],
    name: str,
    table: pl.DataFrame,
    started: float,
    compile_seconds: float,
) -> None:
    """Write ``table`` as the one shard of the table ``name`` of the open run folder ``store``,
    with ``settings`` as parquet metadata and in ``run.json`` (the run manifest,
    :func:`kout_sim.io.manifest.run_manifest`: its status ``complete``, ``compile_seconds`` and
    the seconds since ``started`` once the shard is written; ``failed`` and a one-line
    ``ValueError`` if the disk refuses it)."""
    arrow = table.to_arrow().replace_schema_metadata({"kout_sim": json.dumps(settings)})
    meta = run_manifest(
        settings,
        settings["command"],
        status="running",
        compile_seconds=round(compile_seconds, 3),
    )
    manifest = Manifest(store, meta)
    try:
        manifest.flush(force=True)
        store.fs.makedirs(store.path(name), exist_ok=True)
        part = store.part(name, 0)
        manifest.add({"/".join(part): store.write_table(arrow, *part)})
        seconds = round(time.perf_counter() - started, 3)
        manifest.update(status="complete", seconds=seconds)
        manifest.flush(force=True)
    except OSError as exc:
        reason = one_line(exc)
        manifest.update(status="failed", error=reason)
        with contextlib.suppress(OSError):
            manifest.flush(force=True)
        raise ValueError(f"cannot write {store.url}: {reason}") from None


@contextlib.contextmanager
def forks_folder(out: str | os.PathLike[str], overwrite: bool) -> Iterator[Store]:
    """The forks folder ``out`` opened for writing, its lock held (:func:`kout_sim.io.store.opened`,
    never resumed); a folder that exists is refused (one line) without ``overwrite``."""
    store = Store(out)
    if store.exists() and not overwrite:
        raise ValueError(f"output folder {store.url} exists; pass --overwrite")
    with opened(store, overwrite=overwrite, resume=False):
        yield store
