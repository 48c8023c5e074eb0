"""The schema of every table the project writes: column names, dtypes, one-line meanings, and the
record field (:mod:`kout_sim.io.records`) each column is read from.

The tables of a run are written through :func:`hands_table`, :func:`matches_table` and
:func:`actions_table`, the ``forks`` and ``bid_forks`` tables through
:func:`kout_sim.io.forks.fork_table` and :func:`kout_sim.io.forks.bid_fork_table` (which end in
:func:`conform`), so the columns here are the single source of truth: ``docs/data.md`` is
generated from them, and ``tests/unit/test_records.py`` checks that every column it lists is in a
table's schema and the other way round.

Size: over 600 lines on purpose. Most of it is the column declarations of the five tables, one
line of meaning each: the data dictionary is one list, read in one place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

if TYPE_CHECKING:
    import polars as pl

from .. import cards as C
from ..engine import layout as L
from ..engine.tables import tables_of
from ..rules import Rules
from . import features as F
from .records import BID_FORK_RECORD, FORK_RECORD, HAND_ROW, MATCH_ROW, Record


@dataclass(frozen=True)
class Column:
    """One column of a table: its name, its arrow type and its meaning (docs/data.md); and, for a
    column read from one entry of a record field, that field (``field``, ``entry``: the entry of a
    field of several) and whether a negative value is null (``optional``). A column without
    ``field`` is derived (from several fields, a trace, the settings) by its table's builder."""

    name: str
    dtype: pa.DataType
    meaning: str
    field: str | None = None
    entry: int = 0
    optional: bool = False


TEAM_SEATS = ("even", "odd")
"""The seats of team 0 and team 1."""
SIGNED = ("signed counter", "0 when signed")
"""How the two teams' scores read in Bahraini Kout (one signed counter, in team 0's column)."""
FORCED_JOKER = "a forced joker lead ended the hand (RULES.md 2.8)"


def per_team(
    name: str,
    dtype: pa.DataType,
    meaning: str,
    field: str | None = None,
    notes: tuple[str, str] = ("", ""),
) -> tuple[Column, ...]:
    """The columns ``{name}_team0`` and ``{name}_team1``, read from entries 0 and 1 of ``field``
    (or derived, without one): ``meaning`` with ``{team}`` the team's number, ``{seats}`` its seats
    (:data:`TEAM_SEATS`) and ``{note}`` its entry of ``notes``."""
    return tuple(
        Column(
            f"{name}_team{t}",
            dtype,
            meaning.format(team=t, seats=TEAM_SEATS[t], note=notes[t]),
            field,
            t if field is not None else 0,
        )
        for t in (0, 1)
    )


def bidder_feature(
    name: str, meaning: str, field: str | None = None, dtype: pa.DataType | None = None
) -> Column:
    """The column ``bidder_{name}``: a count over the bidder's hand (``int8`` unless ``dtype``),
    null without a bidder, read from the field ``b_{name}`` (or ``field``)."""
    return Column(
        f"bidder_{name}", dtype or pa.int8(), meaning, field or f"b_{name}", optional=True
    )


