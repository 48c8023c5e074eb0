"""The string columns of the tables are assembled from packed codes exactly."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from kout_sim.io import features as F


def _packed(entries: list[list[int]]) -> np.ndarray:
    """Rows of int64[2] words holding each entry's code + 1, one byte each, little-endian."""
    out = np.zeros((len(entries), 2), dtype=np.int64)
    for i, codes in enumerate(entries):
        raw = bytes(c + 1 for c in codes) + bytes(16 - len(codes))
        out[i] = np.frombuffer(raw, dtype=np.int64)
    return out


def test_joined_joins_each_rows_names_in_order_with_the_separator() -> None:
    names = ["pass", "5", "S", "hokum:S"]
    entries = [[0, 1, 2], [], [3, 0], [1] * 12]
    column = F.joined(names, _packed(entries), np.array([len(e) for e in entries]))
    assert column.type == pa.string()
    assert column.to_pylist() == [" ".join(names[c] for c in e) for e in entries]


def test_joined_reads_only_the_counted_entries() -> None:
    column = F.joined(["a", "b"], _packed([[0, 1, 1]]), np.array([2]), "")
    assert column.to_pylist() == ["ab"]


def test_labels_gives_one_name_per_row_and_nulls_where_masked() -> None:
    mask = np.array([False, True, False, True])
    column = F.labels(["S", "H", "hokum"], np.array([2, 0, 1, 1]), mask)
    assert column.to_pylist() == ["hokum", None, "H", None]
    assert column.null_count == 2
    assert F.labels(["x"], np.zeros(0, dtype=np.int64)).to_pylist() == []
