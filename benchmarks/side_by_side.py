"""kout_sim against OpenSpiel's C++ engine, side by side in one process, as ratios.

OpenSpiel (``pip install 'kout_sim[bench]'``, or ``open_spiel>=2.0``) is an optional benchmark
dependency: without ``pyspiel`` the script stops with a one-line message. Its closest analogue of
a 4-seat Kout hand is ``oh_hell`` with 4 players, 36 cards (4 suits of 9) and 8 tricks: a deal, a
trump turned up, a bid each, 32 cards of trick-taking. Three figures, each measured in ``--repeats``
rounds that alternate the two engines (the machine is shared; the medians and ratios are of one
run):

1. **Per card played, random players, whole hands.** kout_sim: ``--hands`` kout_bo_4 random
   hands with ``play_all_tricks=true`` (every trick played), deal, auction, trump, play, score and
   the result row, timed as ``benchmarks/profile_kernels.py`` times its last stage (its
   "whole hand, per card"). OpenSpiel: ``--games`` oh_hell games played by C++ uniform random
   bots through ``pyspiel.evaluate_bots`` (chance, bids and cards all in C++); the cards actually
   played are counted from each game's history. In the same rounds, the floor of
   :mod:`benchmarks.floor_kernel` (a plain bitmask kernel playing Kout-like random hands with the
   engine's random choice): OpenSpiel's cost over it is the highest per-card ratio an engine that
   chooses its cards as kout_sim does can reach on the machine at hand.
2. **ISMCTS at equal iterations.** kout_sim's ``ismcts`` (1,000 iterations) at the positions of
   ``kout-sim bench --players ismcts`` (the lead of the third trick of heuristic hands), ms per
   decision as that bench measures it; OpenSpiel's C++ ``ISMCTSBot`` (random rollouts, 1,000
   simulations, UCT c = 2) at the first card decision of seeded random oh_hell deals and bids.
   The games, the positions and the rollout policies differ (kout_sim's rollouts play the
   heuristic with 10% random moves): a ratio of costs per decision, not of the same work.
3. **OpenSpiel stepped from Python**, for scale only: oh_hell games played by an
   ``apply_action`` loop in Python (``legal_actions`` / ``chance_outcomes`` and a seeded Python
   random choice per step), ns per card played.

    PYTHONPATH=. python benchmarks/side_by_side.py [--repeats 5] [--hands 300000] [--games 5000]
        [--positions 20] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from benchmarks.floor_kernel import floor_per_card
from benchmarks.profile_kernels import whole_hands
from kout_sim.bench import MID_HAND_TRICK, bench_search
from kout_sim.rules import get_rules
from kout_sim.sim.batch import lineup_of

PRESET = "kout_bo_4"
OPTIONS: dict[str, object] = {"play_all_tricks": True}
OH_HELL = {"players": 4, "num_suits": 4, "num_cards_per_suit": 9, "num_tricks_fixed": 8}
ITERATIONS = 1000
UCT_C = 2.0
MISSING = (
    "side_by_side.py needs OpenSpiel (pyspiel is not importable): "
    "pip install 'kout_sim[bench]' (open_spiel>=2.0)"
)
CAVEAT = (
    "ISMCTS caveat: different games (Kout Bo at the lead of trick 3 vs oh_hell at the first "
    "card) and rollout policies (kout_sim: heuristic with 10% random moves; OpenSpiel: uniform "
    "random), equal iterations only"
)


def load_pyspiel() -> ModuleType:
    """``pyspiel``, or a one-line :class:`SystemExit` when it is not importable."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        raise SystemExit(MISSING) from None


# ------------------------------------------------------------------------ kout_sim side


def kout_per_card(hands: int, seed: int) -> tuple[Callable[[], float], int]:
    """A call timing ``hands`` whole random kout_bo_4 hands (every trick played) and returning
    ns per card played; and the cards one call plays. Compiled (or loaded) and warmed up."""
    run, cards = whole_hands(PRESET, OPTIONS, hands, seed)

    def timed() -> float:
        t0 = time.perf_counter()
        run()
        return (time.perf_counter() - t0) * 1e9 / cards

    return timed, cards


