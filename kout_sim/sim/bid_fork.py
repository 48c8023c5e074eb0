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

from ..drivers import fork as FK
from ..io.forks import bid_fork_table
from ..rules import Rules, get_rules
from .batch import Players
from .fork import checked, fork_chunks, write_fork_run

BID_CHUNK = 5_000  # hands per kernel call: at most 82 MB of records (MAX_BID_FORKS rows a hand)
AT_CHOICES = ("first", "every")
"""Where bid forks are made: the first free bid decision of a hand, or every one."""


def check_at(at: str) -> bool:
    """``True`` for ``"every"``, ``False`` for ``"first"``; a one-line ``ValueError`` otherwise."""
    if at not in AT_CHOICES:
        raise ValueError(f"unknown bid fork point {at!r}; one of {', '.join(AT_CHOICES)}")
    return at == "every"


def _mode_room(every: bool) -> tuple[int, int]:
    """The fork driver's mode for bid forks at every free bid decision (or the first only), and
    the records a hand may take in it."""
    if every:
        return FK.MODE_BID_EVERY, FK.MAX_BID_FORKS
    return FK.MODE_BID_FIRST, FK.MAX_FIRST_BID_FORKS


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
    lineup, n_workers = checked(rules, players, n_hands, seed, workers)
    mode, room = _mode_room(every)
    return fork_chunks(
        rules, lineup, seed, first, n_hands, mode, room, BID_CHUNK, n_workers, "bid fork"
    )


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
    :func:`kout_sim.io.forks.bid_fork_table`)."""
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
    branch, the columns of :func:`kout_sim.io.forks.bid_fork_table`, the settings as parquet
    metadata)."""
    rules = get_rules(preset, options)
    # bad input is refused before an existing folder is replaced
    lineup, _ = checked(rules, players, hands, seed, workers)
    mode, room = _mode_room(check_at(at))
    return write_fork_run(
        out,
        rules,
        lineup,
        hands,
        seed,
        options,
        kind="bid_forks",
        at=None if at == "first" else at,
        mode=mode,
        room=room,
        overwrite=overwrite,
        play=lambda: bid_forks(
            rules.name, hands, seed, lineup, options=options, at=at, workers=workers
        ),
        extra=lambda table, started: {
            "at": at,
            "forks": int(table.select(pl.struct("hand", "ply").n_unique()).item()),
            "branches": len(table),
            "fork_seconds": round(time.perf_counter() - started, 3),
        },
    )
