"""Rule files as OpenSpiel games: OpenSpiel's own checks and algorithms through the adapter."""
from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the adapters need the rl extra: pip install -e '.[rl]'")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import cfr, exploitability, expected_game_score, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

from interpreter.adapters.openspiel import load_game  # noqa: E402
from interpreter.adapters.profile import AdapterError  # noqa: E402
from interpreter.rulefiles import game_entry_files, variant_files  # noqa: E402

from .hidden import resample_hidden  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
ENTRIES = game_entry_files(RULES)
KUHN = RULES / "kuhn_poker" / "game.yaml"
TIC_TAC_TOE = RULES / "tic_tac_toe" / "game.yaml"
GOOFSPIEL = RULES / "goofspiel" / "game.yaml"
T = pyspiel.GameType


def _id(path: Path) -> str:
    return str(path.relative_to(RULES))


def test_every_entry_file_is_found():
    # the seven entry files of the five games and the four classic games (and any added since)
    expected = {"chicago_dry/game.yaml", "dogs_day/game.yaml", "chicago_poker/game.yaml",
                "dice_town/game.yaml", "dice_town/cowboys.yaml", "between_two_cities/game.yaml",
                "between_two_cities/capitals.yaml", "kuhn_poker/game.yaml", "tic_tac_toe/game.yaml",
                "goofspiel/game.yaml", "liars_dice/game.yaml"}
    assert expected <= {_id(p) for p in ENTRIES}


@pytest.mark.parametrize("path", ENTRIES, ids=_id)
def test_openspiel_random_simulation(path):
    game = load_game(path, samples=5)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("path,variant", [(e, v) for e in ENTRIES for v in [None] + variant_files(e)],
                         ids=lambda x: _id(x) if isinstance(x, Path) else "base")
