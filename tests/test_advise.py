"""The advisor (kout_sim.advise): exact against the solver on known deals, against brute force
(every consistent deal enumerated, checked by the reference engine) on small endgames, samples that
respect what the record showed, and one-line errors."""

from __future__ import annotations

import itertools
import json
import math
import random
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

import kout_sim
from kout_sim import cards as C
from kout_sim import reference as R
from kout_sim.advisor import Evaluator, read_position, short_record
from kout_sim.cli import main
from kout_sim.engine import layout as L
from kout_sim.errors import IllegalAction, InvalidRecord
from kout_sim.solver import LOSS, solve

from .solver._positions import random_record

# docs/records.md worked example: dealer 3, seat 0 bids 5 in spades
EXAMPLE: dict[str, Any] = {
    "rules": "kout_bo_4",
    "dealer": 3,
    "hands": [
        ["AS", "KS", "QS", "JS", "6C", "JD", "TD", "9D", "KH"],
        ["QH", "JH", "TH", "AC", "AD", "KD", "QD", "7H", "BJ"],
        ["6S", "7S", "8S", "KC", "8D", "7D", "QC", "AH", "RJ"],
        ["9S", "TS", "8H", "JC", "TC", "9C", "8C", "9H", "7C"],
    ],
    "calls": [5, "pass", "pass", "pass"],
    "trump": "S",
    "plays": [
        "AS", "QH", "6S", "9S", "KS", "JH", "7S", "TS", "QS", "TH", "8S", "8H",
        "6C", "AC", "KC", "JC", "AD", "8D", "TC", "JD", "KD", "7D", "9C", "TD",
        "QD", "QC", "8C", "9D", "7H", "AH", "9H", "KH", "RJ", "7C", "JS", "BJ",
    ],
}  # fmt: skip


def _upto(record: dict[str, Any], n_plays: int) -> dict[str, Any]:
    return {**record, "plays": record["plays"][:n_plays]}


def _hide(record: dict[str, Any], seat: int) -> dict[str, Any]:
    hands = [h if s == seat else None for s, h in enumerate(record["hands"])]
    out = {**record, "hands": hands}
    if "completion" in record:
        out["completion"] = [c if s == seat else None for s, c in enumerate(record["completion"])]
    return out


def _to_act(record: dict[str, Any]) -> int:
    return read_position(record).seat


def _rows(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["option"]: row for row in result["options"]}


# ---- exact on a known deal -------------------------------------------------------------------------


@pytest.mark.parametrize("n_plays", [4, 5, 13, 22])
def test_complete_record_card_values_equal_the_solver(n_plays: int) -> None:
    """With every hand known the advisor's card values are the solver's, for the seat's team."""
    record = _upto(EXAMPLE, n_plays)
    exact = solve(record)
    seat = exact["to_act"]
    result = kout_sim.advise(record, samples=50)
    assert result["known"] and result["samples"] == 1 and result["seat"] == seat
    rows = _rows(result)
    assert set(rows) == set(exact["cards"])
    for card, v in exact["cards"].items():
        team_tricks = v if seat % 2 == 0 else 9 - v  # seat 0 (team 0) is the bidder
        assert rows[card]["value"] == team_tricks
        assert rows[card]["p_make"] == (1.0 if v >= 5 else 0.0)
        assert rows[card]["p_win"] == (1.0 if (v >= 5) == (seat % 2 == 0) else 0.0)
    best = max(rows[c]["net"] for c in rows)
    assert rows[result["advised"]]["net"] == best


