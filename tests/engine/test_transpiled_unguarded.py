"""The stepper's loops written without their tests on pc once resumed (interpreter/transpile/
unguarded.py): the loops are rewritten as said, a loop with an `else` or an unknown use of pc is
left alone, and the resumable program plays the same games either way — stepped through `apply`
from a copy made at every decision (each copy walks down to its decision in a new generator) and
rolled out from there — while a wrong answer to one of the tests is caught by the same check."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from interpreter.transpile import stepper as stepper_module
from interpreter.transpile import unguarded
from interpreter.transpile.stepper import load_stepper

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = [("dogs_day", 4, {}, 2), ("dice_town", 3, {}, 1), ("chicago_poker", 4, {}, 1), ("goofspiel", 2, {}, 3)]


def rules(name: str) -> str:
    return str(ROOT / "rules" / name / "game.yaml")


LOOP = ["    while (pc == 1) if pc else k < len(seq):",
        "        if not pc:",
        "            x = seq[k]",
        "            k += 1",
        "            ans = yield",
        "        elif pc == 1:",
        "            x, k = frame",
        "            pc = 0",
        "        if (pc == 1) if pc else (x > 0):",
        "            total += x",
        "    done = True"]


def test_a_loop_testing_pc_gets_a_copy_with_the_tests_answered():
    out = unguarded.unguard(LOOP)
    assert out[:9] == LOOP[:9] and out[-1] == LOOP[-1]
    copy = out[out.index("        if pc:") + 2:-2]
    assert out[out.index("        if pc:") + 1] == "            continue"
    assert copy[0] == "        while k < len(seq):"
    assert "            if True:" in copy and "            if (x > 0):" in copy
    assert out[-2] == "        break"
    assert not any(re.search(r"\bpc\b", line) for line in copy if "pc == 1" not in line and "pc = 0" not in line)


def test_a_loop_with_an_else_or_an_unknown_use_of_pc_is_left_alone():
    with_else = LOOP[:-1] + ["    else:", "        done = False"]
    assert unguarded.unguard(with_else) == with_else
    unknown = LOOP[:2] + ["            x = seq[pc]"] + LOOP[3:]
    assert unguarded.unguard(unknown) == unknown


def test_the_first_pass_writes_its_own_loops_so_down_to_the_depth():
    outer = ["    while pc or k < 3:", *["    " + line for line in LOOP[:-1]], "        k += 1"]
    deep, shallow = unguarded.unguard(outer, 2), unguarded.unguard(outer, 1)
    assert sum(line.strip() == "break" for line in deep) == 2 and sum(line.strip() == "break" for line in shallow) == 1


def stepped_and_rolled_out(m, players: int, seed: int) -> list:
    """A game through `apply`, stepped from a fresh copy at every decision (a new generator
    walking down to it), and at every third decision a copy rolled out with its own draws: every
    decision's seat and options, and every rollout's result (or the exception it raised)."""
    draw = random.Random(seed).random
    st, seen = m.new(seed), []
    while not m.over(st):
        seen.append((m.seat(st), list(m.options(st))))
        if len(seen) % 3 == 1:
            seen.append(rolled_out(m, m.clone(st), players, random.Random(seed * 1000 + len(seen)).random))
        st = m.clone(st)
        m.apply(st, int(draw() * len(m.options(st))))
    seen.append(m.result(st))
    return seen


def rolled_out(m, st: list, players: int, draw) -> tuple:
    try:
        m.rollout(st, int(draw() * len(m.options(st))), [lambda o: int(draw() * len(o))] * players)
    except Exception as e:  # noqa: BLE001 - a wrong program may fail: a difference too
        return (type(e).__name__,)
    returns, history, winners, rounds, reason = m.result(st)
    return list(returns), [list(h) for h in history], list(winners), rounds, reason


def without_copies(monkeypatch, name: str, players: int, options: dict):
    monkeypatch.setattr(stepper_module, "unguard", lambda lines: lines)
    return load_stepper(rules(name), players, options)


@pytest.mark.parametrize("name,players,options,seeds", CONFIGS)
def test_the_stepper_plays_the_same_games_with_and_without_the_copies(monkeypatch, name, players, options, seeds):
    m = load_stepper(rules(name), players, options)
    assert m.source.count("if pc:\n") > 1  # some loops were copied
    plain = without_copies(monkeypatch, name, players, options)
    for seed in range(seeds):
        assert stepped_and_rolled_out(m, players, seed) == stepped_and_rolled_out(plain, players, seed)


def test_a_wrong_answer_is_caught(monkeypatch):
    """`(ids) if pc else cond` answered as `not (cond)` in the copies: other games."""
    plain = without_copies(monkeypatch, "dogs_day", 4, {})
    wrong = [(re.compile(r"^(\s*)(while|if|elif) \((?:pc == \d+|\d+ <= pc <= \d+)\) if pc else (.*):$"),
              r"\1\2 not (\3):")] + unguarded._ANSWERED[1:]
    monkeypatch.setattr(unguarded, "_ANSWERED", wrong)
    monkeypatch.setattr(stepper_module, "unguard", unguarded.unguard)
    m = load_stepper(rules("dogs_day"), 4, {})
    try:
        games = stepped_and_rolled_out(m, 4, 0)
    except Exception as e:  # noqa: BLE001 - the wrong program fails outside a rollout
        games = type(e).__name__
    assert games != stepped_and_rolled_out(plain, 4, 0)
