"""The learned rollout policy: the native features and choice against their plain-Python
version, the shipped weights, and the policy inside rollouts and inside ``mc``.

The features of every legal rank-level move (``_core.move_features``) are those of
:func:`guandan.bots.rollout_policy.reference_features`, and the move the policy plays
(``_core.learned_move``) is :func:`~guandan.bots.rollout_policy.reference_move`'s, on every
position of seeded deals played out by random agents (early, middle and endgame positions,
every level) under random and under the shipped weights. The move generation both use is
the core's, checked against the reference generator elsewhere.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from refusals import check

from guandan import Deal, GuandanError, IllegalMoveError, RandomAgent
from guandan.bots.loop import play_out
from guandan.bots.rollout_policy import (
    FEATURES,
    FIRST_FEATURES,
    HIDDEN,
    NET_WEIGHTS,
    WEIGHTS,
    feature_dims,
    load_weights,
    policy_features,
    policy_file,
    reference_belief,
    reference_features,
    reference_move,
    reference_sample,
)
from guandan.bots.search import MonteCarloAgent
from guandan.core import _core
from guandan.core.cards import Cards
from guandan.core.packed import PASS_WORD, DealState, bits_of_cards
from guandan.core.rng import SplitMix64


def positions(seeds):
    """Every position of seeded deals played out by random agents."""
    for seed in seeds:
        deal = Deal.new(seed, level=2 + seed % 13)
        agents = [RandomAgent(seed * 4 + s) for s in range(4)]
        while not deal.is_over:
            yield deal.native_state(), deal.hands[deal.turn]
            deal.act(agents[deal.turn].act(deal.observation(deal.turn)), deal.turn)


def check_features(seeds):
    moves = 0
    for state, hand in positions(seeds):
        words = [int(w) for w in _core.rank_moves(hand.counts, state.level, state.beat)]
        native = _core.move_features(state, words)
        assert native.shape == (len(words), WEIGHTS) and native.dtype == np.float32
        for i, word in enumerate(words):
            np.testing.assert_allclose(
                native[i], np.float32(reference_features(state, word)), atol=1e-6, err_msg=hex(word)
            )
        moves += len(words)
    return moves


@pytest.mark.slow
def test_the_native_features_are_the_reference_features():
    assert check_features(range(2)) > 500


@pytest.mark.slow
def test_the_native_features_are_the_reference_features_over_many_deals():
    assert check_features(range(3, 43)) > 10_000


def check_choices(seeds, weights):
    checked = 0
    for state, _ in positions(seeds):
        w = weights(checked)
        assert _core.learned_move(state, w)[0] == reference_move(state, w)
        checked += 1
    return checked


@pytest.mark.slow
def test_the_learned_move_is_the_reference_choice_under_random_and_shipped_weights():
    rng = np.random.default_rng(3)
    shipped = load_weights()
    assert check_choices(range(2), lambda i: rng.normal(size=WEIGHTS)) > 100
    assert check_choices(range(2, 4), lambda i: shipped) > 100


@pytest.mark.slow
def test_the_learned_move_is_the_reference_choice_over_many_deals():
    rng = np.random.default_rng(4)
    assert check_choices(range(4, 40), lambda i: rng.normal(size=WEIGHTS) * (1 + i % 3)) > 3000


def random_net(rng, scale=1.0):
    """Random weights of a policy with a hidden layer: the linear weights, each unit's inputs
    and bias at random, its output of either sign (some units dead on some moves, some not)."""
    return rng.normal(size=NET_WEIGHTS) * scale


@pytest.mark.slow
def test_the_learned_move_with_a_hidden_layer_is_the_reference_choice():
    rng = np.random.default_rng(5)
    assert check_choices(range(2), lambda i: random_net(rng, 1 + i % 3)) > 100
    # the hidden layer alone decides: linear weights 0
    assert check_choices(range(2, 3), lambda i: np.concatenate([np.zeros(WEIGHTS), random_net(rng)[WEIGHTS:]])) > 50


@pytest.mark.slow
def test_the_learned_move_with_a_hidden_layer_is_the_reference_choice_over_many_deals():
    rng = np.random.default_rng(6)
    assert check_choices(range(40, 70), lambda i: random_net(rng, 0.5 + i % 4)) > 2000


# -- the policy drawn at a temperature -------------------------------------------------------------


def check_draws(seeds, weights, temperatures):
    """The native draw (``gd_learned_sample``) is the plain-Python one at every position, for
    each temperature and two seeds; returns the draws compared and those off the best move."""
    compared = off = 0
    for state, _ in positions(seeds):
        w = weights(compared)
        best = reference_move(state, w)
        for t in temperatures:
            for seed in (1, 2):
                drawn = int(_core.learned_move(state, w, t, seed)[0])
                assert drawn == reference_sample(state, w, t, SplitMix64(seed)), (t, seed)
                off += drawn != best
                compared += 1
    return compared, off


def test_the_drawn_move_is_the_reference_draw_under_shipped_linear_and_hidden_weights():
    rng = np.random.default_rng(8)
    shipped = load_weights()
    compared, off = check_draws(range(1), lambda i: shipped, (0.3, 3.0))
    assert compared > 200 and off > 20  # the draws leave the best move, often
    compared, off = check_draws(range(1, 2), lambda i: random_net(rng, 1 + i % 3), (0.5, 3.0))
    assert compared > 200 and off > 20


@pytest.mark.slow
def test_the_drawn_move_is_the_reference_draw_over_many_deals():
    rng = np.random.default_rng(9)
    compared, _ = check_draws(range(70, 85), lambda i: rng.normal(size=WEIGHTS) * (1 + i % 3), (0.1, 1.0, 10.0))
    assert compared > 5000


def test_a_draw_at_a_tiny_temperature_is_the_best_move_and_a_large_one_spreads():
    shipped = load_weights()
    state = Deal.new(5, level=2).native_state()
    best = _core.learned_move(state, shipped)[0]
    assert {_core.learned_move(state, shipped, 1e-6, seed)[0] for seed in range(30)} == {best}
    spread = {_core.learned_move(state, shipped, 100.0, seed)[0] for seed in range(60)}
    assert len(spread) > 10  # nearly uniform over the many leads of a full hand
    drawn = _core.learned_move(state, shipped, 1.0, 7)
    assert drawn == _core.learned_move(state, shipped, 1.0, 7)  # a seed's draw, again
    for bad in (-1.0, float("nan"), "hot"):
        check(lambda bad=bad: _core.learned_move(state, shipped, bad, 1), GuandanError, "temperature")
        check(lambda bad=bad: reference_sample(state, shipped, bad, SplitMix64(1)), GuandanError, "temperature")


def test_a_hidden_layer_whose_outputs_are_zero_plays_as_the_linear_weights():
    """``with_hidden`` adds units with random inputs and outputs 0: every choice, and so
    every rollout, is the linear policy's; once an output moves, choices change."""
    from guandan.rl.imitate import with_hidden

    shipped = load_weights()
    net = with_hidden(shipped, seed=2)
    assert net.shape == (NET_WEIGHTS,) and np.array_equal(net[:WEIGHTS], shipped) and net[WEIGHTS:].any()
    for state, _ in positions(range(3)):
        assert _core.learned_move(state, net)[0] == _core.learned_move(state, shipped)[0]
    state = Deal.new(7, level=3).native_state()
    rollouts = [_core.rollouts(state, 4, "learned", seed=3, weights=w) for w in (net, shipped)]
    assert np.array_equal(*rollouts)
    loud = net.copy()
    unit = len(FEATURES) + 2
    for u in range(2 * HIDDEN):
        loud[WEIGHTS + u * unit + len(FEATURES) + 1] = 50.0 * (-1) ** u
    changed = sum(
        _core.learned_move(state, loud)[0] != _core.learned_move(state, shipped)[0] for state, _ in positions(range(3))
    )
    assert changed > 0


