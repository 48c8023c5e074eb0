"""Joker forks as a table: every joker decision of many hands, played on both ways.

:func:`joker_forks` runs the fork driver of :mod:`kout_sim.drivers.fork` over independent hands and
returns one row per fork: the position (trick, seat, contract, trumps still out, ...) and the result
of each branch, ``*_joker`` (the joker played) and ``*_other`` (the policy's best non-joker card),
from the same deal and the same random numbers after the fork. :func:`play_on` plays any Kout
position on from a forced first action. A line-up with a searching seat (ISMCTS, PIMC) is forked by
:mod:`kout_sim.sim.search_fork` instead (the same records, stepped from Python over
:func:`kout_sim.drivers.playout.play_out`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from ..commands import command_line, option_args
from ..drivers import fork as FK
from ..drivers.playout import play_out
from ..engine import layout as L
from ..engine.tables import tables_of
from ..io.forks import FORK_FOLDERS, fork_settings, fork_table, forks_folder, write_table
from ..io.store import folder_path
from ..players import Lineup
from ..players.kinds import searches
from ..rules import Rules, get_rules
from . import search_fork as SF
from .batch import Players, check_count, check_seed, check_workers, lineup_of, setup_of

FORK_CHUNK = 20_000  # hands per kernel call: 60 MB of fork records


def default_lead_only(rules: Rules) -> bool:
    """Fork leads only in Kout Bo, whose joker question is the lead (RULES.md 1.6); every joker
    play in Bahraini Kout, whose joker is shed while following (2.8)."""
    return int(tables_of(rules)[0][L.P_JOKER_MODEL]) == L.JOKER_LADDER


def _kout_only(rules: Rules) -> None:
    if rules.is_baloot:
        raise ValueError(f"joker forks need a Kout preset (jokers); {rules.name} has none")


def checked(
    rules: Rules, players: Players, hands: int, seed: int, workers: int | None
) -> tuple[Lineup, int]:
    """The line-up ``players`` for ``rules`` and the number of worker threads, the count of
    ``hands`` and the ``seed`` checked on the way (a one-line ``ValueError`` each)."""
    lineup = lineup_of(rules, players)
    check_count("hands", hands)
    check_seed(seed)
    return lineup, check_workers(workers)


def fork_records(
    rules: Rules,
    n_hands: int,
    seed: int,
    players: Players = "heuristic",
    *,
    first: int = 0,
    lead_only: bool | None = None,
    workers: int | None = None,
) -> np.ndarray:
    """The raw fork records (int64[n_forks, F_SIZE]) of hands ``first .. first + n_hands``."""
    _kout_only(rules)
    lineup, n_workers = checked(rules, players, n_hands, seed, workers)
    if lead_only is None:
        lead_only = default_lead_only(rules)
    mode = FK.MODE_JOKER_LEAD if lead_only else FK.MODE_JOKER_ANY
    return fork_chunks(
        rules, lineup, seed, first, n_hands, mode, FK.MAX_FORKS, FORK_CHUNK, n_workers, "fork"
    )


def fork_chunks(
    rules: Rules,
    lineup: Lineup,
    seed: int,
    first: int,
    n_hands: int,
    mode: int,
    room: int,
    chunk_size: int,
    workers: int,
    what: str,
) -> np.ndarray:
    """The fork records of ``mode`` (:func:`kout_sim.drivers.fork.fork_hands`) of hands ``first ..
    first + n_hands`` by ``lineup``, played in chunks of ``chunk_size`` hands over ``workers`` threads, in stream
    order; ``room`` records a hand at most, ``what`` names the forks in the errors. A line-up with
    a searching seat is forked by :func:`kout_sim.sim.search_fork.fork_hands` (the same records),
    in chunks of at most :data:`~kout_sim.sim.search_fork.SEARCH_CHUNK` hands."""
    setup = setup_of(rules, lineup)
    fork_hands = FK.fork_hands
    if searches(setup.kinds):
        fork_hands = SF.fork_hands
        chunk_size = min(chunk_size, SF.SEARCH_CHUNK)
    starts = list(range(first, first + n_hands, chunk_size))

    def chunk(start: int) -> np.ndarray:
        size = min(chunk_size, first + n_hands - start)
        out = np.zeros((size, room, FK.F_SIZE), dtype=np.int64)
        counts = np.zeros(size, dtype=np.int64)
        fork_hands(setup, seed, start, out, counts, mode)
        if (counts == -1).any():
            raise RuntimeError("a policy chose an illegal action")
        if (counts < 0).any():
            raise RuntimeError(f"a hand has more than {room} {what} branches")
        used = np.arange(room)[None, :] < counts[:, None]
        return out[used]

    if workers == 1 or len(starts) == 1:
        parts = [chunk(s) for s in starts]
    else:
        with ThreadPoolExecutor(workers) as pool:
            parts = list(pool.map(chunk, starts))
    records = np.concatenate(parts)
    if records[:, FK.F_ILLEGAL].any():
        raise RuntimeError(f"a policy chose an illegal action in a {what}")
    return records


def joker_forks(
    preset: str = "kout_bo_4",
    hands: int = 100_000,
    seed: int = 0,
    players: Players = "heuristic",
    *,
    options: dict[str, Any] | None = None,
    first: int = 0,
    lead_only: bool | None = None,
    workers: int | None = None,
) -> pl.DataFrame:
    """Fork every joker decision of ``hands`` independent hands and play both branches on.

    ``lead_only`` (default: True for Kout Bo, whose joker question is the lead, False for
    Bahraini Kout, whose joker is shed while following): fork only decisions that lead a trick.
    One row per fork; see :func:`kout_sim.io.forks.fork_table`.
    """
    rules = get_rules(preset, options)
    records = fork_records(
        rules, hands, seed, players, first=first, lead_only=lead_only, workers=workers
    )
    return fork_table(records, rules)


def play_on(
    rules: Rules,
    S: np.ndarray,
    action: int,
    players: Players = "heuristic",
    *,
    rng: np.ndarray | None = None,
    seed: int = 0,
    index: int = 0,
) -> tuple[np.ndarray, list[int]]:
    """Play the Kout position ``S`` on to the end of its hand, the seat to act playing ``action``
    (a phase-relative action, e.g. a card id) first.

    The choices after it draw from ``rng`` (uint64[4], copied) or else from the fork lane of
    ``(seed, index)``: two calls with the same random state differ only by their first action.
    Returns the final hand state and the global action ids played after ``action``.
    """
    _kout_only(rules)
    lineup = lineup_of(rules, players)
    kinds, params = lineup.kinds, lineup.params(rules.family)
    P, STR = tables_of(rules)
    state = np.array(S, dtype=np.int64, copy=True)
    if state.shape != (L.S_SIZE,):
        raise ValueError(f"S must be int64[{L.S_SIZE}]")
    if state[L.S_PHASE] == L.PH_OVER:
        raise ValueError("the hand of S is over")
    from ..engine.game import legal_mask

    mask = int(legal_mask(state, P, STR, int(P[L.P_FAMILY])))
    if not 0 <= action < 64 or not (mask >> action) & 1:
        raise ValueError(f"action {action} is not legal in this position")
    if rng is None:
        from ..engine.rng import seed_stream

        rng = np.empty(4, dtype=np.uint64)
        seed_stream(rng, seed, index, FK.LANE_FORK)
    stream = np.array(rng, dtype=np.uint64, copy=True)
    actions = np.zeros(L.MAX_ACTIONS, dtype=np.int64)
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    t = play_out(state, P, STR, MS, stream, kinds, params, action, -1, -1, actions)
    if t < 0:
        raise RuntimeError("a policy chose an illegal action")
    return state, [int(a) for a in actions[:t]]


def write_forks(
    out: str | os.PathLike[str],
    preset: str = "kout_bo_4",
    hands: int = 1_000_000,
    seed: int = 0,
    players: Players = "heuristic",
    *,
    options: dict[str, Any] | None = None,
    lead_only: bool | None = None,
    workers: int | None = None,
    overwrite: bool = False,
) -> Path | str:
    """Fork the joker decisions of ``hands`` hands and write them as a run folder: ``run.json``
    (``"kind": "joker_forks"`` and the settings) and ``forks/part-00000.parquet`` (one row per
    fork, the columns of :func:`kout_sim.io.forks.fork_table`, the settings as parquet
    metadata)."""
    rules = get_rules(preset, options)
    # bad input is refused before an existing folder is replaced
    lineup, _ = checked(rules, players, hands, seed, workers)
    at_lead = default_lead_only(rules) if lead_only is None else bool(lead_only)
    return write_fork_run(
        out,
        rules,
        lineup,
        hands,
        seed,
        options,
        kind="joker_forks",
        at=None if at_lead == default_lead_only(rules) else ("lead" if at_lead else "any"),
        mode=FK.MODE_JOKER_LEAD if at_lead else FK.MODE_JOKER_ANY,
        room=FK.MAX_FORKS,
        overwrite=overwrite,
        play=lambda: joker_forks(
            rules.name, hands, seed, lineup, options=options, lead_only=at_lead, workers=workers
        ),
        extra=lambda table, _: {"lead_only": at_lead, "forks": len(table)},
    )


def write_fork_run(
    out: str | os.PathLike[str],
    rules: Rules,
    lineup: Lineup,
    hands: int,
    seed: int,
    options: dict[str, Any] | None,
    *,
    kind: str,
    at: str | None,
    mode: int,
    room: int,
    overwrite: bool,
    play: Callable[[], pl.DataFrame],
    extra: Callable[[pl.DataFrame, float], dict[str, Any]],
) -> Path | str:
    """Write the forks table that ``play()`` returns as the folder ``out`` of ``kind``
    (:data:`kout_sim.io.forks.FORK_FOLDERS`): the fork kernel of ``mode`` (``room`` records a
    hand) compiled first, apart from the forks' seconds; the folder's settings those of
    :func:`kout_sim.io.forks.fork_settings`, with the command line (``--at at``) and
    ``extra(table, started)``. Returns the folder (:func:`kout_sim.io.store.folder_path`)."""
    with forks_folder(out, overwrite) as store:
        compiled = prepare_forks(rules, lineup, mode, room)
        started = time.perf_counter()
        table = play()
        command = command_line(
            "forks",
            kind=None if kind == "joker_forks" else "bid",
            preset=rules.name,
            hands=hands,
            seed=seed,
            option=option_args(options),
            players=lineup.describe(),
            at=at,
            out=str(out),
        )
        settings = fork_settings(kind, command, rules, lineup, seed, hands, **extra(table, started))
        write_table(store, settings, FORK_FOLDERS[kind], table, started, compiled)
    return folder_path(out)


def prepare_forks(rules: Rules, lineup: Lineup, mode: int, room: int) -> float:
    """Compile (or load from the cache) the fork kernel of ``mode`` for ``lineup``, on
    no hand, so that the forks are timed apart from it; returns its seconds (``compile_seconds`` of
    the folder's ``run.json``). A searching line-up compiles its search kernels in its first hand."""
    started = time.perf_counter()
    setup = setup_of(rules, lineup)
    fork_hands = SF.fork_hands if searches(setup.kinds) else FK.fork_hands
    out = np.zeros((0, room, FK.F_SIZE), dtype=np.int64)
    fork_hands(setup, 0, 0, out, np.zeros(0, dtype=np.int64), mode)
    return time.perf_counter() - started
