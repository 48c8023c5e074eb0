"""The presets as data: one frozen :class:`Rules` per preset and options.

A preset fixes the table (players, deck, tricks) and names its options; it is of its family's
type, :class:`KoutPreset` (RULES.md §1, §2: bids, score table, jokers, match rules) or
:class:`BalootPreset` (§3). :func:`get_rules` validates options and returns a frozen
:class:`Rules`, which answers which family it is (``rules.is_baloot``, :class:`Family`).
This layer knows nothing of the kernels: :func:`kout_sim.engine.tables.tables_of` compiles a
:class:`Rules` into the plain numpy arrays every kernel reads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .. import cards as C
from .family import Family
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


@dataclass(frozen=True, kw_only=True)
class Preset:
    """What every rule system fixes: the table, the deck, the options and their profiles.

    A preset is one of the family types below: :class:`KoutPreset` (RULES.md §1, §2) or
    :class:`BalootPreset` (§3); each holds only what its family's rules need.
    """

    name: str
    family: Family
    title: str
    n_players: int
    deck_mask: int
    n_tricks: int
    options: Mapping[str, Option] = field(default_factory=dict)
    profiles: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class KoutPreset(Preset):
    """A Kout rule system (RULES.md §1 Kout Bo, §2 Bahraini): auction range, score table, jokers."""

    bid_min: int
    bid_max: int
    bid_names: Mapping[int, str]
    made: Mapping[int, int]  # points to the bidding team for a made contract
    failed: Mapping[int, int]  # points to the defenders for a failed contract
    joker_model: (
        str  # "ladder": RJ > trump A > BJ (1.1, 1.6-1.8); "single": JK wins any trick (2.7-2.8)
    )
    malzoom: bool  # a forced dealer bid of exactly bid_min scores MALZOOM_MADE/FAILED (1.3, 1.10)
    trump_must_hold: bool  # 2.4
    first_lead_offset: int  # 1.4: 0 (the bidder), 2.5: 1 (bidder+1)
    signed_score: bool  # 2.10
    rotation: str  # "next": the deal passes to dealer+1 (1.2); "ownership": by score (2.12)
    bawan_first_hand: int  # 1.12(a)
    kout_at: int  # 1.12(b)
    instant_bid: int  # 2.10 Inzili
    draw_joker_rank: int  # 1.2 jokers above the Ace (14) / 2.2 joker = 15

    def __post_init__(self) -> None:
        """A Kout preset is of a Kout family."""
        if not self.family.is_kout:
            raise ValueError(f"{self.name}: a KoutPreset of family {self.family}")


@dataclass(frozen=True, kw_only=True)
class BalootPreset(Preset):
    """The Baloot rule system (RULES.md §3): its switches are all options (and profiles)."""

    family: Family = Family.BALOOT

    def __post_init__(self) -> None:
        """The Baloot preset is of the Baloot family."""
        if not self.family.is_baloot:
            raise ValueError(f"{self.name}: a BalootPreset of family {self.family}")


@dataclass(frozen=True)
class Rules:
    """A preset with its options resolved: what the engines, the replay API and the drivers use.

    ``given`` keeps the options as the caller gave them, so that the reference engine resolves
    them itself (:mod:`kout_sim.reference.options`) instead of taking ``options``.
    """

    preset: Preset
    options: Mapping[str, Any]
    given: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def name(self) -> str:
        """The preset's name."""
        return self.preset.name

    @property
    def family(self) -> Family:
        """The preset's family."""
        return self.preset.family

    @property
    def is_baloot(self) -> bool:
        """Saudi Baloot (RULES.md §3)."""
        return self.preset.family.is_baloot

    @property
    def is_kout(self) -> bool:
        """Either Kout game (RULES.md §1, §2)."""
        return self.preset.family.is_kout

    @property
    def is_kuwaiti(self) -> bool:
        """Kuwaiti Kout Bo (RULES.md §1)."""
        return self.preset.family.is_kuwaiti

    @property
    def is_bahraini(self) -> bool:
        """Bahraini Kout (RULES.md §2)."""
        return self.preset.family.is_bahraini

    @property
    def n_players(self) -> int:
        """The number of players."""
        return self.preset.n_players

    @property
    def n_tricks(self) -> int:
        """The number of tricks in a hand."""
        return self.preset.n_tricks

    @property
    def deck_mask(self) -> int:
        """The preset's deck as a card mask."""
        return self.preset.deck_mask

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible description (preset name and every option value)."""
        return {"preset": self.preset.name, "options": dict(self.options)}

    @cached_property
    def key(self) -> str:
        """The rules as one canonical string (preset and every option value): equal rules, equal keys."""
        return json.dumps(self.to_dict(), sort_keys=True, default=str)


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
        KoutPreset(
            name=f"kout_bo_{_n}",
            family=Family.KOUT_BO,
            title=f"Kuwaiti Kout Bo, {_n} players",
            n_players=_n,
            deck_mask=_deck(_ranks, _missing, (C.RJ, C.BJ)),
            n_tricks=9,
            bid_min=5,
            bid_max=9,
            bid_names=_BO_BIDS,
            made={5: 5, 6: 6, 7: 7, 8: 8, 9: 36},  # RULES.md 1.10
            failed={5: 10, 6: 12, 7: 14, 8: 16, 9: 18},
            joker_model="ladder",
            malzoom=True,
            trump_must_hold=False,
            first_lead_offset=0,
            signed_score=False,
            rotation="next",
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
        KoutPreset(
            name=f"kout_bh_{_n}",
            family=Family.KOUT_BH,
            title=f"Bahraini Kout, {_n} players",
            n_players=_n,
            deck_mask=_deck(_ranks, _missing, (C.JK,)),
            n_tricks=8,
            bid_min=5,
            bid_max=8,
            bid_names=_BH_BIDS,
            made={5: 5, 6: 6, 7: 7},  # RULES.md 2.10; Inzili (8) decides the match instead
            failed={5: 10, 6: 12, 7: 14},
            joker_model="single",
            malzoom=False,
            trump_must_hold=True,
            first_lead_offset=1,
            signed_score=True,
            rotation="ownership",
            bawan_first_hand=0,
            kout_at=0,
            instant_bid=8,
            draw_joker_rank=15,
            options=_kout_bh_options(_n),
        )
    )


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
    BalootPreset(
        name="baloot",
        title="Saudi Baloot (Sun and Hokum), 4 players",
        n_players=4,
        deck_mask=_deck("789TJQKA", (), ()),
        n_tricks=8,
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
    return Rules(preset, resolved, dict(options or {}))
