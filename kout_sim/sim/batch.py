"""Typed Python wrappers of the batch kernels: hands and matches, in parallel, for any line-up.

Work is cut into fixed chunks keyed by stream index, so the rows never depend on the number of
workers: ``workers`` only decides how many chunks run at once (GIL-free kernel calls on a thread
pool).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..drivers.loop import Setup
from ..drivers.play import NO_TRACE, new_rows
from ..drivers.play import play_hands as _play_hands
from ..drivers.play import play_matches as _play_matches
from ..engine import layout as L
from ..engine._jit import cache_root
from ..engine.tables import tables_of
from ..players import Lineup, parse_lineup
from ..players.kinds import NO_SEARCH, SEARCH_ISMCTS, SEARCH_KINDS, SEARCH_PIMC, search_class
from ..players.registry import policy_family
from ..rules import Rules

MATCH_CHUNK = 2048

Players = str | Sequence[str] | Lineup


def available_workers() -> int:
    """CPU cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def check_workers(workers: int | None) -> int:
    """``workers`` validated against the cores available (``None`` means all of them)."""
    cores = available_workers()
    if workers is None:
        return cores
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if workers > cores:
        raise ValueError(f"workers={workers} exceeds the {cores} cores available")
    return workers


MAX_COUNT = 10**10
"""The most matches or independent hands one run (or duel side, fork run, study run) plays: ten
billion. At the fastest (random hands on two cores, 5 million a second) that is over half an hour
and 650 GB of parquet; with the heuristic players, days. A count beyond it is a typo far more often
than a plan, and every stream index then stays far inside int64."""

MAX_SEED = 2**63 - 1
"""The largest run seed: the kernels take the seed as an int64 (a larger one would compile another
copy of every driver, or not fit at all)."""


def check_count(name: str, value: object) -> int:
    """``value`` validated as a count of ``name`` (matches, hands): an integer in 1..MAX_COUNT."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if value > MAX_COUNT:
        raise ValueError(f"{name} must be at most {MAX_COUNT:,} (10^10), got {value:,}")
    return int(value)


def check_seed(seed: object, name: str = "seed") -> int:
    """``seed`` validated: an integer in 0..MAX_SEED (2^63 - 1)."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {seed!r}")
    if seed > MAX_SEED:
        raise ValueError(f"{name} must be at most 2^63 - 1 = {MAX_SEED:,}, got {seed:,}")
    return int(seed)


COMPILE_SECONDS = {
    ("kout", NO_SEARCH): 20,
    ("baloot", NO_SEARCH): 20,
    ("kout", SEARCH_ISMCTS): 40,
    ("baloot", SEARCH_ISMCTS): 40,
    ("kout", SEARCH_PIMC): 70,
    ("baloot", SEARCH_PIMC): 70,
}
"""Roughly how long the first run of a family compiles, by the line-up's search class (none,
ISMCTS, PIMC: :mod:`kout_sim.players.kinds`; one core of the project's machine, an empty cache;
``benchmarks/bench_compile.py``)."""

_READY: set[tuple[str, str, int, bool]] = set()
"""(policy family, unit, search class, solver) of the drivers already prepared in this process."""


NOTICE_AFTER = 2.0
"""Seconds before the compile notice: loading cached kernels takes up to about a second on a busy
2-core machine, a compile tens of seconds."""
SOLVER_COMPILE_SECONDS = 15
"""Roughly how long the double-dummy solver compiles the first time (one core)."""


def prepare(
    rules: Rules,
    players: Players,
    unit: str = "matches",
    notice: bool = True,
    solve: bool = False,
) -> None:
    """Compile (or load from the cache) the kernels a run of ``players`` needs, before it starts.

    A first run compiles for a while: when the kernels are not ready within NOTICE_AFTER seconds, one line
    on stderr says what is compiling, that it happens once, and roughly how long it takes. Timers
    and progress bars started after this measure the play alone.
    """
    lineup = lineup_of(rules, players)
    searching = search_class(lineup.kinds)
    family = rules.family
    # the drivers are per family, not per preset; the solver is one for every preset
    key = (policy_family(family), unit, searching, solve)
    if key in _READY:
        return
    setup = setup_of(rules, lineup)
    # one iteration / sample: the same kernels, at once
    setup.params[np.isin(setup.kinds, SEARCH_KINDS), 0] = 1
    error: list[BaseException] = []
    compiled = threading.Event()  # the drivers (and the solver) are ready

    def work() -> None:
        try:
            from ..io.schema import hands_table

            if unit == "hands":
                rows = new_rows(2)
                _play_hands(setup, 0, 0, rows, NO_TRACE)
            else:
                match_rows = np.zeros((1, L.X_SIZE), dtype=np.int64)
                rows = new_rows(400)
                _play_matches(setup, 0, 0, match_rows, rows, NO_TRACE)
            if solve:
                from ..solver import dd_columns

                dd_columns(rows[:1], rules)
            compiled.set()
            hands_table(
                rows[:2], {"family": family.value}, rules
            )  # its string kernels: seconds, once
        except BaseException as exc:  # pragma: no cover - re-raised below
            error.append(exc)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    compiled.wait(NOTICE_AFTER)
    if thread.is_alive() and not compiled.is_set() and notice:
        kind = "searching " if searching != NO_SEARCH else ""
        what = " and the double-dummy solver" if solve else ""
        seconds = COMPILE_SECONDS[key[0], searching] + (SOLVER_COMPILE_SECONDS if solve else 0)
        print(
            f"kout-sim: compiling the {key[0]} engine for {kind}{unit}{what} "
            f"(once: about {seconds} s; later runs load it from {cache_root()})",
            file=sys.stderr,
            flush=True,
        )
    thread.join()
    if error:
        raise error[0]
    _READY.add(key)


