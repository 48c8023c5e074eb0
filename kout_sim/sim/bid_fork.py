"""Bid forks as a table: the first free bid decision of many hands (or every one), played on once
per legal call.

:func:`bid_forks` runs the fork driver of :mod:`kout_sim.drivers.fork` in a bid mode over
independent hands and returns one row per branch: the decision (hand, seat, standing bid, the
seat's cards and their features), the branch's call and its result (contract, trump, made, net
points of the seat's team). The branches of one fork share the deal, the seat, the calls before
the decision and the random numbers after it (the hand's own play lane as it stood after the
seat's policy chose its call), so the branch of the call the policy made (``is_chosen``) is the
hand as it was played, and the other branches differ from it by the call alone. After the fork the
rest of the auction, the trump choice (Kout: the trump the bidder's policy names for the contract
it ends on, RULES.md 1.4 / 2.4) and the play are the line-up's.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from .. import cards as C
from ..commands import command_line, option_args
from ..drivers import fork as FK
from ..engine import layout as L
from ..engine.tables import tables_of
from ..io.features import call_names
from ..io.records import BID_FORK_RECORD
from ..io.schema import BID_FORK_COLUMNS, conform, record_columns
from ..io.store import Store, opened
from ..rules import Rules, get_rules
from .batch import Players, check_count, check_seed, check_workers, lineup_of
from .fork import fork_chunks, fork_settings, prepare_forks, write_table

BID_CHUNK = 5_000  # hands per kernel call: at most 82 MB of records (MAX_BID_FORKS rows a hand)
AT_CHOICES = ("first", "every")
"""Where bid forks are made: the first free bid decision of a hand, or every one."""


def check_at(at: str) -> bool:
    """``True`` for ``"every"``, ``False`` for ``"first"``; a one-line ``ValueError`` otherwise."""
    if at not in AT_CHOICES:
        raise ValueError(f"unknown bid fork point {at!r}; one of {', '.join(AT_CHOICES)}")
    return at == "every"


def _check(rules: Rules, players: Players) -> tuple[np.ndarray, np.ndarray]:
    lineup = lineup_of(rules, players)
    return lineup.kinds, lineup.params(rules.family)


def bid_fork_records(
    rules: Rules,
    n_hands: int,
    seed: int,
    players: Players = "heuristic",
    *,
    first: int = 0,
    every: bool = False,
    workers: int | None = None,
) -> np.ndarray:
    """The raw bid fork records (int64[n_branches, F_SIZE], fields ``FK.G_*`` / ``FK.F_*``) of
    hands ``first .. first + n_hands``, hand by hand in stream order."""
    kinds, params = _check(rules, players)
    check_count("hands", n_hands)
    check_seed(seed)
    workers = check_workers(workers)
    room = FK.MAX_BID_FORKS if every else FK.MAX_FIRST_BID_FORKS
    mode = FK.MODE_BID_EVERY if every else FK.MODE_BID_FIRST
    return fork_chunks(
        rules, kinds, params, seed, first, n_hands, mode, room, BID_CHUNK, workers, "bid fork"
    )


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


def bid_forks(
    preset: str = "kout_bo_4",
    hands: int = 100_000,
    seed: int = 0,
    players: Players = "heuristic",
    *,
    options: dict[str, Any] | None = None,
    first: int = 0,
    at: str = "first",
    workers: int | None = None,
) -> pl.DataFrame:
    """Fork the first free bid decision (``at="first"``) or every free bid decision
    (``at="every"``) of ``hands`` independent hands, once per legal call; one row per branch (see
    :func:`bid_fork_table`)."""
    every = check_at(at)
    rules = get_rules(preset, options)
    records = bid_fork_records(
        rules, hands, seed, players, first=first, every=every, workers=workers
    )
    return bid_fork_table(records, rules)


def write_bid_forks(
    out: str | os.PathLike[str],
    preset: str = "kout_bo_4",
    hands: int = 100_000,
    seed: int = 0,
    players: Players = "heuristic",
    *,
    options: dict[str, Any] | None = None,
    at: str = "first",
    workers: int | None = None,
    overwrite: bool = False,
) -> Path | str:
    """Fork the bid decisions of ``hands`` hands and write them as a run folder: ``run.json``
    (``"kind": "bid_forks"`` and the settings) and ``bid_forks/part-00000.parquet`` (one row per
    branch, the columns of :func:`bid_fork_table`, the settings as parquet metadata)."""
    rules = get_rules(preset, options)
    lineup = lineup_of(rules, players)
    _check(rules, lineup)
    check_at(at)
    check_count("hands", hands)
    check_seed(seed)
    check_workers(workers)
    store = Store(out)
    if store.exists() and not overwrite:
        raise ValueError(f"output folder {store.url} exists; pass --overwrite")
    with opened(store, overwrite=overwrite, resume=False):
        every = check_at(at)
        compiled = prepare_forks(
            rules,
            lineup.kinds,
            lineup.params(rules.family),
            FK.MODE_BID_EVERY if every else FK.MODE_BID_FIRST,
            FK.MAX_BID_FORKS if every else FK.MAX_FIRST_BID_FORKS,
        )
        started = time.perf_counter()
        table = bid_forks(rules.name, hands, seed, lineup, options=options, at=at, workers=workers)
        command = command_line(
            "forks",
            kind="bid",
            preset=rules.name,
            hands=hands,
            seed=seed,
            option=option_args(options),
            players=lineup.describe(),
            at=None if at == "first" else at,
            out=str(out),
        )
        settings = fork_settings(
            "bid_forks",
            command,
            rules,
            lineup,
            seed,
            hands,
            at=at,
            forks=int(table.select(pl.struct("hand", "ply").n_unique()).item()),
            branches=len(table),
            fork_seconds=round(time.perf_counter() - started, 3),
        )
        write_table(store, settings, "bid_forks", table, started, compiled)
    return str(out) if "://" in str(out) else Path(out)