HAND_COLUMNS: tuple[Column, ...] = (
    Column(
        "match",
        pa.int64(),
        "match index = its random stream index (hands runs: the hand's)",
        "match",
    ),
    Column(
        "hand", pa.int16(), "hand number within the match, from 0 (0 in hands runs)", "hand_idx"
    ),
    Column("dealer", pa.int8(), "dealer seat", "dealer"),
    Column(
        "bidder",
        pa.int8(),
        "seat that won the auction (-1: none, a Baloot hand all passed)",
        "bidder",
    ),
    Column("contract", pa.int8(), "winning bid (tricks)", "contract"),
    Column(
        "malzoom", pa.bool_(), "forced dealer bid of exactly 5 (Kout Bo, RULES.md 1.3)", "malzoom"
    ),
    Column(
        "trump",
        pa.string(),
        "trump suit letter S H D C (null: Baloot Sun or a void hand)",
        "trump",
        0,
        optional=True,
    ),
    *per_team(
        "tricks",
        pa.int8(),
        "tricks taken by team {team} ({seats} seats) before the hand stopped",
        "tricks",
    ),
    Column(
        "n_tricks_played",
        pa.int8(),
        "tricks played (the hand stops when its result is fixed)",
        "n_done",
    ),
    Column(
        "made",
        pa.bool_(),
        "bidding team reached its contract (null: forced joker lead)",
        "made",
        0,
        optional=True,
    ),
    *per_team("points", pa.int16(), "points banked by team {team} this hand", "points"),
    *per_team(
        "score_before",
        pa.int32(),
        "team {team} match score before the hand ({note})",
        "score_before",
        SIGNED,
    ),
    *per_team(
        "score_after",
        pa.int32(),
        "team {team} match score after the hand ({note})",
        "score_after",
        SIGNED,
    ),
    Column(
        "joker_leads",
        pa.int64(),
        "bitmask of jokers led with permission (bit = card id)",
        "joker_leads",
    ),
    Column(
        "joker_forced_leads",
        pa.int64(),
        "bitmask of jokers led rankless (RULES.md 1.8)",
        "joker_forced",
    ),
    Column("n_actions", pa.int16(), "decisions in the hand (calls, trump, plays)", "n_actions"),
    *(
        Column(
            f"hand_seat{s}",
            pa.int64(),
            f"seat {s}'s hand as a card bitmask (Baloot: after completion; 0: no such seat)",
            "hand",
            s,
        )
        for s in range(6)
    ),
    Column(
        "mode",
        pa.string(),
        "Baloot: sun, hokum, or null (void hand, a Kawesh included: its calls end with kawesh; "
        "Kout presets)",
        "mode",
    ),
    Column("ashkal", pa.bool_(), "Baloot: the Sun was bought by Ashkal", "ashkal"),
    Column("face_up", pa.string(), "Baloot: the face-up card", "face_up"),
    *per_team(
        "card_points",
        pa.int16(),
        "Baloot: card points of team {team}, last trick included",
        "card_points",
    ),
    Column("double", pa.int8(), "Baloot: multiplier 1..4 of the doubling ladder", "double"),
    Column("gahwa", pa.bool_(), "Baloot: the hand was played as a Gahwa", "gahwa"),
    Column(
        "kaboot_team",
        pa.int8(),
        "Baloot: team that took all eight tricks (null: none)",
        "kaboot",
        0,
        optional=True,
    ),
    Column(
        "project_team",
        pa.int8(),
        "Baloot: team whose projects counted (null: none)",
        "project_team",
        0,
        optional=True,
    ),
    *per_team(
        "project_points",
        pa.int16(),
        "Baloot: game points of team {team}'s projects",
        "project_points",
    ),
    Column(
        "baloot_seat",
        pa.int8(),
        "Baloot: seat holding a Baloot (K+Q of trump; null: none)",
        "baloot_seat",
        0,
        optional=True,
    ),
    Column("forced_joker", pa.bool_(), FORCED_JOKER, "forced_joker"),
    Column(
        "calls",
        pa.string(),
        "the calls in order, space-separated: pass, bids 5..9, trump suit letters; Baloot call "
        "names (`str.split(' ')` gives the list)",
    ),
    Column(
        "trick_winners",
        pa.string(),
        "seat that won each completed trick, in order, one digit per trick (e.g. `0213`)",
    ),
    *(
        Column(
            f"{card.lower()}_holder",
            pa.int8(),
            f"seat dealt the {joker} {card} (null: not in the deck)",
            "holders",
            i,
            optional=True,
        )
        for i, (joker, card) in enumerate(
            (("small joker", "BJ"), ("big joker", "RJ"), ("Bahraini joker", "JK"))
        )
    ),
    bidder_feature("trump_length", "trumps in the bidder's hand (null: no trump)"),
    bidder_feature(
        "trump_honours", "bidder's top trumps: A K Q J (Kout), J 9 A T (Baloot Hokum)", "b_honours"
    ),
    bidder_feature("jokers", "jokers in the bidder's hand (Kout)"),
    bidder_feature("side_aces", "aces outside trump in the bidder's hand"),
    bidder_feature("side_kings", "kings outside trump in the bidder's hand"),
    bidder_feature("voids", "suits (of four) missing from the bidder's hand"),
    bidder_feature(
        "card_points",
        "Baloot: card points of the buyer's eight cards under the mode bought",
        dtype=pa.int16(),
    ),
    Column(
        "bidder_projects",
        pa.list_(pa.string()),
        "Baloot: the buyer's projects (sira, fifty, hundred, four_hundred)",
    ),
    Column(
        "dd_tricks",
        pa.int8(),
        "double dummy (all hands known, perfect play, `--solve`): the bidding team's tricks at "
        "the end of the hand in the contract played, every trick counted; -1 / 9: the line ends in "
        "a forced joker lead by the bidding team / a defender (RULES.md 2.8); null: not solved",
    ),
    Column(
        "dd_points",
        pa.int16(),
        "Baloot, double dummy (`--solve`): the buyer team's card points at the end of the hand, "
        "last trick included (null: not solved, or a void hand)",
    ),
    Column(
        "dd_made",
        pa.bool_(),
        "double dummy (`--solve`): the contract played was makeable (Baloot: the buyer's points "
        "pass RULES.md 3.6.3 with the projects and Baloot as dealt, 3.3.3 in a doubled hand)",
    ),
    Column(
        "dd_par_contract",
        pa.int8(),
        "Kout, double dummy (`--solve`): the highest contract the bidder's seat could make over "
        "the trumps it may name (0: not even the lowest bid; null: not solved, or solved with "
        "`--no-par`)",
    ),
    Column(
        "dd_par_trump",
        pa.string(),
        "Kout, double dummy (`--solve`): the trump of dd_par_contract (the first of S H D C on a "
        "tie; null: none, not solved, or `--no-par`)",
    ),
)

