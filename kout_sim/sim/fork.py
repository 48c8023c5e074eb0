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

import contextlib
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from .. import cards as C
from ..commands import command_line, option_args
from ..drivers import fork as FK
from ..drivers.playout import play_out
from ..engine import layout as L
from ..engine.tables import tables_of
from ..io.manifest import provenance, run_manifest
from ..io.records import FORK_RECORD
from ..io.schema import BRANCHES, FORK_COLUMNS, conform, record_columns
from ..io.store import Manifest, Store, one_line, opened
from ..players import Lineup
from ..players.kinds import searches
from ..rules import Rules, get_rules
from . import search_fork as SF
from .batch import Players, check_count, check_seed, check_workers, lineup_of

FORK_CHUNK = 20_000  # hands per kernel call: 60 MB of fork records


def default_lead_only(rules: Rules) -> bool:
    """Fork leads only in Kout Bo, whose joker question is the lead (RULES.md 1.6); every joker
    play in Bahraini Kout, whose joker is shed while following (2.8)."""
    return int(tables_of(rules)[0][L.P_JOKER_MODEL]) == L.JOKER_LADDER


def _check(rules: Rules, players: Players) -> tuple[np.ndarray, np.ndarray]:
    if rules.is_baloot:
        raise ValueError(f"joker forks need a Kout preset (jokers); {rules.name} has none")
    lineup = lineup_of(rules, players)
    return lineup.kinds, lineup.params(rules.family)


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
    kinds, params = _check(rules, players)
    check_count("hands", n_hands)
    check_seed(seed)
    workers = check_workers(workers)
    if lead_only is None:
        lead_only = default_lead_only(rules)
    mode = FK.MODE_JOKER_LEAD if lead_only else FK.MODE_JOKER_ANY
    return fork_chunks(
        rules, kinds, params, seed, first, n_hands, mode, FK.MAX_FORKS, FORK_CHUNK, workers, "fork"
    )


def fork_chunks(
    rules: Rules,
    kinds: np.ndarray,
    params: np.ndarray,
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
    first + n_hands``, played in chunks of ``chunk_size`` hands over ``workers`` threads, in stream
    order; ``room`` records a hand at most, ``what`` names the forks in the errors. A line-up with
    a searching seat is forked by :func:`kout_sim.sim.search_fork.fork_hands` (the same records),
    in chunks of at most :data:`~kout_sim.sim.search_fork.SEARCH_CHUNK` hands."""
    P, STR = tables_of(rules)
    fork_hands = FK.fork_hands
    if searches(kinds):
        fork_hands = SF.fork_hands
        chunk_size = min(chunk_size, SF.SEARCH_CHUNK)
    starts = list(range(first, first + n_hands, chunk_size))

    def chunk(start: int) -> np.ndarray:
        size = min(chunk_size, first + n_hands - start)
        out = np.zeros((size, room, FK.F_SIZE), dtype=np.int64)
        counts = np.zeros(size, dtype=np.int64)
        fork_hands(P, STR, kinds, params, seed, start, out, counts, mode)
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
    One row per fork; see :func:`fork_table`.
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
    kinds, params = _check(rules, players)
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
    legal = np.zeros(L.MAX_ACTIONS, dtype=np.int64)
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    if searches(kinds):  # the play-on entry of the search class (the advisor's)
        t = play_out(state, P, STR, MS, stream, kinds, params, action, -1, -1, actions)
    else:
        t = FK.play_on_position(state, P, STR, MS, stream, kinds, params, action, actions, legal)
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
    fork, the columns of :func:`fork_table`, the settings as parquet metadata)."""
    rules = get_rules(preset, options)
    lineup = lineup_of(rules, players)
    # bad input is refused before an existing folder is replaced
    check_count("hands", hands)
    check_seed(seed)
    check_workers(workers)
    if lead_only is None:
        lead_only = default_lead_only(rules)
    store = Store(out)
    if store.exists() and not overwrite:
        raise ValueError(f"output folder {store.url} exists; pass --overwrite")
    with opened(store, overwrite=overwrite, resume=False):
        _write_forks(store, out, rules, lineup, hands, seed, options, bool(lead_only), workers)
    return str(out) if "://" in str(out) else Path(out)


def _write_forks(
    store: Store,
    out: str | os.PathLike[str],
    rules: Rules,
    lineup: Any,
    hands: int,
    seed: int,
    options: dict[str, Any] | None,
    lead_only: bool,
    workers: int | None,
) -> None:
    preset = rules.name
    mode = FK.MODE_JOKER_LEAD if lead_only else FK.MODE_JOKER_ANY
    compiled = prepare_forks(rules, lineup.kinds, lineup.params(rules.family), mode, FK.MAX_FORKS)
    started = time.perf_counter()
    table = joker_forks(
        preset,
        hands,
        seed,
        lineup,
        options=options,
        lead_only=lead_only,
        workers=workers,
    )
    command = command_line(
        "forks",
        preset=rules.name,
        hands=hands,
        seed=seed,
        option=option_args(options),
        players=lineup.describe(),
        at=None if lead_only == default_lead_only(rules) else ("lead" if lead_only else "any"),
        out=str(out),
    )
    settings = fork_settings(
        "joker_forks",
        command,
        rules,
        lineup,
        seed,
        hands,
        lead_only=bool(lead_only),
        forks=len(table),
    )
    write_table(store, settings, "forks", table, started, compiled)


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


def prepare_forks(
    rules: Rules, kinds: np.ndarray, params: np.ndarray, mode: int, room: int
) -> float:
    """Compile (or load from the cache) the fork kernel of ``mode`` for the line-up ``kinds``, on
    no hand, so that the forks are timed apart from it; returns its seconds (``compile_seconds`` of
    the folder's ``run.json``). A searching line-up compiles its search kernels in its first hand."""
    started = time.perf_counter()
    P, STR = tables_of(rules)
    fork_hands = SF.fork_hands if searches(kinds) else FK.fork_hands
    out = np.zeros((0, room, FK.F_SIZE), dtype=np.int64)
    fork_hands(P, STR, kinds, params, 0, 0, out, np.zeros(0, dtype=np.int64), mode)
    return time.perf_counter() - started


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
