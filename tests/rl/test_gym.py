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
    envs = TablesVectorEnv(6, opponents="random", seat=1, seed=3)
    obs, infos = envs.reset(seed=3)
    assert obs["observation"].shape == (6, 513) and obs["action_mask"].dtype == np.int8
    assert set(infos["seat"].tolist()) == {1}
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
    assert ended > 2
    with pytest.raises(GuandanError, match="one trajectory is one seat"):
        TablesVectorEnv(2, seat=(0, 2))
    with pytest.raises(IllegalMoveError):
        envs.step(np.full(6, len(ACTION_SPACE) + 1))


def _gym_trace(env, seeds):
    out = []
    for seed in seeds:
        obs, info = env.reset(seed=seed) if seed != "none" else env.reset()
        out.append((env.inner.state.snapshot(), obs["observation"].tobytes(), sorted(info)))
    return out


def test_the_single_agent_view_reseeds_at_every_seeded_reset_and_takes_numpy_seeds():
    a, b = GuandanGymEnv(opponents="random"), GuandanGymEnv(opponents="random")
    assert _gym_trace(a, [1, 5, "none"])[1:] == _gym_trace(b, [5, "none"])
    assert _gym_trace(a, [np.int64(9), "none"]) == _gym_trace(b, [9, "none"])
    for bad in (-1, 2**64, 2.0):
        with pytest.raises(GuandanError, match="a seed is an int in"):
            a.reset(seed=bad)


def test_the_single_agent_view_keeps_the_seed_out_of_its_infos():
    e = GuandanGymEnv(opponents="greedy")
    obs, info = e.reset(seed=987654321)
    assert "seed" not in info and e.privileged_seed() == 987654321
    while True:
        obs, r, terminated, truncated, info = e.step(np.array(e.action_space.sample()))  # a 0-d array action
        assert "seed" not in info and 987654321 not in info.values()
        if terminated or truncated:
            break


def test_the_vector_env_keeps_one_seat_a_trajectory_and_gives_the_final_observations():
    from guandan.rl.vector import PyTables

    envs = TablesVectorEnv(5, seat=2, opponents="greedy", partner="random", seed=4)
    ref = PyTables(5, seed=4, policies=("random", "greedy", "external", "greedy"), observe="state+mask")
    obs, infos = envs.reset()
    assert np.array_equal(obs["observation"], ref.states)
    ended = 0
    for _ in range(120):
        actions = envs.action_space.sample()
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        ref_rewards, ref_ended, ref_finish = ref.step(actions)
        assert (infos["seat"] == 2).all() and (ref.seats == 2).all()
        assert np.array_equal(obs["observation"], ref.states)
        if not terminations.any():
            assert "final_obs" not in infos and "final_info" not in infos
            continue
        done = np.flatnonzero(terminations)
        assert np.array_equal(infos["_final_obs"], terminations) and np.array_equal(infos["_final_info"], terminations)
        terminal = ref.final_states(done, 2)
        for j, i in enumerate(done):
            final = infos["final_obs"][i]
            assert np.array_equal(final["observation"], terminal[j])  # the seat's state as the deal ended
            assert not final["action_mask"].any()
            assert envs.single_observation_space.contains(final)
            assert np.array_equal(infos["final_info"]["finish_order"][i], ref_finish[i])
        assert all(infos["final_obs"][i] is None for i in np.flatnonzero(~terminations))
        assert np.array_equal(rewards, ref_rewards[:, 2])
        ended += len(done)
    assert ended > 2



@pytest.mark.slow
def test_the_vector_env_gives_the_rows_the_onnx_agent_scores_so_a_network_trained_on_it_plays_unchanged(tmp_path):
    """One action interface: a network trained on the vector env's legal rows, exported, plays as
    ``onnx:model=FILE``; the env's rows are rows the agent scores at the same position (its own
    encoding of the deal, from the plain-Python tables), with the same Q-values."""
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from guandan.bots.network import OnnxAgent
    from guandan.game.encoding import encode_rows
    from guandan.rl.qnet import Adam, QNetwork
    from guandan.rl.vector import PyTables

    envs = TablesVectorEnv(4, seat=1, opponents="greedy", seed=9, legal_rows=True)
    ref = PyTables(4, seed=9, policies=("greedy", "external", "greedy", "greedy"), observe="state+mask")
    obs, infos = envs.reset()
    net = QNetwork(hidden=(8,), seed=0)
    opt = Adam(net.params, lr=0.01)
    kept: list[tuple[np.ndarray, int]] = []
    for _ in range(40):  # train on the chosen rows, each regressed on its table's next reward
        chosen = []
        for i in range(4):
            rows, index = infos["legal_rows"][i], infos["legal_index"][i]
            assert rows.shape == (len(index), 567) and (rows[:, :513] == obs["observation"][i]).all()
            assert np.array_equal(index, np.flatnonzero(obs["action_mask"][i]))
            k = int(np.argmax(net.q(rows)))
            chosen.append(int(index[k]))
            kept.append((rows[k], i))
        obs, rewards, *_, infos = envs.step(np.array(chosen))
        ref.step(np.array(chosen))
        targets = np.array([rewards[i] for _, i in kept[-4:]], dtype=np.float32)
        _, grads = net.loss_and_grads(np.stack([r for r, _ in kept[-4:]]), targets)
        opt.step(grads)
    assert np.array_equal(obs["observation"], ref.states)  # the plain-Python tables hold the same deals
    path = str(tmp_path / "net.onnx")
    net.to_onnx(path)
    agent = OnnxAgent(path)
    rows, index = envs.legal_rows()
    compared = 0
    for i in range(4):
        observation = ref.deals[i].observation(1)
        scored = {r.tobytes(): q for r, q in zip(encode_rows(observation), agent.q_values(observation))}
        for row, q in zip(rows[i], net.q(rows[i])):
            assert row.tobytes() in scored  # the same row, as the agent encodes the deal
            assert abs(scored[row.tobytes()] - q) < 1e-4
            compared += 1
    assert compared >= 4
    with pytest.raises(GuandanError, match="legal_rows"):
        TablesVectorEnv(2, legal_rows=1)
