"""Native deals and playouts: the same trick flow as the Python Deal, seeded
playouts, the canonical spending of rank-level moves, and the search bot."""

from __future__ import annotations

import pytest
from refusals import check

from guandan import (
    Cards,
    Deal,
    GuandanError,
    IllegalMoveError,
    InvalidCardsError,
    InvalidMoveError,
    classify,
)
from guandan.bots import playout
from guandan.bots.agents import GreedyAgent, RandomAgent
from guandan.bots.loop import play_out
from guandan.bots.playout import playouts, policy_move
from guandan.bots.registry import make_agent
from guandan.bots.search import BasicMonteCarloAgent, MonteCarloAgent
from guandan.core import _core
from guandan.core.movegen import pack_move, pack_rank_move
from guandan.core.packed import PASS_WORD


@pytest.mark.parametrize("seed", range(60))
def test_native_trick_flow_follows_the_python_deal(seed):
    """Step a random game in both: after every action the native state is the deal's."""
    deal = Deal.new(seed=seed, level=2 + seed % 13)
    agent = RandomAgent(seed)
    state = deal.native_state()
    while True:
        move = agent.act(deal.observation(deal.turn))
        lo, hi = pack_move(move)
        state, over = _core.deal_step(state, lo, hi)
        deal.play(move)
        assert over == deal.is_over
        if over:
            assert state[6] == deal.finish_order[: len(state[6])]
            break
        assert state == deal.native_state()


def test_playouts_are_seeded_and_finish_orders_are_well_formed():
    deal = Deal.new(seed=3, level=5)
    a, b = playouts(deal, 500, "random", seed=1), playouts(deal, 500, "random", seed=1)
    assert (a == b).all() and not (a == playouts(deal, 500, "random", seed=2)).all()
    for row in a.tolist():
        placed = [s for s in row if s >= 0]
        assert len(placed) == len(set(placed)) and len(placed) in (2, 4)
        if len(placed) == 2:  # a double-down: partners first and second
            assert placed[1] == placed[0] ^ 2
    greedy = playouts(deal, 5, "greedy")
    assert (greedy == greedy[0]).all()  # the greedy policy is deterministic


def test_playouts_continue_from_a_deal_in_progress():
    deal = Deal.new(seed=8, level=3)
    play_out(deal, [GreedyAgent()] * 4, max_actions=60)
    orders = playouts(deal, 200, "random", seed=4)
    assert all(tuple(row[: len(deal.finish_order)]) == deal.finish_order for row in orders.tolist())


def test_canonical_spending_keeps_one_card_of_as_many_suits_as_possible():
    hand = Cards.parse("S5 S5 H5 C5 D5 S9 C9")
    pair = pack_rank_move(classify("S5 S5", 2)[0].to_rank())
    spent = _core.spend_cards(hand.counts, 2, pair)
    assert Cards(_core.unpack_cards(spent & (2**64 - 1), spent >> 64)) == Cards.parse("S5 S5")
    triple = pack_rank_move(classify("S5 S5 H5", 2)[0].to_rank())
    spent = _core.spend_cards(hand.counts, 2, triple)
    assert Cards(_core.unpack_cards(spent & (2**64 - 1), spent >> 64)) == Cards.parse("S5 S5 H5")
    with pytest.raises(IllegalMoveError):
        _core.spend_cards(hand.counts, 2, pack_rank_move(classify("SK CK", 2)[0].to_rank()))


def test_policy_moves_are_legal():
    deal = Deal.new(seed=12, level=7)
    for _ in range(40):
        move = policy_move(deal, "greedy")
        assert move in deal.legal_moves()
        deal.play(move)


def test_inconsistent_native_states_are_refused():
    deal = Deal.new(seed=1, level=2)
    hands, level, turn, last, beat, passes, finished = deal.native_state()
    with pytest.raises(InvalidMoveError, match="inconsistent deal state"):
        _core.playouts((hands, level, turn, last, beat, passes, (turn,)), 1)  # a seat out with cards
    with pytest.raises(InvalidMoveError, match="inconsistent deal state"):
        _core.playouts((hands, level, turn, 2, PASS_WORD, passes, finished), 1)  # a seat but no play
    with pytest.raises(InvalidCardsError, match="level"):
        _core.playouts((hands, 15, turn, last, beat, passes, finished), 1)
    with pytest.raises(InvalidMoveError, match="turn"):
        _core.playouts((hands, level, 4, last, beat, passes, finished), 1)
    doubled = (hands[0], hands[0], hands[2], hands[3])
    with pytest.raises(InvalidMoveError, match="more than two copies"):
        _core.playouts((doubled, level, turn, last, beat, passes, finished), 1)
    with pytest.raises(InvalidMoveError, match="a deal state is"):
        _core.playouts((hands, level), 1)
    with pytest.raises(GuandanError, match="policy"):
        _core.playouts(deal.native_state(), 1, "clever")