def test_a_policy_file_with_a_hidden_layer_loads_its_numbers_and_mc_plays_it(tmp_path):
    from guandan.rl.imitate import _write_policy

    rng = np.random.default_rng(8)
    names = list(FIRST_FEATURES)
    net = random_net(rng).round(6)
    # a feature the file does not name weighs nothing, in the linear weights and the units' inputs
    named = feature_dims(names, hidden=True)
    net[np.setdiff1d(np.arange(NET_WEIGHTS), named)] = 0.0
    path = tmp_path / "net.json"
    _write_policy(str(path), net, {}, ["python -m guandan.rl.imitate improve ..."], names)
    data = json.loads(path.read_text())
    assert len(data["hidden"]["leading"]) == HIDDEN and len(data["hidden"]["responding"][0]["inputs"]) == len(names)
    assert np.array_equal(load_weights(str(path)), net) and policy_features(str(path)) == tuple(names)
    deal = Deal.new(3, level=2)
    bot = MonteCarloAgent(seed=1, rollouts=200, weights=str(path))
    assert bot.act(deal.observation(deal.turn)) in deal.legal_moves()
    # bad hidden layers are refused by name
    for bad, says in (
        ([], "'hidden' is an object"),
        ({"leading": [], "responding": []}, f"'leading' is {HIDDEN} units"),
        ({"leading": [{"inputs": [1]}] * HIDDEN, "responding": []}, "has 'inputs'"),
        ({"leading": [{"inputs": [0] * len(names), "bias": "x", "output": 1}] * HIDDEN}, "bias is 'x'"),
    ):
        path.write_text(json.dumps({**data, "hidden": bad}))
        check(lambda: load_weights(str(path)), GuandanError, says)
    state = deal.native_state()
    check(lambda: _core.learned_move(state, np.zeros(NET_WEIGHTS + 1)), GuandanError, f"or {NET_WEIGHTS} finite")


