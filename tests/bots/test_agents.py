"""Agents: the protocol, the registry, determinism, and the greedy agent's rules of thumb."""

from __future__ import annotations

import pytest
from games import pass_, play
from refusals import check

from guandan import (
    Deal,
    GuandanError,
    IllegalMoveError,
    Match,
    card_name,
    parse_card,
    record,
)
from guandan.bots import agents
from guandan.bots.agents import Agent, GreedyAgent, RandomAgent
from guandan.bots.loop import play_out
from guandan.bots.registry import AGENTS, make_agent, make_agents


def choice(agent, deal, seat=None):
    seat = deal.turn if seat is None else seat
    return agent.act(deal.observation(seat))


def test_agents_are_looked_up_by_name():
    assert set(AGENTS) == {"random", "greedy", "mc", "mc-basic", "onnx", "net", "mc-net"}
    assert isinstance(make_agent("greedy"), GreedyAgent) and isinstance(make_agent("Random", 2), RandomAgent)
    assert all(isinstance(a, Agent) for a in make_agents("random"))
    with pytest.raises(GuandanError, match="unknown agent 'smart'"):
        make_agent("smart")


@pytest.mark.parametrize("names", ["random", "greedy", ["greedy", "random", "random", "greedy"]])
def test_agents_are_deterministic_given_their_seeds(names):
    records = []
    for _ in range(2):
        match = Match(21)
        play_out(match, make_agents(names, 4), max_actions=600)
        records.append(record(match))
    assert records[0] == records[1]


def test_random_agents_with_other_seeds_play_differently():
    a, b = Deal.new(2), Deal.new(2)
    play_out(a, make_agents("random", 1))
    play_out(b, make_agents("random", 2))
    assert record(a)["actions"] != record(b)["actions"]


def test_random_agent_picks_a_legal_action_in_every_phase():
    match = Match(3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 S4", "S6 S7", "S8 SA DA", "S9 ST"]])
    agent = RandomAgent(9)
    card = agent.act(match.observation(2))
    assert card in (parse_card("SA"), parse_card("DA"))
    match.act(card)
    assert agent.act(match.observation(1)) in match.legal_actions()


def test_greedy_leads_its_lowest_combination_with_the_most_cards():
    deal = Deal(["S3 C3 S4 C4 S5 C5 SK", "S9", "D5", "D6"], level=2, leader=0)
    assert str(choice(GreedyAgent(), deal)) == "pair_run 3: S3 C3 S4 C4 S5 C5"
    deal = Deal(["S3 C4 S9 SK", "S9", "D5", "D6"], level=2, leader=0)
    assert str(choice(GreedyAgent(), deal)) == "single 3: S3"


def test_greedy_does_not_break_bombs_or_spend_wilds():
    deal = Deal(["S3 C3 D3 H3 S8 H2", "S9", "D5", "D6"], level=2, leader=0)
    assert str(choice(GreedyAgent(), deal)) == "single 8: S8"


def test_greedy_answers_an_opponent_with_its_lowest_beating_move():
    deal = Deal(["S3", "S5 SJ SA", "D5", "D6"], level=2, leader=0)
    play(deal, "S3")
    assert str(choice(GreedyAgent(), deal)) == "single 5: S5"


def test_greedy_keeps_its_bomb_unless_an_opponent_is_close_to_going_out():
    deal = Deal(["SK S3 S4 S5 S6 S7 S8", "S9 C9 D9 H9 S2", "D5", "DT D8 D7 D6 DJ DQ"], level=3, leader=0)
    play(deal, "SK")
    assert str(choice(GreedyAgent(), deal)) == "bomb 9: S9 H9 C9 D9", "seat 2 holds one card"
    deal = Deal(
        ["SK S3 S4 S5 S6 S7 S8 SQ SJ", "S9 C9 D9 H9 S2", "D5 D3 D4 C6 C7 C8", "DT D8 D7 D6 DJ DQ"], level=3, leader=0
    )
    play(deal, "SK")
    assert choice(GreedyAgent(), deal).is_pass, "no opponent is close: the bomb is kept"
    assert str(choice(GreedyAgent(bomb_threshold=8), deal)) == "bomb 9: S9 H9 C9 D9"


def test_greedy_does_not_overtake_its_partner():
    deal = Deal(["S3 S4", "S5 S6", "S7 SA", "S9 ST"], level=2, leader=2)
    play(deal, "S7")
    pass_(deal)
    assert choice(GreedyAgent(), deal).is_pass
    deal = Deal(["S8 SK SA", "S5 S6", "S7 SQ", "S9 ST"], level=2, leader=2)
    play(deal, "S7")
    pass_(deal)
    assert deal.turn == 0 and choice(GreedyAgent(), deal).is_pass


def test_greedy_goes_out_when_it_can_even_over_its_partner():
    deal = Deal(["SA", "S5 S6", "S7 SQ", "S9 ST"], level=2, leader=2)
    play(deal, "S7")
    pass_(deal)
    assert str(choice(GreedyAgent(), deal)) == "single A: SA"


def test_greedy_pays_its_first_forced_card_and_returns_its_lowest_eligible_card():
    match = Match(3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 S4", "S4 S7 S6", "S8 SA DA", "S9 ST"]])
    assert card_name(GreedyAgent().act(match.observation(2))) == "SA"
    match.pay_tribute("DA")
    assert card_name(GreedyAgent().act(match.observation(1))) == "S4"


def test_an_agent_asked_out_of_turn_says_so():
    deal = Deal.new(1, leader=0)
    with pytest.raises(IllegalMoveError, match="not its turn"):
        GreedyAgent().act(deal.observation(2))


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: agents.GreedyAgent().act(Deal.new(1, leader=0).observation(1)), IllegalMoveError, "not its turn"),
        (lambda: agents.RandomAgent().act(Deal.new(1, leader=0).observation(1)), IllegalMoveError, "not its turn"),
    ],
)
def test_an_agent_asked_out_of_turn_raises(call, error, match):
    check(call, error, match)
