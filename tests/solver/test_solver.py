"""The double-dummy solver (kout_sim.solver) against the brute-force reference twin, and its own
consistency: values agree with their children, with null-window probes, and across suit names."""

from __future__ import annotations

import json
import random
import zlib
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from kout_sim import InvalidRecord
from kout_sim import cards as C
from kout_sim.cli import main
from kout_sim.engine import dd as DD
from kout_sim.engine import layout as L
from kout_sim.engine.step import NumbaHand
from kout_sim.engine.tables import tables_of
from kout_sim.reference.solver import solve_record
from kout_sim.rules import KoutPreset, get_rules
from kout_sim.solver import LOSS, Solver, position_of, solve, solver_for

from ._positions import random_record

PRESETS = ("kout_bo_4", "kout_bo_6", "kout_bh_4", "kout_bh_6", "baloot")
# Non-default options: the rules of RULES.md that change legal cards or values.
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "kout_bo_4": [{}, {"joker_lead_scope": "anyone"}],
    "kout_bo_6": [{}, {"joker_lead_scope": "anyone"}],
    "kout_bh_4": [{}],
    "kout_bh_6": [{}],
    "baloot": [
        {},
        {"mercy": "none", "undertrump_required": True},
        {"overtrump_on_trump_lead": "always"},
        {"overtrump_on_trump_lead": "never"},
    ],
}
CASES = [(p, o) for p in PRESETS for o in OPTIONS[p]]


def _value(result: dict[str, Any]) -> int:
    return int(result["points"] if "points" in result else result["tricks"])


def _tricks_left(preset: str) -> int:
    """Endgames the brute-force twin solves in well under a second: 4 tricks with 4 seats."""
    return 3 if preset.endswith("_6") else 4


@pytest.mark.parametrize(("preset", "options"), CASES, ids=lambda x: str(x))
def test_kernel_equals_brute_force_reference_on_random_endgames(
    preset: str, options: dict[str, Any]
) -> None:
    """RULES.md §1-§3 as the solver plays them: value and every per-card value equal the
    reference twin's full minimax, positions mid-trick included."""
    rng = random.Random(zlib.crc32(repr((preset, sorted(options.items()))).encode()))
    left = _tricks_left(preset)
    for _ in range(6):
        record = random_record(preset, options, rng, rng.randint(1, left))
        fast = solve(record)
        slow = solve_record(record)
        assert fast == {**slow, "forced_joker_loser": fast["forced_joker_loser"]}, record
        assert _value(fast) == _value(slow)


def test_2_8_forced_joker_lines_agree_with_reference() -> None:
    """RULES.md 2.8 / 2.9: positions where the joker is still held late, both engines."""
    rng = random.Random(28)
    seen_sentinel = 0
    for _ in range(150):
        record = random_record("kout_bh_4", {}, rng, rng.choice((2, 3)))
        holder = [i for i, h in enumerate(record["hands"]) if "JK" in h]
        if "JK" in record["plays"] or not holder:
            continue
        fast = solve(record)
        assert fast == {**solve_record(record), "forced_joker_loser": fast["forced_joker_loser"]}
        if fast["tricks"] in (LOSS, 9):
            assert fast["forced_joker_loser"] is not None
        seen_sentinel += 1
    assert seen_sentinel >= 20  # positions with the joker still held were compared


def test_2_8_values_do_not_depend_on_the_killer_moves_an_earlier_search_left() -> None:
    """RULES.md 2.6-2.8: a solver reused across positions (as the PIMC player reuses one) starts
    each search with the killer moves (the move order) the last one left. Whatever they are, the
    value and every card's value are the reference twin's, forced-joker lines included; with
    child windows shifted by the trick's gain alone, scrambled killers found Bahraini values of
    -1 where the reference gives 7."""
    rules = get_rules("kout_bh_4")
    rng = random.Random(1)
    compared = 0
    for _ in range(100):
        record = random_record("kout_bh_4", {}, rng, rng.choice((2, 3, 4)))
        if "JK" in record["plays"]:
            continue
        slow = solve_record(record)
        _rules, S = position_of(record)
        for _ in range(6):
            solver = Solver(rules)
            solver.W[: DD.R_S, DD.W_KILLER] = [rng.randrange(55) for _ in range(DD.R_S)]
            assert solver.value(S.copy()) == slow["tricks"], record
            cards = {C.format_card(c): v for c, v in solver.card_values(S.copy()).items()}
            assert cards == slow["cards"], record
        compared += 1
    assert compared >= 15


