"""List and label columns of the tables, built from the packed fields of the result rows.

The calls (one byte each in ``R_CALLS``) and the trick winners (one byte each in ``R_WINNERS``) are
viewed as bytes and turned into arrow list columns without a Python loop; call and action names are
dictionary-decoded.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from .. import cards as C
from ..engine import layout as L


def _byte_lists(packed: np.ndarray, counts: np.ndarray) -> tuple[pa.Array, np.ndarray]:
    """(offsets, codes - 1) of the byte-packed entries: ``counts[i]`` leading bytes of row ``i``."""
    data = np.ascontiguousarray(packed).view(np.uint8).reshape(len(packed), -1)
    offsets = np.zeros(len(packed) + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    valid = np.arange(data.shape[1], dtype=np.int64)[None, :] < counts[:, None]
    return pa.array(offsets), (data[valid].astype(np.int8) - 1)


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
    """The calls of each hand, in order, as a list of call names."""
    offsets, codes = _byte_lists(rows[:, L.R_CALLS : L.R_CALLS + 4], rows[:, L.R_N_CALLS])
    names = pa.DictionaryArray.from_arrays(pa.array(codes), pa.array(call_names(family)))
    return pa.ListArray.from_arrays(offsets, names.cast(pa.string()))


def trick_winners(rows: np.ndarray) -> pa.Array:
    """The seat that won each completed trick, in order."""
    offsets, codes = _byte_lists(rows[:, L.R_WINNERS : L.R_WINNERS + 2], rows[:, L.R_N_DONE])
    return pa.ListArray.from_arrays(offsets, pa.array(codes))


def projects(rows: np.ndarray, none: np.ndarray) -> pa.Array:
    """The buyer's project names (Baloot), null where ``none``."""
    codes = rows[:, L.R_BIDDER_PROJ : L.R_BIDDER_PROJ + 2]
    counts = (codes > 0).sum(axis=1)
    offsets = np.zeros(len(rows) + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    flat = (codes[codes > 0] // 1000).astype(np.int32)
    names = pa.DictionaryArray.from_arrays(pa.array(flat), pa.array(list(L.PROJ_NAMES)))
    return pa.ListArray.from_arrays(pa.array(offsets), names.cast(pa.string()), mask=pa.array(none))