def test_openspiel_random_simulation_slow(path, variant):
    game = load_game(path, variants=(variant,) if variant else ())
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize("players,options", [(2, {"two_players": True}), (3, {}), (5, {})])
def test_random_simulation_other_player_counts(players, options):
    game = load_game(RULES / "dogs_day" / "game.yaml", players=players, options=options, samples=3)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_serialized_state_is_read_back_in_another_process():
    game = load_game(RULES / "liars_dice" / "game.yaml")
    state = game.new_initial_state()
    for action in (3, 4, 5):  # the two dice, then P1's bid
        state.apply_action(action)
    text = pyspiel.serialize_game_and_state(game, state)
    code = (f"import pyspiel\nfrom interpreter.adapters.openspiel import load_game\n"
            f"load_game({str(RULES / 'liars_dice' / 'game.yaml')!r})\n"
            f"game, state = pyspiel.deserialize_game_and_state({text!r})\n"
            f"print(state.history(), state.current_player(), state.information_state_string(1))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert result.returncode == 0, result.stderr
    expected = f"{state.history()} {state.current_player()} {state.information_state_string(1)}"
    assert result.stdout.rstrip("\n") == expected


# ---------------------------------------------------------------------- game type
def test_game_type_of_kuhn_poker():
    game = load_game(KUHN, utility="scores")
    t = game.get_type()
    assert t.dynamics == T.Dynamics.SEQUENTIAL
    assert t.chance_mode == T.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == T.Information.IMPERFECT_INFORMATION
    assert t.utility == T.Utility.ZERO_SUM  # the scores of every game add up to 0
    assert (game.min_utility(), game.max_utility()) == (-2.0, 2.0)  # ante and bet


def test_game_type_of_tic_tac_toe_and_goofspiel():
    t = load_game(TIC_TAC_TOE).get_type()
    assert (t.dynamics, t.chance_mode, t.information) == (
        T.Dynamics.SEQUENTIAL, T.ChanceMode.DETERMINISTIC, T.Information.PERFECT_INFORMATION)
    g = load_game(GOOFSPIEL).get_type()
    assert g.dynamics == T.Dynamics.SIMULTANEOUS
    assert g.chance_mode == T.ChanceMode.EXPLICIT_STOCHASTIC


def test_registered_with_pyspiel():
    game = load_game(TIC_TAC_TOE)
    again = pyspiel.load_game(game.get_type().short_name)
    state = again.new_initial_state()
    assert state.current_player() == 0 and state.legal_actions() == list(range(9))


def test_registered_games_do_not_crash_python_at_exit():
    """pyspiel's registry outlives the interpreter: dropping our own references to a registered
    game must not let that registry free a Python object after shutdown (exit code 134)."""
    code = ("import gc\nimport interpreter.adapters.openspiel as o\n"
            f"game = o.load_game({str(TIC_TAC_TOE)!r})\n"
            "o._REGISTERED.clear()\ndel game\ngc.collect()\nprint('done')\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert (result.returncode, result.stdout) == (0, "done\n"), result.stderr


def test_win_loss_utilities_share_wins_and_sum_to_zero():
    game = load_game(RULES / "dogs_day" / "game.yaml", players=4, samples=3)
    assert (game.min_utility(), game.max_utility()) == (-1 / 3, 1.0)
    profile = game.config.profile
    assert profile.utilities([5, 9, 9, 1], [1, 2]) == pytest.approx([-1 / 3, 1 / 3, 1 / 3, -1 / 3])
    assert profile.utilities([0, 0, 0, 0], []) == [0.0] * 4
    for n in range(2, 9):  # a sole winner gets exactly the declared maximum, 1
        wide = dataclasses.replace(profile, players=n)
        values = wide.utilities([0] * n, [n - 1])
        assert values[-1] == 1.0 and min(values) == wide.utility_range()[0]
        assert sum(values) == pytest.approx(0.0)


# ---------------------------------------------------------------------- chance
def _deal(state, outcomes):
    for k in outcomes:
        state.apply_action(k)
    return state


def test_kuhn_deal_is_explicit_chance_with_six_equally_likely_deals():
    game = load_game(KUHN, utility="scores")
    deals = {}

    def walk(state, prob):
        if not state.is_chance_node():
            hands = [state.engine_state.view(None)["zones"][f"hand:{p}"][0]["name"] for p in (0, 1)]
            deals[tuple(hands)] = deals.get(tuple(hands), 0) + prob
            return
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        for k, p in outcomes:
            walk(state.child(k), prob * Fraction(p).limit_denominator(100))

    walk(game.new_initial_state(), Fraction(1))
    assert len(deals) == 6 and all(a != b for a, b in deals)
    assert set(deals.values()) == {Fraction(1, 6)}


def test_kuhn_actions_are_pass_and_bet():
    state = _deal(load_game(KUHN).new_initial_state(), [0, 0])
    assert state.current_player() == 0
    assert state.legal_actions() == [0, 1]
    assert [state.action_to_string(0, a) for a in (0, 1)] == ["pass", "bet"]


def test_sampled_chance_uses_the_engine_generator():
    game = load_game(KUHN, chance="sampled", seed=4)
    assert game.get_type().chance_mode == T.ChanceMode.SAMPLED_STOCHASTIC
    assert game.max_chance_outcomes() == 0
    states = [game.new_initial_state() for _ in range(12)]
    assert not any(s.is_chance_node() for s in states)
    deals = {str(s) for s in states}
    assert len(deals) > 1  # new states are new deals
    again = load_game(KUHN, chance="sampled", seed=4)
    assert [str(again.new_initial_state()) for _ in range(12)] == [str(s) for s in states]
    copy = states[0].clone()
    for s in (states[0], copy):
        s.apply_action(1)
        s.apply_action(1)
    assert states[0].returns() == copy.returns() and str(states[0]) == str(copy)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


# ---------------------------------------------------------------------- algorithms
def test_cfr_on_kuhn_poker_reaches_the_game_value():
    game = load_game(KUHN, utility="scores")
    solver = cfr.CFRPlusSolver(game)
    for _ in range(100):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])
    assert value[0] == pytest.approx(-1 / 18, abs=0.005)
    assert exploitability.exploitability(game, policy) < 0.01


