"""``python -m kout_sim.players > docs/players.md``: the player reference, generated."""

from .registry import players_markdown

print(players_markdown(), end="")
