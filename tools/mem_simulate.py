"""Does `rulebook simulate` run in flat memory? Resident memory (RSS) along a long run.

    python tools/mem_simulate.py [--file rules/kuhn_poker/game.yaml] [--games 1000000]
                                 [--cli 10000,100000,1000000] [--json out.json]

Two measurements:

* **along one run**: the lab's own path of `simulate` (Plan, the in-process backend, `run` with
  its tallies and progress, then `summarise` and the JSON text), with an observer reading this
  process's RSS from /proc/self/status at 1k, 10k, 20k, 50k, 100k, 200k, 500k, 1M … games;
* **the command itself** (`--cli`): `python -m interpreter simulate FILE --games N --json` in a new
  process for each N, its peak RSS (ru_maxrss from wait4) at the end; with the load cache off,
  so that every run imports the same modules.

Flat memory means the RSS after 10k games and after 1M games are the same to within the noise of
the allocator (tens of KB); a list of per-game results would add about 0.5 KB per game (500 MB
at a million).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHECKPOINTS = (1_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000, 5_000_000)


def rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status (Linux only)")


def along_one_run(file: str, games: int) -> list[dict]:
    from interpreter.game import Game
    from interpreter.lab.backends import InlineBackend
    from interpreter.lab.plan import Arm, Plan
    from interpreter.lab.runner import run
    from interpreter.lab.summary import summarise

    path = os.path.abspath(file)
    game = Game.load(path)
    players = game.default_players
    plan = Plan((Arm("base", path),), players, ("random",) * players, 0, games, cwd=os.getcwd())
    samples: list[dict] = []
    marks = [c for c in CHECKPOINTS if c <= games]
    seen = [0]
    started = time.perf_counter()

    def observe(records: list) -> None:
        seen[0] += 1
        if marks and seen[0] == marks[0]:
            marks.pop(0)
            samples.append({"games": seen[0], "rss_kb": rss_kb(),
                            "seconds": round(time.perf_counter() - started, 1)})
            print(f"  {seen[0]:>9,} games: RSS {samples[-1]['rss_kb']:>7,} KB", flush=True)

    result = run(plan, InlineBackend(), None, progress=False, observers=(observe,))
    text = json.dumps(summarise(result, [game], False, None))
    samples.append({"games": "after summary", "rss_kb": rss_kb(), "summary_bytes": len(text)})
    return samples


def command_peaks(file: str, counts: list[int]) -> list[dict]:
    out = []
    for n in counts:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["PYTHONPATH"] = str(ROOT)
        env["RULEBOOK_CACHE"] = "0"  # every run loads the same way (a warm load cache skips importing jsonschema)
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "interpreter", "simulate", file, "--games", str(n), "--json"],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        stdout = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        data = json.loads(stdout)
        out.append({"games": n, "peak_rss_kb": usage.ru_maxrss, "exit": proc.returncode,
                    "games_reported": data["games"], "seconds": round(time.perf_counter() - started, 1)})
        print(f"  simulate --games {n:>9,}: peak RSS {usage.ru_maxrss:>7,} KB "
              f"(exit {proc.returncode}, {data['games']} games)", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", default="rules/kuhn_poker/game.yaml")
    ap.add_argument("--games", type=int, default=1_000_000, help="games of the run sampled along the way (0: skip)")
    ap.add_argument("--cli", default="", help="comma-separated game counts for whole `simulate` commands")
    ap.add_argument("--json", dest="json_out", type=Path)
    args = ap.parse_args()
    result: dict = {"file": args.file, "load_average": list(os.getloadavg())}
    if args.games:
        print(f"RSS along one run of {args.games:,} games of {args.file} (the lab's simulate path, in process)")
        result["along_one_run"] = along_one_run(args.file, args.games)
    if args.cli:
        print(f"peak RSS of whole `rulebook simulate {args.file} --games N --json` commands")
        result["commands"] = command_peaks(args.file, [int(x) for x in args.cli.split(",")])
    if args.json_out:
        args.json_out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