def test_rule_1_10_complete_record_call_points_equal_the_solver() -> None:
    """The dealer's last call (no one can overcall it): made exactly when the solver makes the
    contract in that trump, and the points are those of RULES.md 1.10 (Malzoom for a forced 5)."""
    record = {**EXAMPLE, "calls": ["pass", "pass", "pass"], "trump": None, "plays": []}
    result = kout_sim.advise(record)
    assert result["decision"] == "call" and result["seat"] == 3 and result["known"]
    rows = _rows(result)
    assert "pass" not in rows  # RULES.md 1.3: the dealer must bid
    # RULES.md 1.10: Malzoom (the forced dealer's 5) 5 / 5; above it an ordinary contract
    made_points = {5: 5, 6: 6, 7: 7, 8: 8, 9: 36}
    failed_points = {5: 5, 6: 12, 7: 14, 8: 16, 9: 18}
    seen = set()
    for bid in range(5, 10):
        for suit in C.SUITS:
            done = solve({**record, "calls": [*record["calls"], bid], "trump": suit})
            row = rows[f"{bid} {suit}"]
            made = done["tricks"] >= bid
            seen.add(made)
            assert row["p_ours"] == 1.0
            assert row["p_make"] == (1.0 if made else 0.0)
            # team 1 (seat 3) bids: its points are the bid's, the other team's the failure's
            assert row["net"] == (made_points[bid] if made else -failed_points[bid])
    assert seen == {True, False}


def test_baloot_complete_record_card_values_equal_the_solver() -> None:
    """Baloot: the buyer team's card points after each card, for the seat's team (RULES.md 3.6.1:
    162 card points in Hokum)."""
    record = {
        "rules": "baloot",
        "dealer": 3,
        "hands": [
            ["JS", "AH", "KH", "QH", "8D"],
            ["AS", "QS", "TH", "9H", "AD"],
            ["TS", "8S", "JH", "QD", "JD"],
            ["KS", "7S", "8H", "7H", "TD"],
        ],
        "face_up": "9S",
        "completion": [["7D", "7C"], ["KD", "9C", "8C"], ["AC", "QC", "JC"], ["9D", "KC", "TC"]],
        "calls": ["hokum", "pass", "pass", "pass", "confirm", "double", "pass"],
        "plays": ["JS", "QS", "8S", "7S", "9S"],
    }
    exact = solve(record)
    seat = exact["to_act"]
    result = kout_sim.advise(record)
    rows = _rows(result)
    assert set(rows) == set(exact["cards"])
    for card, v in exact["cards"].items():
        assert rows[card]["value"] == (v if seat % 2 == 0 else 162 - v)


# ---- brute force on small endgames ----------------------------------------------------------------


def _seats_of_plays(record: dict[str, Any]) -> list[int]:
    """Who played each recorded card, by the reference engine."""
    rules = kout_sim.get_rules(record["rules"], record.get("options"))
    hand: Any = R.RefHand(rules.name, dict(rules.given), record["dealer"], record["hands"])
    for call in record["calls"]:
        hand.apply(call)
    hand.apply(record["trump"])
    seats = []
    for card in record["plays"]:
        seats.append(hand.to_act)
        hand.apply(card)
    return seats


def _brute_force(record: dict[str, Any]) -> tuple[int, dict[str, float]]:
    """Every deal of the hidden cards consistent with the record (replayed legally by the
    reference engine) solved: the exact P(contract made) after each legal card."""
    seat = _to_act(record)
    n = len(record["hands"])
    seats = _seats_of_plays(record)
    played = [{c for c, s in zip(record["plays"], seats, strict=True) if s == t} for t in range(n)]
    current = [[c for c in h if c not in played[s]] for s, h in enumerate(record["hands"])]
    others = [s for s in range(n) if s != seat]
    pool = [c for s in others for c in current[s]]
    sizes = [len(current[s]) for s in others]
    made: dict[str, list[bool]] = {}
    deals = 0

    def assign(cards: list[str], k: int) -> Any:
        if k == len(others) - 1:
            yield [cards]
            return
        for pick in itertools.combinations(cards, sizes[k]):
            rest = [c for c in cards if c not in pick]
            for tail in assign(rest, k + 1):
                yield [list(pick), *tail]

    contract = max(c for c in record["calls"] if isinstance(c, int))
    for split in assign(pool, 0):
        hands = [list(h) for h in record["hands"]]
        for s, cards in zip(others, split, strict=True):
            hands[s] = cards + sorted(played[s])
        candidate = {**record, "hands": hands}
        try:
            kout_sim.legal_actions(candidate, engine="reference")
        except IllegalAction:
            continue  # inconsistent with what the plays showed
        deals += 1
        for card, v in solve(candidate)["cards"].items():
            made.setdefault(card, []).append(v != LOSS and v >= contract)
    return deals, {card: sum(m) / len(m) for card, m in made.items()}


