"""Text and list columns of the tables, built from the packed fields of the result rows.

The calls (one byte each in ``R_CALLS``) and the trick winners (one byte each in ``R_WINNERS``) are
written as short strings (``"pass 5 pass 6 S"``, ``"0213"``): parquet writes a string column
several times faster than a list column, and ``str.split`` gives the list back. Every string column
is assembled from its codes by a small kernel (a gather through a table of names), never row by
row in Python.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from .. import cards as C
from ..engine import layout as L
from ..engine._jit import jit_alloc


@jit_alloc
def _join_packed(
    packed: np.ndarray,
    counts: np.ndarray,
    table: np.ndarray,
    start: np.ndarray,
    length: np.ndarray,
    sep: np.ndarray,
    offsets: np.ndarray,
) -> np.ndarray:
    """Row ``i`` of a string column: the names of the first ``counts[i]`` bytes of ``packed[i]``
    (little-endian bytes of its int64 words, each a name index + 1), joined by ``sep``. Fills
    ``offsets`` (int32[n + 1]) and returns the character data (one pass into a buffer sized for
    the longest names)."""
    n = packed.shape[0]
    widest = 0
    for code in range(length.size):
        widest = max(widest, length[code])
    data = np.empty(counts.sum() * (widest + sep.size), dtype=np.uint8)
    at = 0
    for i in range(n):
        offsets[i] = at
        for j in range(counts[i]):
            if j > 0:
                for b in range(sep.size):
                    data[at] = sep[b]
                    at += 1
            code = ((packed[i, j >> 3] >> ((j & 7) * 8)) & 0xFF) - 1
            for b in range(length[code]):
                data[at] = table[start[code] + b]
                at += 1
    offsets[n] = at
    return data[:at]


@jit_alloc
def _join_codes(
    codes: np.ndarray,
    valid: np.ndarray,
    table: np.ndarray,
    start: np.ndarray,
    length: np.ndarray,
    offsets: np.ndarray,
) -> np.ndarray:
    """Row ``i`` of a string column: the name of ``codes[i]`` (empty where not ``valid``). Fills
    ``offsets`` (int32[n + 1]) and returns the character data."""
    n = codes.size
    total = 0
    for i in range(n):
        offsets[i] = total
        if valid[i]:
            total += length[codes[i]]
    offsets[n] = total
    data = np.empty(total, dtype=np.uint8)
    for i in range(n):
        if valid[i]:
            at = offsets[i]
            for b in range(length[codes[i]]):
                data[at + b] = table[start[codes[i]] + b]
    return data


def _name_table(names: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(utf-8 bytes of all names, start and length of each)."""
    encoded = [name.encode() for name in names]
    length = np.array([len(e) for e in encoded], dtype=np.int64)
    start = np.zeros(len(names), dtype=np.int64)
    np.cumsum(length[:-1], out=start[1:])
    return np.frombuffer(b"".join(encoded) or b"\0", dtype=np.uint8), start, length


def _validity(mask: np.ndarray | None) -> tuple[pa.Buffer | None, int]:
    """(arrow validity bitmap, null count) of a null ``mask`` (``None``: no nulls)."""
    if mask is None or not mask.any():
        return None, 0
    return pa.py_buffer(np.packbits(~mask, bitorder="little")), int(mask.sum())


def numpy_array(values: np.ndarray, dtype: pa.DataType, mask: np.ndarray | None = None) -> pa.Array:
    """An arrow integer or boolean array over a numpy array (null where ``mask``), built from its
    buffers: ``pa.array`` on numpy input imports pandas, half a second at the start of a run."""
    validity, nulls = _validity(mask)
    if pa.types.is_boolean(dtype):
        data = pa.py_buffer(np.packbits(np.asarray(values, dtype=bool), bitorder="little"))
    else:
        data = pa.py_buffer(np.ascontiguousarray(values, dtype=NUMPY_TYPES[dtype]))
    return pa.Array.from_buffers(dtype, len(values), [validity, data], null_count=nulls)


NUMPY_TYPES = {pa.int8(): np.int8, pa.int16(): np.int16, pa.int32(): np.int32, pa.int64(): np.int64}
"""numpy dtype of each arrow integer type."""


def _strings(n: int, offsets: np.ndarray, data: np.ndarray, mask: np.ndarray | None) -> pa.Array:
    validity, null_count = _validity(mask)
    return pa.StringArray.from_buffers(
        n, pa.py_buffer(offsets), pa.py_buffer(data), validity, null_count
    )


def joined(names: list[str], packed: np.ndarray, counts: np.ndarray, sep: str = " ") -> pa.Array:
    """A string column: row ``i`` joins the names of the first ``counts[i]`` entries packed one
    byte each (name index + 1) in the int64 words of ``packed[i]``, with ``sep``."""
    table, start, length = _name_table(names)
    offsets = np.empty(len(counts) + 1, dtype=np.int32)
    separator = np.frombuffer(sep.encode() or b"\0", dtype=np.uint8)[: len(sep.encode())]
    data = _join_packed(packed, counts.astype(np.int64), table, start, length, separator, offsets)
    return _strings(len(counts), offsets, data, None)


def labels(names: list[str], codes: np.ndarray, mask: np.ndarray | None = None) -> pa.Array:
    """A string column of one name per row, ``names[codes]``; null where ``mask``."""
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    valid = np.ones(len(codes), dtype=np.bool_) if mask is None else ~mask
    table, start, length = _name_table(names)
    offsets = np.empty(len(codes) + 1, dtype=np.int32)
    data = _join_codes(codes, valid, table, start, length, offsets)
    return _strings(len(codes), offsets, data, mask)


def call_names(family: str) -> list[str]:
    """Name of each call index (the replay vocabulary)."""
    if family == "baloot":
        names = list(L.BALOOT_CALL_NAMES)
    else:
        names = ["pass"] + [str(b) for b in range(1, L.TRUMP)] + list(C.SUITS)
    return names + [""] * (L.CALL - len(names))


def action_names(family: str) -> list[str]:
    """Name of each global action id 0..127: card texts, then the calls."""
    cards = [C.format_card(c) if c < 52 or c in C.JOKER_NAMES else "" for c in range(L.CALL)]
    return cards + call_names(family)


def calls(rows: np.ndarray, family: str) -> pa.Array:
    """The calls of each hand, in order, as call names joined by spaces."""
    return joined(call_names(family), rows[:, L.R_CALLS : L.R_CALLS + 4], rows[:, L.R_N_CALLS])


def trick_winners(rows: np.ndarray) -> pa.Array:
    """The seat that won each completed trick, in order, one digit per trick."""
    digits = [str(seat) for seat in range(10)]
    return joined(digits, rows[:, L.R_WINNERS : L.R_WINNERS + 2], rows[:, L.R_N_DONE], "")


def projects(rows: np.ndarray, none: np.ndarray) -> pa.Array:
    """The buyer's project names (Baloot), null where ``none``."""
    codes = rows[:, L.R_BIDDER_PROJ : L.R_BIDDER_PROJ + 2]
    counts = (codes > 0).sum(axis=1)
    offsets = np.zeros(len(rows) + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    flat = (codes[codes > 0] // 1000).astype(np.int64)
    names = labels(list(L.PROJ_NAMES), flat)
    offsets_array = numpy_array(offsets, pa.int32())
    return pa.ListArray.from_arrays(offsets_array, names, mask=numpy_array(none, pa.bool_()))