@pytest.mark.parametrize("preset", PRESETS)
def test_value_is_the_best_child_for_the_side_to_act(preset: str) -> None:
    """Full-hand positions: the value is the maximum over the legal cards when the bidding team
    acts and the minimum when the defence does (after the trick is scored)."""
    rng = random.Random(len(preset))
    played = {"kout_bo_4": 3, "kout_bh_4": 2, "kout_bo_6": 6, "kout_bh_6": 5, "baloot": 4}
    n_tricks = 8 if preset == "baloot" or "_bh_" in preset else 9
    for _ in range(2):
        record = random_record(preset, {}, rng, n_tricks - played[preset])
        result = solve(record)
        _rules, S = position_of(record)
        bidding = (int(S[L.S_BIDDER]) & 1) == (result["to_act"] & 1)
        values = list(result["cards"].values())
        assert _value(result) == (max(values) if bidding else min(values))


def _relabelled(record: dict[str, Any], perm: str) -> dict[str, Any]:
    """The record with suit ``SHDC[i]`` renamed ``perm[i]`` (cards, trump and calls)."""
    table = dict(zip("SHDC", perm, strict=True))

    def card(text: str) -> str:
        return text if text in ("RJ", "BJ", "JK") else text[:-1] + table[text[-1]]

    out = dict(record)
    for key in ("hands", "completion"):
        if key in out:
            out[key] = [[card(c) for c in hand] for hand in out[key]]
    if "face_up" in out:
        out["face_up"] = card(out["face_up"])
    if out.get("trump"):
        out["trump"] = table[out["trump"]]
    out["calls"] = [
        f"hokum:{table[c[-1]]}" if isinstance(c, str) and c.startswith("hokum:") else c
        for c in out["calls"]
    ]
    out["plays"] = [card(c) for c in out["plays"]]
    return out


def _deck_preserving(preset: str) -> list[str]:
    """Suit permutations that map the preset's deck onto itself (Kout decks miss some cards)."""
    import itertools

    deck = get_rules(preset).deck_mask
    perms = []
    for perm in itertools.permutations("SHDC"):
        mapped = 0
        for card in C.cards_of(deck):
            text = C.format_card(card)
            if card < 52:
                text = text[:-1] + perm["SHDC".index(text[-1])]
            mapped |= 1 << C.parse_card(text)
        if mapped == deck and perm != tuple("SHDC"):
            perms.append("".join(perm))
    return perms


@pytest.mark.parametrize("preset", PRESETS)
def test_relabelling_the_suits_keeps_the_value(preset: str) -> None:
    """The value is a function of the cards' roles, not of the suits' names."""
    rng = random.Random(7 + len(preset))
    perms = _deck_preserving(preset)
    assert perms
    n_tricks = 8 if preset == "baloot" or "_bh_" in preset else 9
    record = random_record(preset, {}, rng, n_tricks - 3)
    base = solve(record)
    for perm in perms[:3]:
        other = solve(_relabelled(record, perm))
        assert _value(other) == _value(base), perm
        assert sorted(other["cards"].values()) == sorted(base["cards"].values())


@pytest.mark.parametrize("preset", ("kout_bo_4", "kout_bh_4", "baloot"))
def test_null_window_probe_agrees_with_the_value(preset: str) -> None:
    """``at_least(k)`` is true exactly up to the value."""
    rng = random.Random(3)
    record = random_record(preset, {}, rng, 4)
    rules, S = position_of(record)
    solver = solver_for(rules)
    value = solver.value(S)
    before = S.copy()
    assert solver.at_least(S, value)
    assert not solver.at_least(S, value + 1)
    assert np.array_equal(S[: L.S_TRICK], before[: L.S_TRICK])


