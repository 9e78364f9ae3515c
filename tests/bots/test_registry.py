"""Agents by spec (guandan.bots.registry): names, import paths, options, one per side, objects."""

from __future__ import annotations

import functools

import plugin_bots
import pytest
from refusals import check

from guandan import (
    GuandanError,
)
from guandan.bots.agents import GreedyAgent, RandomAgent
from guandan.bots.registry import agent_factory, agent_name, make_agent, make_agents, parse_spec, seat_specs
from guandan.bots.search import BasicMonteCarloAgent, MonteCarloAgent
from guandan.core.rng import derive_seed
from guandan.game.deal import Deal


@pytest.mark.parametrize(
    ("spec", "target", "options"),
    [
        ("greedy", "greedy", {}),
        (" mc : determinizations=20 : playouts=2 ", "mc", {"determinizations": 20, "playouts": 2}),
        ("pkg.mod:Bot", "pkg.mod:Bot", {}),
        ("pkg.mod:Bots.strong:depth=3", "pkg.mod:Bots.strong", {"depth": 3}),
        (
            "m:B:i=-4:f=0.5:e=1e3:t=true:F=False:n=none:s=random:q='7':d=\"x y\"",
            "m:B",
            {"i": -4, "f": 0.5, "e": 1000.0, "t": True, "F": False, "n": None, "s": "random", "q": "7", "d": "x y"},
        ),
    ],
)
def test_a_spec_is_a_target_and_its_options(spec, target, options):
    parsed = parse_spec(spec)
    assert parsed == (target, options)
    assert [type(v) for v in parsed[1].values()] == [type(v) for v in options.values()]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "bad agent spec"),
        ("mc:", "bad agent spec"),
        ("mc:depth", "options are KEY=VALUE"),
        ("mc:=3", "options are KEY=VALUE"),
        ("mc:1x=3", "options are KEY=VALUE"),
        ("mc:a=1:a=2", "given twice"),
        ("m:B:c:d=1", "options are KEY=VALUE"),
        (":B", "bad agent spec"),
        ("greedy,random", "bad agent spec"),
    ],
)
def test_a_malformed_spec_is_refused_with_its_reason(spec, message):
    with pytest.raises(GuandanError, match=message):
        agent_factory(spec)


def test_registered_agents_take_options_by_keyword():
    assert make_agent("greedy:bomb_threshold=3").bomb_threshold == 3
    mc = make_agent("MC:rollouts=400:policy=random", seed=9)
    assert (mc.config.rollouts, mc.config.policy, mc.seed) == (400, "random", 9)
    basic = make_agent("mc-basic:determinizations=4", seed=9)
    assert (type(basic), basic.determinizations) == (BasicMonteCarloAgent, 4)
    with pytest.raises(GuandanError, match=r"mc has no option 'depth' \(its options: bomb_weight, candidates"):
        agent_factory("mc:depth=3")
    with pytest.raises(GuandanError, match="the seed is not an option"):
        agent_factory("random:seed=3")
    with pytest.raises(GuandanError, match="policy is one of smart, learned, greedy, random"):
        make_agent("mc:policy=clever")  # a bad value: the agent's own check
    with pytest.raises(GuandanError, match="unknown agent 'smart'.*package.module:Class"):
        agent_factory("smart")


def test_the_same_seed_makes_the_same_agent_whatever_the_way_it_is_named():
    deal = Deal.new(seed=4, level=2)
    observation = deal.observation(deal.turn)
    choices = {
        str(make_agent(spec, seed=11).act(observation))
        for spec in ("random", "guandan.bots.agents:RandomAgent", RandomAgent, functools.partial(RandomAgent))
    }
    assert len(choices) == 1
    assert {str(make_agent("random", seed=s).act(observation)) for s in range(20)} != choices  # the seed matters


def test_agents_by_import_path():
    assert isinstance(make_agent("guandan.bots.search:MonteCarloAgent:candidates=3"), MonteCarloAgent)
    bot = make_agent("plugin_bots:FirstChoice", seed=5)  # no seed parameter: called without one
    assert isinstance(bot, plugin_bots.FirstChoice) and bot.acted == 0
    assert make_agent("plugin_bots:cautious:threshold=2").bomb_threshold == 2
    assert isinstance(make_agent("plugin_bots:everything:anything=1", seed=3), RandomAgent)
    with pytest.raises(GuandanError, match="cautious has no option 'depth' \\(its options: threshold\\)"):
        agent_factory("plugin_bots:cautious:depth=2")
    with pytest.raises(GuandanError, match="no module named 'no_such_bots'.*current directory"):
        agent_factory("no_such_bots.strong:Bot")
    with pytest.raises(GuandanError, match="plugin_bots has no 'Missing'"):
        agent_factory("plugin_bots:Missing")
    with pytest.raises(GuandanError, match="plugin_bots:NOT_CALLABLE is 3, not a class or factory"):
        agent_factory("plugin_bots:NOT_CALLABLE")
    with pytest.raises(GuandanError, match="made 0: not an agent"):
        make_agent("plugin_bots:not_an_agent")


