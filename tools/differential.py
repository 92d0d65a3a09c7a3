#!/usr/bin/env python3
"""Golden digests of random games, to prove that a change to the engine changes no game.

For every playable rule file (each game's entry files and its variants under rules/, and the
rule files under tests/fixtures/), every allowed player count and a few option settings, it
plays seeded random games and records one digest per game (SHA-256, 12 hex digits) over: every
decision taken, the log as each player and the omniscient reader see it, the final state (as
saved, without the rule files' hash, its log lines as text parts without their data form), the
returns and the winners. tests/engine/test_differential.py replays the same games with the current engine
(through every execution path it has) and compares.

Regenerate the golden data ONLY from a trusted engine (the commit before an engine change, with
the same rule files), never from the engine under test:

    git worktree add /tmp/base <trusted commit>
    PYTHONPATH=/tmp/base python tools/differential.py --out tests/engine/data/differential.json

A rule file that changes on purpose (a rules fix, a new fixture) needs its golden data made
again the same way, from the engine before the change.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after PYTHONPATH: an old checkout given there wins

from interpreter.game import Game  # noqa: E402
from interpreter.rulefiles import find_rule_files, game_entry_files, variant_files  # noqa: E402

MAX_DECISIONS = 20_000


def rule_files() -> list[tuple[str, list[str]]]:
    """(entry file, variant files) pairs, paths relative to the repository root."""
    out = []
    for entry in game_entry_files(ROOT / "rules"):
        out.append((entry, []))
        if entry.name == "game.yaml":
            out.extend((entry, [v]) for v in variant_files(entry))
    for f in find_rule_files([str(ROOT / "tests" / "fixtures")]):
        if "leaky" in f.parts:  # the hidden-information corpus: deliberately broken, owned by tests/hidden
            continue
        if "variants" in f.parts:
            base = f.parent.parent / "game.yaml"
            out.append((base, [f]))
        else:
            out.append((f, []))
    rel = lambda p: str(Path(p).resolve().relative_to(ROOT))  # noqa: E731
    return [(rel(e), [rel(v) for v in vs]) for e, vs in out]


def option_settings(game: Game) -> list[dict]:
    """The defaults, then each bool or choice option moved off its default, one at a time."""
    settings: list[dict] = [{}]
    for oid, spec in game.d.options.items():
        values = [False, True] if spec.type == "bool" else (spec.values if spec.type == "choice" else [])
        settings.extend({oid: v} for v in values if v != spec.default)
    return settings


def configurations() -> Iterator[tuple[str, str, list[str], int, dict]]:
    """(key, entry, variants, players, options) for every configuration that can be set up."""
    for entry, variants in rule_files():
        game = Game.load(ROOT / entry, [ROOT / v for v in variants])
        lo, hi = game.player_range
        for n in range(lo, hi + 1):
            for opts in option_settings(game):
                if game.check_setup(n, game.resolve_options(opts)):
                    continue
                key = f"{entry}|{','.join(variants)}|{n}|{json.dumps(opts, sort_keys=True)}"
                yield key, entry, variants, n, opts


def play_digest(game: Game, players: int, options: dict, seed: int,
                apply: Callable[[Any, int, int], None] | None = None) -> str:
    """Play one seeded random game (the player to move and the option both drawn from a
    `random.Random(seed)`), and digest everything observable about it."""
    S = game.new_game(players, options, seed)
    pick = random.Random(seed)
    while not S.is_terminal():
        waiting = S.current_players()
        p = waiting[pick.randrange(len(waiting))] if len(waiting) > 1 else waiting[0]
        i = pick.randrange(len(S.legal_actions(p)))
        if apply is None:
            S.apply(p, i)
        else:
            apply(S, p, i)
        if S.decisions > MAX_DECISIONS:
            raise RuntimeError(f"{game.id} seed {seed}: no end after {MAX_DECISIONS} decisions")
    final = S.to_json()
    del final["rules_hash"]  # a comment or an unused line in a rule file changes no game
    # log entries as text parts: the data form of each line (its event) came later and is made
    # from the same values; the lines every player reads are digested below
    final["log"] = [entry[:2] for entry in final["log"]]  # as State.hash (state.digest_form);
    for thread in final["threads"]:                       # here too for old checkouts
        thread.get("pending", {}).pop("prompt_event", None)
    record = {
        "history": S.history, "state": final, "returns": S.returns(), "winners": S.winners(),
        "log": [S.log_lines(None)] + [S.log_lines(p) for p in range(players)],
    }
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200,
                    help="games per configuration with default options (seeds 0..N-1)")
    ap.add_argument("--option-games", type=int, default=40,
                    help="games per configuration with an option moved off its default")
    ap.add_argument("--out", required=True, help="JSON file to write")
    ap.add_argument("--shard", default="0/1", help="K/N: only every N-th configuration from the K-th "
                    "(run N processes, then join their files with --join)")
    ap.add_argument("--join", nargs="*", default=[], help="join these shard files into --out")
    args = ap.parse_args(argv)
    data: dict[str, str] = {}
    if args.join:
        for part in args.join:
            data.update(json.loads(Path(part).read_text())["digests"])
        order = [key for key, *_ in configurations()]
        data = {key: data[key] for key in order}
    shard, shards = (int(x) for x in args.shard.split("/"))
    t0 = time.process_time()
    for number, (key, entry, variants, n, opts) in enumerate(configurations()):
        if args.join or number % shards != shard:
            continue
        game = Game.load(ROOT / entry, [ROOT / v for v in variants])
        games = args.games if not opts else args.option_games
        data[key] = " ".join(play_digest(game, n, opts, seed) for seed in range(games))
        print(f"{time.process_time() - t0:7.1f}s  {key}", file=sys.stderr, flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    lines = ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in data.items())
    Path(args.out).write_text('{"digests": {\n' + lines + "\n}}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
