"""The agents by name: how the command line, simulations and the terminal table make agents.

An agent is named by a *spec*: today a registered name (``random``, ``greedy``, ``mc``)
of :data:`AGENTS`. The registry sits above every agent it names — the ones of
:mod:`guandan.agents` and the search bot of :mod:`guandan.search`, which builds on them —
so neither imports it. A factory takes the agent's seed (positional) and its options
(keywords: none are given by name yet).

The one place a spec becomes a factory is :func:`agent_factory`, and the one place a
spec for the table becomes four (one per seat) is :func:`seat_specs`; agents named by
import path (``package.module:Class``) with ``key=value`` options, or one agent per
side, are additions to those two functions.

>>> make_agent("greedy"), make_agent("random", seed=3).name
(GreedyAgent(bomb_threshold=5), 'random')
>>> [a.name for a in make_agents("greedy,random,greedy,random")]
['greedy', 'random', 'greedy', 'random']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .agents import Agent, GreedyAgent, RandomAgent
from .errors import GuandanError, describe
from .rng import derive_seed
from .search import MonteCarloAgent

__all__ = ["AGENTS", "AgentFactory", "agent_factory", "seat_specs", "make_agent", "make_agents"]

#: Makes an agent from its seed (and, later, keyword options).
AgentFactory = Callable[..., Agent]

#: The agents by name: a factory taking a seed (``mc``: :class:`guandan.search.MonteCarloAgent`).
AGENTS: dict[str, AgentFactory] = {"random": RandomAgent, "greedy": GreedyAgent, "mc": MonteCarloAgent}


def agent_factory(spec: str) -> AgentFactory:
    """The factory an agent spec names (a name of :data:`AGENTS`, any case and spacing).

    >>> agent_factory(" Greedy ") is GreedyAgent
    True
    """
    factory = AGENTS.get(spec.strip().lower()) if isinstance(spec, str) else None
    if factory is None:
        raise GuandanError(f"unknown agent {describe(spec)} (one of {', '.join(AGENTS)})")
    return factory


def seat_specs(specs: str | Sequence[str]) -> list[str]:
    """The spec of each seat 0..3: one spec for every seat or four (a list, or one string
    separated by commas), each checked to name an agent.

    >>> seat_specs("mc, greedy,mc,greedy"), seat_specs(["random"])
    (['mc', 'greedy', 'mc', 'greedy'], ['random', 'random', 'random', 'random'])
    """
    if isinstance(specs, str):
        names = [s.strip() for s in specs.split(",")]
    elif isinstance(specs, Sequence):
        names = list(specs)
    else:
        raise GuandanError(f"agents are one name or four, got {describe(specs)}")
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise GuandanError(f"give one agent for all seats or four, one per seat; got {len(names)}")
    for name in names:
        agent_factory(name)
    return names


def make_agent(spec: str, seed: int = 0) -> Agent:
    """A new agent by spec (``"random"``, ``"greedy"``, ``"mc"``), seeded.

    >>> make_agent("mc", seed=1)
    MonteCarloAgent(determinizations=12, playouts=1, policy='greedy', candidates=24)
    """
    return agent_factory(spec)(seed)


def make_agents(specs: str | Sequence[str], seed: int = 0) -> list[Agent]:
    """Four agents, one per seat (:func:`seat_specs`); seat ``i`` is seeded ``derive_seed(seed, i)``.

    >>> [a.name for a in make_agents(["greedy", "random", "greedy", "random"])]
    ['greedy', 'random', 'greedy', 'random']
    """
    return [make_agent(spec, derive_seed(seed, i)) for i, spec in enumerate(seat_specs(specs))]
