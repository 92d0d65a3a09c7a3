"""The resumable generated program (interpreter/transpile/stepper.py): whole games through `apply`
are the engine's; a copy made at any decision and continued with other choices plays the engine's
game from there (against the engine's own copy at the same point), and leaves its original as it
was; a rollout (agents asked inline) is the engine's game too; what cannot stop is refused by name."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.game import Game
from interpreter.options import DONE, PASS
from interpreter.rng import Rng
from interpreter.threads import waiting
from interpreter.transpile import Unsupported
from interpreter.transpile.compare import Trace, agent_seed, engine_trace, first_difference
from interpreter.transpile.stepper import load_stepper, stepper_source

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = [("tic_tac_toe", 2, None), ("kuhn_poker", 2, None), ("chicago_poker", 4, {"no_special_cards": True}),
           ("chicago_poker", 4, None)]


def rules(name: str) -> str:
    return str(ROOT / "rules" / name / "game.yaml")


_LOADED: dict = {}


def loaded(name: str, players: int, options: dict | None):
    key = (name, players, repr(options))
    if key not in _LOADED:
        _LOADED[key] = (Game.load(rules(name)), load_stepper(rules(name), players, options))
    return _LOADED[key]


def stepper_trace(m, players: int, seed: int) -> Trace:
    """A whole game through new/apply with compare.py's random agents."""
    rngs = [random.Random(agent_seed(seed, p)) for p in range(players)]
    st, offered = m.new(seed), []
    while not m.over(st):
        p, options = m.seat(st), m.options(st)
        offered.append(list(options))
        m.apply(st, int(rngs[p].random() * len(options)))
    returns, history, winners, rounds, reason = m.result(st)
    return Trace(list(returns), [list(h) for h in history], offered, list(winners), rounds, reason)


def whole_games(name, players, options, seeds):
    game, m = loaded(name, players, options)
    for seed in seeds:
        engine, stepper = engine_trace(game, players, options, seed), stepper_trace(m, players, seed)
        assert first_difference(engine, stepper) is None, (seed, first_difference(engine, stepper))


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_whole_games_through_apply_are_the_engines(name, players, options):
    whole_games(name, players, options, range(20))


@pytest.mark.slow
@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_whole_games_through_apply_are_the_engines_200(name, players, options):
    whole_games(name, players, options, range(200))


@pytest.mark.slow
@pytest.mark.parametrize("options", [{"no_special_cards": True}, None])
@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_chicago_poker_at_other_player_counts(players, options):
    whole_games("chicago_poker", players, options, range(30))


# ------------------------------------------------------------------ copies
def snapshot(value):
    """A comparable picture of a state (the Rng by its number, the program's function left out)."""
    if isinstance(value, Rng):
        return ("rng", value.state)
    if isinstance(value, (list, tuple)):
        return [snapshot(v) for v in value]
    if callable(value):
        return "function"
    return value


def finish_both(m, st, S, rng: random.Random) -> tuple[list, list]:
    """Plays a stepper state and an engine state on with the same draws; what each offered."""
    ours, theirs = [], []
    while not m.over(st):
        options = m.options(st)
        p = S.current_players()[0]
        assert m.seat(st) == p
        ours.append(list(options))
        theirs.append(list(waiting(S)[p].pending.options))
        i = int(rng.random() * len(options))
        m.apply(st, i)
        S.apply(p, i)
    assert S.over
    return ours, theirs


