"""A short run of the fuzzer (tools/fuzz.py); a long one runs on demand, or with --slow here."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _fuzz_module():
    sys.path.insert(0, str(ROOT / "tools"))
    spec = importlib.util.spec_from_file_location("rulebook_fuzz", ROOT / "tools" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["rulebook_fuzz"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("cases", [pytest.param(2, id="short"), pytest.param(40, id="long", marks=pytest.mark.slow)])
def test_fuzzed_inputs_end_in_success_or_a_located_error(cases):
    report = _fuzz_module().fuzz(cases, seed=cases, timeout=120, out=None, progress=False)
    assert sum(report["verdicts"].values()) == cases
    assert not report["failures"], report["failures"]


def test_mutations_are_deterministic():
    import random
    fuzz = _fuzz_module()
    text = "let x = count(hand[p], c => c.value > 2)\nif x > 1:\n  points[p] += 1\n"
    a = [fuzz.mutate_dsl(text, random.Random(s)) for s in range(20)]
    b = [fuzz.mutate_dsl(text, random.Random(s)) for s in range(20)]
    assert a == b and len(set(a)) > 10  # the same seed gives the same cases; seeds differ
