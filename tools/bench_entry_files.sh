#!/bin/sh
# Issue 12's before/after table in one command: random games/s of every entry file at every
# player count, this checkout (in the form `rulebook simulate` chooses: the generated program
# where it covers the configuration, else the engine) against c814bf9 (the issue's "today"),
# CPU time, the two engines alternating in worker processes (tools/bench_speed.py --only games
# --transpiled). About 5-15 minutes on the shared 2-core machine with the defaults below.
#
#   tools/bench_entry_files.sh                                   # every entry file
#   tools/bench_entry_files.sh --files dogs_day,chicago_dry      # only paths containing these
#   tools/bench_entry_files.sh --files poker --rounds 4          # any other bench_speed.py option
#
# Writes the Markdown table to stdout and everything to /tmp/bench-entry-files.json (BENCH_JSON);
# the c814bf9 checkout is made in BENCH_BASE (default /tmp/base-c814) if it is not there, and
# removed at the end if this script made it. PYTHON defaults to .venv/bin/python.
set -eu
cd "$(dirname "$0")/.."
BASE=${BENCH_BASE:-/tmp/base-c814}
OUT=${BENCH_JSON:-/tmp/bench-entry-files.json}
PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
made=""
if [ ! -d "$BASE/interpreter" ]; then
    git worktree add --detach "$BASE" c814bf9 >&2
    made=1
fi
status=0
nice "$PY" tools/bench_speed.py --base "$BASE" --only games --transpiled \
    --rounds 8 --games 1 --min-task 0.4 --json "$OUT" "$@" || status=$?
if [ -n "$made" ]; then
    git worktree remove --force "$BASE" >&2
fi
exit $status