def kout_ismcts(positions: int, seed: int) -> Callable[[], float]:
    """A call returning kout_sim's ISMCTS ms per decision (1,000 iterations, the median over
    ``positions`` bench positions, :func:`kout_sim.bench.bench_search`)."""
    rules = get_rules(PRESET)
    lineup = lineup_of(rules, f"ismcts:iterations={ITERATIONS}")

    def timed() -> float:
        result = bench_search(rules, lineup, positions=positions, seed=seed)
        return float(result["ms_per_decision"])

    return timed


# ------------------------------------------------------------------------ OpenSpiel side


def oh_hell(spiel: ModuleType) -> Any:
    """The oh_hell game closest to a 4-seat Kout hand."""
    return spiel.load_game("oh_hell", OH_HELL)


def cards_played(state: Any) -> int:
    """The cards played in a finished oh_hell ``state``: its players' actions less one bid each."""
    decisions = sum(1 for step in state.full_history() if step.player >= 0)
    return int(decisions - state.num_players())


def spiel_per_card(spiel: ModuleType, games: int, seed: int) -> Callable[[], float]:
    """A call playing ``games`` oh_hell games with C++ uniform random bots
    (``pyspiel.evaluate_bots``) and returning ns per card played."""
    game = oh_hell(spiel)
    n = game.num_players()
    bots = [spiel.make_uniform_random_bot(p, seed + p) for p in range(n)]

    def timed() -> float:
        states = [game.new_initial_state() for _ in range(games)]
        t0 = time.perf_counter()
        for i, state in enumerate(states):
            spiel.evaluate_bots(state, bots, seed + i)
        elapsed = time.perf_counter() - t0
        cards = sum(cards_played(state) for state in states)
        return elapsed * 1e9 / cards

    return timed


def spiel_call_cost(spiel: ModuleType, games: int, seed: int) -> Callable[[], float]:
    """A call returning the fixed cost of one ``pyspiel.evaluate_bots`` call (the binding, the
    bots' restart, the seeding), in ns: ``games`` calls on a finished oh_hell game."""
    game = oh_hell(spiel)
    n = game.num_players()
    bots = [spiel.make_uniform_random_bot(p, seed + p) for p in range(n)]
    done = game.new_initial_state()
    spiel.evaluate_bots(done, bots, seed)

    def timed() -> float:
        t0 = time.perf_counter()
        for i in range(games):
            spiel.evaluate_bots(done, bots, seed + i)
        return (time.perf_counter() - t0) * 1e9 / games

    return timed


def first_card_states(spiel: ModuleType, count: int, seed: int) -> list[Any]:
    """``count`` oh_hell states at the first card decision: seeded random deals and bids."""
    game = oh_hell(spiel)
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = game.new_initial_state()
        bids = 0
        while state.is_chance_node() or bids < game.num_players():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                bids += 1
            state.apply_action(action)
        states.append(state)
    return states


def spiel_ismcts(spiel: ModuleType, positions: int, seed: int) -> Callable[[], float]:
    """A call returning OpenSpiel's C++ ISMCTS ms per decision (1,000 simulations, random
    rollouts), the median over ``positions`` first-card oh_hell states."""
    states = first_card_states(spiel, positions, seed)
    evaluator = spiel.RandomRolloutEvaluator(1, seed)
    bot = spiel.ISMCTSBot(seed, evaluator, UCT_C, ITERATIONS)

    def timed() -> float:
        times = []
        for state in states:
            t0 = time.perf_counter()
            bot.step(state)
            times.append(time.perf_counter() - t0)
        return statistics.median(times) * 1000

    return timed


