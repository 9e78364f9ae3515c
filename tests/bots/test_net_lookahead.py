"""benchmarks/net_lookahead.py: the sampled deals rebuilt with the play so far, the network's
own rule kept where the lookahead has no say, seeded play, refusals."""

from __future__ import annotations

import numpy as np
import pytest
from scripts import load_script

from guandan import Match
from guandan.bots.agents import GreedyAgent
from guandan.bots.determinize import determinize
from guandan.errors import GuandanError
from guandan.game.encoding import encode_rows, encode_state
from guandan.game.history import Phase, Play

lookahead = load_script("net_lookahead")


def match_position(seed, plays):
    """A match in its second deal (after tribute and return), ``plays`` plays into it."""
    match, greedy = Match(seed=seed), GreedyAgent()
    while not (match.deal_index >= 1 and match.phase == Phase.PLAY
               and sum(isinstance(r, Play) for r in match.history) >= plays):  # fmt: skip
        match.act(greedy.act(match.observation(match.turn)))
    return match


def test_a_world_of_the_true_hands_is_the_deal_as_every_seat_sees_it():
    match = match_position(5, 21)
    obs = match.observation(match.turn)
    assert any(not isinstance(r, Play) for r in obs.history)  # tribute records before the play
    world, prefix = lookahead.world_deal(obs, match.hands)
    assert world.hands == match.hands and world.turn == match.turn
    view = world.observation(world.turn, prefix=prefix, levels=obs.levels, level_side=obs.level_side,
                             deal_index=obs.deal_index)  # fmt: skip
    np.testing.assert_array_equal(encode_rows(view), encode_rows(obs))
    for seat in range(4):
        seen = match.observation(seat)
        mine = world.observation(seat, prefix=prefix, levels=obs.levels, level_side=obs.level_side)
        np.testing.assert_array_equal(encode_state(mine), encode_state(seen))


def test_a_sampled_world_keeps_what_the_seat_knows():
    match = match_position(8, 30)
    obs = match.observation(match.turn)
    for seed in range(3):
        hands = determinize(obs, seed, weighted=True)
        world, _ = lookahead.world_deal(obs, hands)
        assert world.hands == tuple(hands) and world.hand(obs.seat) == obs.hand
        assert world.card_counts == obs.card_counts and world.turn == obs.turn
        plays = [(r.seat, r.move) for r in obs.history if isinstance(r, Play)]
        assert [(p.seat, p.move) for p in world.history] == plays
        assert world.hands != match.hands  # the hidden cards are drawn, not the true ones


@pytest.mark.slow
def test_with_one_candidate_kept_or_no_share_of_the_lookahead_it_plays_as_the_network():
    match = match_position(11, 3)
    net = lookahead.NetAgent()
    for agent in (lookahead.LookaheadAgent(seed=1, worlds=2, top=1), lookahead.LookaheadAgent(seed=1, worlds=2, mix=0)):
        copy, greedy = match_position(11, 3), GreedyAgent()
        for _ in range(24):
            obs = copy.observation(copy.turn)
            if obs.phase == Phase.PLAY:
                assert agent.act(obs) == net.act(obs)
            copy.act(greedy.act(obs))
    assert match.deal_index == 1


@pytest.mark.slow
def test_the_lookahead_is_seeded_and_overrules_the_network_somewhere():
    def play(seed):
        match, agent, moves = match_position(13, 2), lookahead.LookaheadAgent(seed=seed, worlds=3, top=3), []
        greedy = GreedyAgent()
        for _ in range(30):
            obs = match.observation(match.turn)
            if obs.phase != Phase.PLAY:
                break
            move = agent.act(obs) if obs.seat % 2 == 0 else greedy.act(obs)
            moves.append(str(move))
            match.act(move)
        return moves, agent.changed

    first, changed = play(4)
    assert play(4) == (first, changed) and changed > 0


def test_played_out_by_the_network_or_by_mcs_policy_every_world_is_valued_by_the_deals_levels():
    match = match_position(17, 40)
    obs = match.observation(match.turn)
    ended = lookahead.LookaheadAgent(seed=2, worlds=2, top=3, to_end=True)
    assert ended.act(obs) in list(obs.legal_actions)
    doubled = ended.last_values * 2  # the mean of two worlds' levels: a multiple of 1/2 in [-3, 3]
    assert len(doubled) == 3 and np.array_equal(doubled, np.round(doubled)) and np.abs(doubled).max() <= 6
    turn = lookahead.LookaheadAgent(seed=2, worlds=2, top=3)
    turn.act(obs)
    assert not np.array_equal(turn.last_values * 2, np.round(turn.last_values * 2))  # the network's values
    rolled = lookahead.LookaheadAgent(seed=2, worlds=2, top=3, rollout=True)  # mc's policy from the next turn
    rolled.act(obs)
    doubled = rolled.last_values * 2
    assert np.array_equal(doubled, np.round(doubled)) and np.abs(doubled).max() <= 6


@pytest.mark.parametrize(
    "options, named", [({"worlds": 0}, "worlds"), ({"top": 65}, "top"), ({"mix": 1.5}, "mix"), ({"mix": "all"}, "mix"),
                       ({"seed": -1}, "seed"), ({"to_end": True, "rollout": True}, "one or the other")]
)  # fmt: skip
def test_bad_options_are_refused(options, named):
    with pytest.raises(GuandanError, match=named):
        lookahead.LookaheadAgent(**options)


def test_the_command_prints_its_time_and_how_often_it_overruled(capsys):
    assert lookahead.main(["--worlds", "2", "--top", "2", "--deals", "1"]) == 0
    out = capsys.readouterr().out
    assert "rollout=False" in out and "decisions looked ahead" in out and "ms CPU each" in out and "overruled in" in out