DD_COLUMNS = ("dd_tricks", "dd_points", "dd_made", "dd_par_contract", "dd_par_trump")
"""The double-dummy columns: null unless the run was made with ``--solve``."""

BALOOT_ONLY = (
    "mode",
    "ashkal",
    "face_up",
    "card_points_team0",
    "card_points_team1",
    "double",
    "project_points_team0",
    "project_points_team1",
    "gahwa",
    "kaboot_team",
    "project_team",
    "baloot_seat",
    "bidder_projects",
)
"""Columns that are null in the Kout presets' hands."""

ACTION_COLUMNS: tuple[Column, ...] = (
    Column("match", pa.int64(), "match index (hands runs: the hand's stream index)"),
    Column("hand", pa.int16(), "hand number within the match"),
    Column("ply", pa.int16(), "decision number within the hand, from 0"),
    Column("seat", pa.int8(), "seat that decided"),
    Column("action", pa.string(), "card text, or call: pass, a bid, a trump letter, a Baloot call"),
    Column("n_legal", pa.int8(), "number of legal actions at the decision"),
)

MATCH_COLUMNS: tuple[Column, ...] = (
    Column("match", pa.int64(), "match index (its random stream index)", "match"),
    Column("first_dealer", pa.int8(), "dealer of the first hand", "first_dealer"),
    Column("n_hands", pa.int16(), "hands played", "n_hands"),
    Column("winner", pa.int8(), "winning team (0 even seats, 1 odd seats)", "winner"),
    Column(
        "reason", pa.string(), "why the match ended: target, kout, bawan_first_hand, ...", "reason"
    ),
    *per_team(
        "score",
        pa.int32(),
        "final score of team {team} ({note})",
        "score",
        ("signed counter in Bahraini Kout", SIGNED[1]),
    ),
    Column("target", pa.int16(), "the match target score"),
    *per_team(
        "players", pa.string(), "player specs of team {team}'s seats ({seats}), ' + ' between"
    ),
)


