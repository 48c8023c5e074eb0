"""The ``ladder`` study's plan: which runs the ladder of players plays, with what sizes.

``kout-sim study ladder --preset P`` (:mod:`analyses.studies`) plays a rung run per player
(:func:`analyses.ladder.write_rung`) and the duplicate duels that rate them
(:func:`analyses.ladder_rating.write_duel`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kout_sim.commands import command_line
from kout_sim.rules import get_rules
from kout_sim.sim.batch import lineup_of

from .ladder import (
    DEFAULT_LADDER_BID_FORK_HANDS,
    DEFAULT_LADDER_HANDS,
    DEFAULT_LADDER_MATCHES,
    DEFAULT_SEARCH_BID_FORK_HANDS,
    DEFAULT_SEARCH_HANDS,
    DEFAULT_SEARCH_MATCHES,
    LADDER_TARGETS,
    RUNG_KIND,
    RUNGS,
    is_search,
    rung_slug,
    write_rung,
)
from .ladder_rating import (
    DEFAULT_DUEL_MATCHES,
    DEFAULT_SEARCH_DUEL_MATCHES,
    DUEL_KIND,
    duel_pairs,
    duel_path,
    write_duel,
)

LADDER_SEED_OFFSET = 4
"""The ``ladder`` study plays every run with the study seed plus this offset."""


def rung_sizes(spec: str, hands: int, matches: int) -> dict[str, int]:
    """The sizes of one rung for ``--hands`` ``hands`` and ``--matches`` ``matches``: its hands
    (joker forks on the same hands), the hands whose first bid decision is forked
    (``bid_hands``) and the self-play matches per target; a search rung's are capped
    (:data:`DEFAULT_SEARCH_HANDS`, :data:`DEFAULT_SEARCH_BID_FORK_HANDS`,
    :data:`DEFAULT_SEARCH_MATCHES`)."""
    if is_search(spec):
        n = min(hands, DEFAULT_SEARCH_HANDS)
        return {
            "hands": n,
            "bid_hands": min(n, DEFAULT_SEARCH_BID_FORK_HANDS),
            "matches": min(matches, DEFAULT_SEARCH_MATCHES),
        }
    return {
        "hands": hands,
        "bid_hands": min(hands, DEFAULT_LADDER_BID_FORK_HANDS),
        "matches": matches,
    }


def ladder_plan(
    preset: str,
    family: str,
    seed: int,
    players: Sequence[str] | None = None,
    hands: int | None = None,
    matches: int | None = None,
) -> list[dict[str, Any]]:
    """The runs of the ``ladder`` study (:mod:`analyses.studies`), as the keyword arguments of
    its :class:`analyses.studies.RunPlan` s (this module does not import the studies, which
    import it), for the arguments of :class:`analyses.studies.StudyArgs`: one rung run per rung
    (``ladder/<rung>``, :func:`write_rung`) and the duels of the rating
    (``ladder/duels/<a>-vs-<b>``, :func:`analyses.ladder_rating.write_duel`).

    The rungs are ``--players`` when given (one spec a rung, weakest first), else :data:`RUNGS`.
    Sizes (:func:`rung_sizes`): ``--hands`` hands per non-search rung (default
    :data:`DEFAULT_LADDER_HANDS`; joker forks on the same hands, bid forks on the first
    :data:`DEFAULT_LADDER_BID_FORK_HANDS`), a search rung at most :data:`DEFAULT_SEARCH_HANDS`
    (bid forks on the first :data:`DEFAULT_SEARCH_BID_FORK_HANDS`); ``--matches`` self-play
    matches per target of each non-search rung (default :data:`DEFAULT_LADDER_MATCHES`; a search
    rung at most :data:`DEFAULT_SEARCH_MATCHES`) and deal sequences per duel (default
    :data:`analyses.ladder_rating.DEFAULT_DUEL_MATCHES`; with a search rung at most
    :data:`analyses.ladder_rating.DEFAULT_SEARCH_DUEL_MATCHES`)."""
    rungs = list(players or RUNGS)
    if len(set(rungs)) != len(rungs) or len(rungs) < 2:
        raise ValueError("the ladder needs at least two different rungs (--players, one a rung)")
    rules = get_rules(preset)
    for spec in rungs:  # a bad spec is refused before any run starts
        lineup_of(rules, spec)
    seed += LADDER_SEED_OFFSET
    duel_n = matches or DEFAULT_DUEL_MATCHES
    hands = hands or DEFAULT_LADDER_HANDS
    matches = matches or DEFAULT_LADDER_MATCHES
    targets = LADDER_TARGETS[family]
    plans: list[dict[str, Any]] = []
    for spec in rungs:
        size = rung_sizes(spec, hands, matches)
        n = size["hands"]

        def runner(
            folder: Path, workers: int | None, spec: str = spec, size: dict[str, int] = size
        ) -> object:
            return write_rung(
                folder,
                preset,
                spec,
                hands=size["hands"],
                seed=seed,
                matches=size["matches"],
                targets=targets,
                workers=workers,
                bid_hands=size["bid_hands"],
            )

        def command(folder: Path, spec: str = spec, n: int = n) -> str:
            return command_line(
                "simulate",
                preset=preset,
                players=[spec],
                hands=n,
                seed=seed,
                out=str(folder / "hands"),
            )

        plans.append(
            {
                "path": f"ladder/{rung_slug(spec)}",
                "kind": RUNG_KIND,
                "runner": runner,
                "command": command,
            }
        )
    for a, b in duel_pairs(rungs):
        m = min(duel_n, DEFAULT_SEARCH_DUEL_MATCHES) if is_search(a) or is_search(b) else duel_n

        def duel_runner(
            folder: Path, workers: int | None, a: str = a, b: str = b, m: int = m
        ) -> object:
            return write_duel(folder, preset, a, b, matches=m, seed=seed, workers=workers)

        def duel_command(folder: Path, a: str = a, b: str = b, m: int = m) -> str:
            return command_line(
                "duel",
                preset=preset,
                team_a=a,
                team_b=b,
                matches=m,
                seed=seed,
                out=str(folder / "duel"),
            )

        plans.append(
            {
                "path": duel_path(a, b),
                "kind": DUEL_KIND,
                "runner": duel_runner,
                "command": duel_command,
            }
        )
    return plans