def test_the_features_fall_in_their_halves_and_name_what_they_say():
    deal = Deal.new(5, level=2, leader=0)
    state = deal.native_state()
    words = [int(w) for w in _core.rank_moves(deal.hands[0].counts, 2, PASS_WORD)]
    f = _core.move_features(state, words)
    n = len(FEATURES)
    assert not f[:, n:].any()  # leading: the responding half is zero
    assert (f[:, FEATURES.index("pass")] == 0).all()  # no pass when leading
    smart = _core.smart_move(state)[0]
    assert f[:, FEATURES.index("smart")].tolist() == [float(w == smart) for w in words]
    # a response: the pass is a move, in the responding half
    deal.play(deal.legal_moves()[0])
    state = deal.native_state()
    words = [int(w) for w in _core.rank_moves(deal.hands[1].counts, 2, state.beat)]
    f = _core.move_features(state, words)
    assert not f[:, :n].any() and words[-1] == PASS_WORD and f[-1, n + FEATURES.index("pass")] == 1.0


def features_of(hands, turn, last, beat, finished, level=2):
    """The native and reference features of every legal move (words, native rows, names of
    each row's nonzero features), checked equal."""
    cards = [Cards.parse(h) for h in hands]
    state = DealState(tuple(bits_of_cards(h) for h in cards), level, turn, last, beat, 0, finished)
    words = [int(w) for w in _core.rank_moves(cards[turn].counts, level, beat)]
    f = _core.move_features(state, words)
    n = len(FEATURES)
    named = []
    for i, word in enumerate(words):
        np.testing.assert_allclose(f[i], np.float32(reference_features(state, word)), atol=1e-6)
        named.append({FEATURES[j % n] for j in np.flatnonzero(f[i])})
    return words, named


def test_the_features_of_the_other_hands_see_who_can_beat_a_single_a_pair_or_a_triple():
    # level 2: the heart two is wild. Seat 1 (an opponent) holds an ace and a wild: it beats
    # any single and makes a pair of aces; the partner (seat 2) holds two small jokers.
    hands = ("S5 C5 D5 S9", "SA H2", "BJ BJ C3", "C4 D4 S4 S6 S7 S8")
    words, named = features_of(hands, 0, -1, PASS_WORD, ())
    by_word = dict(zip(words, named, strict=True))
    singles = [w for w in words if (w >> 60) == 1]
    assert len(singles) == 2 and all({"opp_over", "partner_over"} <= by_word[w] for w in singles)
    pairs = [w for w in words if (w >> 60) == 2]
    assert pairs and all({"opp_over", "partner_over"} <= by_word[w] for w in pairs)  # aces; jokers
    triples = [w for w in words if (w >> 60) == 3]
    assert triples and all(not {"opp_over", "partner_over"} & by_word[w] for w in triples)  # no triple beats
    # with the opponent out of the deal (finished) nobody but the partner beats the pair
    words, named = features_of(hands[:1] + ("",) + hands[2:], 0, -1, PASS_WORD, (1,))
    assert all("opp_over" not in f and "partner_over" in f for w, f in zip(words, named, strict=True) if (w >> 60) == 2)


