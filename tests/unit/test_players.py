"""Player specs and line-ups: parsing, defaults, seats per team, the team swap of duels."""

from __future__ import annotations

import numpy as np
import pytest

from kout_sim.players import N_PARAMS, parse_lineup, parse_player
from kout_sim.players.kinds import KIND_RANDOM


def test_spec_fills_defaults_and_parses_values() -> None:
    assert str(parse_player("random", "kout_bo")) == "random:pass=-1"
    spec = parse_player(" random : pass = 0.25 ", "baloot")
    assert spec.name == "random" and dict(spec.params) == {"pass": 0.25}


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("", "non-empty"),
        ("genius", "unknown player 'genius'"),
        ("random:pass", "expected KEY=VALUE"),
        ("random:speed=1", "has no parameter 'speed'"),
        ("random:pass=nan", "outside"),
        ("random:pass=1.5", "outside -1..1"),
        ("random:pass=lots", "must be a number"),
    ],
)
def test_bad_specs_name_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_player(spec, "kout_bo")


def test_one_two_or_one_per_seat() -> None:
    every = parse_lineup("random", 6, "kout_bo")
    assert len(every.seats) == 6 and every.teams() == ("random:pass=-1", "random:pass=-1")
    teams = parse_lineup(["random", "random:pass=0.5"], 4, "kout_bh")
    assert teams.describe() == ["random:pass=-1", "random:pass=0.5"] * 2
    params = teams.params("kout_bh")
    assert params.shape == (6, N_PARAMS) and params[1, 0] == 0.5 and params[0, 0] == -1
    assert (teams.kinds == KIND_RANDOM).all()
    seats = parse_lineup(["random", "random:pass=0.1", "random", "random:pass=0.9"], 4, "baloot")
    assert seats.teams() is None
    with pytest.raises(ValueError, match="give 1 player"):
        parse_lineup(["random"] * 3, 4, "kout_bo")


def test_swapped_exchanges_the_teams() -> None:
    lineup = parse_lineup(["random:pass=0.1", "random:pass=0.9"], 6, "kout_bo")
    swapped = lineup.swapped()
    assert swapped.describe() == ["random:pass=0.9", "random:pass=0.1"] * 3
    assert np.array_equal(swapped.swapped().params("kout_bo"), lineup.params("kout_bo"))


def test_players_doc_is_current() -> None:
    from pathlib import Path

    from kout_sim.players.registry import players_markdown

    docs = Path(__file__).parents[2] / "docs" / "players.md"
    assert docs.read_text() == players_markdown(), "regenerate: python -m kout_sim.players"


def test_a_search_seat_carries_its_rollout_players_defaults() -> None:
    from kout_sim.players import PLAYERS
    from kout_sim.players.ismcts import ROLLOUT

    lineup = parse_lineup(["ismcts:iterations=50,c=1.5", "heuristic"], 4, "kout_bo")
    params = lineup.params("kout_bo")
    assert params[0, 0] == 50 and params[0, 1] == 1.5
    for p in PLAYERS["heuristic"].params_for("kout"):
        assert params[0, ROLLOUT + p.index] == p.default
    assert (params[1, ROLLOUT:] == 0).all()
