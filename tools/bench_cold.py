"""Cold `rulebook validate`: CPU and wall time of whole fresh processes, this engine against
another checkout (e.g. the commit a branch started from), run alternately.

    git worktree add /tmp/base <commit>
    python tools/bench_cold.py --base /tmp/base [--runs 15] [--file rules/dogs_day/game.yaml] [--json out.json]

Each run is `python -m interpreter validate FILE` (with `--command play`: `play FILE --seed 1
--quiet`, one random game) in a new process, with the checkout first on PYTHONPATH and its own
copy of FILE. Bytecode is written (to a private PYTHONPYCACHEPREFIX, so a read-only checkout
works too) and one warm-up run per side fills it, so what is measured is what a user sees on the
second and later runs: a fresh process with compiled modules on disk. Four
settings, each measured for both engines (`base …` is the other checkout in the same setting):

* `cache`: the load cache (interpreter/loadcache.py) holds this file: any later validate of an
  unchanged file;
* `edited`: the file was changed since the last validate (a comment line added on top, so every
  position moves): the schema and information-flow checks run again, the DSL strings are
  taken from the cache and placed where they now are;
* `no cache`: RULEBOOK_CACHE=0, the full load (what the very first validate of a file costs,
  less the few ms of writing the cache);
* `empty`: an empty cache folder for every run (a new user's very first validate: the full
  load, and the cache written);
* `new machine`: `empty`, and an empty temporary folder too (TMPDIR), where Lark keeps the
  tables it builds from a grammar (gone after a reboot that clears /tmp): an engine that
  builds its parser from the grammar pays for that here.

CPU time is user+sys of the child (getrusage), wall time is measured around the process. Both
engines alternate run by run, so a busy machine slows both alike: compare the ratios. The load
average is printed before and after; wall times mean something only when it is low.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
_EDITS = itertools.count(1)  # each edited run changes the file anew


def _env(root: Path, pycache: str, cache_home: str, use_cache: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env.update(PYTHONPATH=str(root), PYTHONPYCACHEPREFIX=pycache, XDG_CACHE_HOME=cache_home,
               RULEBOOK_CACHE="1" if use_cache else "0")
    return env


COMMANDS = {"validate": ["validate"], "play": ["play", "--seed", "1", "--quiet"]}


def _run(root: Path, file: str, env: dict, edit: Path | None = None, command: str = "validate") -> tuple[float, float]:
    """(cpu seconds, wall seconds) of one `rulebook <command>` in a new process (of `edit`,
    changed first, instead of `file` when given)."""
    if edit is not None:
        edit.write_text(f"# edit {next(_EDITS)}\n" + (root / file).read_text(encoding="utf-8"), encoding="utf-8")
        file = str(edit)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "interpreter", *COMMANDS[command][:1], file, *COMMANDS[command][1:]],
                          cwd=root, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{command} failed in {root}: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def _fresh(env: dict, tmp: bool = False) -> dict:
    """`env` with a new, empty cache folder (inside the run's cache folder), and with `tmp` a
    new, empty temporary folder too."""
    env = dict(env, XDG_CACHE_HOME=tempfile.mkdtemp(prefix="empty-", dir=env["XDG_CACHE_HOME"]))
    if tmp:
        env["TMPDIR"] = tempfile.mkdtemp(prefix="tmp-", dir=env["XDG_CACHE_HOME"])
    return env


SETTINGS = ("cache", "edited", "no cache", "empty", "new machine")


def measure(base: Path, file: str, runs: int, command: str = "validate") -> dict:
    pycache = tempfile.mkdtemp(prefix="rulebook-bench-pyc-")
    cache_home = tempfile.mkdtemp(prefix="rulebook-bench-cache-")
    sides = {}
    for prefix, root in (("", HERE), ("base ", base)):
        cached = _env(root, pycache, tempfile.mkdtemp(prefix="home-", dir=cache_home), True)
        edited = Path(tempfile.mkdtemp(prefix="rulebook-bench-edit-")) / Path(file).name
        sides[prefix + "cache"] = (root, cached, None)
        sides[prefix + "edited"] = (root, cached, edited)
        sides[prefix + "no cache"] = (root, _env(root, pycache, cache_home, False), None)
        sides[prefix + "empty"] = (root, cached, None)
        sides[prefix + "new machine"] = (root, cached, None)
    for root, env, edit in sides.values():  # bytecode, Lark's grammar cache, the load cache
        _run(root, file, env, edit, command)
    load_before = os.getloadavg()
    times: dict[str, list] = {name: [] for name in sides}
    for _ in range(runs):
        for name, (root, env, edit) in sides.items():
            if name.endswith(("empty", "new machine")):
                env = _fresh(env, tmp=name.endswith("new machine"))
            times[name].append(_run(root, file, env, edit, command))
    load_after = os.getloadavg()
    shutil.rmtree(cache_home, ignore_errors=True)
    shutil.rmtree(pycache, ignore_errors=True)
    for _, _, edit in sides.values():
        if edit is not None:
            shutil.rmtree(edit.parent, ignore_errors=True)
    out: dict = {"command": command, "file": file, "runs": runs, "load_before": [round(x, 2) for x in load_before],
                 "load_after": [round(x, 2) for x in load_after], "sides": {}}
    for name, samples in times.items():
        cpu = [c for c, _ in samples]
        wall = [w for _, w in samples]
        out["sides"][name] = {"cpu_median": round(statistics.median(cpu), 4), "cpu_min": round(min(cpu), 4),
                              "wall_median": round(statistics.median(wall), 4), "wall_min": round(min(wall), 4)}
    for name in SETTINGS:
        side, base_side = out["sides"][name], out["sides"]["base " + name]
        side["cpu_vs_base"] = round(side["cpu_median"] / base_side["cpu_median"], 3)
        side["wall_vs_base"] = round(side["wall_median"] / base_side["wall_median"], 3)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="checkout of the engine to compare with")
    ap.add_argument("--file", default="rules/dogs_day/game.yaml", help="rule file, relative to each checkout")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--json", dest="json_out", type=Path)
    ap.add_argument("--command", choices=sorted(COMMANDS), default="validate",
                    help="what each process runs (play: one game, seed 1, random agents, quiet)")
    args = ap.parse_args()
    result = measure(args.base.resolve(), args.file, args.runs, args.command)
    print(f"cold `rulebook {args.command} {args.file}`, {args.runs} runs per side, alternating")
    print(f"load average before {result['load_before']}, after {result['load_after']}")
    print(f"{'side':<15} {'CPU median':>11} {'CPU min':>9} {'wall median':>12} {'wall min':>9} "
          f"{'CPU ÷ base':>11} {'wall ÷ base':>12}")
    for name, s in result["sides"].items():
        cpu_ratio = f"{s['cpu_vs_base']:.2f}" if "cpu_vs_base" in s else ""
        wall_ratio = f"{s['wall_vs_base']:.2f}" if "wall_vs_base" in s else ""
        print(f"{name:<15} {s['cpu_median']:>10.3f}s {s['cpu_min']:>8.3f}s {s['wall_median']:>11.3f}s "
              f"{s['wall_min']:>8.3f}s {cpu_ratio:>11} {wall_ratio:>12}")
    if args.json_out:
        args.json_out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
