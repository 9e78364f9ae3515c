"""The play loop: agents acting in a deal or a match until it is over.

One loop serves every driver — the library's :func:`play_out`, ``guandan simulate``, the
terminal table (``guandan play``: the person is an agent that asks at the prompt) and the
tools — so what a game does with its agents is written once:

* the seat to act is shown its :class:`~guandan.game.observation.Observation` and its
  agent's action is applied with ``state.act`` (a deal's or a match's: play, tribute or
  return);
* a built-in agent whose ``act`` is ``legal_actions[choose(observation)]``
  (:func:`~guandan.bots.agents.index_chooser`) has its chosen index played directly in the
  play phase: the same move, without making the move object;
* an illegal action raises the game's error (:class:`~guandan.IllegalMoveError`, …)
  with the seat, its agent and the action named, and the state is left as it was; an
  exception the agent raises itself goes on unchanged, with a note (``__notes__``) naming
  the seat, the agent and the deal: an :class:`AgentRaised`, which also holds them as
  fields for a program to read;
* ``on_action``, if given, is called with each action's record
  (:class:`~guandan.game.history.Play`, :class:`~guandan.game.history.Tribute` or
  :class:`~guandan.game.history.Return`) once it is applied.

>>> from guandan import Deal, Match, GreedyAgent, RandomAgent
>>> deal = Deal.new(seed=5, level=2)
>>> play_out(deal, [GreedyAgent(), RandomAgent(1), GreedyAgent(), RandomAgent(3)])
>>> deal.is_over
True
>>> seen = []
>>> match = Match(seed=9)
>>> play_out(match, [GreedyAgent()] * 4, max_actions=3, on_action=seen.append)
>>> for record in seen:
...     print(record)
seat 0: pair_run A: S2 C2 H3 D3 CA DA
seat 1: pair_run 6: S6 C6 H7 C7 H8 D8
seat 2: pair_run Q: HQ DQ SK CK HA CA
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core.moves import Move, RankMove
from ..errors import GuandanError, check_int, describe
from ..game.history import Phase
from ..game.protocol import Game
from .agents import Agent, index_chooser

__all__ = ["play_out", "check_agents", "AgentRaised", "AGENT_RAISED"]

#: The start of the note an agent's own exception carries out of :func:`play_out`: the
#: exception goes on unchanged, with ``"raised by " + where`` among its ``__notes__``.
AGENT_RAISED = "raised by"


class AgentRaised(str):
    """The note an agent's own exception carries out of :func:`play_out`: its text (``raised
    by`` where) for a person, and as fields ``where`` (the deal, the seat, the agent and the
    phase), ``seat`` and ``agent`` (the agent's name); a run that plays many games sets
    ``task`` and ``seed`` (else ``None``). It travels with the exception from a worker process.

    >>> from guandan import Deal
    >>> class Broken:
    ...     def act(self, observation):
    ...         raise RuntimeError("oops")
    >>> try:
    ...     play_out(Deal.new(1, level=2, leader=0), [Broken()] * 4, names=["mine:Bot"] * 4)
    ... except RuntimeError as error:
    ...     note = next(n for n in error.__notes__ if isinstance(n, AgentRaised))
    >>> print(note)
    raised by the agent of seat 0 (mine:Bot) acting in the play phase
    >>> note.seat, note.agent, note.task
    (0, 'mine:Bot', None)
    """

    where: str
    seat: int
    agent: str
    task: int | None
    seed: int | None

    def __new__(cls, where: str, seat: int, agent: str) -> AgentRaised:
        note = super().__new__(cls, f"{AGENT_RAISED} {where}")
        note.where, note.seat, note.agent = where, seat, agent
        note.task = note.seed = None
        return note

    def __reduce__(self) -> tuple[Any, ...]:  # pickled with its fields (from a worker process)
        return (_agent_raised, (self.where, self.seat, self.agent, self.task, self.seed))


def _agent_raised(where: str, seat: int, agent: str, task: int | None, seed: int | None) -> AgentRaised:
    note = AgentRaised(where, seat, agent)
    note.task, note.seed = task, seed
    return note


def check_agents(agents: object) -> Sequence[Agent]:
    """Four agents, one per seat, each with a method ``act(observation)``; else a
    :class:`~guandan.GuandanError` saying what was given."""
    if isinstance(agents, str) or not isinstance(agents, Sequence) or len(agents) != 4:
        raise GuandanError(f"four agents, one per seat, got {describe(agents)}")
    if not all(callable(getattr(a, "act", None)) for a in agents):
        raise GuandanError(f"an agent has a method act(observation), got {describe(agents)}")
    return agents


def play_out(
    state: Game,
    agents: Sequence[Agent],
    max_actions: int | None = None,
    *,
    on_action: Callable[[Any], None] | None = None,
    names: Sequence[str] | None = None,
) -> None:
    """Let the agents act in ``state`` (a :class:`~guandan.game.protocol.Game`: a
    :class:`~guandan.Deal` or a :class:`~guandan.Match`;
    ``agents[seat]`` acts for ``seat``) until it is over, or until ``max_actions`` actions
    were taken. ``names``: how errors name the agents (default: their ``name`` attribute or
    class). See the module's description.

    >>> from guandan import Match, RandomAgent
    >>> m = Match(seed=9); play_out(m, [RandomAgent(seed) for seed in range(4)], max_actions=10)
    >>> len(m.history), m.is_over
    (10, False)
    """
    check_agents(agents)
    max_actions = check_int("max_actions", max_actions, optional=True)
    choosers = [index_chooser(agent) for agent in agents] if on_action is None else [None] * 4
    taken = 0
    while not state.is_over and (max_actions is None or taken < max_actions):
        seat = state.turn
        assert seat is not None  # a game not over has a seat to act
        observation = state.observation(seat)
        choose = choosers[seat]
        if choose is not None and observation.phase is Phase.PLAY:
            state.play_index(choose(observation))  # the move the agent's act would return, unmade
        else:
            try:
                action = agents[seat].act(observation)
            except Exception as error:  # the agent's own error: it goes on, saying which seat raised it
                name = _name(seat, agents, names)
                error.add_note(AgentRaised(_where(state, seat, None, agents, names), seat, name))
                raise
            try:
                record = state.act(action, seat)
            except GuandanError as error:
                raise error.in_context(_where(state, seat, action, agents, names)) from None
            if on_action is not None:
                on_action(record)
        taken += 1


def _name(seat: int, agents: Sequence[Agent], names: Sequence[str] | None) -> str:
    """How errors name the agent of ``seat``."""
    return names[seat] if names is not None else str(getattr(agents[seat], "name", type(agents[seat]).__name__))


def _where(state: Game, seat: int, action: object, agents: Sequence[Agent], names: Sequence[str] | None) -> str:
    """Where an illegal action was taken, for its error: the deal of a match, who, what
    (``action`` ``None``: where an agent raised, acting)."""
    name = _name(seat, agents, names)
    where = f"deal {state.deal_index}: " if hasattr(state, "deal_index") else ""
    if action is None:
        return f"{where}the agent of seat {seat} ({name}) acting in the {state.phase.label} phase"
    shown = str(action) if isinstance(action, Move | RankMove) else describe(action)
    return f"{where}the agent of seat {seat} ({name}) chose {shown} in the {state.phase.label} phase"
