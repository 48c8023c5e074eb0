"""Analysis scripts and helpers built on top of the kout_sim simulation outputs.

One module per question, each with its report section; the report is put together by
:mod:`analyses.report` (where things go: docs/analyses.md)."""
