"""The hostile corpus (corpus.py): every probe ends in a located, coded error or succeeds if it
is legitimate — never an internal error, a hang or memory exhaustion.

By default each probe runs in-process through the CLI (fast), stopped by an alarm if it hangs.
With --slow each probe also runs in a subprocess capped at 2 GB of address space and a timeout,
the way tools/fuzz.py runs its cases.
"""
from __future__ import annotations

import contextlib
import importlib.util
import signal
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main

from .corpus import Probe, probes, write

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("rulebook_sandbox", ROOT / "tools" / "sandbox.py")
sandbox = importlib.util.module_from_spec(_spec)
sys.modules["rulebook_sandbox"] = sandbox  # dataclasses look their module up
_spec.loader.exec_module(sandbox)

PROBES = probes()
TIMEOUT = 60  # seconds: generous on a loaded machine; a hang is minutes or forever


@contextlib.contextmanager
def alarm(seconds: int):
    def stop(signum, frame):
        raise TimeoutError(f"probe still running after {seconds} s")
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _check(probe: Probe, verdict: str, codes: list[str], stdout: str, stderr: str) -> None:
    want = "ok" if probe.ok else "located"
    assert verdict == want, f"{probe.name}: {verdict}, expected {want}\n{stderr[-2000:]}"
    if probe.code is not None:
        assert probe.code in codes, f"{probe.name}: codes {codes}, expected {probe.code}\n{stderr[-2000:]}"
    if "third-passes" in probe.tags:
        assert "PASS" in stdout and "third passes" in stdout, stdout


def _params(slow_in_process: bool):
    out = []
    for p in PROBES:
        marks = [pytest.mark.slow] if (p.slow and slow_in_process) else []
        out.append(pytest.param(p, id=p.name[:60], marks=marks))
    return out


@pytest.mark.parametrize("probe", _params(True))
def test_probe(probe: Probe, tmp_path, monkeypatch):
    write(probe, tmp_path)
    monkeypatch.chdir(tmp_path)
    with alarm(TIMEOUT):
        result = CliRunner().invoke(main, probe.argv, catch_exceptions=False)
    verdict = sandbox.judge(result.exit_code, result.stderr)
    _check(probe, verdict, sandbox.Outcome(verdict, result.exit_code, result.stderr, "").codes(),
           result.stdout, result.stderr)


@pytest.mark.slow
@pytest.mark.parametrize("probe", _params(False))
def test_probe_sandboxed(probe: Probe, tmp_path):
    write(probe, tmp_path)
    out = sandbox.run(probe.argv, tmp_path, timeout=TIMEOUT)
    _check(probe, out.verdict, out.codes(), out.stdout, out.stderr)


def test_every_probe_of_the_audit_is_in_the_corpus():
    names = {p.name for p in PROBES}
    for needed in ["nested counts over a million", "string doubling", "a billion pieces",
                   "a 1 MB string literal", "one 5 MB string referenced 150,000 times",
                   "a 30 MB YAML file without aliases", "recursion while loading", "a 20,000-term sum",
                   "deep list nesting", "bad \\x escape", "bad \\N escape", "a 5,000-digit integer literal",
                   "lone surrogate in a log", "decisions is a number", "players is text", "seed is text",
                   "options is a list", "rules is a number", "NaN in a log", "deeply nested log",
                   "division by zero in scoring", "unwritable --log path", "python object tag on a mapping",
                   "set tag", "id with a trailing newline", "unknown log format",
                   "decisions hold booleans", "a failing scenario does not stop the others"]:
        assert needed in names, needed
