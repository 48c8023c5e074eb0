"""The advisor: what should the seat to act call, or play, given only its own cards?

``advise(record)`` reads a partial hand record (docs/records.md: the advising seat's hand given,
the others ``null``), samples the hidden hands uniformly among the deals consistent with the record
(the exact sampler, :mod:`kout_sim.players.sampler`), evaluates every legal option on the same
sampled deals and summarises each with 95% intervals (docs/advise.md).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import InvalidRecord
from ..rules import Family, RulesError, get_rules
from .evaluate import EVALS, Evaluator, Option, Outcomes, options_of
from .position import Position, read_position
from .report import OBJECTIVES, format_table, summarize

DEFAULT_SAMPLES: dict[tuple[str, str], int] = {
    ("dd", Family.KOUT_BO): 3,
    ("dd", Family.KOUT_BH): 10,
    ("dd", Family.BALOOT): 3,
    ("heuristic", Family.KOUT_BO): 1200,
    ("heuristic", Family.KOUT_BH): 1200,
    ("heuristic", Family.BALOOT): 2500,
    **{(search, family): 1 for search in ("ismcts", "pimc") for family in Family},
}
"""Samples of a decision when none are asked for: about a second for the first call of a random
4-seat deal on one core of the shared machine (measured, docs/advise.md: double dummy about 380 ms
a sample in kout_bo_4, 110 ms in kout_bh_4, 420 ms in Baloot; heuristic play-outs 0.8 ms in Kout,
0.4 ms in Baloot; ``ismcts`` play-outs take seconds a sample, so the searches take one sample in
every family). The 6-seat presets take longer."""

_OBJECTIVE_TEXT = {
    "points": "mean net points of the seat's team",
    "win": "probability that the seat's team wins the hand",
    "value": "mean tricks (card points) of the seat's team",
}


def default_samples(eval: str, family: str) -> int:
    """The default number of sampled deals for an evaluation and a rule family."""
    return DEFAULT_SAMPLES[eval, family]


def _notes(pos: Position, evaluator: Evaluator, card: bool) -> list[str]:
    notes = []
    if pos.known:
        notes.append("every hand is known: one deal, nothing sampled")
    else:
        notes.append(
            "hidden hands: uniform among the deals consistent with the record "
            "(the exact sampler: voids shown, RULES.md 1.5 / 2.6 / 3.4; the Bahraini bidder's "
            "trump, 2.4; the Baloot face-up card, 3.2.6)"
        )
    notes.append("the same sampled deals and random numbers for every option (a paired comparison)")
    if not card:
        notes.append(
            "after the advised seat's call the auction is finished by the heuristic for every "
            "seat (its own later Baloot calls and the doubling included); a Kout bid names the "
            "option's trump if the seat ends as the bidder, and an overcaller names the "
            "heuristic's trump; P(make) is over the deals where the seat's team holds the "
            "contract ('ours')"
        )
    if evaluator.eval == "dd":
        notes.append(
            "play evaluated double dummy (every hand open, perfect play by both sides); "
            "Kout Bo calls: one null-window probe (points depend only on made or failed, 1.10)"
        )
    else:
        notes.append(f"play played out by {evaluator.player} on every seat")
    if pos.rules.is_baloot:
        notes.append(
            "Baloot projects are the sampled deal's (3.5), declarations are not used as "
            "information; double dummy maximises card points (not the contract), and a kaboot "
            "is counted when one team takes every card point"
        )
    else:
        notes.append("points are the hand's alone (RULES.md 1.10 / 2.10): no match score")
    return notes


def advise(
    record: Mapping[str, Any],
    *,
    samples: int | None = None,
    eval: str = "dd",
    seed: int = 0,
    seat: int | None = None,
    player: str | None = None,
    objective: str = "points",
) -> dict[str, Any]:
    """Advise the seat to act of a partial hand record.

    Parameters
    ----------
    record
        A hand record (docs/records.md) that stops at a decision of the advising seat: its own
        hand given, the others ``null`` (or every hand given: one known deal).
    samples
        Sampled deals (default: :data:`DEFAULT_SAMPLES`, about a second for a call decision).
    eval
        ``"dd"`` double dummy, ``"heuristic"``, ``"ismcts"`` or ``"pimc"``: play-outs by that player.
    seed
        Seeds the sampled deals and the play-outs.
    seat
        The advising seat; an error unless it is the seat to act (default: that seat).
    player
        A player spec for the play-outs (e.g. ``"ismcts:iterations=200"``), instead of ``eval``'s
        default one.
    objective
        What the advised option maximises: ``"points"`` (mean net points of the seat's team),
        ``"win"`` (P(the team wins the hand)) or ``"value"`` (mean tricks or card points).

    Returns
    -------
    dict
        ``options`` (one row per legal option: ``p_make``, ``p_win``, ``points``, ``net``,
        ``value``, each with a 95% interval ``*_ci``; ``diff``: net points against the advised
        option, paired; card decisions: ``best_share``), ``advised``, ``evaluation``, ``notes``
        and the position (docs/advise.md).

    Raises
    ------
    InvalidRecord, IllegalAction
        A bad record, or one that stops where the advising seat is not to act.
    """
    if eval not in EVALS:
        raise ValueError(f"unknown evaluation {eval!r}; valid: {', '.join(EVALS)}")
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
    if samples is not None and (isinstance(samples, bool) or not 1 <= samples <= 1_000_000):
        raise ValueError(f"samples must be an integer 1..1,000,000, got {samples!r}")
    start = time.perf_counter()
    pos = read_position(record, seat=seat, seed=seed)
    family = pos.rules.family
    n = samples if samples is not None else default_samples(eval, family)
    evaluator = Evaluator(pos, eval, player)
    options = options_of(pos)
    card = pos.phase == "play"
    out = evaluator.run(options, n, seed)
    rows, best, _ = summarize(options, out, card, objective)
    ms = 1000 * (time.perf_counter() - start)
    auction = "" if card else "auction finished by heuristic, "
    play = "double dummy" if eval == "dd" else f"play-outs by {evaluator.player}"
    return {
        "rules": pos.rules.name,
        "seat": pos.seat,
        "team": pos.seat & 1,
        "dealer": int(pos.S[1]),
        "decision": "card" if card else "call",
        "phase": pos.phase,
        "eval": eval,
        "evaluation": auction + play,
        "players": {"auction": None if card else "heuristic", "play": play},
        "samples": out.team.shape[0],
        "known": pos.known,
        "seed": seed,
        "objective": objective,
        "objective_text": _OBJECTIVE_TEXT[objective],
        "options": rows,
        "advised": options[best].label,
        "advised_call": options[best].call,
        "notes": _notes(pos, evaluator, card),
        "ms": ms,
    }


def _split(text: str | Sequence[str] | None) -> list[str]:
    if text is None:
        return []
    if isinstance(text, str):
        return text.replace(",", " ").split()
    return list(text)


def short_record(
    preset: str,
    hand: str | Sequence[str],
    seat: int,
    dealer: int,
    *,
    calls: str | Sequence[str | int] | None = None,
    trump: str | None = None,
    plays: str | Sequence[str] | None = None,
    face_up: str | None = None,
    completion: str | Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The hand record of the short form (``--preset --hand --seat --dealer --calls ...``): the
    advising seat's cards as dealt, every other hand ``null``. Baloot: ``hand`` is the five-card
    first deal, ``face_up`` the turned card, ``completion`` the seat's completion cards."""
    try:
        rules = get_rules(preset, dict(options or {}))
    except RulesError as exc:
        raise InvalidRecord(f"record: {exc}") from None
    n = rules.n_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise InvalidRecord(f"seat must be a seat 0..{n - 1} of {preset}, got {seat!r}")
    hands: list[list[str] | None] = [None] * n
    hands[seat] = _split(hand)
    call_list: list[str | int] = []
    for c in _split(calls) if isinstance(calls, str) or calls is None else calls:
        if isinstance(c, str) and c.lstrip("-").isdigit():
            call_list.append(int(c))
        else:
            call_list.append(c)
    record: dict[str, Any] = {
        "rules": preset,
        "options": dict(options or {}),
        "dealer": dealer,
        "hands": hands,
        "calls": call_list,
        "plays": _split(plays),
    }
    if trump is not None:
        record["trump"] = trump
    if face_up is not None:
        record["face_up"] = face_up
    if completion is not None:
        comp: list[list[str] | None] = [None] * n
        comp[seat] = _split(completion)
        record["completion"] = comp
    return record


__all__ = [
    "DEFAULT_SAMPLES",
    "EVALS",
    "OBJECTIVES",
    "Evaluator",
    "Option",
    "Outcomes",
    "Position",
    "advise",
    "default_samples",
    "format_table",
    "options_of",
    "read_position",
    "short_record",
    "summarize",
]