@pytest.mark.parametrize(
    ("preset", "seed", "tricks_left"),
    # positions with a few hundred consistent deals, several cards and shares strictly inside 0..1
    [("kout_bo_4", 10, 3), ("kout_bo_4", 19, 3), ("kout_bo_4", 20, 3), ("kout_bh_4", 4, 3)],
)
def test_card_p_make_agrees_with_brute_force(preset: str, seed: int, tricks_left: int) -> None:
    """On small endgames the advisor's P(make) per card matches the exact share over every
    consistent deal, within 4.5 standard errors of its sample."""
    record = random_record(preset, {}, random.Random(seed), tricks_left)
    seat = _to_act(record)
    deals, exact = _brute_force(record)
    assert deals >= 50 and len(exact) >= 2
    samples = 1500
    result = kout_sim.advise(_hide(record, seat), samples=samples, seed=seed)
    rows = _rows(result)
    assert set(rows) == set(exact)
    for card, p in exact.items():
        se = math.sqrt(max(p * (1 - p), 1e-4) / samples)
        assert abs(rows[card]["p_make"] - p) <= 4.5 * se + 1e-9, (card, p, rows[card]["p_make"])


# ---- samples respect what the record showed ----------------------------------------------------


@pytest.mark.parametrize(("preset", "seed"), [("kout_bo_4", 5), ("kout_bh_4", 6), ("kout_bo_6", 7)])
def test_rule_1_5_samples_respect_every_shown_void(preset: str, seed: int) -> None:
    """Every sampled deal, with each seat's played cards put back, replays the record legally in
    the reference engine (RULES.md 1.5 / 2.6 follow suit, 1.8, 2.4, 2.8), and keeps the advising
    seat's cards."""
    record = random_record(preset, {}, random.Random(seed), 4)
    seat = _to_act(record)
    pos = read_position(_hide(record, seat))
    assert not pos.known and pos.seat == seat
    evaluator = Evaluator(pos, "heuristic")
    seats = _seats_of_plays(record)
    n = len(record["hands"])
    shown_void = 0
    for i in range(60):
        D = evaluator.deal(i, seed)
        assert int(D[L.S_HAND + seat]) == int(pos.S[L.S_HAND + seat])
        hands = []
        for s in range(n):
            held = C.format_mask(int(D[L.S_HAND + s]))
            hands.append(held + [c for c, t in zip(record["plays"], seats, strict=True) if t == s])
        kout_sim.legal_actions({**record, "hands": hands}, engine="reference")
        shown_void += int(D[L.S_VOIDS] != 0)
    assert shown_void == 60 or int(pos.S[L.S_VOIDS]) == 0


def test_placeholder_replay_shows_the_same_public_state_as_the_true_deal() -> None:
    """Reading a record with the other hands null gives the same public state as the full
    record: the voids shown, tricks, trick winners and the seat to act."""
    for seed in range(8):
        record = random_record("kout_bo_4", {}, random.Random(100 + seed), 3)
        seat = _to_act(record)
        full = read_position(record)
        part = read_position(_hide(record, seat), seed=seed)
        for key in (L.S_VOIDS, L.S_TO_ACT, L.S_LEADER, L.S_N_DONE, L.S_PLAYED, L.S_HIGH_BID):
            assert int(full.S[key]) == int(part.S[key])
        assert np.array_equal(
            full.S[L.S_WINNERS : L.S_WINNERS + 9], part.S[L.S_WINNERS : L.S_WINNERS + 9]
        )
        assert full.plays == part.plays