def spiel_python_loop(spiel: ModuleType, games: int, seed: int) -> Callable[[], float]:
    """A call playing ``games`` oh_hell games from Python (``apply_action`` per step, a seeded
    uniform choice) and returning ns per card played."""
    game = oh_hell(spiel)
    rng = random.Random(seed)

    def timed() -> float:
        cards = 0
        t0 = time.perf_counter()
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
            cards += cards_played(state)
        elapsed = time.perf_counter() - t0
        return elapsed * 1e9 / cards

    return timed


# ------------------------------------------------------------------------ the run


def alternate(
    groups: Sequence[Sequence[Callable[[], float]]], repeats: int
) -> list[list[list[float]]]:
    """Each group's calls ``repeats`` times, alternating (in the group's order on even rounds,
    reversed on odd ones), every group in each round; the figures of each call."""
    out: list[list[list[float]]] = [[[] for _ in group] for group in groups]
    for r in range(repeats):
        for group, figures in zip(groups, out, strict=True):
            order = range(len(group)) if r % 2 == 0 else range(len(group) - 1, -1, -1)
            for i in order:
                figures[i].append(group[i]())
    return out


def figure(name: str, unit: str, kout: list[float], spiel: list[float]) -> dict[str, Any]:
    """The medians of both sides and their ratio (OpenSpiel over kout_sim: how many times faster
    kout_sim is), with the range of the paired ratios of the rounds."""
    paired = [s / k for k, s in zip(kout, spiel, strict=True)]
    return {
        "what": name,
        "unit": unit,
        "kout_sim": round(statistics.median(kout), 3),
        "openspiel": round(statistics.median(spiel), 3),
        "ratio": round(statistics.median(spiel) / statistics.median(kout), 2),
        "paired_ratios": [round(x, 2) for x in paired],
        "kout_sim_runs": [round(x, 3) for x in kout],
        "openspiel_runs": [round(x, 3) for x in spiel],
    }


def floor_figure(kout: list[float], spiel: list[float], floor: list[float]) -> dict[str, Any]:
    """The plain bitmask kernel of :mod:`benchmarks.floor_kernel`, timed in the same rounds: its
    median, kout_sim's cost over it, and OpenSpiel's over it (the highest per-card ratio any
    engine choosing its cards as kout_sim does could reach on this machine)."""
    median = statistics.median(floor)
    return {
        "what": (
            "the floor: a plain bitmask kernel (Kout-like random hands, the whole hand in "
            "registers, the engine's random choice; no auction, jokers or result row)"
        ),
        "unit": "ns",
        "floor": round(median, 3),
        "kout_sim_over_floor": round(statistics.median(kout) / median, 2),
        "openspiel_over_floor": round(statistics.median(spiel) / median, 2),
        "floor_runs": [round(x, 3) for x in floor],
    }