@pytest.mark.parametrize("preset", PRESETS)
def test_the_value_does_not_depend_on_the_first_guess(preset: str) -> None:
    """``probe`` from any first guess, inside the value's bounds or outside them, gives the
    reference twin's value (Kout: its MTD(f) steps from the guess; Baloot bisects whatever the
    guess)."""
    from kout_sim.engine import dd

    rng = random.Random(41 + len(preset))
    for _ in range(3):
        record = random_record(preset, {}, rng, rng.randint(1, _tricks_left(preset)))
        expected = _value(solve_record(record))
        rules, S = position_of(record)
        solver = solver_for(rules)
        span = int(dd._rest(S, solver.C))
        for guess in (-3, 0, 1, span // 2, span - 1, span, span + 3):
            solver._begin(S)
            future = int(dd.probe(S, solver.P, solver.STR, solver.W, solver.tt, guess))
            assert solver._total(S, future) == expected, (guess, record)


def test_solve_needs_a_complete_auction() -> None:
    rng = random.Random(5)
    record = random_record("kout_bo_4", {}, rng, 9)
    record = {**record, "calls": record["calls"][:2], "plays": []}
    record.pop("trump", None)
    with pytest.raises(InvalidRecord, match="auction is not complete"):
        solve(record)


def test_cli_solve_prints_json_and_text(tmp_path: Any) -> None:
    rng = random.Random(11)
    record = random_record("kout_bh_4", {}, rng, 3)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    runner = CliRunner()
    out = runner.invoke(main, ["solve", "--record", str(path), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output) == solve(record)
    text = runner.invoke(main, ["solve", "--record", str(path)])
    assert "bidding team's tricks" in text.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record, "calls": []}))
    err = runner.invoke(main, ["solve", "--record", str(bad)])
    assert err.exit_code == 2 and err.output.startswith("error: ")


def test_cli_bench_solver_json() -> None:
    out = CliRunner().invoke(
        main, ["bench", "--solver", "--preset", "kout_bh_4", "--deals", "3", "--json"]
    )
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert result["deals"] == 3
    assert 0 < result["ms_per_solve_median"] <= result["ms_per_solve_max"]
    assert 0 < result["cpu_ms_per_solve_median"] <= result["cpu_ms_per_solve_max"]


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4"])
def test_par_table_holds_the_contract_played_when_it_is_makeable(preset: str) -> None:
    """The par cell of the record's bidder and trump is the highest contract he makes: at least
    the contract when the solve says it is made; a Bahraini bidder may not name a suit he lacks
    (RULES.md 2.4)."""
    from kout_sim.solver import par

    rng = random.Random(21)
    n_tricks = 8 if "_bh_" in preset else 9
    for _ in range(3):
        record = {**random_record(preset, {}, rng, n_tricks), "plays": []}
        table = par(record)
        _rules, S = position_of(record)
        bidder = int(S[L.S_BIDDER])
        contract = int(S[L.S_HIGH_BID])
        cell = table[record["trump"]][bidder]
        assert cell is not None
        if solve(record)["tricks"] >= contract:
            assert cell >= contract
        for suit, row in table.items():
            holds = [any(c.endswith(suit) for c in h) for h in record["hands"]]
            for seat, value in enumerate(row):
                if "_bh_" in preset and not holds[seat]:
                    assert value is None
                else:
                    assert value is not None and 0 <= value <= n_tricks


def test_baloot_par_table_is_the_solve_of_each_purchase() -> None:
    """RULES.md 3.6.1: the Sun cell of the buyer is the solve of the record when it was a Sun."""
    from kout_sim.solver import par

    rng = random.Random(4)
    checked = 0
    while checked < 2:
        record = {**random_record("baloot", {}, rng, 8), "plays": []}
        _rules, S = position_of(record)
        if int(S[L.B_MODE]) != L.MODE_SUN:
            continue
        table = par(record)
        assert table["sun"][int(S[L.S_BIDDER])] == solve(record)["points"]
        assert set(table) == {"sun", "hokum:S", "hokum:H", "hokum:D", "hokum:C"}
        checked += 1


