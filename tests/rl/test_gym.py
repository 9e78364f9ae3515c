"""The Gymnasium views: one seat against agents by spec (the checker, seeds, the learner's side's
rewards, bad actions) and the vectorized tables as a VectorEnv."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra")
pytest.importorskip("gymnasium", reason="the rl extra")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from guandan import GuandanError, IllegalMoveError  # noqa: E402
from guandan.bots.agents import GreedyAgent, RandomAgent  # noqa: E402
from guandan.core.batch import ACTION_SPACE  # noqa: E402
from guandan.rl.env import N_ACTIONS  # noqa: E402
from guandan.rl.gym import GuandanGymEnv, TablesVectorEnv  # noqa: E402


def test_the_single_agent_view_passes_gymnasiums_checker():
    check_env(GuandanGymEnv(opponents="greedy"), skip_render_check=True)
    check_env(GuandanGymEnv(seat=3, opponents=["random", GreedyAgent(), RandomAgent]), skip_render_check=True)


@pytest.mark.slow
def test_the_single_agent_match_view_passes_gymnasiums_checker():
    check_env(GuandanGymEnv(seat=1, kind="match", max_deals=2, opponents="random"), skip_render_check=True)


def test_the_single_agent_view_replays_a_seed_and_rewards_the_learners_side():
    def episode(seed):
        e = GuandanGymEnv(seat=1, opponents="greedy", reward="wins")
        obs, info = e.reset(seed=seed)
        e.action_space.seed(seed)
        trace, total = [], 0.0
        while True:
            a = int(e.action_space.sample())
            assert obs["action_mask"][a]
            obs, r, terminated, truncated, info = e.step(a)
            trace.append(a)
            total += r
            if terminated or truncated:
                return trace, total, info

    t1, r1, i1 = episode(31)
    t2, r2, i2 = episode(31)
    assert t1 == t2 and r1 == r2 and i1 == i2
    first = i1["finish_order"][0]
    assert r1 == (1.0 if first & 1 == 1 else -1.0)


def test_the_single_agent_view_refuses_bad_actions_and_steps_after_the_end():
    e = GuandanGymEnv()
    obs, _ = e.reset(seed=8)
    before = e.inner.state.snapshot()
    with pytest.raises(IllegalMoveError, match="not legal now"):
        e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    with pytest.raises(IllegalMoveError, match="an action is an int"):
        e.step(N_ACTIONS + 3)
    assert e.inner.state.snapshot() == before
    while True:
        obs, r, terminated, truncated, info = e.step(e.action_space.sample())
        if terminated:
            break
    with pytest.raises(IllegalMoveError, match="game is over"):
        e.step(0)
    with pytest.raises(GuandanError, match="three"):
        GuandanGymEnv(opponents=["greedy", "random"])


def test_the_vector_env_steps_the_tables_and_resets_finished_ones_in_the_same_step():
    envs = TablesVectorEnv(6, opponents="random", seats=(1, 3), seed=3)
    obs, infos = envs.reset(seed=3)
    assert obs["observation"].shape == (6, 513) and obs["action_mask"].dtype == np.int8
    assert set(infos["seat"].tolist()) <= {1, 3}
    ended = 0
    for _ in range(400):
        actions = envs.action_space.sample()
        assert all(obs["action_mask"][i, a] for i, a in enumerate(actions))
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        assert not rewards[~terminations].any()
        for i in np.flatnonzero(terminations):
            first = infos["finish_order"][i, 0]
            assert (rewards[i] > 0) == (first & 1 == 1)
        ended += int(terminations.sum())
    assert ended > 3
    with pytest.raises(GuandanError, match="one side"):
        TablesVectorEnv(2, seats=(0, 1))
    with pytest.raises(IllegalMoveError):
        envs.step(np.full(6, len(ACTION_SPACE) + 1))