def side_by_side(
    repeats: int, hands: int, games: int, positions: int, seed: int, python_loop: bool = True
) -> dict[str, Any]:
    """The three figures (see the module's docstring); OpenSpiel must be importable."""
    spiel = load_pyspiel()
    card_kout, cards = kout_per_card(hands, seed)
    card_spiel = spiel_per_card(spiel, games, seed)
    search_kout = kout_ismcts(positions, seed)
    search_spiel = spiel_ismcts(spiel, positions, seed)
    card_floor, _ = floor_per_card(hands, seed)
    card_spiel()  # warm up
    search_kout()  # compile (or load) and warm up
    (ck, cs, cf), (sk, ss) = alternate(
        [(card_kout, card_spiel, card_floor), (search_kout, search_spiel)], repeats
    )
    result: dict[str, Any] = {
        "kout_sim": f"{PRESET} random, play_all_tricks=true, {hands:,} hands ({cards:,} cards)",
        "openspiel": (
            f"oh_hell {OH_HELL}, {games:,} games by pyspiel.evaluate_bots, uniform random bots"
        ),
        "openspiel_version": getattr(spiel, "__version__", None) or _version("open_spiel"),
        "repeats": repeats,
        "seed": seed,
        "per_card": figure("per card played, random players, whole hands", "ns", ck, cs),
        "floor": floor_figure(ck, cs, cf),
        "ismcts": figure(
            f"ISMCTS, {ITERATIONS:,} iterations, median over {positions} positions "
            f"(kout_sim: lead of trick {MID_HAND_TRICK + 1}; OpenSpiel: first card)",
            "ms per decision",
            sk,
            ss,
        ),
        "caveat": CAVEAT,
    }
    call = spiel_call_cost(spiel, games, seed)
    call_ns = statistics.median(call() for _ in range(repeats))
    per_game = OH_HELL["players"] * OH_HELL["num_tricks_fixed"]  # every trick is played
    net = statistics.median(cs) - call_ns / per_game
    result["openspiel_call_cost"] = {
        "what": (
            "pyspiel.evaluate_bots on a finished game: the call's fixed cost (binding, bots' "
            "restart, seeding), included in the per-card figure"
        ),
        "ns_per_call": round(call_ns, 1),
        "per_card_net_ns": round(net, 3),
        "ratio_net": round(net / statistics.median(ck), 2),
    }
    if python_loop:
        loop = spiel_python_loop(spiel, max(1, games // 10), seed)
        runs = [loop() for _ in range(repeats)]
        result["openspiel_python_loop"] = {
            "what": "OpenSpiel oh_hell stepped from Python (apply_action loop), per card played",
            "unit": "ns",
            "median": round(statistics.median(runs), 1),
            "runs": [round(x, 1) for x in runs],
        }
    return result


def _version(dist: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def report(result: dict[str, Any]) -> str:
    """The result as lines of text."""
    lines = [f"kout_sim:  {result['kout_sim']}", f"OpenSpiel: {result['openspiel']}"]
    lines.append(
        f"open_spiel {result['openspiel_version']}, {result['repeats']} alternating rounds, "
        f"medians; ratio = OpenSpiel / kout_sim"
    )
    for key in ("per_card", "ismcts"):
        f = result[key]
        paired = f["paired_ratios"]
        lines.append(
            f"{f['what']} ({f['unit']}): kout_sim {f['kout_sim']:,} | OpenSpiel C++ "
            f"{f['openspiel']:,} | ratio {f['ratio']}x (rounds {min(paired)}-{max(paired)}x)"
        )
        if key == "per_card":
            cost = result["openspiel_call_cost"]
            lines.append(
                f"  evaluate_bots' fixed cost, in the figure: {cost['ns_per_call']:,} ns a call; "
                f"OpenSpiel net of it {cost['per_card_net_ns']:,} ns a card, {cost['ratio_net']}x"
            )
            floor = result["floor"]
            lines.append(
                f"  {floor['what']}: {floor['floor']:,} ns a card; kout_sim "
                f"{floor['kout_sim_over_floor']}x it, OpenSpiel {floor['openspiel_over_floor']}x it "
                "(the most a per-card ratio can be here with this random choice)"
            )
    lines.append(result["caveat"])
    loop = result.get("openspiel_python_loop")
    if loop:
        lines.append(f"{loop['what']} ({loop['unit']}): {loop['median']:,}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="alternating rounds (medians)")
    parser.add_argument("--hands", type=int, default=300_000, help="kout_sim hands a round")
    parser.add_argument("--games", type=int, default=5_000, help="OpenSpiel games a round")
    parser.add_argument("--positions", type=int, default=20, help="ISMCTS positions a round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-python-loop", action="store_true", help="skip OpenSpiel stepped from Python"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    for name in ("repeats", "hands", "games", "positions", "seed"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be positive")
    load_pyspiel()  # before any compile
    result = side_by_side(
        args.repeats,
        args.hands,
        args.games,
        args.positions,
        args.seed,
        python_loop=not args.no_python_loop,
    )
    print(json.dumps(result) if args.json else report(result))


if __name__ == "__main__":
    main()
