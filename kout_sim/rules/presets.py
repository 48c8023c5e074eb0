"""The presets as data: one frozen :class:`Rules` per preset and options, compiled to kernel tables.

A preset fixes the table (players, deck, tricks, bids, score table) and names its options
(RULES.md §1, §2); :func:`get_rules` validates options and returns a frozen :class:`Rules`, whose
:attr:`Rules.tables` are the plain numpy arrays every kernel reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from .. import cards as C
from ..engine import layout as L
from .options import (
    MAX_TARGET,
    Option,
    RulesError,
    boolean,
    choice,
    resolve_options,
    seat_or,
    target_int,
)


def _deck(ranks: str, missing: tuple[str, ...], jokers: tuple[int, ...]) -> int:
    mask = 0
    for s in range(C.N_SUITS):
        for r in ranks:
            mask |= 1 << C.card_id(s, C.RANKS.index(r))
    for text in missing:
        mask &= ~(1 << C.parse_card(text))
    for j in jokers:
        mask |= 1 << j
    return mask


@dataclass(frozen=True)
class Preset:
    """The fixed part of a rule system: table, deck, auction range, score table, rule switches."""

    name: str
    family: str  # "kout_bo" | "kout_bh"
    title: str
    n_players: int
    deck_mask: int
    n_tricks: int
    bid_min: int
    bid_max: int
    bid_names: Mapping[int, str]
    made: Mapping[int, int]  # points to the bidding team for a made contract
    failed: Mapping[int, int]  # points to the defenders for a failed contract
    joker_model: int
    malzoom: bool  # a forced dealer bid of exactly bid_min scores MALZOOM_MADE/FAILED (1.3, 1.10)
    trump_must_hold: bool  # 2.4
    first_lead_offset: int  # 1.4: 0 (the bidder), 2.5: 1 (bidder+1)
    signed_score: bool  # 2.10
    rotation: int
    bawan_first_hand: int  # 1.12(a)
    kout_at: int  # 1.12(b)
    instant_bid: int  # 2.10 Inzili
    draw_joker_rank: int  # 1.2 jokers above the Ace (14) / 2.2 joker = 15
    options: Mapping[str, Option] = field(default_factory=dict)
    profiles: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Rules:
    """A preset with its options resolved: what the engines, the replay API and the drivers use."""

    preset: Preset
    options: Mapping[str, Any]

    @property
    def name(self) -> str:
        return self.preset.name

    @property
    def n_players(self) -> int:
        return self.preset.n_players

    @property
    def n_tricks(self) -> int:
        return self.preset.n_tricks

    @property
    def deck_mask(self) -> int:
        return self.preset.deck_mask

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible description (preset name and every option value)."""
        return {"preset": self.preset.name, "options": dict(self.options)}

    @cached_property
    def tables(self) -> tuple[np.ndarray, np.ndarray]:
        """``(P, STR)``: rule parameters ``int64[P_SIZE]`` and card tables ``int64[T_ROWS, T_COLS]``."""
        return compile_tables(self)


