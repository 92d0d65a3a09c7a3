#!/usr/bin/env python3
"""Run the examples of a Markdown guide (docs/tutorial.md, docs/cookbook.md) and check them.

    python tools/doc_examples.py docs/tutorial.md            # exit 1 on any difference
    python tools/doc_examples.py docs/tutorial.md --write    # paste the real outputs into the guide

The guide is read top to bottom; its fenced blocks are handled in order, in a scratch folder:

- a ```yaml block whose leading comments hold `# file: PATH` is written to PATH and must be
  valid: a rule file or overlay loads without error; a scenario file's scenarios all pass;
- a ```yaml block with `# broken: PATH` is written to PATH and must NOT load (an error demo);
- any other ```yaml block is an excerpt: its pieces (split at lines that are just `# ...`) must
  appear, in order and verbatim, in the next `# file:` block — so what the reader sees is what
  is tested;
- a ```console block holds `$ command` lines, run by `sh` in the scratch folder with `rulebook`
  on the PATH; the lines after a command are what it prints (stdout and stderr). Differences
  are reported (the speed in "N games/s" is ignored); with --write they are replaced.

Used by tests/test_tutorial.py, so the guides cannot drift from the engine.
"""
from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FENCE = re.compile(r"^```(\w*)\s*$")
MARK = re.compile(r"^#\s*(file|broken):\s*(\S+)")
SPEED = re.compile(r"\d+(\.\d+)? games/s")


@dataclass
class Block:
    kind: str            # the fence's info string: yaml, console, ...
    start: int           # index of the first body line in the document's lines
    lines: list[str]

    @property
    def line(self) -> int:
        return self.start  # 1-based line of the opening fence


@dataclass
class Result:
    problems: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)      # path -> last `# file:` text
    valid_files: list[str] = field(default_factory=list)     # every `# file:` block, in order
    commands: int = 0


def blocks(lines: list[str]) -> list[Block]:
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m and m.group(1):
            j = i + 1
            while j < len(lines) and lines[j].rstrip() != "```":
                j += 1
            out.append(Block(m.group(1), i + 1, lines[i + 1:j]))
            i = j + 1
        else:
            i += 1
    return out


def marker(block: Block) -> tuple[str, str] | None:
    """(`file` or `broken`, path) from the block's leading comment lines."""
    for line in block.lines:
        if not line.startswith("#"):
            break
        m = MARK.match(line)
        if m:
            return m.group(1), m.group(2)
    return None


def excerpt_pieces(block: Block) -> list[str]:
    pieces, cur = [], []
    for line in block.lines:
        if line.strip() == "# ...":
            if cur:
                pieces.append("\n".join(cur))
            cur = []
        else:
            cur.append(line)
    if cur:
        pieces.append("\n".join(cur))
    return [p for p in pieces if p.strip()]


