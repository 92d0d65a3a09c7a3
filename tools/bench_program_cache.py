"""A generated program kept on disk (interpreter/transpile/sourcecache.py) against generating it:
CPU of fastrun.program in a fresh in-memory state, both alternating, load cache on for both.

    python tools/bench_program_cache.py
"""
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import os, time, statistics
from interpreter.transpile import fastrun, sourcecache
real = sourcecache.source
def off(*a): return a[-1]()[0]
files = ["rules/chicago_poker/game.yaml:4", "rules/dice_town/cowboys.yaml:4", "rules/dogs_day/game.yaml:4", "rules/between_two_cities/capitals.yaml:3"]
for spec in files:
    f, n = spec.split(":"); n = int(n)
    fastrun.program(f, (), n, {}); fastrun.forget()  # warm (and keep)
    t = {"generate": [], "kept": []}
    for r in range(5):
        for mode in (("generate", "kept") if r % 2 else ("kept", "generate")):
            sourcecache.source = off if mode == "generate" else real
            c = time.process_time(); fastrun.program(f, (), n, {}); t[mode].append(time.process_time() - c); fastrun.forget()
    g, k = statistics.median(t["generate"]), statistics.median(t["kept"])
    print(f"{spec:45} generate {g*1000:7.1f} ms  kept {k*1000:6.1f} ms  ratio {g/k:5.1f}x")