def lineup_of(rules: Rules, players: Players) -> Lineup:
    """``players`` (spec, specs or line-up) validated for ``rules``."""
    return parse_lineup(players, rules.n_players, rules.family)


def setup_of(rules: Rules, players: Players) -> Setup:
    """The tables of ``rules`` and the arrays of ``players`` (spec, specs or line-up), as the
    drivers take them."""
    lineup = lineup_of(rules, players)
    return Setup(*tables_of(rules), lineup.kinds, lineup.params(rules.family))


def _illegal(lineup: Lineup) -> RuntimeError:
    return RuntimeError(f"a policy chose an illegal action (players {lineup.describe()})")


def play_hands(
    rules: Rules,
    n_hands: int,
    seed: int,
    players: Players = "random",
    *,
    first: int = 0,
    workers: int | None = None,
    out: np.ndarray | None = None,
    trace: np.ndarray | None = None,
) -> np.ndarray:
    """``n_hands`` independent hands; int64[n_hands, R_SIZE] result rows.

    Hand ``i`` is played on the random streams of ``(seed, first + i)`` with a uniformly random
    dealer. ``out`` (int64[n_hands, R_SIZE]) may be given to reuse a buffer; ``trace``
    (int32[n_hands, MAX_ACTIONS]) receives each hand's packed decisions.
    """
    workers = check_workers(workers)
    lineup = lineup_of(rules, players)
    if out is None:
        out = new_rows(n_hands)
    elif out.shape != (n_hands, L.R_SIZE) or out.dtype != np.int64:
        raise ValueError(f"out must be int64[{n_hands}, {L.R_SIZE}]")
    if trace is None:
        trace = np.zeros((0, L.MAX_ACTIONS), dtype=np.int32)
    elif trace.shape != (n_hands, L.MAX_ACTIONS) or trace.dtype != np.int32:
        raise ValueError(f"trace must be int32[{n_hands}, {L.MAX_ACTIONS}]")
    target, target_trace = out, trace
    if n_hands < 2:  # see new_rows: a two-row buffer keeps the one compiled layout
        out = new_rows(2)
        if trace.shape[0]:
            trace = np.zeros((2, L.MAX_ACTIONS), dtype=np.int32)
    _play_hands(setup_of(rules, lineup), seed, first, out, trace, threads=workers)
    if out is not target:
        target[:] = out[:n_hands]
        if target_trace.shape[0]:
            target_trace[:] = trace[:n_hands]
        out = target
    if n_hands and out[:, L.R_N_ACTIONS].min() < 0:
        raise _illegal(lineup)
    return out


def _match_chunk(
    rules: Rules, lineup: Lineup, seed: int, first: int, n: int, traced: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    setup = setup_of(rules, lineup)
    match_rows = np.zeros((n, L.X_SIZE), dtype=np.int64)
    capacity = n * 48 + 100  # not a power of two times a power of two: see run.SHARD_HANDS
    while True:
        hand_rows = new_rows(capacity)
        trace = np.zeros((capacity if traced else 0, L.MAX_ACTIONS), dtype=np.int32)
        n_rows = _play_matches(setup, seed, first, match_rows, hand_rows, trace)
        if n_rows == -2:
            raise _illegal(lineup)
        if n_rows >= 0:
            return match_rows, hand_rows[:n_rows], trace[:n_rows]
        capacity *= 4


def play_matches(
    rules: Rules,
    n_matches: int,
    seed: int,
    players: Players = "random",
    *,
    first: int = 0,
    workers: int | None = None,
    traced: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n_matches`` whole matches: match rows int64[n, X_SIZE], hand rows int64[h, R_SIZE] and
    (``traced``) each hand's packed decisions int32[h, MAX_ACTIONS] (else int32[0, MAX_ACTIONS]).

    Match ``m`` is played on the random streams of ``(seed, first + m)``.
    """
    workers = check_workers(workers)
    lineup = lineup_of(rules, players)
    starts = list(range(first, first + n_matches, MATCH_CHUNK))
    sizes = [min(MATCH_CHUNK, first + n_matches - s) for s in starts]

    def chunk(start_size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return _match_chunk(rules, lineup, seed, start_size[0], start_size[1], traced)

    if workers == 1 or len(starts) <= 1:
        parts = [chunk(ss) for ss in zip(starts, sizes)]
    else:
        with ThreadPoolExecutor(workers) as pool:
            parts = list(pool.map(chunk, zip(starts, sizes)))
    if not parts:
        return (
            np.zeros((0, L.X_SIZE), np.int64),
            new_rows(0),
            np.zeros((0, L.MAX_ACTIONS), np.int32),
        )
    hand_rows = np.concatenate([p[1].T for p in parts], axis=1).T  # stays column by column
    return (
        np.concatenate([p[0] for p in parts]),
        hand_rows,
        np.concatenate([p[2] for p in parts]),
    )


def play_random_hands(
    rules: Rules,
    n_hands: int,
    seed: int,
    *,
    first: int = 0,
    workers: int | None = None,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`play_hands` with random players on every seat."""
    return play_hands(rules, n_hands, seed, "random", first=first, workers=workers, out=out)


def play_random_matches(
    rules: Rules, n_matches: int, seed: int, *, first: int = 0, workers: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`play_matches` with random players: (match rows, hand rows)."""
    match_rows, hand_rows, _ = play_matches(rules, n_matches, seed, first=first, workers=workers)
    return match_rows, hand_rows