def normalise(text: str) -> list[str]:
    lines = [SPEED.sub("N games/s", line.rstrip()) for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _wrapper(folder: Path) -> Path:
    bin_dir = folder / ".bin"
    bin_dir.mkdir(exist_ok=True)
    script = bin_dir / "rulebook"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m interpreter "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return bin_dir


def _env(bin_dir: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULEBOOK")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(ROOT),
               COLUMNS="80", LINES="40", NO_COLOR="1", PYTHONUNBUFFERED="1",
               PYTHONIOENCODING="utf-8", PYTHONHASHSEED="0")
    env.pop("FORCE_COLOR", None)
    return env


def run_command(cmd: str, cwd: Path, env: dict) -> str:
    proc = subprocess.run(["sh", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE, check=False,
                          stderr=subprocess.STDOUT, text=True, timeout=600)
    return proc.stdout


def check_file(path: Path) -> list[str]:
    """Problems with a file the guide says is valid (empty list: fine)."""
    from interpreter import scenario
    from interpreter.errors import RulebookError, flatten
    from interpreter.game import Game
    from interpreter.rulefiles import is_scenario_file
    from interpreter.scenario import ScenarioFile

    try:
        if is_scenario_file(path):
            scenario._GAMES.clear()  # the guide may have rewritten the game since
            return [r.line() for r in ScenarioFile(path).run_all() if not r.passed]
        Game.load(path)
    except RulebookError as exc:
        return [str(e) for e in flatten([exc])]
    return []


def loads(path: Path) -> bool:
    from interpreter.errors import RulebookError
    from interpreter.game import Game

    try:
        Game.load(path)
    except RulebookError:
        return False
    return True


def run(doc: Path, write: bool = False, folder: Path | None = None) -> Result:
    """Walk the guide; return its problems (and, with write, paste the real outputs).

    The files are written in `folder` (kept), or in a temporary folder (removed)."""
    if folder is None:
        with tempfile.TemporaryDirectory(prefix="rulebook-doc-") as tmp:
            return run(doc, write, Path(tmp))
    folder.mkdir(parents=True, exist_ok=True)
    lines = doc.read_text(encoding="utf-8").splitlines()
    res = Result()
    pending: list[Block] = []          # excerpts waiting for the next `# file:` block
    edits: list[tuple[int, int, list[str]]] = []
    env = _env(_wrapper(folder))
    for b in blocks(lines):
        where = f"{doc.name}:{b.line}"
        if b.kind == "yaml":
            mark = marker(b)
            if mark is None:
                pending.append(b)
                continue
            kind, rel = mark
            text = "\n".join(b.lines) + "\n"
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            if kind == "broken":
                if loads(path):
                    res.problems.append(f"{where}: {rel} is marked broken but loads without error")
                continue
            for ex in pending:
                at = 0
                for piece in excerpt_pieces(ex):
                    found = text.find(piece, at)
                    if found < 0:
                        first = piece.splitlines()[0]
                        res.problems.append(f"{doc.name}:{ex.line}: excerpt not found (in this order) "
                                            f"in {rel} at line {b.line}: {first!r}")
                        break
                    at = found + len(piece)
            pending = []
            res.files[rel] = text
            res.valid_files.append(rel)
            for problem in check_file(path):
                res.problems.append(f"{where}: {rel} is not valid: {problem}")
        elif b.kind == "console":
            new_body: list[str] = []
            i = 0
            while i < len(b.lines):
                line = b.lines[i]
                if not line.startswith("$ "):
                    res.problems.append(f"{doc.name}:{b.line + i + 1}: output without a `$ command` before it")
                    i += 1
                    continue
                j = i + 1
                while j < len(b.lines) and not b.lines[j].startswith("$ "):
                    j += 1
                expected = normalise("\n".join(b.lines[i + 1:j]))
                output = run_command(line[2:], folder, env)
                res.commands += 1
                got = normalise(output)
                if got != expected:
                    res.problems.append(
                        f"{doc.name}:{b.line + i + 1}: `{line[2:]}` printed something else:\n"
                        + "\n".join(f"    | {x}" for x in got)
                        + "\n  the guide says:\n" + "\n".join(f"    | {x}" for x in expected))
                new_body.append(line)
                new_body.extend(x.rstrip() for x in output.rstrip("\n").splitlines())
                i = j
            edits.append((b.start, b.start + len(b.lines), new_body))
    for ex in pending:
        res.problems.append(f"{doc.name}:{ex.line}: excerpt with no `# file:` block after it")
    if write and edits:
        for start, end, body in reversed(edits):
            lines[start:end] = body
        doc.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return res


def main(argv: list[str]) -> int:
    write = "--write" in argv
    paths = [a for a in argv if not a.startswith("--")]
    if not paths:
        print(__doc__)
        return 2
    bad = 0
    for p in paths:
        res = run(Path(p), write=write)
        problems = res.problems if not write else [x for x in res.problems if "printed something else" not in x]
        for problem in problems:
            print(problem, file=sys.stderr)
        bad += len(problems)
        print(f"{p}: {len(res.valid_files)} files, {res.commands} commands, {len(problems)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