def test_the_pass_on_the_partners_last_play_is_jiefeng_and_a_bomb_knows_the_partner_is_out():
    # seat 2 went out with a single three; seat 0 responds: passing lets the lead come to it
    single3 = next(int(w) for w in _core.rank_moves(Cards.parse("C3").counts, 2, PASS_WORD) if w != PASS_WORD)
    hands = ("S5 C5 D5 H5 S9", "SA", "", "C4 D4")
    words, named = features_of(hands, 0, 2, single3, (2,))
    assert words[-1] == PASS_WORD and {"pass", "pass_partner", "pass_jiefeng"} <= named[-1]
    bombs = [f for f in named if "bomb" in f]
    assert bombs and all("bomb_partner_out" in f for f in bombs)
    # the partner still holding: a pass on its play is no jiefeng, a bomb not alone
    words, named = features_of(("S5 C5 D5 H5 S9", "SA", "C6", "C4 D4"), 0, 2, single3, ())
    assert "pass_jiefeng" not in named[-1] and not any("bomb_partner_out" in f for f in named)


def test_a_move_that_plays_out_the_hand_is_played_whatever_the_weights():
    hands = [Cards.parse(h) for h in ("S5 C5", "S3 S4 S6 S8 SJ", "C9 CT", "D3 D4 D6 D8 DJ")]
    state = DealState(tuple(bits_of_cards(h) for h in hands), 2, 0, -1, PASS_WORD, 0, ())
    pair = _core.rank_moves(hands[0].counts, 2, PASS_WORD)
    pair_word = next(int(w) for w in pair if (int(w) >> 60) == 2)
    for w in (np.zeros(WEIGHTS), -np.ones(WEIGHTS) * 50, np.eye(WEIGHTS)[FEATURES.index("single")] * 1e6):
        assert _core.learned_move(state, w)[0] == pair_word == reference_move(state, w)


def test_the_shipped_weights_name_their_features_and_how_they_were_made():
    data = json.loads(policy_file().read_text(encoding="utf-8"))
    names = data["features"]
    assert set(FIRST_FEATURES) <= set(names) <= set(FEATURES) and tuple(names) == policy_features()
    assert data["made_by"] and all(c.startswith("python -m guandan.rl.imitate ") for c in data["made_by"])
    w = load_weights()
    assert w.shape == (WEIGHTS,) and np.isfinite(w).all() and w.any()
    # the features it names carry its numbers; the others weigh nothing
    dims = feature_dims(names)
    np.testing.assert_array_equal(w[dims], data["leading"] + data["responding"])
    assert not np.delete(w, dims).any()


def test_bad_weights_are_refused_by_name(tmp_path):
    state = Deal.new(5, level=2).native_state()
    for bad in ([0.0] * (WEIGHTS - 1), [float("nan")] * WEIGHTS, "weights", None, [[0.0] * WEIGHTS]):
        check(lambda bad=bad: _core.learned_move(state, bad), GuandanError, "weights are")
    check(lambda: _core.rollouts(state, 1, "learned"), GuandanError, "the learned policy needs its weights")
    check(lambda: _core.move_features(state, [0x1100000000000001]), IllegalMoveError, "is not a legal move")
    path = tmp_path / "w.json"
    check(lambda: load_weights(str(path)), GuandanError, "cannot read the rollout policy")
    for names in (["pass", "not_a_feature"], ["pass", "pass"], [], "pass"):
        path.write_text(json.dumps({"features": names, "leading": [0, 0], "responding": [0, 0]}))
        check(lambda: load_weights(str(path)), GuandanError, "is not a rollout policy of these features")
    path.write_text(json.dumps({"features": ["pass"], "leading": [], "responding": [1]}))
    check(lambda: load_weights(str(path)), GuandanError, "'leading' is 1 numbers")
    path.write_text(
        json.dumps({"features": list(FEATURES), "leading": [0] * len(FEATURES), "responding": ["x"] * len(FEATURES)})
    )
    check(lambda: load_weights(str(path)), GuandanError, "not a finite number")
    check(lambda: MonteCarloAgent(policy="learned", weights=3), GuandanError, "weights is the path")


