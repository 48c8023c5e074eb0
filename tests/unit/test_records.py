"""The record descriptions (kout_sim.io.records) and the table schema built on them
(kout_sim.io.schema): every offset of the kernels described once, every column read from a field
that exists, and docs/data.md listing exactly the columns of every table, forks included."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from kout_sim.drivers import fork as FK
from kout_sim.engine import layout as L
from kout_sim.io.records import BID_FORK_RECORD, FORK_RECORD, HAND_ROW, MATCH_ROW, RECORDS, Record
from kout_sim.io.schema import RECORD_OF, TABLES, conform, polars_type
from kout_sim.rules import get_rules

DATA_MD = Path(__file__).parents[2] / "docs" / "data.md"


def _offsets(module: object, prefix: str, size: str) -> set[int]:
    """Every entry named by an offset constant ``prefix*`` of ``module`` (but the size)."""
    out: set[int] = set()
    for name, value in vars(module).items():
        if not name.startswith(prefix) or name == size:
            continue
        if isinstance(value, int):
            out.add(value)
        elif isinstance(value, tuple):
            out |= set(value)
    return out


def _starts(record: Record) -> set[int]:
    return {f.offset for f in record.fields}


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.name)
def test_fields_do_not_overlap_and_fit_in_the_row(record: Record) -> None:
    used = [f.offset + e for f in record.fields for e in range(f.width)]
    assert len(used) == len(set(used)), "two fields share an entry"
    assert min(used) >= 0 and max(used) < record.size
    assert len({f.name for f in record.fields}) == len(record.fields)
    assert record.dtype.itemsize == 8 * record.size


def test_every_offset_constant_of_the_kernels_is_a_described_field() -> None:
    """A field added to engine/layout.py or drivers/fork.py without its description here fails."""
    assert _offsets(L, "R_", "R_SIZE") == _starts(HAND_ROW)
    assert _offsets(L, "X_", "X_SIZE") == _starts(MATCH_ROW)
    assert _offsets(FK, "F_", "F_SIZE") == _starts(FORK_RECORD)
    # a bid fork record: the G_ fields, and the F_ fields it shares with the joker forks
    assert _offsets(FK, "G_", "") <= _starts(BID_FORK_RECORD)
    assert _starts(BID_FORK_RECORD) <= _offsets(FK, "G_", "") | _offsets(FK, "F_", "F_SIZE")
    assert (HAND_ROW.size, MATCH_ROW.size, FORK_RECORD.size) == (L.R_SIZE, L.X_SIZE, FK.F_SIZE)


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.name)
def test_the_structured_dtype_names_the_same_entries_as_the_offsets(record: Record) -> None:
    rows = np.random.default_rng(1).integers(-5, 1 << 40, size=(7, record.size), dtype=np.int64)
    view = record.view(rows)
    assert view.shape == (7,)
    for f in record.fields:
        expected = rows[:, f.offset : f.offset + f.width]
        got = view[f.name].reshape(7, f.width)
        assert (got == expected).all(), f.name
        assert (record.column(rows, f.name, f.width - 1) == expected[:, -1]).all()
    with pytest.raises(IndexError):
        record.column(rows, record.fields[0].name, record.fields[0].width)
    with pytest.raises(ValueError, match="rows are int64"):
        record.view(rows[:, :-1])


@pytest.mark.parametrize("table", sorted(TABLES))
def test_every_column_read_from_a_record_names_one_of_its_fields(table: str) -> None:
    record = RECORD_OF[table]
    names = [c.name for c in TABLES[table]]
    assert len(names) == len(set(names))
    for c in TABLES[table]:
        if c.field is not None:
            assert 0 <= c.entry < record[c.field].width, c.name


def _documented() -> dict[str, list[str]]:
    """The columns docs/data.md lists, per table (its `## `table`` sections)."""
    out: dict[str, list[str]] = {}
    table = None
    for line in DATA_MD.read_text().splitlines():
        heading = re.match(r"## `(\w+)`", line)
        if heading:
            table = heading.group(1)
            out[table] = []
        elif table is not None and line.startswith("| `"):
            cell = line.split("|")[1]
            out[table] += re.findall(r"`(\w+)`", cell)
    return out


def test_docs_list_every_column_of_every_table_and_no_other() -> None:
    documented = _documented()
    assert set(documented) == set(TABLES)
    for table, columns in TABLES.items():
        assert documented[table] == [c.name for c in columns], table


@pytest.mark.parametrize(
    ("table", "preset"),
    [
        ("forks", "kout_bo_4"),
        ("forks", "kout_bh_4"),
        ("bid_forks", "kout_bo_4"),
        ("bid_forks", "baloot"),
    ],
)
def test_the_fork_tables_have_exactly_the_schema_columns(table: str, preset: str) -> None:
    from kout_sim.io.forks import bid_fork_table, fork_table
    from kout_sim.sim import bid_fork as BF
    from kout_sim.sim import fork as F

    rules = get_rules(preset)
    if table == "forks":
        frame = fork_table(F.fork_records(rules, 60, 3, "heuristic", workers=1), rules)
    else:
        frame = bid_fork_table(BF.bid_fork_records(rules, 40, 3, "heuristic", workers=1), rules)
    schema = TABLES[table]
    assert frame.columns == [c.name for c in schema]
    assert list(frame.schema.values()) == [polars_type(c.dtype) for c in schema]
    assert len(frame) > 0


def test_a_table_that_strays_from_its_schema_is_refused() -> None:
    columns = TABLES["matches"][:2]
    frame = pl.DataFrame({"first_dealer": [1], "match": [3]})
    assert conform(frame, columns).columns == ["match", "first_dealer"]
    with pytest.raises(ValueError, match="extra"):
        conform(frame.with_columns(x=pl.lit(1)), columns)
    with pytest.raises(ValueError, match="missing"):
        conform(frame.drop("match"), columns)
