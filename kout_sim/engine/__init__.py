"""The numba engine: the state layout, the kernels of each game family, the rules' tables and
step-by-step access from Python (:mod:`.step`)."""