def test_a_file_of_fewer_features_loads_with_the_others_weighing_nothing(tmp_path):
    names = ["smart", "pass", "key"]
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"features": names, "leading": [1.5, 0, -2], "responding": [3, 0.25, 0]}))
    w = load_weights(str(path))
    n = len(FEATURES)
    expected = np.zeros(WEIGHTS)
    expected[FEATURES.index("smart")], expected[FEATURES.index("key")] = 1.5, -2
    expected[n + FEATURES.index("smart")], expected[n + FEATURES.index("pass")] = 3, 0.25
    np.testing.assert_array_equal(w, expected)


def test_learned_rollouts_are_deterministic_and_not_the_smart_policys():
    w = load_weights()
    differ = 0
    for seed in range(20):
        state = Deal.new(seed, level=2 + seed % 13).native_state()
        a = _core.rollouts(state, 3, "learned", seed=1, weights=w)
        assert (a == a[0]).all() and np.array_equal(a, _core.rollouts(state, 3, "learned", seed=9, weights=w))
        differ += not np.array_equal(a[0], _core.rollouts(state, 1, "smart")[0])
    assert differ > 0


@pytest.mark.parametrize("seed", [2, 13])
def test_rollouts_with_weights_a_seat_are_the_reference_policys_play_seat_by_seat(seed):
    """Two learned policies at one table (``seat_weights``): the deal each native rollout
    plays is the one the plain-Python choice plays, each seat scoring with its own weights."""
    ours = load_weights()
    theirs = np.array(ours)
    theirs[FEATURES.index("smart")] = -1.0  # a policy that avoids the smart policy's lead
    per_seat = [ours, theirs, ours, theirs]
    deal = Deal.new(seed, level=2 + seed % 13)
    start = deal.native_state()
    while not deal.is_over:
        deal.play_canonical(reference_move(deal.native_state(), per_seat[deal.turn]))
    order = _core.rollouts(start, 2, "learned", seed=5, seat_weights=per_seat)
    assert [int(x) for x in order[0][: len(deal.finish_order)]] == list(deal.finish_order)
    assert np.array_equal(order[0], order[1])
    same = _core.rollouts(start, 1, "learned", seed=5, weights=ours)
    assert np.array_equal(same, _core.rollouts(start, 1, "learned", seed=5, seat_weights=[ours] * 4))
    assert np.array_equal(same, _core.rollouts(start, 1, "learned", seed=5, weights=ours, seat_weights=[None] * 4))
    check(lambda: _core.rollouts(start, 1, "learned", seat_weights=[ours] * 3), GuandanError, "seat_weights: four")
    check(lambda: _core.rollouts(start, 1, "learned", seat_weights=[ours, None, ours, ours]), GuandanError, "needs")


@pytest.mark.slow
def test_mc_with_the_learned_policy_gives_the_same_choices_whatever_the_threads():
    def game(threads):
        deal = Deal.new(11, level=4)
        bots = [MonteCarloAgent(seed=s, rollouts=300, policy="learned", threads=threads) for s in range(4)]
        play_out(deal, bots)
        return [str(r) for r in deal.history]

    assert game(1) == game(3)


# -- the policy's belief about sampled deals --------------------------------------------------


def belief_positions(seeds, every):
    """Observations from seeded deals played out by random and greedy agents, every
    ``every`` plays, with the deal's hands."""
    from guandan.bots.agents import GreedyAgent

    for seed in seeds:
        deal = Deal.new(seed, level=2 + seed % 13)
        agents = [RandomAgent(seed) if s % 2 == seed % 2 else GreedyAgent() for s in range(4)]
        ply = 0
        while not deal.is_over:
            if ply and ply % every == 0:
                yield deal.observation(deal.turn), deal
            deal.act(agents[deal.turn].act(deal.observation(deal.turn)), deal.turn)
            ply += 1


def check_beliefs(seeds, every, events):
    from guandan.bots.determinize import information_set

    w = load_weights()
    checked = set()
    for observation, _deal in belief_positions(seeds, every):
        info = information_set(observation)
        for hands in _core.sample_deals(info, 2, seed=len(checked)):
            for n in events:
                native = _core.policy_belief(info, hands, w, 0.5, n)
                assert native == reference_belief(observation, hands, w, 0.5, n)
                checked.add(native)
    return checked


