"""Mutation fuzzer for rule files, scenario files and saved logs.

Takes the project's own inputs (every rules/**/*.yaml rule file, expansion and variant, every
scenario file, and logs saved by playing games), mutates them — in the YAML structure (values
replaced by hostile ones, keys dropped, subtrees duplicated), in the DSL text (tokens deleted,
repeated, swapped, replaced by hostile snippets) and in raw bytes — and runs the matching
`rulebook` command on each case (validate + play for rule files, test for scenarios, replay for
logs) in a subprocess capped at 2 GB of address space and a timeout (tools/sandbox.py).

Every case must end in success or a located, coded error: no internal error (exit 3, traceback),
no hang past the timeout, no memory exhaustion. Failing cases are saved for reproduction.

    python tools/fuzz.py --cases 20                 # a short run (the test suite runs a few)
    python tools/fuzz.py --cases 2000 --seed 7 --out /tmp/fuzz   # a long run on demand
    python tools/fuzz.py --cases 500 --markdown     # counts as a table for docs/robustness.md

Same --seed, same cases.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sandbox  # noqa: E402  (tools/sandbox.py)

ROOT = sandbox.ROOT

HOSTILE_VALUES = [
    0, -1, 1, 2 ** 63, 10 ** 30, 1_000_000_000, True, False, None, "", "\n", "x\n", "a b",
    "é", "\u200b", "'", '"', "\\", "\\x", "\\N{NOPE}", "{", "}", "x" * 10_000,
    [], {}, [False, True], [[[[[[[[[[[]]]]]]]]]]], {"a": {"b": {"c": {}}}},
    "__import__('os').system('echo pwned')", "().__class__", "_items", "S", "L", "1 // 0",
    "count(range(1000000), a => count(range(1000000), b => a == b))",
    "[0] * 1000000000", "range(1000000000)", "none", "player", "option.nope",
    "let s = 'xx'\nrepeat 40:\n  s = s + s", "while true:\n  pass", "end_game",
]
DSL_SNIPPETS = [
    "(", ")", "[", "]", ":", "\n", "\n    ", "'", '"', "\\", "=>", "==", "=", "+", "*", "//", "%",
    " if ", " else ", " for ", " in ", " not ", " and ", "none", "true", "1e9", "99999999999999999999",
    "__class__", "__import__", "S.rng", "L['x']", "_k0", "count(", "range(1000000)", "x => x",
    "while true:\n  pass\n", "choose x from [] by player\n", "end_game\n", "break\n", "call f()\n",
    "9" * 30, "'" + "x" * 5000 + "'",
]
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+|\"[^\"\n]*\"|'[^'\n]*'|\S|\n[ ]*")


@dataclass
class Case:
    kind: str  # rule | scenario | log
    source: str  # the file it was mutated from
    mutation: str
    files: dict  # name -> text
    argv: list  # one or more rulebook commands, run in order while they succeed


# ---------------------------------------------------------------------- inputs
def rule_files() -> list[Path]:
    out = []
    for p in sorted((ROOT / "rules").rglob("*.yaml")) + sorted((ROOT / "tests" / "fixtures").glob("*.yaml")):
        text = p.read_text(encoding="utf-8")
        if re.search(r"^(game|extends):", text, re.M) and not re.search(r"^scenarios:", text, re.M):
            out.append(p)
    return out


def scenario_files() -> list[Path]:
    return [p for p in sorted((ROOT / "rules").rglob("tests/*.yaml"))
            if re.search(r"^scenarios:", p.read_text(encoding="utf-8"), re.M)]


def saved_logs(work: Path, rng: random.Random, count: int = 3) -> list[Path]:
    """Logs made by playing a few small games (the fuzzer mutates those)."""
    games = [p for p in rule_files() if p.name == "game.yaml"]
    out = []
    for i, game in enumerate(rng.sample(games, min(count, len(games)))):
        log = work / f"seed_log_{i}.json"
        outcome = sandbox.run(["play", str(game), "--quiet", "--seed", str(i), "--log", str(log)], work, 120)
        if outcome.verdict == "ok" and log.exists():
            out.append(log)
    return out


# ---------------------------------------------------------------------- mutations
def _absolute_paths(doc, base: Path):
    """Make `extends`/`game`/`variants` paths absolute so the mutated copy still finds its base."""
    if isinstance(doc, dict):
        for key in ("extends", "game"):
            if isinstance(doc.get(key), str) and doc[key].endswith(".yaml"):
                doc[key] = str((base / doc[key]).resolve())
        if isinstance(doc.get("variants"), list):
            doc["variants"] = [str((base / v).resolve()) if isinstance(v, str) else v for v in doc["variants"]]
    return doc


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _get(node, path):
    for p in path:
        node = node[p]
    return node


def _set(node, path, value):
    _get(node, path[:-1])[path[-1]] = value


def mutate_structure(doc, rng: random.Random) -> str:
    paths = [p for p in _paths(doc) if p]
    if not paths:
        return "empty"
    path = rng.choice(paths)
    what = rng.random()
    target = _get(doc, path)
    parent = _get(doc, path[:-1])
    if isinstance(target, str) and len(target) > 3 and what < 0.45:
        new = mutate_dsl(target, rng)
        _set(doc, path, new)
        return f"dsl at {'.'.join(map(str, path))}"
    if what < 0.7:
        value = rng.choice(HOSTILE_VALUES)
        _set(doc, path, value)
        return f"value {str(value)[:30]!r} at {'.'.join(map(str, path))}"
    if what < 0.85:
        if isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent.pop(path[-1])
        return f"removed {'.'.join(map(str, path))}"
    if isinstance(parent, list):
        parent.insert(path[-1], json.loads(json.dumps(target, default=str)))
        return f"duplicated {'.'.join(map(str, path))}"
    if isinstance(parent, dict):
        parent[f"{path[-1]}_copy"] = json.loads(json.dumps(target, default=str))
        return f"copied {'.'.join(map(str, path))}"
    return "none"


def mutate_dsl(text: str, rng: random.Random) -> str:
    tokens = TOKEN.findall(text) or [text]
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(tokens))
        r = rng.random()
        if r < 0.25:
            tokens.pop(i)
        elif r < 0.45:
            tokens.insert(i, tokens[rng.randrange(len(tokens))])
        elif r < 0.6:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        else:
            tokens.insert(i, rng.choice(DSL_SNIPPETS))
        if not tokens:
            tokens = [""]
    out = ""
    for tok in tokens:  # keep words apart
        if out and re.match(r"\w", tok) and re.search(r"\w$", out):
            out += " "
        out += tok
    return out


def mutate_bytes(text: str, rng: random.Random) -> str:
    r = rng.random()
    lines = text.splitlines(keepends=True)
    if r < 0.25 and lines:
        i = rng.randrange(len(lines))
        lines.pop(i)
        return "".join(lines)
    if r < 0.5 and lines:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[rng.randrange(len(lines))])
        return "".join(lines)
    if r < 0.7:
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(["\t", "&a ", "*a", "!!python/object:os.system ", "<<: ", "\x00",
                                      "- ", ": ", "\ud800".encode("utf-8", "surrogatepass").decode("latin-1"),
                                      "{", "[", "\\"]) + text[i:]
    return text[: rng.randrange(len(text) + 1)]  # truncated


def _dump(doc) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=10_000)


def rule_case(path: Path, rng: random.Random) -> Case:
    text = path.read_text(encoding="utf-8")
    if rng.random() < 0.8:
        doc = _absolute_paths(yaml.safe_load(text), path.parent)
        how = mutate_structure(doc, rng)
        new = _dump(doc)
    else:
        how = "bytes"
        new = mutate_bytes(text.replace("extends: ", f"extends: {path.parent}/"), rng)
    commands = [["validate", "case.yaml"], ["play", "case.yaml", "--quiet", "--seed", str(rng.randrange(100))]]
    return Case("rule", str(path.relative_to(ROOT)), how, {"case.yaml": new}, commands)


def scenario_case(path: Path, rng: random.Random) -> Case:
    doc = _absolute_paths(yaml.safe_load(path.read_text(encoding="utf-8")), path.parent)
    how = mutate_structure(doc, rng)
    return Case("scenario", str(path.relative_to(ROOT)), how, {"case.yaml": _dump(doc)},
                [["test", "case.yaml"]])


def log_case(path: Path, rng: random.Random) -> Case:
    data = json.loads(path.read_text(encoding="utf-8"))
    if rng.random() < 0.85:
        how = mutate_structure(data, rng)
        text = json.dumps(data, ensure_ascii=False)
    else:
        how = "bytes"
        text = mutate_bytes(path.read_text(encoding="utf-8"), rng)
    return Case("log", path.name, how, {"case.json": text}, [["replay", "case.json"]])


# ---------------------------------------------------------------------- running
def run_case(case: Case, work: Path, timeout: float) -> sandbox.Outcome:
    for name, text in case.files.items():
        (work / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    outcome = None
    for argv in case.argv:
        outcome = sandbox.run(argv, work, timeout)
        if outcome.verdict != "ok":
            break
    return outcome


def fuzz(cases: int, seed: int, timeout: float, out: Path | None, progress: bool = True) -> dict:
    rng = random.Random(seed)
    counts: Counter = Counter()
    by_kind: Counter = Counter()
    failures = []
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="rulebook-fuzz-") as tmp:
        tmp = Path(tmp)
        rules, scenarios = rule_files(), scenario_files()
        logs = saved_logs(tmp, rng, 1 if cases < 20 else 3)
        for i in range(cases):
            kind = rng.choices(["rule", "scenario", "log"], [0.6, 0.2, 0.2])[0]
            if kind == "log" and not logs:
                kind = "rule"
            if kind == "rule":
                case = rule_case(rng.choice(rules), rng)
            elif kind == "scenario":
                case = scenario_case(rng.choice(scenarios), rng)
            else:
                case = log_case(rng.choice(logs), rng)
            work = tmp / f"case{i}"
            work.mkdir()
            outcome = run_case(case, work, timeout)
            counts[outcome.verdict] += 1
            by_kind[(case.kind, outcome.verdict)] += 1
            if outcome.verdict not in ("ok", "located"):
                failures.append((case, outcome))
                if out is not None:
                    dest = out / f"case{i}-{outcome.verdict}"
                    shutil.copytree(work, dest, dirs_exist_ok=True)
                    (dest / "CASE.txt").write_text(
                        f"source: {case.source}\nmutation: {case.mutation}\ncommands: {case.argv}\n"
                        f"verdict: {outcome.verdict} (exit {outcome.code})\n\n{outcome.stderr[-4000:]}\n",
                        encoding="utf-8")
            shutil.rmtree(work, ignore_errors=True)
            if progress:
                print(f"[{i + 1}/{cases}] {case.kind:8} {outcome.verdict:9} {case.source}: {case.mutation[:60]}",
                      file=sys.stderr)
    return {"cases": cases, "seed": seed, "seconds": round(time.time() - started, 1),
            "verdicts": dict(counts), "by_kind": {f"{k}/{v}": n for (k, v), n in sorted(by_kind.items())},
            "failures": [{"source": c.source, "mutation": c.mutation, "verdict": o.verdict,
                          "stderr": o.stderr[-500:]} for c, o in failures]}


def markdown(report: dict) -> str:
    kinds = sorted({k.split("/")[0] for k in report["by_kind"]})
    verdicts = ["ok", "located", "unlocated", "internal", "timeout", "memory", "crash"]
    lines = ["| input | " + " | ".join(verdicts) + " |", "|---|" + "---|" * len(verdicts)]
    for kind in kinds:
        lines.append(f"| {kind} | " + " | ".join(str(report["by_kind"].get(f"{kind}/{v}", 0)) for v in verdicts) + " |")
    lines.append("| **all** | " + " | ".join(str(report["verdicts"].get(v, 0)) for v in verdicts) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=20, help="how many mutated inputs (default 20)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per command (default 120)")
    ap.add_argument("--out", type=Path, default=None, help="save failing cases in this folder")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--markdown", action="store_true", help="print the counts as a Markdown table")
    args = ap.parse_args(argv)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    report = fuzz(args.cases, args.seed, args.timeout, args.out)
    if args.json:
        print(json.dumps(report, indent=1))
    elif args.markdown:
        print(markdown(report))
    else:
        print(f"{report['cases']} cases in {report['seconds']} s (seed {report['seed']}): {report['verdicts']}")
        for f in report["failures"]:
            print(f"  {f['verdict']}: {f['source']}: {f['mutation']}\n    {f['stderr'].strip().splitlines()[-1:] }")
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
