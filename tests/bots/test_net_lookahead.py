"""benchmarks/net_lookahead.py: the network's own rule kept where the lookahead has no say, the
leaves deciding where it has, seeded play, refusals. (The sampled deals it plays in are
:func:`guandan.bots.determinize.sampled_deal`'s, tested with it.)"""

from __future__ import annotations

import numpy as np
import pytest
from games import second_deal_position
from scripts import load_script

from guandan.bots.agents import GreedyAgent
from guandan.core.packed import cards_of_bits
from guandan.errors import GuandanError
from guandan.game.history import Phase

lookahead = load_script("net_lookahead")


def test_with_one_candidate_kept_it_plays_as_the_network():
    match, greedy = second_deal_position(11), GreedyAgent()
    net, agent = lookahead.NetAgent(), lookahead.LookaheadAgent(seed=1, worlds=2, top=1)
    for _ in range(24):
        obs = match.observation(match.turn)
        if obs.phase == Phase.PLAY:
            assert agent.act(obs) == net.act(obs)
        match.act(greedy.act(obs))


def test_the_leaves_decide(monkeypatch):
    """With mc's policy at the leaves made to favour the candidate that spends the most cards
    (a win of 3 levels for the deciding side where the seat then holds fewest, a loss of 3
    elsewhere), that candidate plays, against the network's first choice."""
    match = second_deal_position(8)  # a lead: the network's first choice spends 5 cards, one of its top 8 spends 6
    obs = match.observation(match.turn)
    me, agent = obs.seat, lookahead.LookaheadAgent(seed=1, worlds=2, top=8, rollout=True)
    ((moves, values),) = agent._score([obs])
    kept = np.argsort(-agent._rule(values, np.arange(len(moves))), kind="stable")[:8]
    spent = [len(moves[k].cards) for k in kept]
    most = max(spent)
    assert spent.count(most) == 1 and spent[0] < most  # the position tells the leaves from the network
    calls = []

    def fixed(state, n, policy, seed, weights):
        calls.append(policy)
        holds = len(cards_of_bits(state.hands[me]))
        win = holds == len(obs.hand) - most
        return np.array([[me, me ^ 2, me ^ 1, me ^ 3] if win else [me ^ 1, me ^ 3, me, me ^ 2]], dtype=np.int8)

    monkeypatch.setattr(lookahead, "rollouts", fixed)
    assert agent.act(obs) == moves[kept[spent.index(most)]]
    assert agent.changed == 1 and set(calls) == {"learned"} and len(calls) == 2 * 8  # every game reached the turn
    assert agent.last_values[spent.index(most)] == 3 and sorted(agent.last_values)[:-1] == [-3] * 7


def test_the_lookahead_is_seeded_and_overrules_the_network_somewhere():
    def play(seed):
        match, agent, moves = second_deal_position(13), lookahead.LookaheadAgent(seed=seed, worlds=3, top=3), []
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
    match = second_deal_position(17)
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
                       ({"seed": -1}, "seed"), ({"to_end": True, "rollout": True}, "one or the other"),
                       ({"to_end": "false"}, "to_end")]
)  # fmt: skip
def test_bad_options_are_refused(options, named):
    with pytest.raises(GuandanError, match=named):
        lookahead.LookaheadAgent(**options)


def test_the_command_prints_its_time_and_how_often_it_overruled(capsys):
    assert lookahead.main(["--worlds", "2", "--top", "2", "--deals", "1"]) == 0
    out = capsys.readouterr().out
    assert "rollout=False" in out and "decisions looked ahead" in out and "ms CPU each" in out and "overruled in" in out
