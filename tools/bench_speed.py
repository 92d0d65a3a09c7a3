#!/usr/bin/env python3
"""Speed of this engine as RATIOS, measured in one run (the machine is shared and noisy).

  * engine ÷ hand-written per decision: Chicago Poker without special cards, 4 players, random
    agents, against tools/handwritten_poker.py, run alternately in this process;
  * after ÷ before, against a checkout of an older engine (--base DIR, e.g. made with
    `git worktree add /tmp/base <commit>`): random games/s of every entry file at every player
    count, clone and save+restore of mid-game states, flat MCTS iterations/s, and a cold
    `rulebook validate`. Each engine runs in its own worker process (both import `interpreter`);
    the two workers get the same tasks alternately and report CPU time (time.process_time).

Usage:
    python tools/bench_speed.py --base /tmp/base                  # everything, a few minutes
    python tools/bench_speed.py --base /tmp/base --rounds 3 --games 4 --json out.json
    python tools/bench_speed.py --only handwritten                # no base needed
    python tools/bench_speed.py --base /tmp/base --only games --transpiled
                                  # this checkout plays in the form `rulebook simulate` chooses:
                                  # the generated program (interpreter/transpile/) where it covers
                                  # the configuration and its checked start passes, the engine
                                  # elsewhere (and for any game a program fails); the choice's CPU
                                  # (generating, checked start) charged over a run (--run-games)
    python tools/bench_speed.py --base /tmp/base --only simulate --simulate-games 300,1000
                                  # `rulebook simulate` end to end in each checkout (child CPU)
    tools/bench_entry_files.sh [--files dogs_day,chicago_dry]   # issue 12's before/after table
    python tools/bench_speed.py --base /tmp/base --only mcts --transpiled
                                  # flat MCTS: before, this engine, and this checkout's iterations
                                  # on the resumable generated program, alternating
                                  # (--mcts-players 2 3 4 5: other player counts than 4)
Copy the printed Markdown into docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POKER = ROOT / "rules" / "chicago_poker" / "game.yaml"
MCTS_FILES = ["chicago_dry", "dogs_day", "chicago_poker", "dice_town", "between_two_cities"]
MCTS_CONFIGS = [(gid, {}) for gid in MCTS_FILES] + [("chicago_poker", {"no_special_cards": True})]


# ---------------------------------------------------------------------- worker side
def _worker() -> None:
    """Serve tasks (one JSON object per line on stdin) with whichever `interpreter` is first
    on sys.path; answer one JSON line each."""
    from interpreter.game import Game

    games: dict = {}

    def game_of(path: str):
        if path not in games:
            games[path] = Game.load(path)
        return games[path]

    def mid_game(game, n: int, opts: dict, count: int) -> list:
        rng = random.Random(7)
        states = []
        for seed in range(count):
            S = game.new_game(n, opts, seed, logging=False)
            target = rng.randrange(5, 60)
            before = S
            while not S.over and S.decisions < target:
                before = S.clone()  # short games (Kuhn poker) end early: keep the last decision point
                p = S.current_players()[0]
                S.apply(p, rng.randrange(S.option_count(p)))
            states.append(S if not S.over else before)
        return states

    for line in sys.stdin:
        task = json.loads(line)
        game = game_of(task["file"])
        n, opts = task["players"], task.get("options") or {}
        kind = task["kind"]
        if kind == "start":
            out = _simulate_start(task["file"], n, opts, task["run_games"])
        elif kind == "games" and task.get("form") == "transpiled":
            out = _transpiled_games(game, task["file"], n, opts, range(task["seed"], task["seed"] + task["games"]))
        elif kind == "games":
            t = time.process_time()
            decisions = sum(_engine_game(game, n, opts, seed) for seed in range(task["seed"], task["seed"] + task["games"]))
            out = {"cpu": time.process_time() - t, "decisions": decisions}
        elif kind == "copy":
            states = mid_game(game, n, opts, 10)
            t = time.process_time()
            for _ in range(task["reps"]):
                for S in states:
                    S.clone()
            clone = time.process_time() - t
            t = time.process_time()
            for _ in range(max(1, task["reps"] // 10)):
                for S in states:
                    game.restore(json.loads(json.dumps(S.to_json())))
            save = time.process_time() - t
            out = {"clone": clone / (task["reps"] * len(states)),
                   "save": save / (max(1, task["reps"] // 10) * len(states))}
        elif kind == "mcts":
            from interpreter.agents.mcts import MctsAgent
            states = mid_game(game, n, opts, 4)
            form = {"transpiled": task["transpiled"]} if "transpiled" in task else {}  # an old engine: none
            for S in states:  # not timed: what a process makes once (a generated program, caches)
                MctsAgent(1, seed=0, **form).choose(S, S.current_players()[0])
            t = time.process_time()
            on_stepper = 0
            for S in states:
                agent = MctsAgent(task["iterations"], seed=0, **form)  # old and new signature
                agent.choose(S, S.current_players()[0])
                on_stepper += getattr(agent, "on_stepper", 0)
            out = {"cpu": time.process_time() - t, "iterations": task["iterations"] * len(states),
                   "on_stepper": on_stepper}
        else:
            out = {"error": f"unknown task {kind}"}
        print(json.dumps(out), flush=True)


def _engine_game(game, n: int, opts: dict, seed: int) -> int:
    """One random game in the engine (one random.Random(seed) for every decision, logging off,
    as any engine since c814bf9 can play it); its number of decisions."""
    S = game.new_game(n, opts, seed, logging=False)
    rng = random.Random(seed)
    while not S.over:
        p = S.current_players()[0]
        S.apply(p, int(rng.random() * S.option_count(p)))
    return S.decisions


def _simulate_start(path: str, n: int, opts: dict, run_games: int) -> dict:
    """What `rulebook simulate FILE --players n --games run_games` (random agents, one job) does
    before its first game, timed: lab/execution.py's `choose` in `auto` mode (two engine games to
    estimate the run, generating the program, the checked start: three games played both ways).
    The game's own load is done first and not timed (simulate and the engine pay it alike); the
    program is generated afresh. Answers that CPU time and the form chosen (and why)."""
    from interpreter.lab.execution import choose
    from interpreter.lab.games import loaded
    from interpreter.lab.plan import Arm, Plan
    from interpreter.transpile import fastrun
    game = loaded(Arm("base", str(Path(path).resolve())), False)[0]
    arm = Arm("base", str(Path(path).resolve()), options=tuple(game.resolve_options(opts).items()))
    plan = Plan((arm,), n, ("random",) * n, 0, run_games)
    fastrun.forget()
    t = time.process_time()
    _, (decision,) = choose(plan, "auto")
    return {"cpu": time.process_time() - t, "form": decision.execution, "why": decision.why}


def _transpiled_games(game, path: str, n: int, opts: dict, seeds: range) -> dict:
    """The "games" task's games (same seeds, one random.Random(seed) for every decision) played
    by the configuration's generated program (the one `_simulate_start` generated: the same
    cache key as simulate's), by the engine for a game the program fails (and after 5 failures
    in a row, as simulate). Generating the program is not timed here (see `_simulate_start`)."""
    from interpreter.transpile import Unsupported, fastrun
    try:
        play = fastrun.program(str(Path(path).resolve()), (), n, game.resolve_options(opts))
    except Unsupported:
        play = None
    t = time.process_time()
    decisions = fell_back = in_a_row = 0
    for seed in seeds:
        draw = random.Random(seed).random
        agents = [lambda options: int(draw() * len(options))] * n
        try:
            if play is None or in_a_row >= 5:  # as simulate: 5 failures in a row, the engine's
                raise LookupError
            decisions += len(play(seed, agents)[1])
            in_a_row = 0
            continue
        except Exception:  # noqa: BLE001 - as simulate: the engine plays a game the program fails
            fell_back += play is not None
            in_a_row += 1
        decisions += _engine_game(game, n, opts, seed)
    return {"cpu": time.process_time() - t, "decisions": decisions, "form": "engine" if play is None else "generated",
            "fell_back": fell_back}


class Worker:
    """A worker process running `root`'s interpreter. With `files_from`, every task's rule file
    (a path relative to a checkout) is read from that other checkout instead of its own."""

    def __init__(self, root: Path, files_from: Path | None = None):
        self.files_from = files_from
        env = dict(os.environ, PYTHONPATH=str(root))
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     env=env, cwd=str(root))

    def ask(self, **task) -> dict:
        if self.files_from is not None and "file" in task:
            task["file"] = str(self.files_from / task["file"])
        self.proc.stdin.write(json.dumps(task) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


# ---------------------------------------------------------------------- measurements
def handwritten_ratio(rounds: int, games: int, transpiled: bool = False) -> dict:
    """Engine ÷ hand-written CPU time per decision, alternating in this process (with
    `transpiled`, the generated program's too: it plays the engine's games). Which side goes
    first rotates from round to round; the per-round ratios give the spread."""
    sys.path.append(str(ROOT))  # after PYTHONPATH: `PYTHONPATH=old/checkout` measures that engine
    sys.path.insert(0, str(ROOT / "tools"))
    from handwritten_poker import play_games

    from interpreter.game import Game
    from interpreter.state import State
    apply = State.apply_unchecked if hasattr(State, "apply_unchecked") else State.apply
    game = Game.load(POKER)
    opts = {"no_special_cards": True}
    play = _poker_program(game, opts) if transpiled else None

    def engine(seeds: range) -> int:
        decisions = 0
        for seed in seeds:
            S = game.new_game(4, opts, seed, logging=False)
            rngs = [random.Random(seed * 31 + i) for i in range(4)]
            while not S.over:
                p = S.current_players()[0]
                apply(S, p, int(rngs[p].random() * S.option_count(p)))
            decisions += S.decisions
        return decisions

    def generated(seeds: range) -> int:
        return sum(len(play(seed, [_seat_agent(random.Random(seed * 31 + i)) for i in range(4)])[1])
                   for seed in seeds)

    sides = {"engine": engine, "hand": lambda seeds: play_games(4, seeds)}
    if play is not None:
        sides["generated"] = generated
    per_round: dict = {name: [] for name in sides}  # (cpu, decisions) per round
    order = list(sides)
    for r in range(rounds):
        seeds = range(r * games, (r + 1) * games)
        for name in order[r % len(order):] + order[:r % len(order)]:
            t = time.process_time()
            decisions = sides[name](seeds)
            per_round[name].append((time.process_time() - t, decisions))
    us = {name: sum(c for c, _ in rs) / sum(d for _, d in rs) * 1e6 for name, rs in per_round.items()}

    def spread(name: str) -> list:
        return [(c / d) / (hc / hd) for (c, d), (hc, hd) in zip(per_round[name], per_round["hand"])]
    out = {"engine_us": us["engine"], "hand_us": us["hand"], "ratio": us["engine"] / us["hand"],
           "ratio_rounds": spread("engine"),
           "engine_decisions_per_game": sum(d for _, d in per_round["engine"]) / (rounds * games),
           "hand_decisions_per_game": sum(d for _, d in per_round["hand"]) / (rounds * games)}
    if play is not None:
        assert [d for _, d in per_round["generated"]] == [d for _, d in per_round["engine"]], \
            "the generated program did not play the engine's games"
        out.update(transpiled_us=us["generated"], transpiled_ratio=us["generated"] / us["hand"],
                   transpiled_ratio_rounds=spread("generated"))
    return out


def _poker_program(game, opts: dict):
    from interpreter.transpile import fastrun
    return fastrun.program(POKER, (), 4, game.resolve_options(opts))


def _seat_agent(rng: random.Random):
    draw = rng.random
    return lambda options: int(draw() * len(options))


def entry_configs(only: list[str] | None = None) -> list[tuple[str, int, dict]]:
    """(rule file relative to the checkout, players, options) of every entry file at every
    player count; `only`: the files whose path contains one of these texts. A player count the
    default options refuse is played with the first boolean option that allows it (a file's
    two-player option), if one does."""
    sys.path.insert(0, str(ROOT))
    from interpreter.game import Game
    from interpreter.rulefiles import game_entry_files
    out = []
    for path in game_entry_files(ROOT / "rules"):
        if only and not any(text in str(path) for text in only):
            continue
        game = Game.load(path)
        lo, hi = game.player_range
        # relative: each worker runs in its own checkout and plays ITS version of the rule file
        # (an old engine may not read today's files; files that changed play a bit differently)
        rel = str(Path(path).relative_to(ROOT))
        for n in range(lo, hi + 1):
            opts = _options_allowing(game, n)
            if opts is not None:
                out.append((rel, n, opts))
    return out


def _options_allowing(game, n: int) -> dict | None:
    """The options a game is played with at n players: none (the defaults) if they allow it,
    else the first boolean option set true that does; None if neither does."""
    if not game.check_setup(n, game.resolve_options({})):
        return {}
    for name, option in game.d.options.items():
        if option.type == "bool" and not game.check_setup(n, game.resolve_options({name: True})):
            return {name: True}
    return None


def _in_turn(round_no: int, base: Worker, new: Worker) -> tuple:
    """Which engine goes first alternates from round to round: on a shared machine the one that
    always runs second measures differently (seen as 1.08-1.14x that vanished in stop 25)."""
    pair = (("base", base), ("new", new))
    return pair if round_no % 2 == 0 else pair[::-1]


def games_row(base: Worker, new: Worker, path: str, n: int, rounds: int, games: int, transpiled: bool,
              run_games: int, min_task: float, run_seconds: float = 2.0, options: dict | None = None) -> dict:
    """Random games/s of one configuration, before and after, the two workers alternating on the
    same seeds. With `transpiled`, this checkout plays in the form `rulebook simulate --games R`
    would choose (lab/execution.py in `auto` mode: the generated program where it covers the
    configuration and its checked start passes, else the engine); that choice's CPU time (the
    "start") is measured once in the new worker and charged over the run's R games: run_games,
    or as many as the old engine plays in run_seconds of CPU if that is more (short games: a
    run of 1000 Kuhn games is too short for `auto` to generate anything)."""
    # short games: more of them per task, so that each of base's tasks takes ~min_task s of CPU
    opts = {"options": options} if options else {}  # both checkouts: the same options by name
    probe = base.ask(kind="games", file=path, players=n, games=games, seed=10_000, **opts)["cpu"]
    count = games * max(1, math.ceil(min_task / max(probe, 1e-6)))
    run_games = max(run_games, math.ceil(run_seconds * games / max(probe, 1e-6)))
    start = new.ask(kind="start", file=path, players=n, run_games=run_games, **opts) if transpiled else None
    form = start["form"] if start else "engine"
    new.ask(kind="games", file=path, players=n, games=games, seed=10_000, form=form, **opts)  # warm-up, as base's probe
    cpu = {"base": [], "new": []}
    fell_back = 0
    for r in range(rounds):
        for name, w in _in_turn(r, base, new):
            answer = w.ask(kind="games", file=path, players=n, games=count, seed=r * count,
                           **({"form": form} if name == "new" else {}), **opts)
            cpu[name].append(answer["cpu"])
            fell_back += answer.get("fell_back", 0) if name == "new" else 0
    total = rounds * count
    row = {"file": path, "players": n, "options": dict(options or {}), "games": total,
           "base_gps": total / sum(cpu["base"]), "new_gps": total / sum(cpu["new"]),
           "round_ratios": [b / a for b, a in zip(cpu["base"], cpu["new"])]}
    row["speedup"] = row["new_gps"] / row["base_gps"]
    label = "engine"
    if start:
        row.update(start_ms=start["cpu"] * 1e3, run_games=run_games,
                   new_gps_run=1 / (1 / row["new_gps"] + start["cpu"] / run_games))
        row["speedup_run"] = row["new_gps_run"] / row["base_gps"]
        why = start["why"] if len(start["why"]) <= 90 else start["why"][:87] + "..."
        label = "generated" if form == "transpiled" else "engine" + (f" ({why})" if why else "")
        if fell_back:
            label += f" ({fell_back} of {total} games replayed by the engine)"
    row["form"] = label
    lo, hi = min(row["round_ratios"]), max(row["round_ratios"])
    print(f"games  {path:40} {n}p{''.join(f' ({k})' for k in opts.get('options', {}))}  {row['base_gps']:8.1f} -> {row['new_gps']:8.1f} games/s  x{row['speedup']:.2f}"
          f" (rounds {lo:.2f}-{hi:.2f})" + (f", start {row['start_ms']:.0f} ms: x{row['speedup_run']:.2f} over "
                                            f"{run_games} games" if start else "") + f"  [{label}]",
          file=sys.stderr, flush=True)
    return row


def compare(base: Worker, new: Worker, rounds: int, games: int, what: set,
            files: list[str] | None = None, transpiled: bool = False, run_games: int = 1000,
            min_task: float = 0.2, run_seconds: float = 2.0, mcts_players: list[int] | None = None) -> dict:
    out: dict = {"games": [], "copy": [], "mcts": []}
    configs = entry_configs(files)
    if "games" in what:
        for path, n, options in configs:
            out["games"].append(games_row(base, new, path, n, rounds, games, transpiled, run_games, min_task,
                                            run_seconds, options))
    if "copy" in what:
        for path, n, options in configs:
            if path.endswith("capitals.yaml") or path.endswith("cowboys.yaml"):
                continue
            res = {"base": [0.0, 0.0], "new": [0.0, 0.0]}
            for k in range(rounds):
                for name, w in _in_turn(k, base, new):
                    r = w.ask(kind="copy", file=path, players=n, reps=100, options=options)
                    res[name][0] += r["clone"]
                    res[name][1] += r["save"]
            row = {"file": path, "players": n,
                   "clone_ratio": res["new"][0] / res["base"][0], "save_ratio": res["new"][1] / res["base"][1],
                   "new_clone_us": res["new"][0] / rounds * 1e6, "new_save_us": res["new"][1] / rounds * 1e6}
            out["copy"].append(row)
            print(f"copy   {row['file']:40} {n}p  clone x{row['clone_ratio']:.2f} save+restore "
                  f"x{row['save_ratio']:.2f} (new ÷ old time)", file=sys.stderr, flush=True)
    if "mcts" in what:
        for gid, options in MCTS_CONFIGS:
            if files and not any(text in gid for text in files):
                continue
            for n in mcts_players or [4 if gid != "between_two_cities" else 3]:
                allowing = _mcts_options(gid, options, n)
                if allowing is None:
                    print(f"mcts   {gid}: {n} players not allowed, skipped", file=sys.stderr, flush=True)
                    continue
                out["mcts"].append(_mcts_row(base, new, rounds, gid, allowing, transpiled, n))
    return out


SIMULATED = [("rules/chicago_poker/game.yaml", 4), ("rules/dice_town/game.yaml", 4)]


def simulate_cli(base_root: Path, rounds: int, sizes: list[int], files: list[str] | None = None) -> list[dict]:
    """`rulebook simulate FILE --players n --games G --json` end to end (a new process: imports,
    loading, this checkout's choice of form and checked start, the games, the summary) for each G
    of `sizes`, in each checkout, alternating, CPU time (user + system) of the child: today ÷ base."""
    rows = []
    for (path, n), games in ((c, g) for c in SIMULATED for g in sizes):
        if files and not any(text in path for text in files):
            continue
        cpu: dict = {"base": [], "new": []}
        form = ""
        for r in range(rounds):
            for name, root in ((("base", base_root), ("new", ROOT)) if r % 2 == 0 else (("new", ROOT), ("base", base_root))):
                before = os.times()
                done = subprocess.run([sys.executable, "-m", "interpreter", "simulate", path, "--games", str(games),
                                       "--players", str(n), "--json"], cwd=str(root), check=True,
                                      env=dict(os.environ, PYTHONPATH=str(root)), capture_output=True, text=True)
                after = os.times()
                cpu[name].append(after.children_user - before.children_user
                                 + after.children_system - before.children_system)
                if name == "new":
                    form = ", ".join(sorted(set((json.loads(done.stdout).get("execution") or {"": "engine"}).values())))
        row = {"file": path, "players": n, "games": games, "base_gps": games * rounds / sum(cpu["base"]),
               "new_gps": games * rounds / sum(cpu["new"]), "form": form.replace("transpiled", "generated"),
               "round_ratios": [b / a for b, a in zip(cpu["base"], cpu["new"])]}
        row["speedup"] = row["new_gps"] / row["base_gps"]
        print(f"simulate {path:38} {n}p  {row['base_gps']:7.1f} -> {row['new_gps']:7.1f} games/s x{row['speedup']:.2f} "
              f"(rounds {min(row['round_ratios']):.2f}-{max(row['round_ratios']):.2f}) [{row['form']}]",
              file=sys.stderr, flush=True)
        rows.append(row)
    return rows


def _mcts_options(gid: str, options: dict, n: int) -> dict | None:
    """The options an MCTS row plays at n players: its own, plus the file's two-player (or other
    boolean) option where n needs one (Dogs' Day at 2 players); None if no option allows n."""
    from interpreter.game import Game
    game = Game.load(ROOT / "rules" / gid / "game.yaml")
    if not game.check_setup(n, game.resolve_options(options)):
        return dict(options)
    extra = _options_allowing(game, n)
    return {**options, **extra} if extra else None


def _mcts_row(base: Worker, new: Worker, rounds: int, gid: str, options: dict, transpiled: bool, n: int) -> dict:
    """Flat MCTS iterations/s, after ÷ before: the new checkout's engine (MctsAgent with
    transpiled=False) and, with `transpiled`, its iterations on the generated program too (the
    three alternate: before, engine, generated)."""
    path = str(Path("rules") / gid / "game.yaml")
    forms = {"base": (base, {}), "new": (new, {"transpiled": False})}
    if transpiled:
        forms["generated"] = (new, {"transpiled": True})
    cpu = {name: [0.0, 0, 0] for name in forms}
    for k in range(rounds):
        order = list(forms) if k % 2 == 0 else list(forms)[::-1]
        for name in order:
            w, extra = forms[name]
            r = w.ask(kind="mcts", file=path, players=n, iterations=8, options=options, **extra)
            cpu[name][0] += r["cpu"]
            cpu[name][1] += r["iterations"]
            cpu[name][2] += r.get("on_stepper", 0)
    rate = {name: c[1] / c[0] for name, c in cpu.items()}
    label = gid + "".join(f" ({k})" for k, v in options.items() if v)
    row = {"game": label, "players": n, "speedup": rate["new"] / rate["base"]}
    if transpiled:
        row.update(generated_speedup=rate["generated"] / rate["base"], generated_vs_engine=rate["generated"] / rate["new"],
                   on_stepper=cpu["generated"][2] / max(1, cpu["generated"][1]))
    print(f"mcts   {label:40} {n}p  x{row['speedup']:.2f}"
          + (f"  generated x{row['generated_speedup']:.2f} (÷ engine x{row['generated_vs_engine']:.2f}, "
             f"{row['on_stepper']:.0%} on the stepper)" if transpiled else ""), file=sys.stderr, flush=True)
    return row


def cold_validate(base_root: Path | None, runs: int) -> dict:
    """CPU (user+sys) and wall of a fresh `python -m interpreter validate` (minimum of runs), each
    checkout validating its own rule file (an older engine may not read today's)."""
    out = {}
    roots = [("new", ROOT)] + ([("base", base_root)] if base_root else [])
    samples: dict = {name: [] for name, _ in roots}
    for _ in range(runs):
        for name, root in roots:
            before = os.times()
            t = time.perf_counter()
            target = str(root / "rules" / "dogs_day" / "game.yaml")
            subprocess.run([sys.executable, "-m", "interpreter", "validate", target], cwd=str(root),
                           env=dict(os.environ, PYTHONPATH=str(root)), check=True,
                           stdout=subprocess.DEVNULL)
            wall = time.perf_counter() - t
            after = os.times()
            cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
            samples[name].append((cpu, wall))
    for name, values in samples.items():
        out[name] = {"cpu_s": min(c for c, _ in values), "wall_s": min(w for _, w in values)}
    return out


def _range(ratios: list) -> str:
    return f"rounds {min(ratios):.2f}–{max(ratios):.2f}"


def _games_table(rows: list[dict]) -> list[str]:
    """The before/after games/s table; with the start's columns when the rows have them."""
    run = "start_ms" in rows[0]
    head = "| rule file | players | before (games/s) | after (games/s) | after ÷ before | per round |"
    rule = "|---|---:|---:|---:|---:|---|"
    if run:
        head += " start (ms CPU) | ÷ before, start charged over a run (games) |"
        rule += "---:|---:|"
    lines = [head + " after played by |", rule + "---|"]
    for r in rows:
        ratios = r["round_ratios"]
        players = f"{r['players']}" + "".join(f" ({k})" for k in r.get("options") or {})
        line = (f"| {r['file']} | {players} | {r['base_gps']:.1f} | {r['new_gps']:.1f} | "
                f"{r['speedup']:.2f}× | {min(ratios):.2f}–{max(ratios):.2f} |")
        if run:
            line += f" {r['start_ms']:.0f} | {r['speedup_run']:.2f}× ({r['run_games']}) |"
        lines.append(line + f" {r['form']} |")
    return lines


def markdown(results: dict) -> str:
    lines = []
    hw = results.get("handwritten")
    if hw:
        lines += ["| measure | engine | hand-written | ratio |", "|---|---:|---:|---:|",
                  f"| CPU µs per decision (Chicago Poker, no special cards, 4p) | {hw['engine_us']:.1f} "
                  f"| {hw['hand_us']:.1f} | {hw['ratio']:.2f}× ({_range(hw['ratio_rounds'])}) |",
                  f"| decisions per game | {hw['engine_decisions_per_game']:.0f} "
                  f"| {hw['hand_decisions_per_game']:.0f} | |"]
        if "transpiled_us" in hw:
            lines.append(f"| CPU µs per decision, generated program (transpiled) | {hw['transpiled_us']:.1f} "
                         f"| {hw['hand_us']:.1f} | {hw['transpiled_ratio']:.2f}× ({_range(hw['transpiled_ratio_rounds'])}) |")
        lines.append("")
    cmp_ = results.get("compare") or {}
    if cmp_.get("games"):
        lines += _games_table(cmp_["games"]) + [""]
    if cmp_.get("copy"):
        lines += ["| rule file | players | clone time after ÷ before | save+restore time after ÷ before |",
                  "|---|---:|---:|---:|"]
        lines += [f"| {r['file']} | {r['players']} | {r['clone_ratio']:.2f} | {r['save_ratio']:.2f} |"
                  for r in cmp_["copy"]]
        lines.append("")
    if cmp_.get("mcts") and "generated_speedup" in cmp_["mcts"][0]:
        lines += ["| game | players | MCTS iterations/s, engine after ÷ before | generated ÷ before | generated ÷ engine "
                  "| iterations on the generated program |", "|---|---:|---:|---:|---:|---:|"]
        lines += [f"| {r['game']} | {r['players']} | {r['speedup']:.2f}× | {r['generated_speedup']:.2f}× "
                  f"| {r['generated_vs_engine']:.2f}× | {r['on_stepper']:.0%} |" for r in cmp_["mcts"]]
        lines.append("")
    elif cmp_.get("mcts"):
        lines += ["| game | players | MCTS iterations/s after ÷ before |", "|---|---:|---:|"]
        lines += [f"| {r['game']} | {r['players']} | {r['speedup']:.2f}× |" for r in cmp_["mcts"]]
        lines.append("")
    if results.get("simulate"):
        lines += ["| `rulebook simulate --json`, end to end | players | games per run | before (games/s) "
                  "| after (games/s) | after ÷ before | per round | after played by |",
                  "|---|---:|---:|---:|---:|---:|---|---|"]
        lines += [f"| {r['file']} | {r['players']} | {r['games']} | {r['base_gps']:.1f} | {r['new_gps']:.1f} "
                  f"| {r['speedup']:.2f}× | {min(r['round_ratios']):.2f}–{max(r['round_ratios']):.2f} | {r['form']} |"
                  for r in results["simulate"]]
        lines.append("")
    cv = results.get("validate")
    if cv:
        lines += ["| cold `rulebook validate rules/dogs_day/game.yaml` | CPU (s) | wall (s) |", "|---|---:|---:|"]
        lines += [f"| {name} | {v['cpu_s']:.2f} | {v['wall_s']:.2f} |" for name, v in cv.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--base", help="checkout of the engine to compare against")
    ap.add_argument("--rounds", type=int, default=3, help="alternations per measurement")
    ap.add_argument("--games", type=int, default=3, help="games per task")
    ap.add_argument("--only", action="append", choices=["handwritten", "games", "copy", "mcts", "validate", "simulate"])
    ap.add_argument("--file", action="append", dest="files", metavar="TEXT",
                    help="games and copy: only the entry files whose path contains TEXT (repeatable), "
                         "e.g. --file between_two_cities --file dogs_day")
    ap.add_argument("--files", dest="files_csv", metavar="TEXT,TEXT", help="same as --file, comma-separated")
    ap.add_argument("--transpiled", action="store_true",
                    help="games: this checkout plays in the form `rulebook simulate` chooses (the generated "
                         "program where it covers the configuration and its checked start passes, else the "
                         "engine), that choice's CPU charged over --run-games games; handwritten: the "
                         "generated program's time per decision too; mcts: this checkout's MctsAgent is measured "
                         "both with its iterations on the engine and on the resumable generated program "
                         "(agents/transpiled.py)")
    ap.add_argument("--run-games", type=int, default=1000,
                    help="--transpiled: the simulate run over which the start (generating, checked start) is "
                         "charged (default 1000)")
    ap.add_argument("--run-seconds", type=float, default=2.0,
                    help="--transpiled: a run is at least as many games as the old engine plays in this much CPU")
    ap.add_argument("--simulate-games", default="300", metavar="G,G",
                    help="simulate: games per `rulebook simulate` run, one row each (Chicago Poker and Dice Town, "
                         "4 players; default 300)")
    ap.add_argument("--min-task", type=float, default=0.2,
                    help="games: the old engine's CPU seconds per task (more games per task for short games)")
    ap.add_argument("--mcts-players", type=int, nargs="+", metavar="N",
                    help="mcts: these player counts (default 4, Between Two Cities 3)")
    ap.add_argument("--same-files", action="store_true",
                    help="games, copy, mcts: this checkout plays the --base checkout's own version of each rule "
                         "file too (the same rule files on both sides: the ratio is the engines' alone, without "
                         "what the rule files gained since)")
    ap.add_argument("--json", dest="json_out")
    args = ap.parse_args(argv)
    if args.files_csv:
        args.files = (args.files or []) + [t for t in args.files_csv.split(",") if t]
    if args.worker:
        _worker()
        return 0
    what = set(args.only or ["handwritten", "games", "copy", "mcts", "validate"])
    results: dict = {}
    if "handwritten" in what:
        results["handwritten"] = handwritten_ratio(args.rounds * 2, max(args.games, 5), args.transpiled)
        print(f"handwritten: engine {results['handwritten']['ratio']:.2f}× hand-written per decision"
              + (f", generated program {results['handwritten']['transpiled_ratio']:.2f}×" if args.transpiled else ""),
              file=sys.stderr, flush=True)
    if args.base and what & {"games", "copy", "mcts"}:
        base_root = Path(args.base).resolve()
        base, new = Worker(base_root), Worker(ROOT, base_root if args.same_files else None)
        try:
            results["compare"] = compare(base, new, args.rounds, args.games, what, args.files, args.transpiled,
                                         args.run_games, args.min_task, args.run_seconds, args.mcts_players)
        finally:
            base.close()
            new.close()
    if args.base and "simulate" in what:
        results["simulate"] = simulate_cli(Path(args.base).resolve(), args.rounds,
                                          [int(g) for g in args.simulate_games.split(",")], args.files)
    if "validate" in what:
        results["validate"] = cold_validate(Path(args.base).resolve() if args.base else None, 5)
    print(markdown(results))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
