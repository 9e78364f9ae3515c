"""``guandan.platform.seat``: one seat's view rebuilt from the server's messages: at every request
of whole games, the observation it rebuilds is the engine's own (no sockets)."""

from __future__ import annotations

import copy
import json

import pytest
from platform_games import compare, drive, seated

from guandan import Match
from guandan.bots.loop import play_out
from guandan.bots.search import MonteCarloAgent
from guandan.game.history import Phase
from guandan.platform import (
    PlatformClient,
    PlatformTable,
)
from guandan.records.games import record


@pytest.mark.slow
def test_views_that_follow_every_message_rebuild_the_engines_observation_and_the_mc_agent_plays():
    table = seated(PlatformTable(games=1, seed=4, ruleset="platform+cap3"))
    agents = [MonteCarloAgent(seed=i, rollouts=60, candidates=6) for i in range(4)]
    clients = [PlatformClient(a) for a in agents]
    checked = []

    def on_act(seat, text, match):
        # the client's own view, after it takes in this request, must be the engine's
        view = copy.deepcopy(clients[seat].view)
        request = view.request(json.loads(text))
        compare(request.observation, match.observation(seat), match.phase)
        checked.append(match.phase)

    drive(table, clients, on_act=on_act)
    assert Phase.PLAY in checked and Phase.TRIBUTE in checked and Phase.RETURN in checked
    for c in clients:
        assert c.result.complete and c.result.fallbacks == 0 and c.result.agent_errors == 0
        assert c.view.deals == table.deals == 3
    # the search bot samples deals from what it has seen: over the protocol it sees the same
    match = Match(table.game_seed(0), "platform+cap3")
    play_out(match, [MonteCarloAgent(seed=i, rollouts=60, candidates=6) for i in range(4)])
    assert record(match) == record(table.matches[0])


@pytest.mark.slow
def test_an_anti_tribute_deal_is_followed():
    from games import full_hands_with_big_jokers

    hands = full_hands_with_big_jokers([1, 3])  # after a double-down by 0 and 2, seats 1 and 3 resist
    rules = "platform+cap2"
    table = seated(
        PlatformTable(
            seed=1, ruleset=rules, new_match=lambda g: Match(g, rules, levels=(5, 5), previous=(0, 2), hands=[hands])
        )
    )
    clients = [PlatformClient("greedy") for _ in range(4)]
    seen = []

    def on_act(seat, text, match):
        view = copy.deepcopy(clients[seat].view)
        compare(view.request(json.loads(text)).observation, match.observation(seat), match.phase)
        if match.deal_index == 0:
            seen.append(clients[seat].view.anti_tribute)

    log = []
    drive(table, clients, on_act=on_act, log=log)
    assert any(json.loads(text)["stage"] == "anti-tribute" for _, text in log)
    assert seen and all(s == [1, 3] for s in seen)
    assert all(c.result.complete and c.result.warnings == 0 for c in clients)