def _bid_record(
    preset: str, dealer: int, hands: list[list[str]], seat: int, bid: int, trump: str
) -> dict[str, Any]:
    """A Kout record in which ``seat`` wins the auction with ``bid`` (every other seat passes)
    and names ``trump``; stopped at the first lead."""
    n = len(hands)
    calls: list[Any] = []
    for i in range(1, n + 1):
        calls.append(bid if (dealer + i) % n == seat else "pass")
    return {
        "rules": preset,
        "dealer": dealer,
        "hands": hands,
        "calls": calls,
        "trump": trump,
        "plays": [],
    }


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4"])
def test_par_cell_is_the_highest_contract_solve_makes(preset: str) -> None:
    """RULES.md 1.6(a)(b), 2.9: each contract is its own game; the par cell is the highest bid
    whose own solve reaches it (checked contract by contract through kout_sim.solve)."""
    from kout_sim.reference import kout as RK
    from kout_sim.solver import par

    rng = random.Random(99)
    kout = get_rules(preset).preset
    assert isinstance(kout, KoutPreset)
    low, high = kout.bid_min, kout.bid_max
    for _ in range(2):
        dealer = rng.randrange(4)
        hands = RK.deal(preset, dealer, rng)
        seat = rng.randrange(4)
        suits = [s for s in "SHDC" if any(c.endswith(s) for c in hands[seat])]
        trump = rng.choice(suits)
        table = par(_bid_record(preset, dealer, hands, seat, low, trump))
        made = [
            c
            for c in range(low, high + 1)
            if solve(_bid_record(preset, dealer, hands, seat, c, trump))["tricks"] >= c
        ]
        assert table[trump][seat] == (max(made) if made else 0)


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4", "kout_bh_6"])
def test_relative_rank_keys_do_not_change_values(preset: str) -> None:
    """The table's relative-rank keys (with the honours and trump-Ace counts, RULES.md 1.1, 1.6(c),
    and the tricks taken, 2.9) give the values of a table keyed on the cards themselves, on
    whole hands from the third trick."""
    from kout_sim.bench import first_leads
    from kout_sim.engine import dd as K
    from kout_sim.solver import Solver

    rules = get_rules(preset)
    relative, absolute = Solver(rules), Solver(rules)
    absolute.C[K.C_ABSOLUTE] = 1
    for S in first_leads(rules, 12 if preset.endswith("_4") else 3, seed=5, tricks=2):
        assert relative.value(S) == absolute.value(S)


def _kout_state(
    preset: str,
    hands: list[str],
    trump: str,
    bidder: int,
    contract: int,
    leader: int,
    tricks: tuple[int, int],
) -> np.ndarray:
    """A hand-built Kout trick start: ``hands`` (cards by seat, space-separated), the cards of the
    deck not in them played in completed tricks, ``tricks`` taken by team 0 and team 1."""
    rules = get_rules(preset)
    P, _ = tables_of(rules)
    n = int(P[L.P_N_PLAYERS])
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    S[L.S_PHASE] = L.PH_PLAY
    S[L.S_DEALER] = (bidder - 1) % n
    S[L.S_BIDDER] = bidder
    S[L.S_HIGH_BID] = contract
    S[L.S_N_CALLS] = n
    S[L.S_LED] = -1
    S[L.S_MADE] = -1
    S[L.S_MATCH_WINNER] = -1
    S[L.S_TRUMP] = "SHDC".index(trump)
    held = 0
    for seat, hand in enumerate(hands):
        mask = sum(1 << C.parse_card(c) for c in hand.split())
        S[L.S_HAND + seat] = mask
        held |= mask
    S[L.S_PLAYED] = int(P[L.P_DECK]) & ~held
    S[L.S_N_DONE] = sum(tricks)
    S[L.S_TRICKS] = tricks[0]
    S[L.S_TRICKS + 1] = tricks[1]
    S[L.S_LEADER] = leader
    S[L.S_TO_ACT] = leader
    return S


@pytest.mark.parametrize(
    ("hands", "trump", "values"),
    [
        (
            ["7S 9S TS AS 9H AH", "JH JD QD 9C TC JK", "8S JS KS 8H TH QH", "QS 7H KH TD QC KC"],
            "D",
            {"JH": 7, "JD": 7, "QD": 7, "9C": 7, "TC": 7},
        ),
        (
            ["TS JS JD QD KD JC", "8S QS TH QH 9C AC", "9S KH 9D AD 8C KC", "JH 8D TD 7C TC QC"],
            "H",
            {"8S": 6, "QS": 7, "TH": 5, "QH": 5, "9C": 5, "AC": 6},
        ),
    ],
)
def test_winning_rank_entries_keep_the_trick_winners_rank(
    hands: list[str], trump: str, values: dict[str, int]
) -> None:
    """RULES.md 2.6 / 2.7: a table entry serves every position whose hands hold, by relative rank,
    the same cards where its value depends on them (DDS's winning ranks). The winner of a trick that
    beat a card of its own suit is one of those: swap it with the card it beat and the trick changes
    hands. Two kout_bh_4 positions (third trick, seat 1 to lead, its team bid 5 and took the first
    two tricks) where an entry that left the
    trick winners out matches a position it does not hold for: per-card values as the table keyed on
    every card gives them."""
    from kout_sim.engine import dd as K
    from kout_sim.solver import Solver

    rules = get_rules("kout_bh_4")
    S = _kout_state("kout_bh_4", hands, trump, bidder=1, contract=5, leader=1, tricks=(0, 2))
    absolute = Solver(rules)
    absolute.C[K.C_ABSOLUTE] = 1
    expected = {C.parse_card(c): v for c, v in values.items()}
    assert absolute.card_values(S) == expected
    assert Solver(rules).card_values(S) == expected


