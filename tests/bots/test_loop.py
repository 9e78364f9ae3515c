"""``guandan.bots.loop``: the one play loop, ``play_out``, that drives a deal or a match with four agents."""

from __future__ import annotations

import pytest
from refusals import check

from guandan import (
    Deal,
    GuandanError,
    IllegalMoveError,
    Match,
    classify,
)
from guandan.bots import agents, loop
from guandan.bots.agents import GreedyAgent, RandomAgent
from guandan.bots.loop import play_out

# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: loop.play_out(Deal.new(1), [agents.GreedyAgent()] * 3), GuandanError, "four agents"),
        (lambda: loop.play_out(Deal.new(1), [None] * 4), GuandanError, "act"),
    ],
)
def test_bad_play_loop_arguments_raise(call, error, match):
    check(call, error, match)


# -- the loop --------------------------------------------------------------------------------------


class Asking:
    """An agent the loop cannot shortcut (its own ``act``): it plays what an inner agent chooses."""

    def __init__(self, inner):
        self.inner = inner

    def act(self, observation):
        return self.inner.act(observation)


@pytest.mark.parametrize("seed", range(4))
def test_the_chosen_index_shortcut_plays_the_game_the_agents_act_would(seed):
    fast, slow = Deal.new(seed, level=2 + seed), Deal.new(seed, level=2 + seed)
    play_out(fast, [GreedyAgent(), RandomAgent(seed), GreedyAgent(), RandomAgent(seed + 9)])
    play_out(slow, [Asking(a) for a in (GreedyAgent(), RandomAgent(seed), GreedyAgent(), RandomAgent(seed + 9))])
    assert fast.is_over and fast.history == slow.history and fast.finish_order == slow.finish_order


def test_on_action_sees_every_record_in_order_and_a_match_goes_through_its_tribute():
    match, seen = Match(seed=9), []
    play_out(match, [GreedyAgent()] * 4, max_actions=400, on_action=seen.append)
    assert seen == list(match.history)[: len(seen)] and len(seen) == len(match.history) == 400
    assert {type(r).__name__ for r in seen} >= {"Play", "Tribute", "Return"}


def test_max_actions_stops_the_loop_and_playing_on_ends_where_one_run_ends():
    whole, parts = Deal.new(4, level=3), Deal.new(4, level=3)
    play_out(whole, [GreedyAgent()] * 4)
    for _ in range(1000):
        before = len(parts.history)
        play_out(parts, [GreedyAgent()] * 4, max_actions=7)
        assert len(parts.history) == min(before + 7, len(whole.history))
        if parts.is_over:
            break
    assert parts.history == whole.history
    play_out(parts, [GreedyAgent()] * 4, max_actions=0)  # over: nothing to do
    assert parts.history == whole.history


class Cheat:
    name = "cheat"

    def act(self, observation):
        return classify("SB SB HR HR", observation.level)[0]


def test_an_illegal_action_raises_naming_the_seat_the_agent_and_the_action_and_changes_nothing():
    deal = Deal.new(2, level=2, leader=0)
    before = deal.snapshot()
    with pytest.raises(IllegalMoveError, match=r"the agent of seat 0 \(cheat\) chose joker_bomb: .* in the play phase"):
        play_out(deal, [Cheat(), GreedyAgent(), GreedyAgent(), GreedyAgent()])
    assert deal.snapshot() == before
    with pytest.raises(IllegalMoveError, match=r"seat 0 \(Ann\)"):
        play_out(deal, [Cheat(), GreedyAgent(), GreedyAgent(), GreedyAgent()], names=["Ann", "B", "C", "D"])
    match = Match(seed=1)
    with pytest.raises(IllegalMoveError, match=r"^.*deal 0: the agent of seat \d \(cheat\)"):
        play_out(match, [Cheat()] * 4)


@pytest.mark.parametrize("bad", [1.5, "3", True])
def test_max_actions_is_an_int_or_none(bad):
    check(lambda: play_out(Deal.new(1), [GreedyAgent()] * 4, max_actions=bad), GuandanError, "max_actions")
