"""The version of kout_sim: the one source (pyproject.toml reads it, ``kout_sim.__version__`` is it)."""

__version__ = "0.1.0"