def _trick_start_bounds(preset: str, record: dict[str, Any]) -> tuple[int, int, int]:
    """The bounds the search uses at a trick start (:func:`bounds`, then the sure tricks and the
    trump ladder), and the exact future value of the reference twin (its sentinels as the
    kernel's)."""
    from kout_sim.engine import dd as K
    from kout_sim.solver import Solver

    rules, S = position_of(record)
    solver = Solver(rules, tt_bits=10)
    solver._begin(S)
    lo, hi = K.bounds(S, solver.P, solver.C)
    lo, hi = K.start_bounds(S, solver.P, solver.STR, solver.C, solver.Q, lo, hi)
    team = int(S[L.S_BIDDER]) & 1
    total = _value(solve_record(record))
    if preset == "baloot":
        exact = total - int(S[L.B_CARD_PTS + team])
    elif total == LOSS:
        exact = -K.SENT  # RULES.md 2.8: the bidding team's player is forced
    elif total == solver.n_tricks + 1:
        exact = K.SENT
    else:
        exact = total - int(S[L.S_TRICKS + team])
    return int(lo), int(hi), exact


@pytest.mark.parametrize("preset", PRESETS)
def test_trick_start_bounds_hold_on_random_endgames(preset: str) -> None:
    """Every bound the search cuts with at a trick start (the top joker, RULES.md 1.1 / 1.5 / 1.8;
    the leader's sure tricks; the trump ladder) holds the exact value of the brute-force twin:
    lo <= value <= hi. Kout Bo: the BJ bound (RJ and the trump Ace gone, BJ is the top card) is
    exercised, and some bound is sharp somewhere."""
    rng = random.Random(zlib.crc32(("bounds " + preset).encode()))
    left = 2 if preset.endswith("_6") else 3
    checked = bj_top = narrowed = 0
    while checked < 40:
        record = random_record(preset, {}, rng, rng.randint(2, left))
        rules, S = position_of(record)
        if int(S[L.S_N_IN_TRICK]) != 0:
            continue
        lo, hi, exact = _trick_start_bounds(preset, record)
        assert lo <= exact <= hi, (lo, exact, hi, record)
        checked += 1
        rest = int(tables_of(rules)[0][L.P_N_TRICKS]) - int(S[L.S_N_DONE])
        narrowed += lo > 0 or (preset != "baloot" and hi < rest)
        held = 0
        for seat in range(len(record["hands"])):
            held |= int(S[L.S_HAND + seat])
        ace = 1 << (13 * int(S[L.S_TRUMP]) + 12)
        bj_top += (held >> C.BJ) & 1 == 1 and held & ((1 << C.RJ) | ace) == 0
    assert narrowed > 0
    if preset.startswith("kout_bo"):
        assert bj_top > 0


@pytest.mark.parametrize("preset", [p for p in PRESETS if p != "baloot"])
def test_second_hand_bound_holds_on_random_endgames(preset: str) -> None:
    """The second seat of a trick to act: when its team surely takes the trick (the strongest card
    of the led suit still to come, or a ruff, and no opponent still to play holding a joker or able
    to ruff: RULES.md 1.5 / 1.9, 2.6 / 2.7), the trick counts for that team: the exact value of
    the brute-force twin lies within the bounds it gives, and it gives one somewhere."""
    from kout_sim.engine import dd as K
    from kout_sim.solver import Solver

    rng = random.Random(zlib.crc32(("second hand " + preset).encode()))
    six = preset.endswith("_6")
    left = 2 if six else 3
    checked = fired = 0
    while checked < (20 if six else 40):  # a 6-seat endgame costs the twin several times more
        record = random_record(preset, {}, rng, rng.randint(1, left))
        rules, S = position_of(record)
        if int(S[L.S_N_IN_TRICK]) != 1:
            continue
        solver = Solver(rules, tt_bits=10)
        solver._begin(S)
        team, rel = K.second_hand(S, solver.P, solver.C)
        checked += 1
        if team < 0:
            continue
        fired += 1
        bidding = int(S[L.S_BIDDER]) & 1
        exact = _value(solve_record(record)) - int(S[L.S_TRICKS + bidding])
        rest = solver.n_tricks - int(S[L.S_N_DONE])
        assert (exact >= 1) if team == bidding else (exact <= rest - 1), record
        assert rel == 0 or (rel & (rel - 1)) == 0  # at most the one card it rests on
    assert fired > 0