def test_uniform_random_policy_exploitability_matches_kuhn_theory():
    # NashConv of the uniform policy in Kuhn poker is 11/12 (exploitability = half of it)
    game = load_game(KUHN, utility="scores")
    uniform = pyspiel.UniformRandomPolicy(game)
    assert pyspiel.exploitability(game, uniform) == pytest.approx(11 / 24)


def _mcts_against_random(games: int) -> list[float]:
    game = load_game(TIC_TAC_TOE)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    results = []
    for i in range(games):
        seat = i % 2
        bots = [None, None]
        bots[seat] = mcts.MCTSBot(game, 2, 200, evaluator, random_state=rng, solve=True)
        bots[1 - seat] = uniform_random.UniformRandomBot(1 - seat, rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        results.append(state.returns()[seat])
    return results


def test_mcts_never_loses_tic_tac_toe_to_random():
    results = _mcts_against_random(20)
    assert min(results) >= 0
    assert results.count(1.0) >= 15  # it wins most games too


@pytest.mark.slow
def test_mcts_never_loses_tic_tac_toe_to_random_in_100_games():
    assert min(_mcts_against_random(100)) >= 0


# ---------------------------------------------------------------------- hidden information
def test_kuhn_information_state_shows_only_own_card():
    game = load_game(KUHN)
    by_deal = {}
    for a in range(3):
        for b in range(2):
            state = _deal(game.new_initial_state(), [a, b])
            view = state.engine_state.view(None)
            own, other = (view["zones"][f"hand:{p}"][0]["name"] for p in (0, 1))
            by_deal[(own, other)] = state.information_state_string(0)
    for own in ("jack", "queen", "king"):
        strings = {s for (o, _), s in by_deal.items() if o == own}
        assert len(strings) == 1  # the other player's card changes nothing
    assert len(set(by_deal.values())) == 3  # one information state per own card


def _surfaces(state, player):
    return (state.information_state_string(player), state.observation_string(player),
            tuple(state.observation_tensor(player)))


@pytest.mark.parametrize("path", ENTRIES, ids=_id)
def test_information_states_ignore_what_a_player_cannot_see(path):
    game = load_game(path, samples=3)
    rng = random.Random(3)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        if rng.random() < 0.15 or checked == 0:
            S = state.engine_state
            for player in range(game.num_players()):
                other = game.state_at(resample_hidden(S, player, rng))
                assert _surfaces(other, player) == _surfaces(game.state_at(S), player)
            checked += 1
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p) or [0]) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0


def test_resampling_changes_hidden_things():
    """The audit above compares something: resampling Kuhn changes the other player's card."""
    game = load_game(KUHN)
    S = _deal(game.new_initial_state(), [0, 0]).engine_state
    seen = {resample_hidden(S, 0, random.Random(i)).view(None)["zones"]["hand:1"][0]["name"]
            for i in range(10)}
    assert len(seen) == 2


# ---------------------------------------------------------------------- bounds
def test_a_decision_beyond_the_declared_bound_is_an_error():
    game = load_game(TIC_TAC_TOE, max_actions=4)
    state = game.new_initial_state()
    with pytest.raises((AdapterError, RuntimeError), match="max_actions"):
        state.legal_actions()


def test_scores_outside_the_declared_range_are_an_error():
    game = load_game(TIC_TAC_TOE, utility="scores", score_range=(-0.5, 0.5))
    assert (game.min_utility(), game.max_utility()) == (-0.5, 0.5)
    assert game.get_type().utility == T.Utility.ZERO_SUM  # every sampled game sums to 0
    with pytest.raises(AdapterError, match="score_range"):
        game.config.profile.utilities([1, -1], [0])


def test_unknown_utility_is_an_error():
    with pytest.raises(AdapterError, match="win_loss"):
        load_game(TIC_TAC_TOE, utility="points")
