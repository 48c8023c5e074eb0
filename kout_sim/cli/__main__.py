"""``python -m kout_sim.cli``: the ``kout-sim`` command."""

from . import run

run()
