"""Playtesting: many games with agents, statistics with intervals, comparisons, reports.

Built on the forward-model API only. Modules, one concept each:
plan (what a run plays), games (a worker plays one game number), backends (inline, local
processes, Dask), runner (a run: streaming, progress, Ctrl-C, resume), store (JSON-lines results),
tally and statistics (aggregates with intervals), comparison (paired differences), coverage (which
rules fired), summary/text/report (output), commands (the `simulate` and `compare` commands).
"""
