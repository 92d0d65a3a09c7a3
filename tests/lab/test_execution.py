"""`rulebook simulate` with the program generated from the rule file (lab/execution.py,
transpile/fastrun.py): the same records as the engine, the checked start, the fallback."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from interpreter.errors import InputError
from interpreter.lab import execution, games
from interpreter.lab.backends import InlineBackend
from interpreter.lab.execution import check_game, choose
from interpreter.lab.plan import Arm, Plan
from interpreter.transpile import fastrun

from .helpers import ROOT, run, run_json, without_timing

KUHN = str(ROOT / "rules" / "kuhn_poker" / "game.yaml")
TTT = str(ROOT / "rules" / "tic_tac_toe" / "game.yaml")
POKER = str(ROOT / "rules" / "chicago_poker" / "game.yaml")
UNCOVERED = str(ROOT / "tests" / "lab" / "fixtures" / "uncovered.yaml")  # refused by the generator on purpose
POKER_OPTIONS = (("short_game", False), ("no_special_cards", True))


def _plan(file: str, players: int = 2, agents=("random", "random"), games_: int = 30, options=(),
          **kw) -> Plan:
    return Plan((Arm("base", file, (), tuple(options)),), players, tuple(agents), 7, games_, **kw)


def _records(plan: Plan, execution: str) -> list[dict]:
    plan = replace(plan, arms=tuple(replace(a, execution=execution) for a in plan.arms))
    return [r for records in InlineBackend().results(plan, range(plan.games)) for r in records]


@pytest.mark.parametrize("plan", [
    _plan(KUHN, games_=200),
    _plan(KUHN, agents=("first", "random"), rotate=True),
    _plan(TTT, games_=100),
    _plan(TTT, agents=("last", "random")),
    _plan(POKER, 4, ("random",) * 4, 8, POKER_OPTIONS),
], ids=["kuhn", "kuhn-first-rotated", "tic-tac-toe", "tic-tac-toe-last", "chicago-poker"])
def test_generated_program_writes_the_engines_records(plan):
    engine = _records(plan, "engine")
    assert _records(plan, "transpiled") == engine
    assert all("error" not in r for r in engine) and len({json.dumps(r["scores"]) for r in engine}) > 1


@pytest.fixture(autouse=True)
def _no_short_runs(monkeypatch):
    """The tests' runs are short: auto would leave them to the engine (see the test below)."""
    monkeypatch.setattr(execution, "SHORT_RUN", 0.0)


def _entry_files() -> list[str]:
    from interpreter.rulefiles import game_entry_files
    return [str(path) for path in game_entry_files(ROOT / "rules")]


@pytest.mark.parametrize("file", _entry_files(), ids=lambda f: f.split("rules/")[-1])
def test_every_covered_entry_file_writes_the_engines_records(file):
    """Each entry file at its default players and options, where the generator covers it (the
    list grows with the generator): the same records both ways, the checked start passes."""
    from interpreter.game import Game
    from interpreter.transpile import Unsupported
    game = Game.load(file)
    plan = _plan(file, game.default_players, ("random",) * game.default_players, 6,
                 tuple(game.resolve_options({}).items()))
    try:
        fastrun.program(file, (), plan.players, dict(plan.arms[0].options))
    except Unsupported:
        pytest.skip("not generated (tests/engine/data/transpile_uncovered.txt)")
    assert _records(plan, "transpiled") == _records(plan, "engine")


def test_auto_chooses_the_generated_program_after_a_clean_checked_start():
    plan, decisions = choose(_plan(KUHN))
    assert [a.execution for a in plan.arms] == ["transpiled"] and not decisions[0].shown


def test_auto_leaves_a_short_run_to_the_engine(monkeypatch):
    monkeypatch.setattr(execution, "SHORT_RUN", 1e9)
    plan, decisions = choose(_plan(KUHN))
    assert plan.arms[0].execution == "engine" and "short run" in decisions[0].why
    assert choose(_plan(KUHN), "transpiled")[0].arms[0].execution == "transpiled"


@pytest.mark.parametrize("plan,why", [
    (_plan(KUHN, agents=("mcts:5", "random")), "mcts"),
    (_plan(KUHN, coverage=True), "coverage"),
    (_plan(UNCOVERED), "not supported"),
])
def test_what_needs_the_engine_runs_in_the_engine_and_transpiled_refuses_it(plan, why):
    chosen, decisions = choose(plan, "auto")
    assert chosen.arms[0].execution == "engine" and why in decisions[0].why
    with pytest.raises(InputError, match=why):
        choose(plan, "transpiled")
    assert choose(_plan(KUHN), "engine")[0].arms[0].execution == "engine"


