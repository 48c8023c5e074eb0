"""The ``ladder`` study's plan: which runs the ladder of players plays, with what sizes.

``kout-sim study ladder --preset P`` (:mod:`analyses.studies`) plays a rung run per player
(:func:`analyses.ladder_rung.write_rung`) and the duplicate duels that rate them
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
)
from .ladder_rating import (
    DEFAULT_DUEL_MATCHES,
    DEFAULT_SEARCH_DUEL_MATCHES,
    DUEL_KIND,
    duel_pairs,
    duel_path,
    write_duel,
)
from .ladder_rung import write_rung

LADDER_SEED_OFFSET = 4
"""The ``ladder`` study plays every run with the study seed plus this offset."""


SEARCH_SIZES: dict[tuple[str, str], dict[str, int]] = {
    ("ismcts", "kout_bh"): {"hands": 1_500, "bid_hands": 500, "matches": 30, "duel": 100},
    ("pimc", "kout_bh"): {"hands": 800, "bid_hands": 300, "matches": 30, "duel": 40},
    ("ismcts", "kout_bo"): {"hands": 1_500, "bid_hands": 400, "matches": 30, "duel": 60},
    ("pimc", "kout_bo"): {"hands": 200, "bid_hands": 50, "matches": 2, "duel": 5},
}
"""The caps of a search rung per (player, game family): its hands (joker forks on the same
hands), the hands whose first bid decision is forked, the self-play matches per target and the
deal sequences of its duels. Chosen for a ladder study of about 9 minutes of CPU, one worker (on
2026-12-02 the two Kout studies took 35 and 38 minutes of wall, run together on two cores shared
with other work). Cost per hand measured on 2026-12-02 (one worker, a loaded machine; hands / joker forks
of a hand / bid forks of a hand): ``ismcts:iterations=200`` kout_bh_4 19 / 94 / 110 ms, kout_bo_4
31 / 40 / 176 ms; ``pimc:samples=10`` kout_bh_4 83 / 147 / 330 ms, kout_bo_4 0.70 / 0.56 / 2.4 s
(its double-dummy solves of full Kout Bo hands are the cost). A duel's match is at the preset's
target: about 30 hands in kout_bo_4 (101), 20 in kout_bh_4 (31). Other pairs use :data:`DEFAULT_SEARCH_HANDS`, :data:`DEFAULT_SEARCH_BID_FORK_HANDS`,
:data:`DEFAULT_SEARCH_MATCHES` and :data:`analyses.ladder_rating.DEFAULT_SEARCH_DUEL_MATCHES`."""


def search_caps(spec: str, family: str) -> dict[str, int]:
    """The caps of :data:`SEARCH_SIZES` for the search rung ``spec`` in ``family``."""
    kind = spec.split(":", 1)[0].strip()
    return SEARCH_SIZES.get(
        (kind, family),
        {
            "hands": DEFAULT_SEARCH_HANDS,
            "bid_hands": DEFAULT_SEARCH_BID_FORK_HANDS,
            "matches": DEFAULT_SEARCH_MATCHES,
            "duel": DEFAULT_SEARCH_DUEL_MATCHES,
        },
    )


def rung_sizes(spec: str, hands: int, matches: int, family: str = "kout_bo") -> dict[str, int]:
    """The sizes of one rung for ``--hands`` ``hands`` and ``--matches`` ``matches``: its hands
    (joker forks on the same hands), the hands whose first bid decision is forked
    (``bid_hands``: at most :data:`DEFAULT_LADDER_BID_FORK_HANDS`) and the self-play matches per
    target; a search rung's are capped by :func:`search_caps`."""
    if is_search(spec):
        caps = search_caps(spec, family)
        n = min(hands, caps["hands"])
        return {
            "hands": n,
            "bid_hands": min(n, caps["bid_hands"]),
            "matches": min(matches, caps["matches"]),
        }
    return {
        "hands": hands,
        "bid_hands": min(hands, DEFAULT_LADDER_BID_FORK_HANDS),
        "matches": matches,
    }


def duel_size(a: str, b: str, matches: int, family: str) -> int:
    """Deal sequences of the duel ``a`` against ``b``: ``matches``, capped by the search rungs'
    ``duel`` caps (:func:`search_caps`)."""
    caps = [search_caps(r, family)["duel"] for r in (a, b) if is_search(r)]
    return min([matches, *caps])


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
    Sizes (:func:`rung_sizes`, :func:`duel_size`): ``--hands`` hands per non-search rung (default
    :data:`DEFAULT_LADDER_HANDS`; joker forks on the same hands, bid forks on the first
    :data:`DEFAULT_LADDER_BID_FORK_HANDS`); ``--matches`` self-play matches per target of each
    non-search rung (default :data:`DEFAULT_LADDER_MATCHES`) and deal sequences per duel (default
    :data:`analyses.ladder_rating.DEFAULT_DUEL_MATCHES`); a search rung's sizes and duels are
    capped by :data:`SEARCH_SIZES`."""
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
        size = rung_sizes(spec, hands, matches, family)
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
        m = duel_size(a, b, duel_n, family)

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
