"""Run one `rulebook` command in a subprocess with a memory cap and a timeout, and judge it.

Used by the hostile corpus (tests/hostile/) and the fuzzer (tools/fuzz.py). The verdict of a
run is one of: "ok" (exit 0), "located" (exit 1 or 2, every stderr line located and coded),
"unlocated" (exit 1 with a line lacking a position or a code), "internal" (exit 3 or a
traceback), "timeout", "memory" (killed by the address-space cap or MemoryError), "crash"
(any other exit).
"""
from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

MEMORY_CAP = 2 * 1024 ** 3  # bytes of address space for one run
ROOT = Path(__file__).resolve().parent.parent

# `file:line:col: message [E123]` or `file: message [E123]` (a whole-file problem); test runs
# also print `FAIL ` before a located line and a summary line.
LOCATED = re.compile(r"^(FAIL )?\S.*?(:\d+:\d+)?: .+ \[E\d{3}\]$")  # a path may hold ":"
SUMMARY = re.compile(r"^\d+ passed, \d+ failed$")


@dataclass
class Outcome:
    verdict: str
    code: int | None
    stderr: str
    stdout: str

    def codes(self) -> list[str]:
        return re.findall(r"\[(E\d{3})\]", self.stderr)


def _limit_memory() -> None:  # runs in the child before exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    os.nice(5)


def run(argv: list[str], cwd: str | Path, timeout: float = 30.0) -> Outcome:
    """`rulebook ARGV` in `cwd`, capped at MEMORY_CAP bytes and `timeout` seconds."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), RULEBOOK_DEBUG="1", PYTHONHASHSEED="0")
    try:
        proc = subprocess.run([sys.executable, "-m", "interpreter", *argv], cwd=cwd, env=env,
                              capture_output=True, timeout=timeout, preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired as exc:
        return Outcome("timeout", None, _text(exc.stderr), _text(exc.stdout))
    return Outcome(judge(proc.returncode, _text(proc.stderr)), proc.returncode, _text(proc.stderr),
                   _text(proc.stdout))


def _text(data: bytes | str | None) -> str:
    if data is None:
        return ""
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else data


def judge(code: int, stderr: str) -> str:
    if "MemoryError" in stderr or code in (-9, 137) or "Cannot allocate memory" in stderr:
        return "memory"
    if code == 3 or "Traceback" in stderr or "internal error" in stderr:
        return "internal"
    if code == 0:
        return "ok"
    if code in (1, 2):
        lines = [ln for ln in stderr.splitlines() if ln.strip()]
        if code == 2:  # usage errors come from click: "Error: …"
            return "located"
        if lines and all(LOCATED.match(ln) or SUMMARY.match(ln) for ln in lines):
            return "located"
        return "unlocated"
    return "crash"