def _wrong_program(monkeypatch, change):
    real = fastrun.program

    def program(*args):
        play = real(*args)

        def wrong(seed, agents):
            return change(seed, *play(seed, agents))
        return wrong
    monkeypatch.setattr(fastrun, "program", program)


def test_a_difference_in_the_checked_start_is_reported_with_its_seed_and_the_engine_plays(monkeypatch):
    def third_game_wrong(seed, returns, history, winners, rounds, reason):
        return ([-x for x in returns] if seed == 9 else returns), history, winners, rounds, reason
    _wrong_program(monkeypatch, third_game_wrong)
    plan, decisions = choose(_plan(KUHN), "auto", checked=3)  # seeds 7, 8, 9
    assert plan.arms[0].execution == "engine" and decisions[0].bug and "seed 9" in decisions[0].why
    assert choose(_plan(KUHN), "auto", checked=2)[0].arms[0].execution == "transpiled"
    with pytest.raises(InputError, match="seed 9"):
        choose(_plan(KUHN), "transpiled")


def test_a_game_the_program_fails_is_replayed_in_the_engine(monkeypatch):
    def fails_on_odd_seeds(seed, *result):
        if seed % 2:
            raise ZeroDivisionError("a corner the program does not match")
        return result
    plan = _plan(KUHN, games_=40)
    engine = _records(plan, "engine")
    _wrong_program(monkeypatch, fails_on_odd_seeds)
    monkeypatch.setattr(games, "_GIVEN_UP", {})
    assert _records(plan, "transpiled") == engine
    assert check_game(plan, plan.arms[0], 0) == ("", "internal error: ZeroDivisionError: a corner the program "
                                                 "does not match [E300]")


def test_an_arm_whose_program_fails_every_game_goes_to_the_engine(monkeypatch):
    tries = []

    def always(seed, *result):
        tries.append(seed)
        raise NotImplementedError("refused when reached")
    _wrong_program(monkeypatch, always)
    plan, decisions = choose(_plan(KUHN))
    assert plan.arms[0].execution == "engine" and "finished none of the 3" in decisions[0].why
    monkeypatch.setattr(games, "_GIVEN_UP", {})
    tries.clear()
    plan = _plan(KUHN)
    assert _records(plan, "transpiled") == _records(plan, "engine")
    assert len(tries) == games.GIVE_UP  # then this process stops trying the program


def test_a_game_longer_than_max_decisions_fails_as_in_the_engine(tmp_path):
    text = (ROOT / "rules" / "kuhn_poker" / "game.yaml").read_text(encoding="utf-8")
    assert "max_decisions" not in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace("\ngame:\n", "\nmax_decisions: 2\ngame:\n", 1)
                    .replace("../../schema", str(ROOT / "schema")), encoding="utf-8")
    plan = _plan(str(path), games_=20)
    engine = _records(plan, "engine")
    assert any("E312" in r.get("error", "") for r in engine) and any("error" not in r for r in engine)
    assert _records(plan, "transpiled") == engine


def test_generated_programs_are_made_once_per_process():
    fastrun.forget()
    first = fastrun.program(KUHN, (), 2, {})
    assert fastrun.program(KUHN, [], 2, {}) is first
    fastrun.forget()
    assert fastrun.program(KUHN, (), 2, {}) is not first


def test_the_command_line_switch(tmp_path):
    outs = {}
    for mode in ("engine", "transpiled", "auto"):
        out = tmp_path / f"{mode}.jsonl"
        code, data = run_json("simulate", TTT, "--games", "60", "--execution", mode, "--out", out)
        assert code == 0 and data["execution"] == {"base": "engine" if mode == "engine" else "transpiled"}
        outs[mode] = (out.read_text(encoding="utf-8"),
                      without_timing({k: v for k, v in data.items() if not k.startswith("execution")}))
    assert outs["engine"] == outs["transpiled"] == outs["auto"]
    refused = run("simulate", UNCOVERED, "--games", "2", "--execution", "transpiled")
    assert refused.exit_code != 0 and "--execution transpiled" in refused.stderr and "not supported" in refused.stderr
    code, told = run_json("simulate", UNCOVERED, "--games", "2")
    assert code == 0 and told["execution"] == {"base": "engine"} and "not supported" in told["execution_why"]["base"]


def test_the_time_limit_stops_a_generated_game_as_it_stops_the_engines():
    plan = _plan(POKER, 4, ("random",) * 4, 2, POKER_OPTIONS, time_limit=1e-9)
    for record in _records(plan, "transpiled"):
        assert "time limit" in record["error"] and "scores" not in record
