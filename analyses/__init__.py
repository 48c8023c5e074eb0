"""Analysis scripts and helpers built on top of the kout_sim simulation outputs."""
