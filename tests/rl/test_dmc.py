"""The deep Monte Carlo learners' shared parts: choosing actions from Q-values, the evaluation."""

from __future__ import annotations

import numpy as np

from guandan.rl.dmc import TrainConfig, evaluate, pick_actions
from guandan.rl.qnet import QNetwork


def test_each_table_takes_its_highest_q_the_first_of_equals():
    q = np.array([0.1, 3.0, 3.0, -2.0, -1.0, 7.0])
    offsets = np.array([0, 3, 5, 6])
    assert pick_actions(q, offsets).tolist() == [1, 1, 0]


def test_exploration_draws_within_each_tables_moves_and_is_seeded():
    q = np.zeros(10)
    offsets = np.array([0, 4, 10])
    a = pick_actions(q, offsets, 1.0, np.random.default_rng(3))
    b = pick_actions(q, offsets, 1.0, np.random.default_rng(3))
    assert a.tolist() == b.tolist() and 0 <= a[0] < 4 and 0 <= a[1] < 6


def test_the_evaluation_plays_each_deal_both_ways():
    result = evaluate(QNetwork(hidden=(4,), seed=1), "random", 3, seed=2)
    assert result["n"] == 6 and 0 <= result["won"] <= 6 and result["lo"] <= result["rate"] <= result["hi"]
    assert TrainConfig().objective == "levels"
