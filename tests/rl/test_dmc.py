"""The deep Monte Carlo learners' shared parts: choosing actions from Q-values, the evaluation."""

from __future__ import annotations

import numpy as np
import pytest

from guandan import GuandanError
from guandan.rl.dmc import TrainConfig, candidate_scores, evaluate, pick_actions, pick_candidates
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


def test_among_the_candidates_the_highest_score_wins_and_exploration_draws_candidates_alone_uniformly():
    scores = np.array([5.0, 1.0, 2.0, 9.0, 0.0, 0.0, 3.0])
    places = np.array([-1, 2, 0, -1, 1, -1, 0], dtype=np.int8)  # table 0: 4 actions, table 1: 3
    offsets = np.array([0, 4, 7])
    assert pick_candidates(scores, places, offsets).tolist() == [2, 2]  # 5 and 9 are no candidates
    rng = np.random.default_rng(11)
    counts = np.zeros(7, dtype=int)
    for _ in range(3000):
        choice = pick_candidates(scores, places, offsets, 1.0, rng)
        counts[offsets[:-1] + choice] += 1
    assert counts[places < 0].sum() == 0
    assert all(1300 < counts[i] < 1700 for i in (1, 2)) and all(1300 < counts[i] < 1700 for i in (4, 6))
    again = [pick_candidates(scores, places, offsets, 0.5, np.random.default_rng(2)).tolist() for _ in range(2)]
    assert again[0] == again[1]
    per_table = np.zeros(7, dtype=int)  # one chance a table: table 0 never draws, table 1 always
    for _ in range(1000):
        choice = pick_candidates(scores, places, offsets, np.array([0.0, 1.0]), rng)
        per_table[offsets[:-1] + choice] += 1
    assert per_table[2] == 1000 and per_table[1] == 0 and 400 < per_table[4] < 600 and 400 < per_table[6] < 600
    with pytest.raises(GuandanError, match="one epsilon a table: 2 tables"):
        pick_candidates(scores, places, offsets, np.array([0.5, 0.5, 0.5]), rng)


def test_the_candidates_scores_are_the_net_agents_with_a_place_prior_and_the_q_values_without():
    q, places = np.array([0.2, 0.1, 0.3], dtype=np.float32), np.array([0, 1, 40], dtype=np.int8)
    assert candidate_scores(q, places, TrainConfig(candidates=8)) is q
    prior = TrainConfig(candidates=8, temperature=0.1, place_bias=[1.0, 0.5, -1.0])
    assert np.allclose(candidate_scores(q, places, prior), [3.0, 1.5, 2.0])  # place 40: the last bias


def test_the_evaluation_plays_a_chooser_of_the_tables_too():
    first = evaluate(lambda tables: np.zeros(tables.n, dtype=np.int64), "random", 3, seed=2)
    assert first["n"] == 6 and first == evaluate(lambda tables: np.zeros(tables.n, dtype=np.int64), "random", 3, 2)


def test_a_table_without_a_candidate_is_refused_not_given_another_tables_action():
    with pytest.raises(GuandanError, match="table 0 has no candidate"):
        pick_candidates(np.ones(4), np.array([-1, -1, 0, 1], dtype=np.int8), np.array([0, 2, 4]))


def test_the_numpy_trainer_refuses_the_torch_learners_options(tmp_path):
    from guandan.rl.train import Trainer

    for options in ({"init": "teacher.pt"}, {"candidates": 8}, {"structure": True}, {"value_scale": 3.0}):
        with pytest.raises(GuandanError, match=f"{next(iter(options))}: options of the torch learner"):
            Trainer(TrainConfig(tables=2, hidden=(4,), **options), str(tmp_path))
