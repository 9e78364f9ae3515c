"""Agents: an observation in, an action out (the loop that runs a game with them is
:mod:`guandan.bots.loop`).

**The Agent protocol.** An agent is any object with a method ``act(observation)``
(:class:`Agent`: a protocol, nothing to inherit). The game calls it whenever its seat is to
act, with an :class:`~guandan.game.observation.Observation` — what that seat may know, immutable:

* ``seat`` (0..3; partners sit opposite, seats 0 and 2 against 1 and 3), ``phase``
  (:class:`~guandan.Phase`: ``PLAY``, ``TRIBUTE`` or ``RETURN``), ``level`` (the deal's
  level, a :class:`~guandan.Rank`; its two hearts are wild), ``turn`` (the seat to act);
* ``hand`` (its own :class:`~guandan.Cards`; also ``hand_counts``, a 54-byte count vector,
  and ``packed_hand``, the native core's 108-bit form);
* ``to_beat``: the :class:`~guandan.game.history.Play` to beat (``.seat``, ``.move``), or
  ``None`` when the seat leads; ``to_beat_seat`` the seat that made it;
* ``card_counts`` (every seat's, public at all times) and ``finish_order`` (the seats out
  so far, in order);
* ``history``: the deal's public records, oldest first — the tribute and return cards
  (:class:`~guandan.game.history.Tribute`, :class:`~guandan.game.history.Return`) and every play and
  pass (:class:`~guandan.game.history.Play`);
* ``levels``, ``level_side`` and ``deal_index``: the match (both sides' levels, whose level
  is played; ``None`` and 0 for a lone deal);
* ``legal_actions``: everything it may do now.

It returns one of ``observation.legal_actions``, by phase:

* ``PLAY``: a :class:`~guandan.Move`. ``legal_actions`` is a :class:`~guandan.MoveList` of
  the card-level moves (each way of spending physical cards; a wild's meaning declared),
  in the native core's order with the pass last when responding (no pass when leading);
  ``legal_actions.array`` holds them packed, for agents that score moves with numpy. Any
  legal :class:`~guandan.Move` or :class:`~guandan.RankMove` is taken, also one the agent
  built itself (:func:`~guandan.classify`, :func:`guandan.core.notation.parse_play`).
* ``TRIBUTE`` (it pays tribute): a card, an ``int`` 0..53; ``legal_actions`` is a tuple of
  the cards the rules allow (its highest card but a heart wild, one per suit held).
* ``RETURN`` (it received a tribute card and gives one back to its payer): a card from
  the tuple ``legal_actions``, the cards the ruleset allows (by default its cards of rank
  10 or below but the level rank; with none, its lowest).

An illegal action raises :class:`~guandan.IllegalMoveError` and changes nothing (a
simulation stops, naming the seat and agent). The registry (:mod:`guandan.bots.registry`)
makes agents for the command line and simulations: it calls the class or factory with
``seed=`` (when it takes a ``seed``) and the spec's options as keywords. An agent that is
deterministic given its seed keeps a seeded run reproducible; one that runs in worker
processes must be picklable (defined at the top level of an importable module). The
built-in agents: ``random``, ``greedy`` (below) and ``mc`` (:mod:`guandan.bots.search`).

>>> from guandan.game.deal import Deal
>>> from guandan.bots.loop import play_out
>>> deal = Deal.new(seed=5, level=2)
>>> play_out(deal, [GreedyAgent(), RandomAgent(1), GreedyAgent(), RandomAgent(3)])
>>> deal.is_over, len(deal.result.finish_order) in (2, 4)
(True, True)

**GreedyAgent** plays a simple, fast heuristic, scanning the packed legal moves in one
native pass (``csrc/gd_agents.c``; no move object is made except the one it returns):

* a move that plays out its whole hand is always taken;
* it never overtakes its partner's play (it passes), unless that takes it out;
* *smallest* combination: among non-bombs that use no wild and no card of a rank it
  holds four or more of (nor a joker when it holds all four) — "not breaking bombs" —
  the lowest key (the elevated order of the rank for singles, pairs, triples and full
  houses; the window for sequences, ace-low lowest), then the most cards (leading a
  pair run rather than one of its pairs), then the lowest cards;
* bombs, and combinations that use wilds or break bombs, only when an opponent holds at
  most ``bomb_threshold`` cards (default 5) or when leading with nothing else; then the
  smallest bomb in bomb order;
* tribute: the lowest face among its forced choices; return: its lowest eligible card
  in the elevated order (lowest face on ties).

**RandomAgent** draws uniformly among the legal actions with
:class:`~guandan.core.rng.SplitMix64`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from ..core.cards import card_rank
from ..core.moves import Move
from ..core.order import elevated_order
from ..core.playouts import greedy_choose
from ..core.rng import SplitMix64
from ..errors import IllegalMoveError, check_number
from ..game.history import Phase
from ..game.observation import Observation

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "index_chooser"]


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(observation) -> action``: a Move in play, a card index in the
    tribute and return phases, one of ``observation.legal_actions`` (see the module's
    description of the protocol: what an observation holds, what each phase asks).

    >>> class FirstChoice:
    ...     def act(self, observation):
    ...         return observation.legal_actions[0]
    >>> isinstance(FirstChoice(), Agent), isinstance(GreedyAgent(), Agent)
    (True, True)
    """

    def act(self, observation: Observation) -> Move | int: ...