def test_a_bot_modules_own_import_error_surfaces_as_itself(tmp_path, monkeypatch):
    (tmp_path / "broken_bot.py").write_text("import a_module_nobody_has\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="a_module_nobody_has"):
        agent_factory("broken_bot:Bot")


def test_one_spec_two_or_four():
    assert seat_specs("greedy") == ["greedy"] * 4
    assert seat_specs("mc:rollouts=9, random") == ["mc:rollouts=9", "random", "mc:rollouts=9", "random"]
    assert seat_specs(("random", "greedy", "random", "mc")) == ["random", "greedy", "random", "mc"]
    for bad in ("greedy,random,mc", [], ["greedy"] * 5):
        with pytest.raises(GuandanError, match="one agent for every seat, two .* or four"):
            seat_specs(bad)
    with pytest.raises(GuandanError, match="an agent is a spec"):
        seat_specs([3, "greedy"])
    with pytest.raises(GuandanError, match="agents are one spec"):
        seat_specs(3)  # type: ignore[arg-type]


def test_every_spec_is_checked_before_anything_is_made():
    with pytest.raises(GuandanError, match="no module named 'nowhere'"):
        seat_specs("greedy,nowhere:Bot")
    with pytest.raises(GuandanError, match="has no option"):
        seat_specs(["greedy", "greedy", "greedy", "greedy:depth=1"])


def test_classes_factories_and_instances_stand_for_specs():
    agents = make_agents([GreedyAgent, functools.partial(plugin_bots.cautious, threshold=1)], seed=4)
    assert [type(a) for a in agents] == [GreedyAgent] * 4
    assert [a.bomb_threshold for a in agents] == [5, 1, 5, 1]
    seeded = make_agents(MonteCarloAgent, seed=4)
    assert [a.seed for a in seeded] == [derive_seed(4, seat) for seat in range(4)]


def test_an_instance_is_copied_for_each_seat_never_shared():
    bot = plugin_bots.FirstChoice()
    bot.acted = 7
    agents = make_agents(bot)
    assert all(a is not bot and a.acted == 7 for a in agents) and len({id(a) for a in agents}) == 4
    deal = Deal.new(seed=1, level=2)
    agents[deal.turn].act(deal.observation(deal.turn))
    assert bot.acted == 7 and sorted(a.acted for a in agents) == [7, 7, 7, 8]


def test_agents_are_named_by_spec_registered_name_or_import_path():
    assert [agent_name(s) for s in seat_specs(" greedy , mc:rollouts=9 ")] == ["greedy", "mc:rollouts=9"] * 2
    assert agent_name(MonteCarloAgent) == "mc" and agent_name(GreedyAgent(bomb_threshold=1)) == "greedy"
    assert agent_name(BasicMonteCarloAgent) == "mc-basic" and agent_name(BasicMonteCarloAgent()) == "mc-basic"
    assert agent_name(plugin_bots.FirstChoice) == "plugin_bots:FirstChoice"
    assert agent_name(plugin_bots.FirstChoice()) == "plugin_bots:FirstChoice"
    assert agent_name(plugin_bots.Stateful(3)) == "stateful"
    assert agent_name(functools.partial(plugin_bots.cautious, threshold=2)) == "plugin_bots:cautious:threshold=2"
    # the name of a class or partial is a spec that makes the same agent
    assert make_agent(agent_name(functools.partial(plugin_bots.cautious, threshold=2))).bomb_threshold == 2
    odd = functools.partial(plugin_bots.everything, a="3", b=True, c=None, d="x")
    assert parse_spec(agent_name(odd))[1] == {"a": "3", "b": True, "c": None, "d": "x"}


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: make_agent("x"), GuandanError, "unknown agent"),
        (lambda: make_agent(None), GuandanError, "an agent factory is a spec or a class"),
        (lambda: make_agents(["greedy"] * 3), GuandanError, "one per seat"),
        (lambda: make_agents(None), GuandanError, "agents are one spec, two .* or four"),
        (lambda: make_agent("mc:depth=1"), GuandanError, "mc has no option 'depth'"),
        (lambda: make_agent("no_module_here:Bot"), GuandanError, "no module named 'no_module_here'"),
    ],
)
def test_bad_agent_specs_raise(call, error, match):
    check(call, error, match)
