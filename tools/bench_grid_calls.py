#!/usr/bin/env python3
"""The grid look-ahead builtins (`grid_placements`, `grid_completable_anchors`) of this checkout
against another checkout's (--base DIR), on the calls of random games replayed in order, every
memo empty at the start of each replay, alternately in one process (CPU time).

The calls (the grid's cells and the arguments) are recorded once from random games of a rule
file with this checkout's engine; each side's grid.py and tiling.py are then loaded as plain
modules, so the ratio is that of these two files alone, memos included (a memo's worth depends
on how many games it has seen: give --games accordingly). Answers are checked equal.

Usage:
    python tools/bench_grid_calls.py --base /tmp/base rules/between_two_cities/game.yaml --players 3 --games 200
    python tools/bench_grid_calls.py --base /tmp/base $B/capitals.yaml --only grid_completable_anchors
    python tools/bench_grid_calls.py --base /tmp/base $B/capitals.yaml --generated

($B: rules/between_two_cities.) --generated: the questions the generated program puts to the
look-ahead builtin (past its own memo: those a game asks for the first time) instead of the
engine's calls.
"""
from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.builtins import load_all  # noqa: E402
from interpreter.values import ZoneRef  # noqa: E402

MEMOS = ("_MEMO", "_AT", "_MOVED", "_ANSWERS", "_QUESTIONS", "_BY_TEXT", "_LANDSCAPES", "_PARSED",
         "_PLACEMENTS", "_PIECES", "_RECENT", "_COMPLETIONS", "_CONTENTS")


def load_pair(checkout: Path, tag: str) -> dict:
    """grid.py and tiling.py of `checkout` as modules `<tag>_grid`, `<tag>_tiling` (tiling
    importing that grid), the rest of the engine shared."""
    mods = {}
    for name in ("grid", "tiling"):
        src = (checkout / "interpreter" / "builtins" / f"{name}.py").read_text(encoding="utf-8")
        src = src.replace("from . import builtin, items", "from interpreter.builtins import items\n"
                          "builtin = lambda *a, **k: (lambda f: f)")
        src = src.replace("from . import builtin", "builtin = lambda *a, **k: (lambda f: f)")
        src = src.replace("from .grid import", f"from {tag}_grid import")
        src = src.replace("from ..", "from interpreter.").replace("from .", "from interpreter.builtins.")
        mod = types.ModuleType(f"{tag}_{name}")
        sys.modules[mod.__name__] = mod
        exec(compile(src, mod.__name__, "exec"), mod.__dict__)
        mods[name] = mod
    return mods


def record(path: str, players: int, games: int) -> list:
    """(builtin, the grid's cells -> piece and part, args, kwargs, the piece's shape) per call."""
    from interpreter.game import Game
    registry = load_all()
    calls: list = []
    for name in ("grid_placements", "grid_completable_anchors"):
        fn = registry[name].fn

        def wrap(S, zone, *args, _fn=fn, _name=name, **kwargs):
            shape = S.shape_of(args[0]) if _name == "grid_placements" else None
            calls.append((_name, dict(S.grid.get(zone, {})), args, kwargs, shape))
            return _fn(S, zone, *args, **kwargs)
        registry[name].fn = wrap
    game = Game.load(path)
    for seed in range(games):
        S = game.new_game(players, {}, seed, logging=False)
        rng = random.Random(seed)
        while not S.over:
            p = S.current_players()[0]
            S.apply(p, int(rng.random() * S.option_count(p)))
    return calls


def record_generated(path: str, players: int, games: int) -> list:
    """The same, of the look-ahead questions the rule file's generated program puts to the
    builtin (past the program's own memo, interpreter/transpile/grid_runtime.py): the questions
    a game asks for the first time."""
    from interpreter.transpile import RuleFile, grid_runtime, load_program
    calls: list = []
    engine = grid_runtime._engine_completable_anchors

    def wrap(g, shapes, shape, anchors, w, h, blocked, links, include, paths, first):
        kwargs = {"max_width": w, "max_height": h, "blocked": blocked, "links": links, "include": include,
                  "paths": paths, "first": first}
        calls.append(("grid_completable_anchors", dict(g), (shapes, shape, list(anchors)), kwargs, None))
        return engine(g, shapes, shape, anchors, w, h, blocked, links, include, paths, first)
    grid_runtime._engine_completable_anchors = wrap
    try:
        play = load_program(RuleFile(path, ()), players, {})
        for seed in range(games):
            rngs = [random.Random(seed * 1009 + p) for p in range(players)]
            play(seed, [lambda options, r=r: int(r.random() * len(options)) for r in rngs])
    finally:
        grid_runtime._engine_completable_anchors = engine
    return calls


class _Zone:
    grid = True


class _Layout:
    zones = {ZoneRef("z"): _Zone()}


class _State:
    """What the two builtins read of a state: the grid zone's cells and a piece's shape."""
    lay = _Layout()

    def __init__(self, cells: dict, shape):
        self.grid = {ZoneRef("z"): cells}
        self.shape = shape

    def shape_of(self, piece):
        return self.shape


def replay(mods: dict, calls: list, states: list) -> tuple[float, list]:
    for mod in mods.values():
        for name in MEMOS:
            if hasattr(mod, name):     # a dict, a list, or an object with a clear() or its entries
                memo = getattr(mod, name)
                (memo if hasattr(memo, "clear") else memo.entries).clear()
    place, anchors = mods["grid"].grid_placements, mods["tiling"].grid_completable_anchors
    zone, out = ZoneRef("z"), []
    gc.collect()
    t = time.process_time()
    for (name, _, args, kwargs, _), S in zip(calls, states):
        out.append((place if name == "grid_placements" else anchors)(S, zone, *args, **kwargs))
    return time.process_time() - t, out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--base", required=True)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--only", choices=("grid_placements", "grid_completable_anchors"),
                    help="replay the calls of this builtin alone")
    ap.add_argument("--generated", action="store_true",
                    help="the look-ahead questions of the generated program (those it asks the builtin)")
    args = ap.parse_args(argv)
    calls = (record_generated if args.generated else record)(args.file, args.players, args.games)
    if args.only:
        calls = [call for call in calls if call[0] == args.only]
    states = [_State(cells, shape) for _, cells, _, _, shape in calls]
    base, new = load_pair(Path(args.base), "base"), load_pair(ROOT, "new")
    assert replay(base, calls, states)[1] == replay(new, calls, states)[1], "the answers differ"
    cpu = {"base": 0.0, "new": 0.0}
    for r in range(args.rounds):
        for name in (("base", "new") if r % 2 else ("new", "base")):
            cpu[name] += replay(base if name == "base" else new, calls, states)[0]
    print(f"{args.file} {args.players}p, {args.games} games, {len(calls)} calls: new ÷ base "
          f"{cpu['new'] / cpu['base']:.3f} ({cpu['new'] / args.rounds * 1e3:.0f} ms against "
          f"{cpu['base'] / args.rounds * 1e3:.0f} ms a replay)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
