"""The hands and matches entry points stage their result rows in ``Lanes.block`` and copy each block
out with streaming stores (``drivers.loop.flush_rows``): the rows they write do not depend on the
block's size, nor on what the output buffer held before."""

from __future__ import annotations

import numpy as np
import pytest

from kout_sim.drivers.loop import ROW_BLOCK, Lanes
from kout_sim.drivers.play import NO_TRACE, kernels, lanes, line_up, new_rows
from kout_sim.engine import layout as L
from kout_sim.engine.tables import tables_of
from kout_sim.rules import get_rules
from kout_sim.sim.batch import lineup_of

BLOCKS = [1, 7, ROW_BLOCK]
POISON = -123_456_789  # in no field of any row


def _poisoned_lanes(P: np.ndarray, rows: int) -> Lanes:
    """Lanes whose staging block holds :data:`POISON`: a field a hand left unwritten would show."""
    w = lanes(P, rows=rows)
    w.block[:] = POISON
    return w


def _setup(preset: str, players: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rules = get_rules(preset)
    P, STR = tables_of(rules)
    lineup = lineup_of(rules, players)
    return P, STR, lineup.kinds, lineup.params(rules.family)


@pytest.mark.parametrize(("preset", "players"), [("kout_bo_4", "random"), ("baloot", "heuristic")])
def test_hand_rows_do_not_depend_on_the_block_or_the_buffer(preset: str, players: str) -> None:
    P, STR, kinds, params = _setup(preset, players)
    hands = kernels(P, kinds).hands
    n = 2 * ROW_BLOCK + 13  # two whole blocks and a part
    runs = []
    for rows in BLOCKS:
        out = new_rows(n)
        out[:] = -7  # a reused buffer: every field of every row is written again
        w = _poisoned_lanes(P, rows)
        hands(line_up(P, STR, kinds, params), w, 5, 100, out, NO_TRACE, 3, n)
        runs.append(out)
        assert (out[:3] == -7).all()  # rows outside lo..hi untouched
        assert not (out[3:] == -7).any() and not (out == POISON).any()
        assert (out[3:, L.R_MATCH] == np.arange(103, 100 + n)).all()
    for other in runs[1:]:
        assert np.array_equal(runs[0], other)
    fresh = new_rows(n)
    hands(line_up(P, STR, kinds, params), lanes(P, rows=ROW_BLOCK), 5, 100, fresh, NO_TRACE, 3, n)
    assert np.array_equal(fresh[3:], runs[0][3:])  # as on a zeroed buffer


@pytest.mark.parametrize(("preset", "players"), [("kout_bh_4", "random"), ("baloot", "random")])
def test_match_rows_do_not_depend_on_the_block(preset: str, players: str) -> None:
    P, STR, kinds, params = _setup(preset, players)
    matches = kernels(P, kinds).matches
    runs = []
    for rows in BLOCKS:
        match_rows = np.zeros((400, L.X_SIZE), dtype=np.int64)
        hand_rows = new_rows(400 * 48 + 100)
        hand_rows[:] = -7
        ctx = line_up(P, STR, kinds, params)
        n = matches(ctx, _poisoned_lanes(P, rows), 11, 0, match_rows, hand_rows, NO_TRACE)
        assert n > ROW_BLOCK  # more than one block of hands
        assert (hand_rows[n:] == -7).all()  # nothing past the hands played
        assert not (hand_rows[:n] == -7).any() and not (hand_rows == POISON).any()
        runs.append((n, match_rows, hand_rows[:n].copy()))
    for n, match_rows, hand_rows in runs[1:]:
        assert n == runs[0][0]
        assert np.array_equal(match_rows, runs[0][1])
        assert np.array_equal(hand_rows, runs[0][2])


def test_a_full_hand_buffer_keeps_the_rows_written_before_it() -> None:
    P, STR, kinds, params = _setup("kout_bo_4", "random")
    matches = kernels(P, kinds).matches
    match_rows = np.zeros((300, L.X_SIZE), dtype=np.int64)
    full = new_rows(300 * 48 + 100)
    n = matches(line_up(P, STR, kinds, params), lanes(P), 3, 0, match_rows, full, NO_TRACE)
    assert n - 5 > ROW_BLOCK
    small = new_rows(n - 5)  # the last hands do not fit
    for rows in (1, ROW_BLOCK):
        small[:] = 0
        status = matches(
            line_up(P, STR, kinds, params), lanes(P, rows=rows), 3, 0, match_rows, small, NO_TRACE
        )
        assert status == -1
        assert np.array_equal(small, full[: n - 5])  # every hand that fitted was copied out
