"""Random solver positions as hand records, dealt and played by the reference engine alone."""

from __future__ import annotations

import random
from typing import Any

from kout_sim import reference as R
from kout_sim.reference import baloot as RB
from kout_sim.reference import kout as RK
from kout_sim.rules import get_rules


def random_record(
    preset: str, options: dict[str, Any], rng: random.Random, tricks_left: int
) -> dict[str, Any]:
    """A hand record of ``preset`` with random legal calls and plays, stopped when ``tricks_left``
    tricks remain (at a random point of the trick in progress); retried until the hand gets there
    (void Baloot hands, early stops and forced joker leads are dealt again)."""
    resolved = dict(get_rules(preset, options).options)
    while True:
        record = _attempt(preset, options, resolved, rng, tricks_left)
        if record is not None:
            return record


def _attempt(
    preset: str,
    options: dict[str, Any],
    resolved: dict[str, Any],
    rng: random.Random,
    tricks_left: int,
) -> dict[str, Any] | None:
    n = R.n_players(preset)
    dealer = rng.randrange(n)
    record: dict[str, Any] = {"rules": preset, "options": options, "dealer": dealer}
    calls: list[Any] = []
    plays: list[str] = []
    if preset == R.BALOOT:
        first, face_up, rest = RB.deal(dealer, rng)
        hand: Any = R.RefHand(preset, resolved, dealer, first, face_up=face_up)
        record.update(hands=first, face_up=face_up)
        n_tricks = 8
    else:
        hands = RK.deal(preset, dealer, rng)
        hand = R.RefHand(preset, resolved, dealer, hands)
        record["hands"] = hands
        n_tricks = len(hands[0])
    stop_in_trick = rng.randrange(n)  # plays of the last trick in progress
    while True:
        if hand.phase == "over":
            return None
        if hand.phase == "completion":
            completion = RB.completion_from(rest, dealer, hand.taker)
            hand.complete(completion)
            record["completion"] = completion
            continue
        if hand.phase == "play":
            done = sum(hand.tricks)
            if done == n_tricks - tricks_left and len(hand.trick) == stop_in_trick:
                break
        action = rng.choice(hand.legal_actions())
        if hand.phase == "trump":
            record["trump"] = action
        elif hand.phase == "play":
            plays.append(action)
        else:
            calls.append(action)
        hand.apply(action)
    record["calls"] = calls
    record["plays"] = plays
    return record