def test_quick_tricks_count_a_teammates_winners_reached_by_a_low_lead() -> None:
    """RULES.md 1.5 / 1.9: seat 0 leads, holding no winner; its partner (seat 2) holds the top two
    hearts and both opponents must follow hearts twice, so a low heart to seat 2 and the second
    heart take two tricks, though seat 0 has none of its own to cash (no trump, spades, and no
    joker is left). The third trick is seat 2's too (no one else holds a diamond)."""
    from kout_sim.engine import dd as K

    hands = [["7H", "8C", "9C"], ["9H", "TH", "JC"], ["AH", "KH", "7D"], ["QH", "JH", "QC"]]
    solver, S = _kout_bo_endgame(hands)
    S[L.S_N_DONE] = 6
    S[L.S_TRICKS + 1] = 3
    solver._begin(S)
    assert K.quick(S, solver.P, solver.STR, solver.C, solver.Q) == 2
    assert solver.value(S) == 3 + 3


def _kout_bo_endgame(hands: list[list[str]]) -> tuple[Any, np.ndarray]:
    """A kout_bo_4 state two tricks from the end: seat 0 bid 5 in spades and leads, the tricks so
    far 3 (bidding team) to 4, every card not in ``hands`` played."""
    from kout_sim.bench import first_leads
    from kout_sim.solver import Solver

    rules = get_rules("kout_bo_4")
    S = first_leads(rules, 1, seed=0)[0].copy()
    deck = int(tables_of(rules)[0][L.P_DECK])
    held = 0
    for seat, cards in enumerate(hands):
        mask = C.mask_of(C.parse_card(c) for c in cards)
        S[L.S_HAND + seat] = mask
        held |= mask
    S[L.S_PLAYED] = deck & ~held
    S[L.S_BIDDER] = 0
    S[L.S_HIGH_BID] = 5
    S[L.S_TRUMP] = C.SUITS.index("S")
    S[L.S_LEADER] = S[L.S_TO_ACT] = 0
    S[L.S_N_DONE] = 7
    S[L.S_TRICKS] = 3
    S[L.S_TRICKS + 1] = 4
    return Solver(rules), S


def test_bj_bound_needs_the_trump_ace_gone() -> None:
    """RULES.md 1.1: BJ ranks under the trump Ace. Seat 0 holds BJ 7H and must lead the heart (1.6:
    a Bab contract, trump honours still out, so no joker lead); seat 3 wins it and leads a heart to
    the last trick, where seat 0's BJ falls under seat 1's last card. With that card the trump Ace
    the bidding team takes nothing more, and no BJ bound may claim a trick; with the Ace gone (RJ
    gone too) BJ is the top card and takes the last trick: the bound holds it, sharply."""
    from kout_sim.engine import dd as K

    for seat1, future in (("AS", 0), ("6S", 1)):
        solver, S = _kout_bo_endgame([["BJ", "7H"], [seat1, "9H"], ["7C", "8C"], ["TH", "JH"]])
        solver._begin(S)
        lo, _hi = K.bounds(S, solver.P, solver.C)
        assert lo == future
        assert solver.value(S) == 3 + future


