"""The parquet schema of simulation runs: column names, dtypes and one-line meanings.

Every table is written through :func:`hands_table` / :func:`matches_table`, so the columns here are
the single source of truth (``docs/data.md`` is generated from them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from .. import cards as C
from ..drivers import fork as FK
from ..engine import layout as L
from ..engine.tables import tables_of
from ..rules import Rules
from . import features as F


@dataclass(frozen=True)
class Column:
    """One column of a table: its name, its arrow type and its meaning (docs/data.md)."""

    name: str
    dtype: pa.DataType
    meaning: str


HAND_COLUMNS: tuple[Column, ...] = (
    Column("match", pa.int64(), "match index = its random stream index (hands runs: the hand's)"),
    Column("hand", pa.int16(), "hand number within the match, from 0 (0 in hands runs)"),
    Column("dealer", pa.int8(), "dealer seat"),
    Column("bidder", pa.int8(), "seat that won the auction (-1: none, a Baloot hand all passed)"),
    Column("contract", pa.int8(), "winning bid (tricks)"),
    Column("malzoom", pa.bool_(), "forced dealer bid of exactly 5 (Kout Bo, RULES.md 1.3)"),
    Column("trump", pa.string(), "trump suit letter S H D C (null: Baloot Sun or a void hand)"),
    Column(
        "tricks_team0", pa.int8(), "tricks taken by team 0 (even seats) before the hand stopped"
    ),
    Column("tricks_team1", pa.int8(), "tricks taken by team 1 (odd seats) before the hand stopped"),
    Column("n_tricks_played", pa.int8(), "tricks played (the hand stops when its result is fixed)"),
    Column("made", pa.bool_(), "bidding team reached its contract (null: forced joker lead)"),
    Column("points_team0", pa.int16(), "points banked by team 0 this hand"),
    Column("points_team1", pa.int16(), "points banked by team 1 this hand"),
    Column("score_before_team0", pa.int32(), "team 0 match score before the hand (signed counter)"),
    Column("score_before_team1", pa.int32(), "team 1 match score before the hand (0 when signed)"),
    Column("score_after_team0", pa.int32(), "team 0 match score after the hand (signed counter)"),
    Column("score_after_team1", pa.int32(), "team 1 match score after the hand (0 when signed)"),
    Column("joker_leads", pa.int64(), "bitmask of jokers led with permission (bit = card id)"),
    Column("joker_forced_leads", pa.int64(), "bitmask of jokers led rankless (RULES.md 1.8)"),
    Column("n_actions", pa.int16(), "decisions in the hand (calls, trump, plays)"),
    *(
        Column(
            f"hand_seat{s}",
            pa.int64(),
            f"seat {s}'s hand as a card bitmask (Baloot: after completion; 0: no such seat)",
        )
        for s in range(6)
    ),
    Column(
        "mode",
        pa.string(),
        "Baloot: sun, hokum, or null (void hand, a Kawesh included: its calls end with kawesh; "
        "Kout presets)",
    ),
    Column("ashkal", pa.bool_(), "Baloot: the Sun was bought by Ashkal"),
    Column("face_up", pa.string(), "Baloot: the face-up card"),
    Column("card_points_team0", pa.int16(), "Baloot: card points of team 0, last trick included"),
    Column("card_points_team1", pa.int16(), "Baloot: card points of team 1, last trick included"),
    Column("double", pa.int8(), "Baloot: multiplier 1..4 of the doubling ladder"),
    Column("gahwa", pa.bool_(), "Baloot: the hand was played as a Gahwa"),
    Column("kaboot_team", pa.int8(), "Baloot: team that took all eight tricks (null: none)"),
    Column("project_team", pa.int8(), "Baloot: team whose projects counted (null: none)"),
    Column("project_points_team0", pa.int16(), "Baloot: game points of team 0's projects"),
    Column("project_points_team1", pa.int16(), "Baloot: game points of team 1's projects"),
    Column("baloot_seat", pa.int8(), "Baloot: seat holding a Baloot (K+Q of trump; null: none)"),
    Column("forced_joker", pa.bool_(), "a forced joker lead ended the hand (RULES.md 2.8)"),
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
    Column("bj_holder", pa.int8(), "seat dealt the small joker BJ (null: not in the deck)"),
    Column("rj_holder", pa.int8(), "seat dealt the big joker RJ (null: not in the deck)"),
    Column("jk_holder", pa.int8(), "seat dealt the Bahraini joker JK (null: not in the deck)"),
    Column("bidder_trump_length", pa.int8(), "trumps in the bidder's hand (null: no trump)"),
    Column(
        "bidder_trump_honours",
        pa.int8(),
        "bidder's top trumps: A K Q J (Kout), J 9 A T (Baloot Hokum)",
    ),
    Column("bidder_jokers", pa.int8(), "jokers in the bidder's hand (Kout)"),
    Column("bidder_side_aces", pa.int8(), "aces outside trump in the bidder's hand"),
    Column("bidder_side_kings", pa.int8(), "kings outside trump in the bidder's hand"),
    Column("bidder_voids", pa.int8(), "suits (of four) missing from the bidder's hand"),
    Column(
        "bidder_card_points",
        pa.int16(),
        "Baloot: card points of the buyer's eight cards under the mode bought",
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
        "the trumps it may name (0: not even the lowest bid; null: not solved)",
    ),
    Column(
        "dd_par_trump",
        pa.string(),
        "Kout, double dummy (`--solve`): the trump of dd_par_contract (the first of S H D C on a "
        "tie; null: none, or not solved)",
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
    Column("match", pa.int64(), "match index (its random stream index)"),
    Column("first_dealer", pa.int8(), "dealer of the first hand"),
    Column("n_hands", pa.int16(), "hands played"),
    Column("winner", pa.int8(), "winning team (0 even seats, 1 odd seats)"),
    Column("reason", pa.string(), "why the match ended: target, kout, bawan_first_hand, ..."),
    Column("score_team0", pa.int32(), "final score of team 0 (signed counter in Bahraini Kout)"),
    Column("score_team1", pa.int32(), "final score of team 1 (0 when signed)"),
    Column("target", pa.int16(), "the match target score"),
    Column("players_team0", pa.string(), "player specs of team 0's seats (even), ' + ' between"),
    Column("players_team1", pa.string(), "player specs of team 1's seats (odd), ' + ' between"),
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


def hands_table(
    rows: np.ndarray,
    metadata: dict[str, Any],
    rules: Rules,
    dd: dict[str, np.ndarray] | None = None,
) -> pa.Table:
    """Hand rows (int64[h, R_SIZE]) of a run of ``rules`` as an arrow table with run metadata;
    ``dd``: the double-dummy columns (:func:`kout_sim.solver.dd_columns`), -1 as null."""
    made = rows[:, L.R_MADE]
    data: dict[str, Any] = {
        "match": rows[:, L.R_MATCH],
        "hand": rows[:, L.R_HAND_IDX],
        "dealer": rows[:, L.R_DEALER],
        "bidder": rows[:, L.R_BIDDER],
        "contract": rows[:, L.R_CONTRACT],
        "malzoom": rows[:, L.R_MALZOOM].astype(bool),
        "trump": _labels(rows[:, L.R_TRUMP] % 4, list(C.SUITS), rows[:, L.R_TRUMP] < 0),
        "tricks_team0": rows[:, L.R_TRICKS],
        "tricks_team1": rows[:, L.R_TRICKS + 1],
        "n_tricks_played": rows[:, L.R_N_DONE],
        "made": F.numpy_array(made == 1, pa.bool_(), made < 0),
        "points_team0": rows[:, L.R_POINTS],
        "points_team1": rows[:, L.R_POINTS + 1],
        "score_before_team0": rows[:, L.R_SCORE_BEFORE],
        "score_before_team1": rows[:, L.R_SCORE_BEFORE + 1],
        "score_after_team0": rows[:, L.R_SCORE_AFTER],
        "score_after_team1": rows[:, L.R_SCORE_AFTER + 1],
        "joker_leads": rows[:, L.R_JOKER_LEADS],
        "joker_forced_leads": rows[:, L.R_JOKER_FORCED],
        "n_actions": rows[:, L.R_N_ACTIONS],
    }
    for s in range(6):
        data[f"hand_seat{s}"] = rows[:, L.R_HAND + s]
    baloot = rules.is_baloot
    if baloot:
        mode = rows[:, L.R_MODE]
        data["mode"] = _labels(mode, ["", "sun", "hokum"], mode == 0)
        data["ashkal"] = rows[:, L.R_ASHKAL].astype(bool)
        data["face_up"] = _labels(rows[:, L.R_FACE_UP], CARD_NAMES)
        for name, col in (
            ("card_points_team0", L.R_CARD_PTS),
            ("card_points_team1", L.R_CARD_PTS + 1),
            ("double", L.R_DOUBLE),
            ("project_points_team0", L.R_PROJ_GP),
            ("project_points_team1", L.R_PROJ_GP + 1),
        ):
            data[name] = rows[:, col]
        data["gahwa"] = rows[:, L.R_GAHWA].astype(bool)
        for name, col in (
            ("kaboot_team", L.R_KABOOT),
            ("project_team", L.R_PROJ_TEAM),
            ("baloot_seat", L.R_BALOOT_SEAT),
        ):
            data[name] = _optional(rows[:, col])
        data["bidder_projects"] = F.projects(rows, rows[:, L.R_MODE] == 0)
    else:
        for name in BALOOT_ONLY:
            data[name] = None
    family = rules.family
    data["forced_joker"] = rows[:, L.R_FORCED_JOKER].astype(bool)
    data["calls"] = F.calls(rows, family)
    data["trick_winners"] = F.trick_winners(rows)
    for j, name in enumerate(("bj_holder", "rj_holder", "jk_holder")):
        data[name] = _optional(rows[:, L.R_HOLDER + j])
    for name, col in (
        ("bidder_trump_length", L.R_B_TRUMP_LEN),
        ("bidder_trump_honours", L.R_B_HONOURS),
        ("bidder_jokers", L.R_B_JOKERS),
        ("bidder_side_aces", L.R_B_SIDE_ACES),
        ("bidder_side_kings", L.R_B_SIDE_KINGS),
        ("bidder_voids", L.R_B_VOIDS),
        ("bidder_card_points", L.R_B_CARD_PTS),
    ):
        data[name] = _optional(rows[:, col])
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
    n_actions = rows[:, L.R_N_ACTIONS]
    valid = np.arange(trace.shape[1])[None, :] < n_actions[:, None]
    codes = trace[valid]
    per_hand = valid.sum(axis=1)
    data = {
        "match": np.repeat(rows[:, L.R_MATCH], per_hand),
        "hand": np.repeat(rows[:, L.R_HAND_IDX], per_hand),
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
    """Match rows (int64[m, X_SIZE]) of a run of ``rules`` as an arrow table with run metadata."""
    P, _ = tables_of(rules)
    seats = list(metadata.get("players") or ["random"] * rules.n_players)
    n = len(rows)
    data = {
        "target": np.full(n, P[L.P_TARGET]),
        "players_team0": pa.array([_team_players(seats, 0)] * n, pa.string()),
        "players_team1": pa.array([_team_players(seats, 1)] * n, pa.string()),
        "match": rows[:, L.X_MATCH],
        "first_dealer": rows[:, L.X_FIRST_DEALER],
        "n_hands": rows[:, L.X_N_HANDS],
        "winner": rows[:, L.X_WINNER],
        "reason": _labels(rows[:, L.X_REASON], [r or "" for r in L.REASON_NAMES]),
        "score_team0": rows[:, L.X_SCORE],
        "score_team1": rows[:, L.X_SCORE + 1],
    }
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
    for title, columns in (
        ("hands", HAND_COLUMNS),
        ("matches", MATCH_COLUMNS),
        ("actions", ACTION_COLUMNS),
    ):
        lines += ["", f"## `{title}`", "", "| column | type | meaning |", "|---|---|---|"]
        lines += [f"| `{c.name}` | {c.dtype} | {c.meaning} |" for c in columns]
    lines += _forks_dictionary()
    lines += _bid_forks_dictionary()
    return "\n".join(lines) + "\n"


# ---- the forks table (kout-sim forks): fields of the fork records of kout_sim.drivers.fork


@dataclass(frozen=True)
class ForkColumn:
    """A column of the ``forks`` table: its name, the field of the fork record, its meaning."""

    name: str
    field: int
    meaning: str


POSITION_COLUMNS = (
    ForkColumn("hand", FK.F_HAND, "stream index of the hand (the hand of play_hands, same seed)"),
    ForkColumn("dealer", FK.F_DEALER, "dealer seat"),
    ForkColumn("trick", FK.F_TRICK, "tricks completed before the decision (0: the first trick)"),
    ForkColumn("seat", FK.F_SEAT, "seat to act"),
    ForkColumn("bidder", FK.F_BIDDER, "bidder seat"),
    ForkColumn("contract", FK.F_CONTRACT, "contract (tricks bid)"),
    ForkColumn("trumps_out", FK.F_TRUMPS_OUT, "trumps neither played nor in the seat's hand"),
    ForkColumn("trumps_held", FK.F_TRUMPS_HELD, "trumps in the seat's hand"),
    ForkColumn("jokers_held", FK.F_JOKERS_HELD, "jokers in the seat's hand"),
    ForkColumn("team_tricks", FK.F_TEAM_TRICKS, "tricks of the seat's team before the decision"),
    ForkColumn("ply", FK.F_PLY, "decisions of the hand before this one (calls included)"),
)
BRANCHES = ("joker", "other")
OUTCOME_COLUMNS = (
    ForkColumn("made", FK.F_MADE, "the bidding team made its contract (null: forced joker lead)"),
    ForkColumn("net", FK.F_NET, "points banked by the seat's team minus the other team's"),
    ForkColumn("tricks", FK.F_TRICKS, "tricks of the seat's team at the end of the hand"),
    ForkColumn("forced_joker", FK.F_FORCED, "a forced joker lead ended the hand (RULES.md 2.8)"),
    ForkColumn(
        "match_lost", FK.F_MATCH_WINNER, "the hand alone loses the match for the seat's team"
    ),
)


def _forks_dictionary() -> list[str]:
    """The ``forks`` table of a ``kout-sim forks`` folder."""
    lines = [
        "",
        "## `forks` (folders written by `kout-sim forks`)",
        "",
        "One row per fork: a decision where the seat to act could play a joker and another card,",
        "played on twice from the same position and random numbers (`kout_sim.sim.fork`).",
        "",
        "| column | type | meaning |",
        "|---|---|---|",
    ]
    lines += [f"| `{c.name}` | int | {c.meaning} |" for c in POSITION_COLUMNS]
    lines += [
        "| `bidding_team` | bool | the seat is on the bidding team |",
        "| `leading` | bool | the seat leads the trick |",
        "| `trump` | string | trump suit letter |",
        "| `joker`, `other` | string | the card of each branch: the joker; the policy's best other card |",
        "| `chosen`, `chose_joker` | string, bool | the card the policy played in the hand itself |",
        "| `preset` | string | rule preset |",
    ]
    for c in OUTCOME_COLUMNS:
        names = ", ".join(f"`{c.name}_{b}`" for b in BRANCHES)
        lines.append(f"| {names} | per branch | {c.meaning} |")
    lines.append(
        "| `made_actual`, `net_actual`, `tricks_actual`, `forced_joker_actual` | as above | the hand "
        "itself, as the policy played it on from the fork (its own choice, `chosen`) |"
    )
    return lines


# ---- the bid forks table (kout-sim forks --kind bid): one row per branch of a bid fork

BID_FORK_FIELDS = (
    ForkColumn("hand", FK.F_HAND, "stream index of the hand (the hand of play_hands, same seed)"),
    ForkColumn("dealer", FK.F_DEALER, "dealer seat"),
    ForkColumn("seat", FK.F_SEAT, "seat to act at the forked decision"),
    ForkColumn("ply", FK.F_PLY, "decisions of the hand before this one (the calls before it)"),
    ForkColumn("decision", FK.G_DECISION, "forked bid decisions of the hand before this one"),
    ForkColumn("high_bid", FK.G_HIGH_BID, "standing bid before the decision (0: none)"),
    ForkColumn("n_calls", FK.G_N_LEGAL, "legal calls at the decision (the branches of the fork)"),
    ForkColumn("bidder", FK.G_BIDDER, "the branch's final bidder seat (-1: none, a void hand)"),
    ForkColumn("contract", FK.G_CONTRACT, "the branch's contract (tricks bid; Baloot: 0)"),
    ForkColumn("score_before", FK.G_SCORE_BEFORE, "the seat's team's score before the hand"),
    ForkColumn("net", FK.F_NET, "points banked by the seat's team minus the other team's"),
    ForkColumn("tricks", FK.F_TRICKS, "tricks of the seat's team at the end of the hand"),
    ForkColumn("net_actual", FK.F_ACTUAL_NET, "`net` of the hand itself (the policy's own call)"),
)
"""The integer columns of the ``bid_forks`` table and their record fields."""

BID_FORK_DERIVED = (
    (
        "seat_rel",
        "int",
        "the seat counted from the dealer in playing order (1: first to speak, 0: the dealer)",
    ),
    (
        "call",
        "string",
        "the branch's call at the decision: `pass`, a bid `5`..`9` (Kout), a Baloot call name",
    ),
    ("chosen", "string", "the call the seat's policy made in the hand itself"),
    ("is_chosen", "bool", "this branch is the policy's call: its outcome is the hand as played"),
    ("can_pass", "bool", "pass is legal at the decision (false: a forced dealer, RULES.md 1.3)"),
    ("bids", "bool", "the seat's team won the auction in this branch"),
    ("trump", "string", "the branch's trump suit letter (null: none, Baloot Sun)"),
    ("made", "bool", "the bidding team made its contract (null: forced joker lead, void hand)"),
    ("forced_joker", "bool", "a forced joker lead ended the hand (RULES.md 2.8)"),
    ("match_lost", "bool", "the hand alone loses the match for the seat's team"),
    ("made_actual", "bool", "`made` of the hand itself"),
    ("seat_cards", "int", "the seat's cards at the decision (bitmask)"),
    ("jokers", "int", "jokers in the seat's hand"),
    ("long_suit", "int", "cards in the seat's strongest suit (most cards + A K Q J honours)"),
    ("long_honours", "int", "A K Q J of that suit held"),
    ("aces", "int", "aces held"),
    ("voids", "int", "suits (of four) missing from the seat's hand"),
    (
        "strength",
        "int",
        "`long_suit + long_honours + jokers`: the bid guide's strength with the "
        "strongest suit as trump",
    ),
    ("preset", "string", "rule preset"),
)
"""The derived columns of the ``bid_forks`` table: name, type, meaning."""


def _bid_forks_dictionary() -> list[str]:
    """The ``bid_forks`` table of a ``kout-sim forks --kind bid`` folder."""
    lines = [
        "",
        "## `bid_forks` (folders written by `kout-sim forks --kind bid`)",
        "",
        "One row per branch of a bid fork: at a bid decision with more than one legal call the deal",
        "was played on once per legal call, the rest of the auction, the trump and the play by the",
        "line-up, every branch from the same random numbers (`kout_sim.sim.bid_fork`). The rows of",
        "one fork share `hand` and `ply`.",
        "",
        "| column | type | meaning |",
        "|---|---|---|",
    ]
    lines += [f"| `{c.name}` | int | {c.meaning} |" for c in BID_FORK_FIELDS]
    lines += [f"| `{name}` | {kind} | {meaning} |" for name, kind, meaning in BID_FORK_DERIVED]
    return lines


if __name__ == "__main__":  # pragma: no cover
    print(data_dictionary(), end="")
