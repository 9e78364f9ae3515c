"""The PettingZoo environment: its API and seed tests, seeds, the
information set, rewards, rendering, bad input."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra")
pytest.importorskip("gymnasium", reason="the rl extra")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from guandan import Cards, Deal, GuandanError, IllegalMoveError  # noqa: E402
from guandan.bots.agents import GreedyAgent  # noqa: E402
from guandan.core.batch import ACTION_SPACE  # noqa: E402
from guandan.core.movegen import canonical_move  # noqa: E402
from guandan.game.encoding import encode_state  # noqa: E402
from guandan.rl.env import CARD_ACTIONS, N_ACTIONS, GuandanEnv, action_move, env  # noqa: E402


@pytest.mark.slow
def test_the_deal_environment_passes_pettingzoos_api_and_seed_tests():
    api_test(GuandanEnv(), num_cycles=400, verbose_progress=False)
    api_test(env(reward="wins"), num_cycles=400, verbose_progress=False)
    seed_test(lambda: GuandanEnv(level=9), num_cycles=300)


@pytest.mark.slow
def test_the_match_environment_passes_pettingzoos_api_and_seed_tests():
    api_test(GuandanEnv(kind="match", max_deals=3), num_cycles=2000, verbose_progress=False)
    seed_test(lambda: GuandanEnv(kind="match"), num_cycles=1500)


def _play(e, seed, limit=10_000):
    rng = np.random.default_rng(seed)
    steps = 0
    for _agent in e.agent_iter(limit):
        obs, reward, termination, truncation, info = e.last()
        if termination or truncation:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
        steps += 1
    return steps


def test_a_deal_is_deal_new_of_the_seed_and_ends_with_zero_sum_level_rewards():
    e = GuandanEnv(level=5)
    e.reset(seed=77)
    assert e.state == Deal.new(77, 5)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    while e.agents:
        agent = e.agent_selection
        obs, reward, termination, truncation, info = e.last()
        totals[agent] += reward
        e.step(None if termination else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    order = e.state.finish_order
    place = order.index(order[0] ^ 2) + 1 if order[0] ^ 2 in order else 4
    gains = {2: 3, 3: 2, 4: 1}[place]  # the default promotion
    assert totals[f"seat_{order[0]}"] == gains and totals[f"seat_{order[0] ^ 1}"] == -gains
    assert sum(totals.values()) == 0


def test_a_match_takes_tribute_and_return_as_card_actions():
    e = GuandanEnv(kind="match", max_deals=3)
    e.reset(seed=5)
    seen_cards = 0
    rng = np.random.default_rng(1)
    while e.agents:
        obs, reward, termination, truncation, info = e.last()
        if termination or truncation:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        if legal.min() >= CARD_ACTIONS:
            seen_cards += 1
            assert e.state.phase.label in ("tribute", "return")
        else:
            assert legal.max() < CARD_ACTIONS
        e.step(int(rng.choice(legal)))
    assert seen_cards >= 2 and len(e.state.results) == 3


def test_observe_is_the_agents_information_set_only():
    # two deals that differ only in the other seats' hidden cards look the same to seat 0
    a = Deal.new(seed=12, level=2)
    plays = []
    greedy = [GreedyAgent()] * 4
    for _ in range(12):
        seat = a.turn
        move = greedy[seat].act(a.observation(seat))
        plays.append((seat, move))
        a.play(move)
    played = [Cards() for _ in range(4)]
    for seat, move in plays:
        played[seat] = played[seat] + move.cards
    rest = [list(a.hand(s)) for s in (1, 2, 3)]
    pool = rest[0] + rest[1] + rest[2]
    np.random.default_rng(3).shuffle(pool)
    hands = [a.initial_hands[0]]
    k = 0
    for s, r in zip((1, 2, 3), rest):
        counts = [0] * 54
        for f in pool[k : k + len(r)]:
            counts[f] += 1
        hands.append(played[s] + Cards(counts))
        k += len(r)
    b = Deal(hands, level=2, leader=a.leader)
    for _seat, move in plays:
        b.play(move)
    assert [a.hand(s) for s in (1, 2, 3)] != [b.hand(s) for s in (1, 2, 3)]
    ea, eb = GuandanEnv(), GuandanEnv()
    ea.reset(seed=0)
    eb.reset(seed=0)
    ea.state, eb.state = a, b
    ea._masks, eb._masks = {}, {}
    ea.agent_selection = eb.agent_selection = f"seat_{a.turn}"
    oa, ob = ea.observe("seat_0"), eb.observe("seat_0")
    assert np.array_equal(oa["observation"], ob["observation"])
    assert np.array_equal(oa["action_mask"], ob["action_mask"])
    assert np.array_equal(oa["observation"], encode_state(a.observation(0)))


def test_rank_actions_play_the_canonical_move_and_card_actions_a_card():
    e = GuandanEnv()
    e.reset(seed=9)
    obs = e.observe(e.agent_selection)
    a = int(np.flatnonzero(obs["action_mask"])[5])
    deal = e.state
    seat = deal.turn
    expected = canonical_move(int(ACTION_SPACE[a]), deal.hand(seat), deal.level)
    assert action_move(a, deal.hand(seat), 2) == expected
    e.step(a)
    assert deal.history[-1].move == expected
    assert action_move(CARD_ACTIONS + 7, "S3", 2) == 7


def test_render_shows_the_seat_to_acts_table_as_text():
    e = GuandanEnv(render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert "Hand of You" in text and "level 2" in text
    m = GuandanEnv(kind="match", render_mode="ansi")
    m.reset(seed=4)
    assert "Deal 1" in m.render()


def test_bad_steps_raise_naming_the_problem_and_change_nothing():
    e = GuandanEnv()
    e.reset(seed=2)
    before = (e.state.snapshot(), e.agent_selection)
    mask = e.observe(e.agent_selection)["action_mask"]
    for bad, match in [
        (N_ACTIONS, "an action is an int"),
        (-1, "an action is an int"),
        (1.0, "an action is an int"),
        (True, "an action is an int"),
        (int(np.flatnonzero(mask == 0)[0]), "not legal now"),
    ]:
        with pytest.raises(IllegalMoveError, match=match):
            e.step(bad)
        assert (e.state.snapshot(), e.agent_selection) == before
    other = f"seat_{(int(e.agent_selection[-1]) + 1) % 4}"
    with pytest.raises(IllegalMoveError, match=f"not {other}'s turn"):
        e.step_for(other, int(np.flatnonzero(mask)[0]))
    assert (e.state.snapshot(), e.agent_selection) == before
    _play(e, 0)
    assert not e.agents
    with pytest.raises(IllegalMoveError, match="game is over"):
        e.step(0)
    with pytest.raises(GuandanError, match="kind"):
        GuandanEnv(kind="tournament")  # type: ignore[arg-type]


# -- Gymnasium ---------------------------------------------------------------------------------------












@pytest.mark.slow
@pytest.mark.parametrize("kind", ["deal", "match"])
def test_every_observation_is_the_reference_encoding_of_the_seats_observation(kind):
    from guandan.game.encoding import reference_state

    e = GuandanEnv(kind=kind, max_deals=2)
    e.reset(seed=21)
    rng = np.random.default_rng(2)
    checked = 0
    while e.agents and checked < 600:
        for agent in e.possible_agents:
            seat = int(agent[-1])
            obs = e.observe(agent)
            assert np.array_equal(obs["observation"], reference_state(e.state.observation(seat)))
            checked += 1
        obs, reward, termination, truncation, info = e.last()
        e.step(None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked >= 200


# -- seeds, privileged information, actions as arrays, errors naming moves -------------------------


def _snapshot(e):
    return e.state.snapshot(), e.agent_selection


def test_every_seeded_reset_starts_the_unseeded_stream_again():
    a, b = GuandanEnv(), GuandanEnv()
    a.reset(seed=1)
    a.reset(seed=5)
    b.reset(seed=5)
    assert _snapshot(a) == _snapshot(b)
    a.reset()
    b.reset()
    assert _snapshot(a) == _snapshot(b)
    c = GuandanEnv()
    c.reset(seed=1)
    c.reset()
    assert _snapshot(c) != _snapshot(a)  # the stream is the latest seed's, not the first's


def test_numpy_integer_seeds_are_taken_and_seeds_outside_64_bits_refused():
    a, b = GuandanEnv(), GuandanEnv()
    a.reset(seed=np.int64(5))
    b.reset(seed=5)
    assert _snapshot(a) == _snapshot(b)
    a.reset(seed=np.uint64(2**64 - 1))
    b.reset(seed=2**64 - 1)
    assert _snapshot(a) == _snapshot(b)
    for bad in (-1, 2**64, 2**70, np.int64(-3), 1.0, True, "5"):
        with pytest.raises(GuandanError, match=r"a seed is an int in \[0, 2\*\*64\)"):
            a.reset(seed=bad)


def test_the_seed_is_privileged_not_in_what_a_seat_sees():
    e = GuandanEnv(render_mode="ansi")
    e.reset(seed=123456789)
    assert e.privileged_seed() == 123456789
    assert not hasattr(e, "seed") or not isinstance(e.seed, int)
    assert "123456789" not in e.render()
    _play(e, 0)
    for info in e.infos.values():
        assert "seed" not in info and 123456789 not in info.values()


def test_a_zero_d_integer_array_is_an_action_as_the_space_holds_it():
    a, b = GuandanEnv(), GuandanEnv()
    a.reset(seed=6)
    b.reset(seed=6)
    rng = np.random.default_rng(1)
    while a.agents:
        obs, _, termination, truncation, _ = a.last()
        if termination or truncation:
            a.step(None)
            b.step(None)
            continue
        action = np.array(rng.choice(np.flatnonzero(obs["action_mask"])))
        assert action.shape == () and a.action_space(a.agent_selection).contains(action)
        a.step(action)
        b.step(int(action))
        assert _snapshot(a) == _snapshot(b)
    e = GuandanEnv()
    e.reset(seed=1)
    for bad in (np.array([3]), np.array(3.0), np.array(N_ACTIONS)):  # 1-d, float, out of range
        with pytest.raises(IllegalMoveError, match="an action is an int"):
            e.step(bad)


def test_an_illegal_action_is_named_by_its_move():
    from guandan.core.movegen import unpack_rank_move

    e = GuandanEnv(level=7)
    e.reset(seed=2)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask[:CARD_ACTIONS] == 0)[-1])
    name = str(unpack_rank_move(int(ACTION_SPACE[bad]), 7))
    with pytest.raises(IllegalMoveError) as caught:
        e.step(bad)
    assert name in str(caught.value) and "0x" not in str(caught.value)


# -- one action interface: the legal actions' 567-value rows beside the fixed space ----------------


@pytest.mark.parametrize("kind", ["deal", "match"])
def test_the_legal_rows_are_the_moves_each_index_plays_encoded_as_the_onnx_agent_reads_them(kind):
    from guandan.core.cards import card_name
    from guandan.game.encoding import card_vector, encode_rows

    e = GuandanEnv(kind=kind, max_deals=2, legal_rows=True)
    e.reset(seed=11)
    rng = np.random.default_rng(3)
    decisions = cards = 0
    while e.agents and decisions < 150:
        agent = e.agent_selection
        obs, _, termination, truncation, info = e.last()
        if termination or truncation:
            e.step(None)
            continue
        rows, index = info["legal_rows"], info["legal_index"]
        assert np.array_equal(index, np.flatnonzero(obs["action_mask"]))
        assert rows.dtype == np.float32 and rows.shape == (len(index), 567)
        assert (rows[:, :513] == obs["observation"]).all()
        for other in e.possible_agents:
            assert other == agent or "legal_rows" not in e.infos[other]
        seat = int(agent[-1])
        observation = e.state.observation(seat)
        if index[0] < CARD_ACTIONS:
            every = {r.tobytes() for r in encode_rows(observation)}  # what the onnx agent scores
            for a, row in zip(index, rows):
                move = e.engine_action(int(a))
                assert np.array_equal(row[513:], card_vector(move.cards))
                assert row.tobytes() in every
        else:
            cards += 1
            for a, row in zip(index, rows):
                assert np.array_equal(row[513:], card_vector(card_name(int(a) - CARD_ACTIONS)))
        i = int(rng.integers(len(index)))
        played = e.engine_action(int(index[i]))
        e.step(int(index[i]))
        if kind == "deal":
            assert e.state.history[-1].move == played  # the row's move is the one played
        decisions += 1
    assert decisions >= 100 and (kind == "deal" or cards > 0)