def lockstep(m, game, players, options, seed, decisions, rng):
    st, S = m.new(seed), game.new_game(players, options, seed, logging=False)
    for _ in range(decisions):
        if m.over(st):
            break
        i = int(rng.random() * len(m.options(st)))
        m.apply(st, i)
        S.apply(S.current_players()[0], i)
    return st, S


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_a_copy_continues_as_the_engines_copy_and_leaves_its_original(name, players, options):
    game, m = loaded(name, players, options)
    pick = random.Random(5)
    differing = 0
    for seed in range(12):
        length = len(stepper_trace(m, players, seed).history)
        at = pick.randrange(0, max(1, length - 1))
        st, S = lockstep(m, game, players, options, seed, at, random.Random(seed))
        if m.over(st):
            continue
        before = snapshot(m.plain(st))
        copy, S_copy = m.clone(st), S.clone()
        S_copy.logging = False
        assert snapshot(m.plain(copy)) == before
        # the copy goes first, with its own choices: the original must not move
        offered_copy, engine_copy = finish_both(m, copy, S_copy, random.Random(1000 + seed))
        assert offered_copy == engine_copy
        assert m.history(copy) == [list(h) for h in S_copy.history]
        assert m.returns(copy) == S_copy.returns()
        assert snapshot(m.plain(st)) == before
        # then the original, with other choices: the engine's original game from that point
        offered, engine = finish_both(m, st, S, random.Random(2000 + seed))
        assert offered == engine
        assert m.history(st) == [list(h) for h in S.history]
        assert m.returns(st) == S.returns()
        differing += m.history(st) != m.history(copy)
    assert differing >= 5  # the two continuations really were different games


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_a_copy_of_a_copy_and_a_copy_moved_on(name, players, options):
    """Copies made from a copy that never moved (its state only in the list) and from one that
    moved (its state in its generator again) continue as the engine's."""
    game, m = loaded(name, players, options)
    for seed in range(6):
        st, S = lockstep(m, game, players, options, seed, 2, random.Random(seed))
        if m.over(st):
            continue
        first, S_first = m.clone(st), S.clone()
        second, S_second = m.clone(first), S_first.clone()
        i = int(random.Random(seed).random() * len(m.options(first)))
        m.apply(first, i)
        S_first.apply(S_first.current_players()[0], i)
        if not m.over(first):
            third, S_third = m.clone(first), S_first.clone()
            offered, engine = finish_both(m, third, S_third, random.Random(3))
            assert offered == engine and m.returns(third) == S_third.returns()
        for ours, theirs, draws in ((first, S_first, 1), (second, S_second, 2)):
            offered, engine = finish_both(m, ours, theirs, random.Random(draws))
            assert offered == engine and m.returns(ours) == theirs.returns()


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_a_rollout_plays_the_engines_game(name, players, options):
    """rollout(st, i, agents): the answer applied, then the agents asked inline to the end."""
    game, m = loaded(name, players, options)
    for seed in range(6):
        st, S = lockstep(m, game, players, options, seed, 3, random.Random(seed))
        if m.over(st):
            continue
        copy = m.clone(st)  # its locals written into the list: no generator running
        for ours in (st, copy):
            draw = random.Random(seed).random
            first = int(draw() * len(m.options(ours)))
            m.rollout(ours, first, [lambda opts: int(draw() * len(opts))] * players)
        assert m.history(copy) == m.history(st) and m.returns(copy) == m.returns(st)
        draw = random.Random(seed).random
        S.apply(S.current_players()[0], int(draw() * S.option_count(S.current_players()[0])))
        while not S.over:
            p = S.current_players()[0]
            S.apply(p, int(draw() * S.option_count(p)))
        assert m.history(st) == [list(h) for h in S.history]
        assert m.returns(st) == S.returns()


def test_an_answer_out_of_range_and_a_finished_game_raise():
    _, m = loaded("tic_tac_toe", 2, None)
    st = m.new(1)
    for bad in (-1, len(m.options(st))):
        with pytest.raises(IndexError):
            m.apply(st, bad)
    while not m.over(st):
        m.apply(st, 0)
    with pytest.raises(ValueError, match="over"):
        m.apply(st, 0)


# ------------------------------------------------------------------ constructs, small rule files
GAME = """
game:
  id: steps
  name: Steps
  version: 1
  players: {min: 2, max: 3}
  description: Decisions inside repeat, if/elif/else, a procedure, a while and a local list.
tables:
  small: [1, 2, 3]
counters:
  total: {per: [player], initial: 0}
variables:
  spent: {initial: 0}
functions:
  pick:
    params: [p]
    do: |
      let seen = []
      repeat 2:
        choose k from small by p
        if k == 1:
          total[p] += 1
        elif k == 2:
          choose j from [5, 6, 7] by p
          total[p] += j
          seen = concat(seen, [j])
        else:
          let t = total[p]
          let n = 0
          while n < 2:
            n += 1
            choose j from [t, t + 10, t + 20] by p
            total[p] = j
      choose z from [1, 2] by p
      total[p] += z
      spent += count(seen)
  again:
    params: [p]
    do: |
      let m = 0
      while m < 2:
        m += 1
        choose y from [0, 1] by p
        total[p] += y
flow:
  rounds: 3
  phases:
    - id: main
      turns: seat
      turn: |
        call pick(player)
        call again(player)
        choose w from [3, 4]
        total[player] += w
scoring:
  score: "total[player] + spent"
"""