def _labels(codes: np.ndarray, names: list[str], missing: np.ndarray | None = None) -> pa.Array:
    """A string column from small integer codes (null where ``missing``), built in numpy."""
    if missing is not None:
        missing = np.broadcast_to(np.asarray(missing, dtype=bool), codes.shape)
    return F.labels(names, codes, missing)


CARD_NAMES = [C.format_card(c) if c < 52 or c in C.JOKER_NAMES else "" for c in range(C.N_CARDS)]


@dataclass(frozen=True)
class _Optional:
    """An integer column with -1 as null."""

    values: np.ndarray


def _fits(name: str, values: np.ndarray, dtype: pa.DataType) -> None:
    """Refuse (one line) a value the integer column ``name`` cannot hold: nothing is wrapped."""
    if (
        not pa.types.is_integer(dtype)
        or values.size == 0
        or not np.issubdtype(values.dtype, np.integer)
    ):
        return
    info = np.iinfo(dtype.to_pandas_dtype())
    if values.dtype.itemsize * 8 <= dtype.bit_width and np.iinfo(values.dtype).min >= info.min:
        return  # every value of the input type fits
    low, high = int(values.min()), int(values.max())
    if low < info.min or high > info.max:
        bad = low if low < info.min else high
        raise ValueError(
            f"the {name} column ({dtype}) cannot hold the value {bad:,}; docs/data.md gives "
            "each column's range"
        )


def _array(values: Any, dtype: pa.DataType, n: int, name: str = "") -> pa.Array:
    """An arrow array of ``dtype``; numpy input is narrowed in numpy (fast), then wrapped;
    ``None`` is a column of nulls (a field of the other game family). A value outside the range
    of an integer ``dtype`` is refused (:func:`_fits`)."""
    if values is None:
        return pa.nulls(n, dtype)
    if isinstance(values, _Optional):
        _fits(name, values.values, dtype)
        return F.numpy_array(values.values, dtype, values.values < 0)
    if isinstance(values, np.ndarray):
        _fits(name, values, dtype)
        return F.numpy_array(values, dtype)
    if isinstance(values, pa.Array | pa.ChunkedArray) and values.type == dtype:
        return values
    return pa.array(values, type=dtype)


def _optional(values: np.ndarray) -> _Optional:
    """A column with -1 as null."""
    return _Optional(values)


def _table(
    columns: tuple[Column, ...], data: dict[str, Any], metadata: dict[str, Any], n: int
) -> pa.Table:
    arrays = [_array(data[c.name], c.dtype, n, c.name) for c in columns]
    schema = pa.schema(
        [
            # a column without nulls is written as required: no definition levels to encode
            pa.field(c.name, c.dtype, nullable=a.null_count > 0, metadata={"meaning": c.meaning})
            for c, a in zip(columns, arrays)
        ],
        metadata={"kout_sim": json.dumps(metadata, sort_keys=True)},
    )
    return pa.Table.from_arrays(arrays, schema=schema)