def compile_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Compile ``rules`` into the kernel tables (see :mod:`kout_sim.engine.layout`)."""
    pre, opt = rules.preset, rules.options
    P = np.zeros(L.P_SIZE, dtype=np.int64)
    P[L.P_FAMILY] = L.FAMILY_BALOOT if pre.family == "baloot" else L.FAMILY_KOUT
    P[L.P_N_PLAYERS] = pre.n_players
    P[L.P_N_TRICKS] = pre.n_tricks
    P[L.P_BID_MIN] = pre.bid_min
    P[L.P_BID_MAX] = pre.bid_max
    P[L.P_MALZOOM] = int(pre.malzoom)
    P[L.P_MALZOOM_MADE] = 5
    P[L.P_MALZOOM_FAILED] = 5
    P[L.P_TRUMP_MUST_HOLD] = int(pre.trump_must_hold)
    P[L.P_FIRST_LEAD] = pre.first_lead_offset
    P[L.P_JOKER_MODEL] = pre.joker_model
    P[L.P_RJ_LEAD_BID] = 8  # RULES.md 1.6(b)
    P[L.P_BJ_LEAD_BID] = 9  # RULES.md 1.6(a)
    P[L.P_JOKER_SCOPE_ANYONE] = int(opt.get("joker_lead_scope") == "anyone")
    P[L.P_FREE_JOKER_HONOURS] = 4  # RULES.md 1.6(c): trump A K Q J
    P[L.P_PLAY_ALL] = int(bool(opt.get("play_all_tricks", False)))
    P[L.P_TARGET] = int(opt["target"])
    for name, index, values in _BALOOT_CODES:
        if name in opt:
            P[index] = values[opt[name]]
    P[L.P_SIGNED_SCORE] = int(pre.signed_score)
    P[L.P_ROTATION] = pre.rotation
    P[L.P_BAWAN_FIRST] = pre.bawan_first_hand
    P[L.P_KOUT_AT] = pre.kout_at
    P[L.P_INSTANT_BID] = pre.instant_bid
    P[L.P_DECK] = pre.deck_mask
    P[L.P_N_CARDS] = bin(pre.deck_mask).count("1")
    for s in range(C.N_SUITS):
        P[L.P_SUIT_MASK + s] = pre.deck_mask & C.suit_mask(s)
    P[L.P_JOKER_MASK] = pre.deck_mask & C.JOKER_MASK
    P[L.P_DRAW_JOKER_RANK] = pre.draw_joker_rank
    fd = opt.get("first_dealer", "low_draw")
    P[L.P_FIRST_DEALER] = (
        L.FIRST_DEALER_LOW_DRAW
        if fd == "low_draw"
        else L.FIRST_DEALER_RANDOM
        if fd == "random"
        else int(fd)
    )
    for b, pts in pre.made.items():
        P[L.P_MADE + b] = pts
    for b, pts in pre.failed.items():
        P[L.P_FAILED + b] = pts

    STR = np.zeros((L.T_ROWS, L.T_COLS), dtype=np.int64)
    if pre.family == "baloot":
        _baloot_tables(rules, P, STR)
        P.setflags(write=False)
        STR.setflags(write=False)
        return P, STR
    for card in range(52):
        STR[L.T_LED, card] = 1 + card % C.N_RANKS  # RULES.md 1.1, 2.7: by rank in the led suit
    for trump in range(C.N_SUITS):
        for r in range(C.N_RANKS):
            STR[trump, C.card_id(trump, r)] = L.STRENGTH_TRUMP_BASE + r
        if pre.joker_model == L.JOKER_LADDER:
            # RULES.md 1.1: RJ > trump A > BJ > trump K ...
            ace = L.STRENGTH_TRUMP_BASE + 12
            STR[trump, C.card_id(trump, 12)] = ace + 1
            STR[trump, C.BJ] = ace
            STR[trump, C.RJ] = ace + 2
        else:
            # RULES.md 2.7: the joker wins any trick it is played to
            STR[trump, C.JK] = L.STRENGTH_TRUMP_BASE + 20
    P.setflags(write=False)
    STR.setflags(write=False)
    return P, STR


def _first_dealer(n_players: int, meaning: str) -> Option:
    return Option(
        "first_dealer",
        "low_draw",
        f"low_draw, random, or a seat 0..{n_players - 1}",
        meaning,
        seat_or(n_players, "low_draw", "random"),
    )


def _target(default: int, common: str, meaning: str) -> Option:
    return Option(
        "target",
        default,
        f"a positive integer up to {MAX_TARGET:,} ({default} by default; {common} are common)",
        meaning,
        target_int,
    )


def _kout_bo_options(n_players: int) -> dict[str, Option]:
    options = (
        _first_dealer(n_players, "how the first dealer is chosen (RULES.md 1.2)"),
        Option(
            "joker_lead_scope",
            "bidding_team",
            "bidding_team, anyone",
            "who may lead a joker at contracts 8 and 9 (RULES.md 1.6)",
            choice("bidding_team", "anyone"),
        ),
        Option(
            "play_all_tricks",
            False,
            "true, false",
            "play every trick instead of stopping when the result is fixed (RULES.md 1.11)",
            boolean,
        ),
        _target(101, "51 and 151", "match points that win the match (RULES.md 1.12(c))"),
    )
    return {o.name: o for o in options}


def _kout_bh_options(n_players: int) -> dict[str, Option]:
    options = (
        _first_dealer(
            n_players, "how the first dealer is chosen (RULES.md 2.2; joker draws as 15)"
        ),
        _target(31, "26, 51 and 101", "|signed score| that ends the match (RULES.md 2.11)"),
    )
    return {o.name: o for o in options}


_BO_BIDS = {5: "Bab", 6: "6", 7: "7", 8: "8", 9: "Bawan"}

PRESETS: dict[str, Preset] = {}


def _register(p: Preset) -> None:
    PRESETS[p.name] = p


_BO_DECKS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (4, "6789TJQKA", ("6H", "6D")),
    (6, C.RANKS, ()),
)
for _n, _ranks, _missing in _BO_DECKS:
    _register(
        Preset(
            name=f"kout_bo_{_n}",
            family="kout_bo",
            title=f"Kuwaiti Kout Bo, {_n} players",
            n_players=_n,
            deck_mask=_deck(_ranks, _missing, (C.RJ, C.BJ)),
            n_tricks=9,
            bid_min=5,
            bid_max=9,
            bid_names=_BO_BIDS,
            made={5: 5, 6: 6, 7: 7, 8: 8, 9: 36},  # RULES.md 1.10
            failed={5: 10, 6: 12, 7: 14, 8: 16, 9: 18},
            joker_model=L.JOKER_LADDER,
            malzoom=True,
            trump_must_hold=False,
            first_lead_offset=0,
            signed_score=False,
            rotation=L.ROTATE_NEXT,
            bawan_first_hand=9,
            kout_at=51,
            instant_bid=0,
            draw_joker_rank=15,
            options=_kout_bo_options(_n),
        )
    )


_BH_BIDS = {5: "Bab", 6: "Six", 7: "Seven", 8: "Inzili"}

_BH_DECKS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (4, "789TJQKA", ("7D",)),
    (6, "3456789TJQKA", ("3D",)),
)
for _n, _ranks, _missing in _BH_DECKS:
    _register(
        Preset(
            name=f"kout_bh_{_n}",
            family="kout_bh",
            title=f"Bahraini Kout, {_n} players",
            n_players=_n,
            deck_mask=_deck(_ranks, _missing, (C.JK,)),
            n_tricks=8,
            bid_min=5,
            bid_max=8,
            bid_names=_BH_BIDS,
            made={5: 5, 6: 6, 7: 7},  # RULES.md 2.10; Inzili (8) decides the match instead
            failed={5: 10, 6: 12, 7: 14},
            joker_model=L.JOKER_SINGLE,
            malzoom=False,
            trump_must_hold=True,
            first_lead_offset=1,
            signed_score=True,
            rotation=L.ROTATE_OWNERSHIP,
            bawan_first_hand=0,
            kout_at=0,
            instant_bid=8,
            draw_joker_rank=15,
            options=_kout_bh_options(_n),
        )
    )


# Baloot options as kernel parameters: (option, P index, value -> code)
_BALOOT_CODES: tuple[tuple[str, int, Mapping[Any, int]], ...] = (
    ("sun_before_you", L.P_SUN_BEFORE_YOU, {True: 1, False: 0, "opponents": 2}),
    ("second_sun_chance", L.P_SECOND_SUN, {True: 1, False: 0}),
    ("kawesh", L.P_KAWESH, {True: 1, False: 0}),
    ("ace_sun_restriction", L.P_ACE_P1_ONLY, {"p1_only": 1, "none": 0}),
    ("doubling", L.P_DOUBLING, {True: 1, False: 0}),
    ("mercy", L.P_MERCY, {"partner_winning": 1, "none": 0}),
    ("undertrump_required", L.P_UNDERTRUMP, {True: 1, False: 0}),
    ("overtrump_on_trump_lead", L.P_OVERTRUMP_LEAD, {"vs_opponent": 0, "always": 1, "never": 2}),
    ("baloot_on_loss", L.P_BALOOT_ON_LOSS, {"owner": 0, "void": 1, "winner": 2}),
    ("tie", L.P_TIE, {"split": 0, "buyer_loses": 1, "buyer_loses_hokum_only": 2}),
    ("kaboot_projects", L.P_KABOOT_ALL, {"all": 1, "own": 0}),
    ("doubled_projects", L.P_DOUBLED_PROJ_MULT, {"by_level": 0, "multiplied": 1}),
    ("gahwa", L.P_GAHWA_BANK, {"match": 0, "bank_152": 152}),
)

# RULES.md 3.1: (order in the trump suit, order in Sun / non-trump, points as trump, points else)
_BALOOT_RANKS = {
    "J": (8, 4, 20, 2),
    "9": (7, 3, 14, 0),
    "A": (6, 8, 11, 11),
    "T": (5, 7, 10, 10),
    "K": (4, 6, 4, 4),
    "Q": (3, 5, 3, 3),
    "8": (2, 2, 0, 0),
    "7": (1, 1, 0, 0),
}


def _run_codes(pattern: int) -> list[int]:
    """Project codes of the maximal runs (>= 3) of an 8-bit rank pattern (bit 0 = 7 .. bit 7 = A)."""
    codes = []
    i = 0
    while i < 8:
        if (pattern >> i) & 1:
            j = i
            while j + 1 < 8 and (pattern >> (j + 1)) & 1:
                j += 1
            length = j - i + 1
            if length >= 3:
                cls = (
                    L.PROJ_SIRA if length == 3 else L.PROJ_FIFTY if length == 4 else L.PROJ_HUNDRED
                )
                codes.append(
                    cls * 1000 + 100 + j
                )  # RULES.md 3.5: a run longer than five is a Hundred
            i = j + 1
        else:
            i += 1
    return sorted(codes, reverse=True)


def _baloot_tables(rules: Rules, P: np.ndarray, STR: np.ndarray) -> None:
    """Card orders and points of RULES.md 3.1 and the run table of 3.5."""
    for suit in range(C.N_SUITS):
        for rank, (trump_order, plain_order, trump_pts, plain_pts) in _BALOOT_RANKS.items():
            card = C.card_id(suit, C.RANKS.index(rank))
            STR[L.T_LED, card] = plain_order
            STR[L.T_POINTS + L.T_NO_TRUMP, card] = plain_pts
            for trump in range(C.N_SUITS):
                STR[L.T_POINTS + trump, card] = trump_pts if suit == trump else plain_pts
            STR[suit, card] = L.STRENGTH_TRUMP_BASE + trump_order
    for pattern in range(256):
        codes = [*_run_codes(pattern), 0, 0]
        STR[L.T_RUN1, pattern] = codes[0]
        STR[L.T_RUN2, pattern] = codes[1]


def _bool_or_opponents(value: Any) -> Any:
    """Validator of ``sun_before_you``: a bool, or ``"opponents"`` (RULES.md 3.2.3 (K))."""
    if value == "opponents":
        return value
    try:
        return boolean(value)
    except ValueError:
        raise ValueError("not true, false or opponents") from None


def _flag(name: str, meaning: str, default: bool) -> Option:
    return Option(name, default, "true, false", meaning, boolean)


def _pick(name: str, default: str, values: tuple[str, ...], meaning: str) -> Option:
    return Option(name, default, ", ".join(values), meaning, choice(*values))


_BALOOT_OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        _pick("profile", "ksa", ("ksa", "kammelna"), "rule profile (RULES.md 3): KSA or Kammelna"),
        Option(
            "sun_before_you",
            True,
            "true, false, opponents",
            "earlier passers (opponents: only the caller's opponents) may claim Sun ahead of a Sun "
            "caller (3.2.3)",
            _bool_or_opponents,
        ),
        _flag(
            "second_sun_chance",
            "after a round-1 Hokum the seats that passed before it are asked for Sun (3.2.3)",
            False,
        ),
        _flag(
            "kawesh",
            "a first five of 7s, 8s and 9s may call Kawesh: the hand is void, same dealer (3.2.7)",
            False,
        ),
        _pick(
            "ace_sun_restriction",
            "p1_only",
            ("p1_only", "none"),
            "face-up Ace: only P1 may turn a standing Hokum into Sun (3.2.4)",
        ),
        _flag("doubling", "the doubling ladder is played (3.3.4)", True),
        _pick(
            "mercy",
            "partner_winning",
            ("partner_winning", "none"),
            "no duty to trump while the partner wins the trick (3.4.2)",
        ),
        _flag("undertrump_required", "unable to overtrump, a trump must still be played", False),
        _pick(
            "overtrump_on_trump_lead",
            "vs_opponent",
            ("vs_opponent", "always", "never"),
            "duty to beat the winning trump when trump is led (3.4.3)",
        ),
        _pick(
            "baloot_on_loss",
            "owner",
            ("owner", "void", "winner"),
            "who scores a failed buyer's Baloot (3.6.3)",
        ),
        _pick(
            "tie",
            "split",
            ("split", "buyer_loses", "buyer_loses_hokum_only"),
            "an exact tie against the buyer (3.6.3)",
        ),
        _pick("kaboot_projects", "all", ("all", "own"), "projects scored with a kaboot (3.6.4)"),
        _pick(
            "doubled_projects",
            "by_level",
            ("by_level", "multiplied"),
            "project multiplier in doubled hands: 2 at Double, 1 above; or the hand's (3.6.5)",
        ),
        _pick(
            "gahwa",
            "match",
            ("match", "bank_152"),
            "a Gahwa's winner wins the match, or banks 152 (3.6.5)",
        ),
        Option(
            "target",
            152,
            f"a positive integer up to {MAX_TARGET:,} (152 by default)",
            "match points that win the match (3.6.6)",
            target_int,
        ),
        Option(
            "first_dealer",
            "random",
            "random, or a seat 0..3",
            "dealer of the first hand",
            seat_or(4, "random"),
        ),
    )
}

_register(
    Preset(
        name="baloot",
        family="baloot",
        title="Saudi Baloot (Sun and Hokum), 4 players",
        n_players=4,
        deck_mask=_deck("789TJQKA", (), ()),
        n_tricks=8,
        bid_min=0,
        bid_max=0,
        bid_names={},
        made={},
        failed={},
        joker_model=L.JOKER_LADDER,
        malzoom=False,
        trump_must_hold=False,
        first_lead_offset=1,
        signed_score=False,
        rotation=L.ROTATE_NEXT,
        bawan_first_hand=0,
        kout_at=0,
        instant_bid=0,
        draw_joker_rank=15,
        options=_BALOOT_OPTIONS,
        profiles={
            "ksa": {},
            "kammelna": {
                "baloot_on_loss": "winner",
                "tie": "buyer_loses_hokum_only",
                "doubled_projects": "multiplied",
                "gahwa": "bank_152",
                "kaboot_projects": "own",  # RULES.md 3.6.4 (K): a real game's Sun kaboot, 0-44
                "sun_before_you": "opponents",  # RULES.md 3.2.3 (K)
                "second_sun_chance": True,  # RULES.md 3.2.3 (K)
                "kawesh": True,  # RULES.md 3.2.7 (K)
            },
        },
    )
)


def preset_names() -> list[str]:
    """Names of every preset, sorted."""
    return sorted(PRESETS)


def get_preset(name: object) -> Preset:
    """The :class:`Preset` called ``name``; ``RulesError`` listing the presets otherwise."""
    if not isinstance(name, str) or name not in PRESETS:
        raise RulesError(f"unknown preset {name!r}; valid presets: {', '.join(preset_names())}")
    return PRESETS[name]


def get_rules(name: object, options: Mapping[str, Any] | None = None) -> Rules:
    """Validated :class:`Rules` for preset ``name`` with ``options`` (defaults filled in).

    Raises
    ------
    RulesError
        For an unknown preset, an unknown option, or an invalid option value; the message lists
        what is valid.
    """
    preset = get_preset(name)
    resolved = resolve_options(preset.name, preset.options, options)
    if "profile" in resolved:
        # a profile changes defaults; an option given explicitly wins over it
        for key, value in preset.profiles[resolved["profile"]].items():
            if options is None or key not in options:
                resolved[key] = value
    return Rules(preset, resolved)
