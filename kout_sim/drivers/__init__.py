"""The drivers: the play loop and the batch kernels that play hands and matches with a line-up.

This layer sits above :mod:`kout_sim.engine` (the rules: state, legal moves, transitions, scores)
and :mod:`kout_sim.players` (the policies). A numba kernel can only be cached when the functions it
calls are module globals, not arguments or closure cells (both are keyed by object identity and
recompile in every process), so the policy dispatch is bound here by import instead of being passed
into the engine. See docs/ARCHITECTURE.md.
"""
