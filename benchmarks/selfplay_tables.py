"""Self-play tables of a player: how often each contract is bid and made, per preset.

Plays independent hands of every preset with the given player on every seat and prints, as Markdown,
per contract (Kout presets; the forced Malzoom 5 apart) the share of hands, the made rate and the
mean points, and for Baloot the modes bought, buyer-fail and kaboot rates beside the unsourced human
rates (``analyses.baloot_modes.HUMAN_FAIL``: no source, sample size or definition is known), the
simulated ones with 95% Wilson intervals. Usage:
``python benchmarks/selfplay_tables.py [--players heuristic] [--hands N] [--seed S]``.
"""

from __future__ import annotations

import argparse

import numpy as np

from kout_sim.engine import layout as L
from kout_sim.rules import get_rules
from kout_sim.sim import play_hands
from kout_sim.stats import wilson

HUMAN = {"Sun": ("28.5%", "13.8%"), "Hokum": ("15.9%", "9.3%")}
"""Unsourced human rates (buyer fails, kaboot), as in ``analyses.baloot_modes``."""


BALOOT_MODES = ((L.MODE_SUN, "Sun"), (L.MODE_HOKUM, "Hokum"))
"""The Baloot modes a buyer can buy: their codes in the result row and their names."""


def _rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:.1%} ({lo:.1%}..{hi:.1%})" if n else "-"


def mode_counts(rows: np.ndarray, code: int) -> tuple[int, int, int, int]:
    """The Baloot hands of ``rows`` bought in the mode ``code``, and of them those the buyer failed,
    the kaboots (all eight tricks to one team) and the doubled ones (a double or a Gahwa)."""
    sel = rows[rows[:, L.R_MODE] == code]
    failed = int((sel[:, L.R_MADE] == 0).sum())
    kaboot = int((sel[:, L.R_KABOOT] >= 0).sum())
    doubled = int(((sel[:, L.R_DOUBLE] > 1) | (sel[:, L.R_GAHWA] > 0)).sum())
    return len(sel), failed, kaboot, doubled


def kout_table(preset: str, rows: np.ndarray) -> list[str]:
    """The markdown table of a Kout preset's contracts: bid, made and mean points."""
    n = len(rows)
    lines = [
        f"**{preset}** ({n:,} hands)",
        "",
        "| contract | bid | made | mean points of the bidding team |",
        "|---|---:|---:|---:|",
    ]
    contract, malzoom = rows[:, L.R_CONTRACT], rows[:, L.R_MALZOOM] == 1
    for b in sorted(set(contract.tolist())):
        for forced in (False, True):
            sel = rows[(contract == b) & (malzoom == forced)]
            if not len(sel):
                continue
            made = int((sel[:, L.R_MADE] == 1).sum())
            team = sel[:, L.R_BIDDER] % 2
            pts = np.where(team == 0, sel[:, L.R_POINTS], sel[:, L.R_POINTS + 1])
            pts = pts - np.where(team == 0, sel[:, L.R_POINTS + 1], sel[:, L.R_POINTS])
            label = f"{b} (Malzoom)" if forced else str(b)
            lines.append(
                f"| {label} | {_rate(len(sel), n)} | {_rate(made, len(sel))} | {pts.mean():+.2f} |"
            )
    return lines


def baloot_table(rows: np.ndarray) -> list[str]:
    """The markdown table of Baloot's modes: bought, failed, kaboot and doubled."""
    n = len(rows)
    mode = rows[:, L.R_MODE]
    lines = [
        f"**baloot** ({n:,} hands)",
        "",
        "| mode | bought | buyer fails | human (unsourced) | kaboot | human (unsourced) | doubled |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for code, name in BALOOT_MODES:
        k, failed, kaboot, doubled = mode_counts(rows, code)
        fails_h, kaboot_h = HUMAN[name]
        lines.append(
            f"| {name} | {_rate(k, n)} | {_rate(failed, k)} | {fails_h} | {_rate(kaboot, k)} | "
            f"{kaboot_h} | {_rate(doubled, k)} |"
        )
    lines.append(f"| void (all passed) | {_rate(int((mode == 0).sum()), n)} | | | | | |")
    return lines


def main() -> None:
    """The command line: play every preset with the players given and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="heuristic")
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    for preset in ("kout_bo_4", "kout_bo_6", "kout_bh_4", "kout_bh_6", "baloot"):
        rows = play_hands(get_rules(preset), args.hands, args.seed, args.players)
        table = baloot_table(rows) if preset == "baloot" else kout_table(preset, rows)
        print("\n".join(table), end="\n\n")


if __name__ == "__main__":
    main()
