"""The state value that ends the search's rollouts (``mc:value=FILE``).

Its numbers and its network in C against their numpy twin over states of every kind (random
play reaches every type of play to beat, seats out, every level); the search with a value
against the plain-Python search, position by position; a value the rollouts never reach
changes nothing; the result does not depend on the threads; bad values, files and options
refused by name.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import search_reference
from games import deal_state_of, positions_with_deals
from refusals import check

from guandan import GuandanError
from guandan.bots.agents import GreedyAgent
from guandan.bots.determinize import information_set
from guandan.bots.loop import play_out
from guandan.bots.registry import make_agent
from guandan.bots.rollout_policy import load_weights
from guandan.bots.search import MonteCarloAgent
from guandan.bots.state_value import VALUE_FEATURES, StateValue, load_value, state_arrays, value_features
from guandan.core import _core
from guandan.core.search import SearchParams
from guandan.game.deal import Deal
from guandan.rl.vector import VecTables


def random_play_states(n_tables=16, steps=400, seed=3):
    """Whole deal states of random play at vectorized tables (levels drawn per deal)."""
    tables = VecTables(n_tables, seed=seed, level=None)
    states = []
    for step in range(steps):
        states += [tables.table(i).state for i in range(n_tables)]
        tables.step(tables.random_actions(step))
    return states


def test_the_numbers_are_their_numpy_twin_over_states_of_every_kind():
    states = random_play_states()
    twin = value_features(states)
    native = np.array([_core.value_features(s) for s in states])
    np.testing.assert_array_equal(twin, native)
    assert twin.shape == (len(states), VALUE_FEATURES)
    # the states reach what the numbers describe: every type of play to beat (the joker bomb, rare in
    # random play, put in by hand), leads, seats out, levels
    assert (native[:, 89:98].sum(axis=0) > 0).all()
    hands, level, turn, last, beat, passes, finished = next(s for s in states if s[3] >= 0)
    joker_bomb = (10 << 60) | (15 << 56)
    state = (hands, level, turn, last, joker_bomb, passes, finished)
    np.testing.assert_array_equal(value_features([state])[0], _core.value_features(state))
    assert _core.value_features(state)[98] == 1 and _core.value_features(state)[100] == 0.4
    out = [native[:, [21 * r + 17 + place for r in (1, 2, 3)]].sum() for place in (1, 2)]
    assert native[:, 88].sum() > 0 and min(out) > 0, out  # seats out first and second (a third ends the deal)
    assert len(set(native[:, 102].tolist())) == 13
    # the seat to act's cards: the count of its hand
    arrays = state_arrays(states)
    held = [_cards(h) for h in arrays["hands"][np.arange(len(states)), arrays["turn"]]]
    np.testing.assert_allclose(native[:, 16] * 27, held, rtol=1e-6)


def _cards(words):
    hand = int(words[0]) | int(words[1]) << 64
    return sum((hand >> (2 * f)) & 3 for f in range(54))


def test_the_network_is_its_numpy_twin():
    states = random_play_states(16, 60, seed=5)
    for hidden in ((1, 1), (16, 8), (128, 64)):
        value = StateValue.random(hidden, seed=hidden[0])
        twin = value.values(states)
        native = np.array([value.native(s) for s in states])
        np.testing.assert_allclose(native, twin, rtol=1e-5, atol=1e-4)
        assert np.std(native) > 0.01  # the states are told apart


def test_the_search_with_a_value_is_its_plain_python_version():
    weights = load_weights()
    value = StateValue.random((16, 8), seed=4)
    compared = 0
    for obs, deal in positions_with_deals(range(50, 55), 7):
        info, state = information_set(obs), deal_state_of(obs)
        words = [int(w) for w in _core.search_candidates(info, state, 8)]
        if len(words) < 2:
            continue
        for plies, mix in ((0, 1.0), (3, 1.0), (3, 0.375)):
            given = SearchParams(60, seed=4, policy="learned", weights=weights, value=value.flat(),
                                 value_hidden=value.hidden, value_plies=plies, value_mix=mix)  # fmt: skip
            native, done = _core.search(info, state, words, given)
            reference = search_reference.Params(60, seed=4, weights=weights, value=value, value_plies=plies,
                                                value_mix=mix)  # fmt: skip
            expected = search_reference.search(info, deal.native_state(), words, reference)
            np.testing.assert_array_equal(native, np.array(expected, dtype=np.float64))
            assert done == 60
            compared += 1
    assert compared >= 12
    # a value beyond the bound (+-64 levels) is bounded before it is blended
    zeros = [np.zeros((VALUE_FEATURES, 2)), np.zeros(2), np.zeros((2, 2)), np.zeros(2), np.zeros((2, 1))]
    huge = StateValue([*zeros, np.full(1, 100.0)])
    obs, deal = next(positions_with_deals([64], 5))
    info, state = information_set(obs), deal_state_of(obs)
    words = [int(w) for w in _core.search_candidates(info, state, 6)]
    given = SearchParams(40, seed=3, policy="learned", weights=weights, value=huge.flat(), value_hidden=(2, 2),
                         value_plies=1, value_mix=0.5)  # fmt: skip
    native, _ = _core.search(info, state, words, given)
    reference = search_reference.Params(40, seed=3, weights=weights, value=huge, value_plies=1, value_mix=0.5)
    expected = search_reference.search(info, deal.native_state(), words, reference)
    np.testing.assert_array_equal(native, np.array(expected))
    assert np.abs(native[:, 1]).max() <= 0.5 * 64 + 0.5 * 3


def test_a_value_the_rollouts_never_reach_changes_nothing_and_one_they_reach_does():
    weights = load_weights()
    obs, deal = next(positions_with_deals([61], 5))
    info, state = information_set(obs), deal_state_of(obs)
    words = _core.search_candidates(info, state, 8)
    plain = SearchParams(200, seed=2, policy="learned", weights=weights)
    value = StateValue.random((8, 4), seed=1)
    far = replace(plain, value=value.flat(), value_hidden=value.hidden, value_plies=10_000)
    np.testing.assert_array_equal(_core.search(info, state, words, far)[0], _core.search(info, state, words, plain)[0])
    near = replace(far, value_plies=2)
    reached = _core.search(info, state, words, near)[0]
    assert not np.array_equal(reached[:, 1], _core.search(info, state, words, plain)[0][:, 1])


def test_a_value_of_share_0_is_the_search_without_it():
    weights = load_weights()
    obs, deal = next(positions_with_deals([61], 5))
    info, state = information_set(obs), deal_state_of(obs)
    words = _core.search_candidates(info, state, 8)
    plain = _core.search(info, state, words, SearchParams(200, seed=2, policy="learned", weights=weights))[0]
    value = StateValue.random((8, 4), seed=1)
    ended = SearchParams(200, seed=2, policy="learned", weights=weights, value=value.flat(), value_hidden=value.hidden,
                         value_plies=2)  # fmt: skip
    only_value = _core.search(info, state, words, ended)[0]
    # share 0: the rollouts play on to the end, the same moves as without a value, and score their results
    np.testing.assert_array_equal(_core.search(info, state, words, replace(ended, value_mix=0.0))[0], plain)
    for policy in ("random", "greedy"):  # rollout policies that draw: the same draws, on from the value's ply
        drawing = SearchParams(200, seed=2, policy=policy)
        np.testing.assert_array_equal(
            _core.search(info, state, words, replace(drawing, value=value.flat(), value_hidden=value.hidden,
                                                     value_plies=2, value_mix=0.0))[0],
            _core.search(info, state, words, drawing)[0])  # fmt: skip
    # a share between is neither (the blend, rollout by rollout, is checked against the plain-Python search)
    blend = _core.search(info, state, words, replace(ended, value_mix=0.25))[0]
    assert not np.array_equal(blend[:, 1], plain[:, 1]) and not np.array_equal(blend[:, 1], only_value[:, 1])


def test_a_constant_value_is_every_candidates_mean_and_the_threads_change_nothing():
    obs, deal = next(positions_with_deals([62], 3))
    info, state = information_set(obs), deal_state_of(obs)
    words = _core.search_candidates(info, state, 6)
    zeros = [np.zeros((VALUE_FEATURES, 4)), np.zeros(4), np.zeros((4, 2)), np.zeros(2), np.zeros((2, 1))]
    layers = [*zeros, np.full(1, 0.75)]
    constant = StateValue(layers)
    params = SearchParams(120, seed=1, policy="learned", weights=load_weights(), value=constant.flat(),
                          value_hidden=(4, 2), value_plies=0)  # fmt: skip
    stats, _ = _core.search(info, state, words, params)
    # the seat after a candidate is the same in every sampled deal: its mean is the value for the
    # searching side when that seat is on its side, else the value negated
    side = obs.seat & 1
    for word, mean in zip(words.tolist(), stats[:, 1]):
        after, over = _core.deal_play(deal.native_state(), int(word))
        assert not over and mean == (0.75 if after[2] & 1 == side else -0.75)
    value = StateValue.random((16, 8), seed=3)
    many = replace(params, value=value.flat(), value_hidden=value.hidden, value_plies=4, rollouts=300)
    one, _ = _core.search(info, state, words, many)
    two, _ = _core.search(info, state, words, replace(many, threads=2))
    np.testing.assert_array_equal(one, two)


def test_mc_plays_with_a_value_file(tmp_path):
    path = str(tmp_path / "value.npz")
    StateValue.random((16, 8), seed=2, plies=4).save(path)
    deal = Deal.new(seed=7, level=2, leader=0)
    obs = deal.observation(deal.turn)
    result = MonteCarloAgent(seed=1, rollouts=200, value=path).analyze(obs)
    assert result.rollouts == 200 and result.best in obs.legal_actions
    same = MonteCarloAgent(seed=1, rollouts=200, value=path, value_plies=4).analyze(obs)
    assert same.choices == result.choices  # the file's plies unless told otherwise
    other = MonteCarloAgent(seed=1, rollouts=200, value=path, value_plies=0).analyze(obs)
    assert other.choices != result.choices
    mixed = make_agent("mc:value=" + path + ":value_mix=0.5:rollouts=200", seed=1).analyze(obs)
    assert mixed.rollouts == 200 and mixed.choices != result.choices
    assert make_agent("mc:value=" + path + ":value_mix=0:rollouts=200", seed=1).analyze(obs).choices == (
        MonteCarloAgent(seed=1, rollouts=200).analyze(obs).choices)  # fmt: skip


def test_bad_values_files_and_options_are_refused_by_name(tmp_path):
    path = str(tmp_path / "value.npz")
    StateValue.random((8, 4), seed=2, plies=4).save(path)
    check(lambda: MonteCarloAgent(value=path, objective="wins"), GuandanError, "objective=levels")
    check(lambda: MonteCarloAgent(value_plies=3), GuandanError, "needs a state value")
    check(lambda: MonteCarloAgent(value=path, value_plies=-1), GuandanError, "value_plies")
    check(lambda: MonteCarloAgent(value_mix=0.5), GuandanError, "needs a state value")
    check(lambda: MonteCarloAgent(value=path, value_mix=2), GuandanError, "value_mix")
    check(lambda: MonteCarloAgent(value=str(tmp_path / "nothing.npz")), GuandanError, "no such file")
    other = str(tmp_path / "other.npz")
    np.savez(other, meta=np.array('{"format": "something"}'), W0=np.zeros(1))
    check(lambda: load_value(other), GuandanError, "not a state value file")
    garbage = str(tmp_path / "garbage.npz")
    with open(garbage, "wb") as f:
        f.write(b"not a zip file")
    check(lambda: load_value(garbage), GuandanError, "not a state value file")
    array = str(tmp_path / "array.npy")
    np.save(array, np.zeros(3))
    check(lambda: MonteCarloAgent(value=array), GuandanError, "holds one array")
    strings = str(tmp_path / "strings.npz")
    np.savez(strings, meta=np.array('{"format": "guandan.state_value", "plies": 2}'),
             **{name: np.array(["x"]) for name in ("W0", "b0", "W1", "b1", "W2", "b2")})  # fmt: skip
    check(lambda: load_value(strings), GuandanError, "real numbers")
    bad_plies = str(tmp_path / "plies.npz")
    layers = StateValue.random((4, 2)).layers
    np.savez(bad_plies, meta=np.array('{"format": "guandan.state_value", "plies": 2.5}'),
             **dict(zip(("W0", "b0", "W1", "b1", "W2", "b2"), layers)))  # fmt: skip
    check(lambda: load_value(bad_plies), GuandanError, "plies are an int")
    check(lambda: StateValue.random((0, 4)), GuandanError, "hidden widths")
    check(lambda: StateValue.random((8, 300)), GuandanError, "hidden widths")
    bad = StateValue.random((8, 4)).layers
    check(lambda: StateValue(bad[:5]), GuandanError, "six arrays")
    check(lambda: StateValue([bad[0][:5]] + bad[1:]), GuandanError, "shapes")
    nan = [x.copy() for x in bad]
    nan[3][0] = np.nan
    check(lambda: StateValue(nan), GuandanError, "finite")
    # the core's own checks, for a caller of the native search
    obs, _ = next(positions_with_deals([63], 3))
    info, state = information_set(obs), deal_state_of(obs)
    words = _core.search_candidates(info, state, 4)
    value = StateValue.random((8, 4), seed=1)
    good = SearchParams(40, seed=1, policy="learned", weights=load_weights(), value=value.flat(), value_hidden=(8, 4))
    for params, match in (
        (replace(good, value=value.flat()[:-1]), "finite numbers"),
        (replace(good, value=np.full(value.flat().shape, np.inf)), "not finite"),
        (replace(good, value_hidden=(8,)), "two widths"),
        (replace(good, value_hidden=(8, 0)), "value_hidden"),
        (replace(good, value_plies=-2), "value_plies"),
        (replace(good, value_mix=1.5), "value_mix"),
        (replace(good, value_mix=-0.1), "value_mix"),
        (replace(good, value=None, value_mix=0.5), "need a state value"),
        (replace(good, value=None, value_plies=3), "need a state value"),
        (replace(good, value=None, value_mix="junk"), "value_mix"),
        (replace(good, objective="wins"), "objective='levels'"),
        (replace(good, tree_moves=4), "tree"),
        (replace(good, policy_weight=0.5, policy_events=4), "weighting"),
        (replace(good, policy_weight=0.5, policy_events=0), "weighting"),  # the core weighs these deals too
        (replace(good, value="weights"), "finite numbers"),
    ):
        check(lambda params=params: _core.search(info, state, words, params), GuandanError, match)
    check(lambda: _core.value_of(Deal.new(seed=1).native_state(), value.flat(), (4, 8)), GuandanError, "finite numbers")
    for hidden in ((), [4], 5, "ab", (4, 0), (4, 257)):
        check(lambda hidden=hidden: _core.value_size(hidden), GuandanError, "value_hidden")
    assert _core.value_size((4, 2)) == VALUE_FEATURES * 4 + 4 + 4 * 2 + 2 + 2 + 1


def test_the_value_of_a_finished_deal_is_refused():
    deal = Deal.new(seed=9, level=2, leader=0)
    play_out(deal, [GreedyAgent()] * 4)
    value = StateValue.random((4, 2))
    check(lambda: value.native(deal.native_state()), GuandanError, "over")