def read_fields(
    columns: tuple[Column, ...], record: Record, rows: np.ndarray, skip: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The integer and boolean columns of ``columns`` read from their record fields (but those of
    ``skip``): an integer column as it is (-1 as null when ``optional``), a boolean one as the field
    being nonzero (``optional``: being 1, null when negative). The text, list and derived columns
    are their builder's."""
    data: dict[str, Any] = {}
    for c in columns:
        if c.field is None or c.name in skip:
            continue
        values = record.column(rows, c.field, c.entry)
        if pa.types.is_boolean(c.dtype):
            if c.optional:
                data[c.name] = F.numpy_array(values == 1, pa.bool_(), values < 0)
            else:
                data[c.name] = values.astype(bool)
        elif pa.types.is_integer(c.dtype):
            data[c.name] = _optional(values) if c.optional else values
    return data


def hands_table(
    rows: np.ndarray,
    metadata: dict[str, Any],
    rules: Rules,
    dd: dict[str, np.ndarray] | None = None,
) -> pa.Table:
    """Hand rows (int64[h, R_SIZE], :data:`kout_sim.io.records.HAND_ROW`) of a run of ``rules`` as
    an arrow table with run metadata; ``dd``: the double-dummy columns
    (:func:`kout_sim.solver.dd_columns`), -1 as null."""
    baloot = rules.is_baloot
    data = read_fields(HAND_COLUMNS, HAND_ROW, rows, skip=() if baloot else BALOOT_ONLY)
    trump = HAND_ROW.column(rows, "trump")
    data["trump"] = _labels(trump % 4, list(C.SUITS), trump < 0)
    if baloot:
        mode = HAND_ROW.column(rows, "mode")
        data["mode"] = _labels(mode, ["", "sun", "hokum"], mode == 0)
        data["face_up"] = _labels(HAND_ROW.column(rows, "face_up"), CARD_NAMES)
        data["bidder_projects"] = F.projects(rows, mode == 0)
    else:
        for name in BALOOT_ONLY:
            data[name] = None
    data["calls"] = F.calls(rows, rules.family)
    data["trick_winners"] = F.trick_winners(rows)
    dd = dd or {}
    for name in DD_COLUMNS:
        data[name] = _optional(dd[name]) if name in dd else None
    if "dd_made" in dd:
        made_dd = dd["dd_made"]
        data["dd_made"] = F.numpy_array(made_dd == 1, pa.bool_(), made_dd < 0)
    if "dd_par_trump" in dd:
        trump = dd["dd_par_trump"]
        data["dd_par_trump"] = _labels(trump % 4, list(C.SUITS), trump < 0)
    return _table(HAND_COLUMNS, data, metadata, len(rows))


def actions_table(
    rows: np.ndarray, trace: np.ndarray, metadata: dict[str, Any], family: str
) -> pa.Table:
    """The traced decisions (int32[h, MAX_ACTIONS], one row per hand row) as an arrow table."""
    n_actions = HAND_ROW.column(rows, "n_actions")
    valid = np.arange(trace.shape[1])[None, :] < n_actions[:, None]
    codes = trace[valid]
    per_hand = valid.sum(axis=1)
    data = {
        "match": np.repeat(HAND_ROW.column(rows, "match"), per_hand),
        "hand": np.repeat(HAND_ROW.column(rows, "hand_idx"), per_hand),
        "ply": np.nonzero(valid)[1],
        "seat": (codes >> 8) & 0xF,
        "action": _labels(codes & 0xFF, F.action_names(family)),
        "n_legal": (codes >> 12) & 0xFF,
    }
    return _table(ACTION_COLUMNS, data, metadata, len(codes))


def _team_players(seats: list[str], team: int) -> str:
    specs = list(dict.fromkeys(seats[team::2]))
    return " + ".join(specs)


def matches_table(rows: np.ndarray, metadata: dict[str, Any], rules: Rules) -> pa.Table:
    """Match rows (int64[m, X_SIZE], :data:`kout_sim.io.records.MATCH_ROW`) of a run of ``rules``
    as an arrow table with run metadata."""
    P, _ = tables_of(rules)
    seats = list(metadata.get("players") or ["random"] * rules.n_players)
    n = len(rows)
    data = read_fields(MATCH_COLUMNS, MATCH_ROW, rows)
    data["target"] = np.full(n, P[L.P_TARGET])
    data["players_team0"] = pa.array([_team_players(seats, 0)] * n, pa.string())
    data["players_team1"] = pa.array([_team_players(seats, 1)] * n, pa.string())
    reason = MATCH_ROW.column(rows, "reason")
    data["reason"] = _labels(reason, [r or "" for r in L.REASON_NAMES])
    return _table(MATCH_COLUMNS, data, metadata, n)


def data_dictionary() -> str:
    """The data dictionary of a run folder as Markdown (written to ``docs/data.md``)."""
    lines = [
        "# Data dictionary",
        "",
        "Generated from `kout_sim/io/schema.py` (`python -m kout_sim.io.schema > docs/data.md`).",
        "A run folder holds `run.json` (settings and run metadata, also stored as parquet key-value",
        "metadata under the key `kout_sim` in every file) and the tables as shards",
        "`hands/part-NNNNN.parquet`, `matches/part-NNNNN.parquet` and (with `--actions`)",
        "`actions/part-NNNNN.parquet`; read them with `kout_sim.load(folder)`, which returns",
        "polars LazyFrames once the run is checked against the manifest of `run.json`",
        '(`"shards"`: rows, bytes and SHA-256 of every file; `kout-sim verify DIR` checks the',
        "hashes). A value an integer column cannot hold is refused with a one-line error, never",
        "wrapped; the `target` option is at most 1,000, so that a match stays far inside the",
        "`hand` column (a Bahraini heuristic match to 1,000 runs about 1,600 hands).",
    ]
    for title in ("hands", "matches", "actions"):
        lines += _dictionary(title, [], TABLES[title])
    lines += _forks_dictionary()
    lines += _bid_forks_dictionary()
    return "\n".join(lines) + "\n"


# ---- the forks table (kout-sim forks): one row per joker fork, from the fork records

BRANCHES = ("joker", "other")
"""The two branches of a joker fork, in the order of the record's two-entry fields."""

OUTCOMES: dict[str, Column] = {
    c.name: c
    for c in (
        Column(
            "made",
            pa.bool_(),
            "the bidding team made its contract (null: forced joker lead)",
            "made",
            optional=True,
        ),
        Column("net", pa.int16(), "points banked by the seat's team minus the other team's", "net"),
        Column("tricks", pa.int16(), "tricks of the seat's team at the end of the hand", "tricks"),
        Column("forced_joker", pa.bool_(), FORCED_JOKER, "forced"),
        Column(
            "match_lost",
            pa.bool_(),
            "the hand alone loses the match for the seat's team",
            "match_winner",
        ),
    )
}
"""The outcome of a fork's branch as a fork table has it, each read from its field of the fork
record (``match_lost``: derived from the match's winner); the joker forks have each once per
branch and of the hand itself, the bid forks once (a row is a branch)."""

FORK_HAND = Column(
    "hand", pa.int64(), "stream index of the hand (the hand of play_hands, same seed)", "hand"
)
FORK_DEALER = Column("dealer", pa.int16(), "dealer seat", "dealer")
PRESET = Column("preset", pa.string(), "rule preset")

FORK_COLUMNS: tuple[Column, ...] = (
    FORK_HAND,
    FORK_DEALER,
    Column(
        "trick",
        pa.int16(),
        "tricks completed before the decision (0: the first trick)",
        "trick",
    ),
    Column("seat", pa.int16(), "seat to act", "seat"),
    Column("bidder", pa.int16(), "bidder seat", "bidder"),
    Column("contract", pa.int16(), "contract (tricks bid)", "contract"),
    Column("trumps_out", pa.int16(), "trumps neither played nor in the seat's hand", "trumps_out"),
    Column("trumps_held", pa.int16(), "trumps in the seat's hand", "trumps_held"),
    Column("jokers_held", pa.int16(), "jokers in the seat's hand", "jokers_held"),
    Column(
        "team_tricks", pa.int16(), "tricks of the seat's team before the decision", "team_tricks"
    ),
    Column("ply", pa.int16(), "decisions of the hand before this one (calls included)", "ply"),
    Column("bidding_team", pa.bool_(), "the seat is on the bidding team"),
    Column("leading", pa.bool_(), "the seat leads the trick", "leading"),
    Column("trump", pa.string(), "trump suit letter", "trump"),
    Column("joker", pa.string(), "the card of the joker branch: the joker", "joker"),
    Column(
        "other", pa.string(), "the card of the other branch: the policy's best other card", "other"
    ),
    Column("chosen", pa.string(), "the card the policy played in the hand itself", "chosen"),
    Column("chose_joker", pa.bool_(), "the policy played the joker in the hand itself"),
    *(
        replace(c, name=f"{c.name}_{branch}", meaning=f"{branch} branch: {c.meaning}", entry=b)
        for b, branch in enumerate(BRANCHES)
        for c in OUTCOMES.values()
    ),
    *(
        replace(
            c,
            name=f"{c.name}_actual",
            meaning=f"the hand itself, as the policy played it on from the fork (`chosen`): "
            f"{c.meaning}",
            field=f"actual_{c.field}",
        )
        for c in OUTCOMES.values()
        if c.name != "match_lost"
    ),
    PRESET,
)
"""The ``forks`` table of a ``kout-sim forks`` folder (:func:`kout_sim.io.forks.fork_table`),
from :data:`kout_sim.io.records.FORK_RECORD`."""

# ---- the bid forks table (kout-sim forks --kind bid): one row per branch of a bid fork

BID_FORK_COLUMNS: tuple[Column, ...] = (
    FORK_HAND,
    FORK_DEALER,
    Column("seat", pa.int16(), "seat to act at the forked decision", "seat"),
    Column("ply", pa.int16(), "decisions of the hand before this one (the calls before it)", "ply"),
    Column(
        "decision",
        pa.int16(),
        "forked bid decisions of the hand before this one",
        "decision",
    ),
    Column("high_bid", pa.int16(), "standing bid before the decision (0: none)", "high_bid"),
    Column(
        "n_calls",
        pa.int16(),
        "legal calls at the decision (the branches of the fork)",
        "n_legal",
    ),
    Column(
        "bidder",
        pa.int16(),
        "the branch's final bidder seat (-1: none, a void hand)",
        "bidder",
    ),
    Column("contract", pa.int16(), "the branch's contract (tricks bid; Baloot: 0)", "contract"),
    Column(
        "score_before",
        pa.int64(),
        "the seat's team's score before the hand",
        "score_before",
    ),
    OUTCOMES["net"],
    OUTCOMES["tricks"],
    Column(
        "net_actual",
        pa.int16(),
        "`net` of the hand itself (the policy's own call)",
        "actual_net",
    ),
    Column(
        "seat_rel",
        pa.int16(),
        "the seat counted from the dealer in playing order (1: first to speak, 0: the dealer)",
    ),
    Column(
        "call",
        pa.string(),
        "the branch's call at the decision: `pass`, a bid `5`..`9` (Kout), a Baloot call name",
        "call",
    ),
    Column("chosen", pa.string(), "the call the seat's policy made in the hand itself", "chosen"),
    Column(
        "is_chosen",
        pa.bool_(),
        "this branch is the policy's call: its outcome is the hand as played",
    ),
    Column(
        "can_pass",
        pa.bool_(),
        "pass is legal at the decision (false: a forced dealer, RULES.md 1.3)",
    ),
    Column("bids", pa.bool_(), "the seat's team won the auction in this branch"),
    Column(
        "trump",
        pa.string(),
        "the branch's trump suit letter (null: none, Baloot Sun)",
        "trump",
    ),
    Column(
        "made",
        pa.bool_(),
        "the bidding team made its contract (null: forced joker lead, void hand)",
        "made",
        optional=True,
    ),
    OUTCOMES["forced_joker"],
    replace(OUTCOMES["match_lost"], field=None),  # the table's own: from the seat and the winner
    Column("made_actual", pa.bool_(), "`made` of the hand itself", "actual_made", optional=True),
    Column(
        "seat_cards",
        pa.int64(),
        "the seat's cards at the decision (bitmask)",
        "seat_hand",
    ),
    Column("jokers", pa.int16(), "jokers in the seat's hand"),
    Column(
        "long_suit",
        pa.int16(),
        "cards in the seat's strongest suit (most cards + A K Q J honours)",
    ),
    Column("long_honours", pa.int16(), "A K Q J of that suit held"),
    Column("aces", pa.int16(), "aces held"),
    Column("voids", pa.int16(), "suits (of four) missing from the seat's hand"),
    Column(
        "strength",
        pa.int16(),
        "`long_suit + long_honours + jokers`: the bid guide's strength with the "
        "strongest suit as trump",
    ),
    PRESET,
)
"""The ``bid_forks`` table of a ``kout-sim forks --kind bid`` folder
(:func:`kout_sim.io.forks.bid_fork_table`), from :data:`kout_sim.io.records.BID_FORK_RECORD`."""

TABLES: dict[str, tuple[Column, ...]] = {
    "hands": HAND_COLUMNS,
    "matches": MATCH_COLUMNS,
    "actions": ACTION_COLUMNS,
    "forks": FORK_COLUMNS,
    "bid_forks": BID_FORK_COLUMNS,
}
"""Every table the project writes, by name: its columns in order."""

RECORD_OF: dict[str, Record] = {
    "hands": HAND_ROW,
    "matches": MATCH_ROW,
    "actions": HAND_ROW,
    "forks": FORK_RECORD,
    "bid_forks": BID_FORK_RECORD,
}
"""The record kind the columns of each table are read from (their ``field``)."""


def record_columns(
    columns: tuple[Column, ...], record: Record, records: np.ndarray
) -> dict[str, np.ndarray]:
    """The integer columns of ``columns`` read as they are from their record fields (the rest
    of a table is its builder's)."""
    return {
        c.name: record.column(records, c.field, c.entry)
        for c in columns
        if c.field is not None and pa.types.is_integer(c.dtype) and not c.optional
    }


def conform(frame: pl.DataFrame, columns: tuple[Column, ...]) -> pl.DataFrame:
    """``frame`` with exactly the columns of ``columns``, in their order and of their types; a
    column missing, or one the schema does not know, is refused."""
    import polars as pl

    names = [c.name for c in columns]
    if set(frame.columns) != set(names):
        missing, extra = set(names) - set(frame.columns), set(frame.columns) - set(names)
        raise ValueError(f"table columns differ from the schema: missing {missing}, extra {extra}")
    return frame.select(pl.col(c.name).cast(polars_type(c.dtype)) for c in columns)


def polars_type(dtype: pa.DataType) -> pl.DataType:
    """The polars type of an arrow type of the schema."""
    import polars as pl

    return pl.from_arrow(pa.array([], type=dtype)).dtype  # type: ignore[union-attr]


def _dictionary(
    title: str, intro: list[str], columns: tuple[Column, ...], written_by: str = ""
) -> list[str]:
    """The Markdown table of ``columns`` under the heading of the table ``title``."""
    heading = f"## `{title}`" + (f" (folders written by `{written_by}`)" if written_by else "")
    lines = ["", heading, *intro, "", "| column | type | meaning |", "|---|---|---|"]
    return lines + [f"| `{c.name}` | {c.dtype} | {c.meaning} |" for c in columns]


def _forks_dictionary() -> list[str]:
    """The ``forks`` table of a ``kout-sim forks`` folder."""
    intro = [
        "",
        "One row per fork: a decision where the seat to act could play a joker and another card,",
        "played on twice from the same position and random numbers (`kout_sim.sim.fork`).",
    ]
    return _dictionary("forks", intro, FORK_COLUMNS, "kout-sim forks")


def _bid_forks_dictionary() -> list[str]:
    """The ``bid_forks`` table of a ``kout-sim forks --kind bid`` folder."""
    intro = [
        "",
        "One row per branch of a bid fork: at a bid decision with more than one legal call the deal",
        "was played on once per legal call, the rest of the auction, the trump and the play by the",
        "line-up, every branch from the same random numbers (`kout_sim.sim.bid_fork`). The rows of",
        "one fork share `hand` and `ply`.",
    ]
    return _dictionary("bid_forks", intro, BID_FORK_COLUMNS, "kout-sim forks --kind bid")


if __name__ == "__main__":  # pragma: no cover
    print(data_dictionary(), end="")