@pytest.mark.parametrize(
    ("hands", "lo", "hi"),
    [
        # seat 0 holds two trumps under seat 1's RJ: one of them still takes a trick
        ([["KS", "QS"], ["RJ", "7H"], ["7C", "8C"], ["TH", "JH"]], 1, 1),
        # the other way round: seat 1's trumps take one of the two tricks from the bidding team
        ([["RJ", "7H"], ["KS", "QS"], ["7C", "8C"], ["TH", "JH"]], 1, 1),
    ],
    ids=["bidding-team", "defence"],
)
def test_trump_bound_counts_a_seats_trumps_past_the_stronger_cards(
    hands: list[list[str]], lo: int, hi: int
) -> None:
    """RULES.md 1.1 / 1.5: one seat's trumps go to different tricks and each loses only to a
    stronger card of the other team in its trick, so k of them facing m stronger cards take at
    least k - m tricks, though no team holds the top of the trump ladder (RJ is the other
    team's). The search's trick-start bounds are then exact here (two tricks left), and the
    solve agrees."""
    from kout_sim.engine import dd as K

    solver, S = _kout_bo_endgame(hands)
    solver._begin(S)
    blo, bhi = K.bounds(S, solver.P, solver.C)
    assert (blo, bhi) != (lo, hi)  # the top-joker bound alone does not settle it
    assert K.start_bounds(S, solver.P, solver.STR, solver.C, solver.Q, blo, bhi) == (lo, hi)
    assert solver.value(S) == 3 + lo


def _bh_position() -> tuple[np.ndarray, np.ndarray]:
    """kout_bh_4, dealer 3, seat 2 bids 6 in diamonds; after three tricks (2-1) seat 2 leads,
    holding 9H KH AH KD JK: the state before and after he leads KH. The brute-force reference
    (kout_sim.reference.solver) values them 7 and 6."""
    rules = get_rules("kout_bh_4")
    dealt = [
        "8S TS KS QH 8D TD 9C KC",
        "JS QS 7H 8H JD AD 7C 8C",
        "9H KH AH 9D QD KD TC JK",
        "7S 9S AS TH JH JC QC AC",
    ]
    hand = NumbaHand(rules, 3, [C.mask_of(C.parse_card(c) for c in h.split()) for h in dealt])
    calls: list[str | int] = ["pass", "pass", 6, "pass", "D"]
    for call in calls:
        hand.apply(call)
    for card in "AS KS JS QD TC AC KC 7C 9S 8S QS 9D".split():  # noqa: SIM905
        hand.apply(card)
    parent = hand.S.copy()
    hand.apply("KH")
    return parent, hand.S.copy()


def test_2_8_a_fresh_solver_values_the_forced_joker_position_as_the_reference() -> None:
    parent, child = _bh_position()
    rules = get_rules("kout_bh_4")
    assert Solver(rules).value(parent) == 7
    assert Solver(rules).value(child) == 6


def test_2_8_a_value_after_another_search_of_the_same_deal_is_the_value() -> None:
    # the table and the killer moves the first search leaves change the order of the second;
    # the value must not change with it (it was -1 before the child windows of _child_bound)
    parent, child = _bh_position()
    solver = Solver(get_rules("kout_bh_4"))
    assert solver.value(parent) == 7
    assert solver.value(child) == 6


def test_2_8_a_trick_won_before_a_forced_joker_line_keeps_the_value() -> None:
    """Seat 0 (defence) follows to AH; then the bidder leads KH holding only JK besides, and his
    partner ruffs (TC) so that the joker is played into the last trick, not led: 7 tricks. A null
    window just above the loss sentinel, shifted by the trick's gain, asked the child "at least
    the sentinel?" (always true), and the parent read the answer as a loss: the value was -1
    while every card's value was 7 (RULES.md 2.6, 2.7, 2.8)."""
    record = {
        "rules": "kout_bh_4",
        "options": {},
        "dealer": 1,
        "hands": [
            ["9C", "9H", "8H", "JH", "TH", "AD", "QC", "9S"],
            ["7C", "AS", "KH", "JK", "KC", "JS", "AH", "AC"],
            ["KS", "KD", "QS", "QD", "7H", "8S", "7S", "9D"],
            ["JD", "TD", "8C", "TC", "JC", "QH", "8D", "TS"],
        ],
        "trump": "C",
        "calls": [5, 6, "pass", 7],
        "plays": "KD JD AD KC AC QD JC QC JS KS TS 9S QS 8C 8H AS TD TH 7C 9D AH 7H QH".split(),  # noqa: SIM905
    }
    fast = solve(record)
    assert fast == {**solve_record(record), "forced_joker_loser": None}
    assert fast["tricks"] == 7 and fast["cards"] == {"9H": 7, "JH": 7}