def test_evaluate_plays_each_candidate_in_each_state():
    deal = Deal.new(seed=4, level=2, leader=0)
    words = _core.rank_moves(deal.hands[0].counts, 2)[:5]
    out = _core.evaluate([deal.native_state()] * 3, words, 2, "random", 9)
    assert out.shape == (3, 5, 2, 4) and (out[:, :, :, 0] >= 0).all()
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        _core.evaluate([deal.native_state()], [pack_rank_move(classify("SB SB HR HR", 2)[0].to_rank())])


@pytest.mark.slow
def test_the_search_bot_plays_legal_deterministic_games():
    def game(seed):
        deal = Deal.new(seed=seed, level=3)
        bots = [MonteCarloAgent(seed=1, rollouts=200), BasicMonteCarloAgent(seed=3, determinizations=4)]
        play_out(deal, [bots[0], GreedyAgent(), make_agent("mc:rollouts=100", 2), bots[1]])
        return deal.history

    first = game(21)
    assert first == game(21)
    assert first[-1].move.cards  # the deal ended on a play
    assert all(isinstance(make_agent("mc", s), MonteCarloAgent) for s in range(2))
    assert isinstance(make_agent("mc-basic"), BasicMonteCarloAgent)


@pytest.mark.slow
def test_the_search_bot_beats_greedy_more_often_than_not_on_a_sample():
    """A sanity check on strength, not a benchmark: over 40 seeded deals each search side
    wins more than half (the README's figures come from large runs)."""
    wins = {"mc": 0, "mc-basic": 0}
    for seed in range(40):
        for name in wins:
            deal = Deal.new(seed=1000 + seed, level=2)
            a, b = make_agent(f"{name}", seed), make_agent(f"{name}", seed + 50)
            if name == "mc":
                a, b = MonteCarloAgent(seed=seed, rollouts=500), MonteCarloAgent(seed=seed + 50, rollouts=500)
            play_out(deal, [a, GreedyAgent(), b, GreedyAgent()])
            wins[name] += deal.result.winning_side == 0
    assert wins["mc"] > 20 and wins["mc-basic"] > 20


@pytest.mark.parametrize("seed", range(20))
def test_deal_state_is_native_state_of_the_deals_public_values(seed):
    """``deal_state`` reads the deal's packed state; it is ``native_state`` of the
    hands, the play to beat and the trick, and an observation's history counts the same passes
    as its decoded records."""
    from guandan.bots.playout import native_state

    deal = Deal.new(seed, level=2 + seed % 13)
    agents = [RandomAgent(seed), GreedyAgent(), RandomAgent(seed + 1), GreedyAgent()]
    checked = 0
    while not deal.is_over:
        state = deal.native_state()
        assert state == native_state(deal.hands, int(deal.level), deal.turn, deal.to_beat, deal.trick,
                                     deal.finish_order)  # fmt: skip
        obs = deal.observation(deal.turn)
        assert state == native_state(deal.hands, int(deal.level), deal.turn, obs.to_beat, obs.history,
                                     obs.finish_order)  # fmt: skip
        assert obs.history.trailing_passes() == state[5] or obs.to_beat is None
        assert native_state(deal.hands, int(deal.level), deal.turn, obs.to_beat, list(obs.history),
                            obs.finish_order) == state  # fmt: skip
        deal.act(agents[deal.turn].act(obs))
        checked += 1
    assert checked > 40


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: playout.playouts(Deal.new(1), -1), GuandanError, "n is an int"),
        (lambda: playout.playouts(Deal.new(1), 1, "x"), GuandanError, "policy"),
        (lambda: playout.playouts("deal", 1), GuandanError, "Deal"),
        (lambda: playout.policy_move(Deal.new(1), "x"), GuandanError, "policy"),
    ],
)
def test_bad_playout_arguments_raise(call, error, match):
    check(call, error, match)
