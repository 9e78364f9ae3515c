"""guandan.core.playouts: the native deal functions under their public names, on real deals."""

import numpy as np

from guandan import Deal
from guandan.bots.agents import GreedyAgent
from guandan.core import _core, playouts


def test_the_names_are_the_native_functions_themselves():
    for name in playouts.__all__:
        assert getattr(playouts, name) is getattr(_core, name), name


def test_perft_of_one_ply_counts_the_card_level_moves():
    deal = Deal.new(seed=11, level=5)
    assert playouts.perft(deal.native_state(), 1) == len(deal.legal_moves())


def test_playouts_and_rollouts_are_seeded_finish_orders():
    state = Deal.new(seed=4, level=2, leader=1).native_state()
    first = playouts.playouts(state, 20, "random", seed=9)
    assert first.shape == (20, 4) and first.dtype == np.int8
    assert (first == playouts.playouts(state, 20, "random", seed=9)).all()
    orders = playouts.rollouts(state, 5, "smart", seed=2)
    assert (orders == playouts.rollouts(state, 5, "smart", seed=2)).all()
    assert set(orders[:, 0].tolist()) <= {0, 1, 2, 3}


def test_greedy_choose_is_the_greedy_agents_choice():
    deal = Deal.new(seed=8, level=3, leader=2)
    obs = deal.observation(deal.turn)
    index = playouts.greedy_choose(obs.legal_actions.array, obs.level, obs.packed_hand, 27, False, False, False)
    assert index == GreedyAgent(bomb_threshold=0).choose(obs)


def test_the_smart_move_is_legal_and_has_features():
    deal = Deal.new(seed=6, level=2)
    state = deal.native_state()
    word, _ = playouts.smart_move(state)
    assert word in {int(w) for w in deal.legal_moves("rank").array}
    assert playouts.move_features(state, [word]).shape[0] == 1