def test_call_decision_is_seeded_and_paired() -> None:
    """The same seed gives the same numbers; each option's difference to the advised one is
    paired (the advised option's own difference is exactly 0)."""
    record = short_record("kout_bo_4", "AS KS QS JS 6C JD TD 9D KH", 0, 3)
    a = kout_sim.advise(record, samples=40, eval="heuristic", seed=3)
    b = kout_sim.advise(record, samples=40, eval="heuristic", seed=3)
    assert [r["net"] for r in a["options"]] == [r["net"] for r in b["options"]]
    assert _rows(a)[a["advised"]]["diff"] == 0.0
    labels = [r["option"] for r in a["options"]]
    assert labels[0] == "pass" and "5 S" in labels and "9 C" in labels and len(labels) == 21


def test_baloot_partial_record_card_decision() -> None:
    """A Baloot record with the other first deals and completions null: the advisor reads it and
    advises one of the legal cards of the seat."""
    record = random_record("baloot", {}, random.Random(9), 5)
    seat = _to_act(record)
    result = kout_sim.advise(_hide(record, seat), samples=4, seed=1)
    legal = kout_sim.legal_actions(record)
    assert {r["option"] for r in result["options"]} == set(legal)
    assert result["advised"] in legal and not result["known"]


# ---- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "error", "text"),
    [
        ({"hands": [["AS", "KS"], None, None, None]}, InvalidRecord, "has 2 cards"),
        ({"hands": [["AS"] * 9, None, None, None]}, InvalidRecord, "duplicate card AS"),
        (
            {"hands": [["6H", "KS", "QS", "JS", "6C", "JD", "TD", "9D", "KH"], None, None, None]},
            InvalidRecord,
            "not in the kout_bo_4 deck",
        ),
        (
            {"hands": [["XX", "KS", "QS", "JS", "6C", "JD", "TD", "9D", "KH"], None, None, None]},
            InvalidRecord,
            "unknown card",
        ),
        ({"hands": [None, None, None, None]}, InvalidRecord, "give every hand"),
        ({"plays": ["AS", "KS"]}, IllegalAction, "holds KS"),
        ({"rules": "kout_bo_8"}, InvalidRecord, "unknown preset"),
    ],
)
def test_bad_records_are_one_line_errors(
    change: dict[str, Any], error: type[Exception], text: str
) -> None:
    base = _hide(_upto(EXAMPLE, 0), 0)
    with pytest.raises(error) as info:
        kout_sim.advise({**base, **change}, samples=1)
    assert text in str(info.value) and "\n" not in str(info.value)


def test_rule_1_5_a_card_in_a_shown_void_is_illegal() -> None:
    """Seat 3 showed a void in diamonds (trick 5, RULES.md 1.5): a later diamond from it is
    refused whatever the unknown hands."""
    record = _hide(_upto(EXAMPLE, 22), 1)  # trick 6: KD (seat 1), 7D (seat 2), seat 3 to play
    record["plays"] = [*record["plays"], "9D"]
    with pytest.raises(IllegalAction, match="seat 3"):
        kout_sim.advise(record, samples=1)


def test_seat_not_to_act_is_an_error() -> None:
    with pytest.raises(InvalidRecord, match="seat 1 is not to act"):
        kout_sim.advise(short_record("kout_bo_4", "QH JH TH AC AD KD QD 7H BJ", 1, 0, calls="pass"))


def test_cli_advise_json_and_errors() -> None:
    runner = CliRunner()
    args = ["advise", "--preset", "kout_bo_4", "--hand", "AS KS QS JS 6C JD TD 9D KH"]
    ok = runner.invoke(main, [*args, "--seat", "0", "--dealer", "3", "--samples", "20",
                              "--eval", "heuristic", "--json"])  # fmt: skip
    assert ok.exit_code == 0, ok.output
    result = json.loads(ok.output)
    assert result["samples"] == 20 and result["advised"] in {r["option"] for r in result["options"]}
    assert "heuristic" in result["evaluation"]
    bad = runner.invoke(main, [*args, "--seat", "1", "--dealer", "3"])
    assert bad.exit_code == 2
    assert (
        bad.output.startswith("error: record: seat 1 is not to act") and bad.output.count("\n") == 1
    )