def test_decisions_in_nested_loops_branches_and_procedures(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = Game.load(path)
    for players in (2, 3):
        m = load_stepper(path, players)
        source = stepper_source(path, players)
        assert "elif not pc or" in source  # the else branch holds decisions: entered by pc
        assert "while pc or" in source and "while (" in source  # a last loop, and one before a decision
        for seed in range(15):
            engine, stepper = engine_trace(game, players, None, seed), stepper_trace(m, players, seed)
            assert first_difference(engine, stepper) is None, (players, seed, first_difference(engine, stepper))
        # a copy at every decision of one game continues as the engine's copy
        length = len(stepper_trace(m, players, 0).history)
        for at in range(length):
            st, S = lockstep(m, game, players, None, 0, at, random.Random(9))
            copy, S_copy = m.clone(st), S.clone()
            offered, engine = finish_both(m, copy, S_copy, random.Random(at))
            assert offered == engine
            assert m.returns(copy) == S_copy.returns()


def test_a_local_naming_a_zone_follows_its_copy(tmp_path):
    """A live local that IS a zone (`let h = hand[p]`) must name the copy's zone after a clone."""
    text = """
game:
  id: hands
  name: Hands
  version: 1
  players: {min: 2, max: 2}
  description: A local names a zone across a decision.
components:
  card:
    kind: card
    start: deck
    items:
      - {id: a, rank: 1}
      - {id: b, rank: 2}
      - {id: c, rank: 3}
      - {id: d, rank: 4}
zones:
  deck: {ordered: true}
  hand: {per: [player]}
counters:
  got: {per: [player], initial: 0}
flow:
  rounds: 2
  phases:
    - id: main
      turns: seat
      turn: |
        let h = hand[player]
        choose c from deck
        move c to hand[player]
        choose x from [1, 2]
        got[player] += count(h) * x
scoring:
  score: "got[player]"
"""
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    game, m = Game.load(path), load_stepper(path, 2)
    for seed in range(6):
        for at in range(8):
            st, S = lockstep(m, game, 2, None, seed, at, random.Random(seed))
            if m.over(st):
                break
            copy, S_copy = m.clone(st), S.clone()
            offered, engine = finish_both(m, copy, S_copy, random.Random(at))
            assert offered == engine and m.returns(copy) == S_copy.returns()
            offered, engine = finish_both(m, st, S, random.Random(50 + at))
            assert offered == engine and m.returns(st) == S.returns()


def test_an_optional_perform_is_refused_by_name(tmp_path):
    path = tmp_path / "game.yaml"
    text = GAME.replace("flow:", "actions:\n  rest:\n    do: \"spent += 1\"\nflow:", 1)
    text = text.replace("        choose w from [3, 4]\n", "        perform rest by player optional\n        choose w from [3, 4]\n")
    path.write_text(text, encoding="utf-8")
    Game.load(path)
    with pytest.raises(Unsupported, match="optional perform"):
        stepper_source(path, 2)


SEVERAL = """
game:
  id: several
  name: Several
  version: 1
  players: {min: 2, max: 3}
  description: Choices of several items, each pick a decision.
tables:
  numbers: [1, 1, 2, 3, 5]
components:
  card:
    kind: card
    start: deck
    items:
%s
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {per: [player], visibility: owner}
  pile: {ordered: true}
counters:
  points: {per: [player], initial: 0}
functions:
  room:
    params: [p]
    expr: "count(hand[p]) %% 3"
setup:
  - id: deal
    do: |
      shuffle deck
      deal 3 from deck to hand
flow:
  rounds: 3
  phases:
    - id: play
      turns: seat
      turn: |
        choose 2 xs from numbers
        points[player] += sum(xs) %% 3 + max(xs)
        choose up to 2 cs from hand[player]
        move cs to pile
        choose 0 to (room(player)) ys from hand[player]
        move ys to pile
        choose (count(pile) // 4) ws from pile by player
        points[player] -= count(ws)
        choose 1 to 2 vs from hand[player] where vs.value > 4 optional
        move vs to pile
        choose z from pile where z.value > 3 optional
        if z != none:
          move z to hand[player]
          points[player] += z.value // 3
        choose q from [] optional
        choose t from players where t != player
        points[t] += 1
        draw 1 from deck to hand[player]
scoring:
  score: "points[player]"
""" % "\n".join(f"      - {{id: c{v}, value: {v}}}" for v in range(1, 12))


def test_choices_of_several_optional_and_filtered_stop_at_each_pick(tmp_path):
    """Exact counts, up to, a computed range, duplicates among the candidates, `where` on one
    and on several, optional choices (one asked with nothing but `pass`): the engine's options
    (`done` once enough are picked) and games; a copy made between two picks of one choice
    continues as the engine's copy."""
    path = tmp_path / "game.yaml"
    path.write_text(SEVERAL, encoding="utf-8")
    game = Game.load(path)
    for players in (2, 3):
        m = load_stepper(path, players)
        dones = passes = 0
        for seed in range(12):
            engine, stepper = engine_trace(game, players, None, seed), stepper_trace(m, players, seed)
            assert first_difference(engine, stepper) is None, (players, seed, first_difference(engine, stepper))
            dones += sum(1 for o in stepper.offered if o and o[-1] == DONE)
            passes += sum(1 for o in stepper.offered if o == [PASS])
        assert dones > 10 and passes > 10
        length = len(stepper_trace(m, players, 1).history)
        for at in range(0, length, 2):
            st, S = lockstep(m, game, players, None, 1, at, random.Random(4))
            copy, S_copy = m.clone(st), S.clone()
            offered, engine = finish_both(m, copy, S_copy, random.Random(at))
            assert offered == engine and m.returns(copy) == S_copy.returns()


