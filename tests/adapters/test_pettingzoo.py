"""Rule files as PettingZoo environments: PettingZoo's own API and seed tests, and what agents see."""
from __future__ import annotations

import warnings
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the adapters need the rl extra: pip install -e '.[rl]'")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402

from interpreter.adapters.pettingzoo import env, parallel_env  # noqa: E402
from interpreter.adapters.profile import AdapterError  # noqa: E402
from interpreter.rulefiles import game_entry_files  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
ENTRIES = game_entry_files(RULES)
GOOFSPIEL = RULES / "goofspiel" / "game.yaml"
TIC_TAC_TOE = RULES / "tic_tac_toe" / "game.yaml"


def _id(path: Path) -> str:
    return str(path.relative_to(RULES))


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        # PettingZoo's api_test warns that dict observations ({"observation", "action_mask"},
        # the layout of its own classic environments) are not plain arrays.
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("path", ENTRIES, ids=_id)
def test_pettingzoo_api_and_seed_tests(path):
    api_test(env(path, samples=3), num_cycles=100)
    seed_test(lambda: env(path, samples=3), num_cycles=50)


@pytest.mark.parametrize("path", ENTRIES, ids=_id)
def test_pettingzoo_parallel_api_and_seed_tests(path):
    parallel_api_test(parallel_env(path, samples=3), num_cycles=100)
    # the seed test samples actions without the mask: read them modulo the options
    parallel_seed_test(lambda: parallel_env(path, samples=3, illegal="wrap"), num_cycles=50)


def _rollout(e, seed: int) -> dict:
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert obs["observation"].shape == e.observation_space(agent)["observation"].shape
        assert np.isfinite(obs["observation"]).all()
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(info["options"])  # the mask is the deciding player's options
        e.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize("path", ENTRIES, ids=_id)
def test_rewards_at_the_end_are_zero_sum_win_loss(path):
    e = env(path, samples=3)
    totals = _rollout(e, seed=5)
    assert sum(totals.values()) == pytest.approx(0.0)
    assert max(totals.values()) <= 1.0 and min(totals.values()) >= -1.0


def test_tic_tac_toe_win_is_rewarded():
    e = env(TIC_TAC_TOE)
    e.reset(seed=0)
    # actions index the empty cells in order: X 0, O 1, X 3, O 2, X 6 (the left column)
    for agent, action in zip(["player_0", "player_1"] * 3, [0, 0, 1, 0, 2]):
        assert e.agent_selection == agent
        e.step(action)
    assert e.terminations == {"player_0": True, "player_1": True}
    assert e._cumulative_rewards == {"player_0": 1.0, "player_1": -1.0}
    assert "three in a row" in e.infos["player_1"]["text"]


def _after_first_bid(action: int) -> tuple:
    e = env(GOOFSPIEL, samples=3)
    e.reset(seed=11)
    assert e.agent_selection == "player_0"
    e.step(action)
    assert e.agent_selection == "player_1"  # the other half of the same secret choice
    other = e.observe("player_1")
    own = e.observe("player_0")
    return other["observation"], other["action_mask"], e.infos["player_1"]["text"], own["observation"]


def test_secret_simultaneous_pick_reveals_nothing_to_the_next_player():
    low, high = _after_first_bid(0), _after_first_bid(12)  # P1 bids its 1, or its 13
    assert np.array_equal(low[0], high[0]) and np.array_equal(low[1], high[1])
    assert low[2] == high[2]
    assert not np.array_equal(low[3], high[3])  # while the bidder's own view differs


def test_parallel_env_takes_both_secret_bids_in_one_step():
    p = parallel_env(GOOFSPIEL, samples=3)
    obs, infos = p.reset(seed=2)
    assert all(obs[a]["action_mask"].sum() == 13 for a in p.agents)
    obs, rewards, terms, truncs, infos = p.step({"player_0": 12, "player_1": 0})
    assert not any(terms.values())
    view = infos["player_0"]["text"]
    assert "13" in view  # both bids are shown once both are in


def test_illegal_action_is_refused():
    e = env(TIC_TAC_TOE)
    e.reset(seed=0)
    with pytest.raises(AdapterError, match="not legal"):
        e.step(9)
    p = parallel_env(TIC_TAC_TOE)
    p.reset(seed=0)
    with pytest.raises(AdapterError, match="not legal"):
        p.step({"player_0": 9, "player_1": 0})


def test_reset_without_seed_after_a_seeded_one_is_reproducible():
    a, b = env(GOOFSPIEL, samples=3), env(GOOFSPIEL, samples=3)
    for e in (a, b):
        e.reset(seed=3)
        e.reset()
    assert a.state.hash() == b.state.hash()
    assert a.render() == b.render()