@pytest.mark.slow
def test_the_native_belief_is_the_reference_belief():
    """On sampled deals behind positions of random and greedy play, the policy's belief is
    its plain-Python version's, exactly; and it tells deals apart (not always 1)."""
    beliefs = check_beliefs(range(2), 25, (1, 6))
    assert 1.0 in beliefs and len(beliefs) > 1


@pytest.mark.slow
def test_the_native_belief_is_the_reference_belief_over_many_deals():
    beliefs = check_beliefs(range(2, 8), 13, (3, 1000))
    assert len(beliefs) > 3


def test_a_position_set_up_with_a_seat_out_is_believed_fully_by_both():
    """The core replays a deal from its start with every seat holding cards; a position set up
    mid-deal with a seat already out is not weighed (1.0), by the core and its twin alike."""
    from guandan.bots.determinize import information_set

    w = load_weights()
    deal = Deal(["S3 S4 S5 S6 S7 C9 C10 D10 HJ", "", "S9 H9 C8 D7 D6", "D5 D6 C3 C4 HK"], level=2, leader=0,
                finish_order=(1,))  # fmt: skip
    for _ in range(6):
        deal.play_canonical(int(_core.learned_move(deal.native_state(), w)[0]))
    observation = deal.observation(deal.turn)
    info = information_set(observation)
    for hands in [[bits_of_cards(h) for h in deal.hands], *_core.sample_deals(info, 3, 1)]:
        assert _core.policy_belief(info, hands, w, 0.5, 1000) == 1.0
        assert reference_belief(observation, hands, w, 0.5, 1000) == 1.0


def test_a_deal_played_by_the_policy_is_believed_fully():
    """With the true hands, plays made by the learned policy itself are each the policy's
    choice: a belief of 1 at every step; a sampled deal is believed less often than not."""
    from guandan.bots.determinize import information_set

    w = load_weights()
    deal = Deal.new(6, level=5)
    lower = 0
    while not deal.is_over:
        deal.play_canonical(int(_core.learned_move(deal.native_state(), w)[0]))
        if deal.is_over or deal.ply % 7:
            continue
        info = information_set(deal.observation(deal.turn))
        assert _core.policy_belief(info, [bits_of_cards(h) for h in deal.hands], w, 0.5, 1000) == 1.0
        lower += sum(_core.policy_belief(info, h, w, 0.5, 1000) < 1.0 for h in _core.sample_deals(info, 4, 1))
    assert lower > 0


def test_the_belief_of_events_that_do_not_replay_is_one():
    """A hand-built information set whose events are not a deal's order of play (a seat
    playing out of turn) is believed fully, not misread; bad options are refused."""
    from guandan.bots.determinize import information_set

    w = load_weights()
    deal = Deal.new(2, level=2, leader=0)
    for _ in range(6):
        deal.play_canonical(int(_core.learned_move(deal.native_state(), w)[0]))
    info = information_set(deal.observation(deal.turn))
    hands = [bits_of_cards(h) for h in deal.hands]
    events = info.events.copy()
    events[0, 0] = (int(events[0, 0]) & 0xFF) | ((int(events[0, 0]) >> 8 & 3) + 1) % 4 << 8
    assert _core.policy_belief(info._replace(events=events), hands, w, 0.5, 1000) == 1.0
    rng = np.random.default_rng(3)
    for _ in range(20):  # events in any order (out of turn, not beating) are read safely
        shuffled = info.events[rng.permutation(len(info.events))]
        assert 0.0 < _core.policy_belief(info._replace(events=shuffled), hands, w, 0.5, 1000) <= 1.0
    check(lambda: _core.policy_belief(info, hands, w, 0.0, 3), GuandanError, "policy_weight is a number in")
    check(lambda: _core.policy_belief(info, hands, w, 1.5, 3), GuandanError, "policy_weight is a number in")
    check(lambda: _core.policy_belief(info, hands, w[:3], 0.5, 3), GuandanError, "weights are")
    check(lambda: _core.policy_belief(info, hands[:3], w, 0.5, 3), GuandanError, "four packed hands")
    assert _core.policy_belief(info, hands, w, 1.0, 3) == 1.0 == _core.policy_belief(info, hands, w, 0.5, 0)