class RandomAgent:
    """Uniform over the legal actions, from a seeded :class:`~guandan.core.rng.SplitMix64`.

    >>> from guandan.game.deal import Deal
    >>> deal = Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0)
    >>> print(RandomAgent(seed=1).act(deal.observation(0)))
    single 4: S4
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = SplitMix64(seed)

    def act(self, observation: Observation) -> Move | int:
        action: Move | int = observation.legal_actions[self.choose(observation)]
        return action

    def choose(self, observation: Observation) -> int:
        """The index of the chosen action in ``observation.legal_actions`` (one draw).

        >>> from guandan.game.deal import Deal
        >>> RandomAgent(seed=1).choose(Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0).observation(0))
        1
        """
        n = len(observation.legal_actions)
        if not n:
            raise IllegalMoveError(f"seat {observation.seat} has no legal action: it is not its turn")
        return self.rng.below(n)

    def __repr__(self) -> str:
        return "RandomAgent()"


# -- greedy ---------------------------------------------------------------------------------------


class GreedyAgent:
    """Plays its smallest combination, keeps its bombs, lets its partner's play stand
    (see the module's description). Deterministic; ``seed`` is accepted and unused.

    >>> from guandan.game.deal import Deal
    >>> deal = Deal(["S3 S4 C4 S8 C8 D8 H8", "S9", "D5", "D6"], level=2, leader=0)
    >>> print(GreedyAgent().act(deal.observation(0)))
    single 3: S3
    """

    name = "greedy"

    def __init__(self, seed: int = 0, bomb_threshold: int = 5) -> None:
        self.bomb_threshold = check_number("bomb_threshold", bomb_threshold, unit="cards")

    def __repr__(self) -> str:
        return f"GreedyAgent(bomb_threshold={self.bomb_threshold})"

    def act(self, observation: Observation) -> Move | int:
        phase = observation.phase
        actions = observation.legal_actions
        if not len(actions):
            raise IllegalMoveError(f"seat {observation.seat} has no legal action: it is not its turn")
        action: Move | int
        if phase == Phase.TRIBUTE:
            action = actions[0]
        elif phase == Phase.RETURN:
            level = observation.level
            action = min(actions, key=lambda c: (elevated_order(card_rank(c), level), c))
        else:
            action = actions[self.choose(observation)]
        return action

    def choose(self, observation: Observation) -> int:
        """The index of the chosen move in ``observation.legal_actions`` (play phase), made
        natively in one pass over the packed moves (:func:`guandan.core.playouts.greedy_choose`).

        >>> from guandan.game.deal import Deal
        >>> deal = Deal(["S3 S4 C4 S8 C8 D8 H8", "S9", "D5", "D6"], level=2, leader=0)
        >>> GreedyAgent().choose(deal.observation(0))
        0
        """
        seat = observation.seat
        counts = observation.card_counts
        beat_seat = observation.to_beat_seat
        opp = self.bomb_threshold
        return greedy_choose(
            observation.legal_actions.array,
            observation.level,
            observation.packed_hand,
            counts[seat],
            beat_seat is not None,
            beat_seat == seat ^ 2,
            0 < counts[seat ^ 1] <= opp or 0 < counts[seat ^ 3] <= opp,
        )


def index_chooser(agent: Any) -> Callable[[Observation], int] | None:
    """For an agent whose ``act`` is a built-in one that returns ``legal_actions[choose(observation)]``
    (:class:`GreedyAgent`, :class:`RandomAgent` and subclasses that keep their ``act``), its
    ``choose``: a game loop can then play the chosen index without making the move object.
    ``None`` for any other agent.

    >>> index_chooser(GreedyAgent()) is not None, index_chooser(object())
    (True, None)
    """
    act = getattr(type(agent), "act", None)
    if (act is GreedyAgent.act or act is RandomAgent.act) and "act" not in getattr(agent, "__dict__", {}):
        choose: Callable[[Observation], int] = agent.choose
        return choose
    return None
