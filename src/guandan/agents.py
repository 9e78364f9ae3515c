"""Agents: an observation in, an action out; and the loop that runs a deal or match with them.

**The Agent protocol.** An agent is any object with a method ``act(observation)``
(:class:`Agent`: a protocol, nothing to inherit). The game calls it whenever its seat is to
act, with an :class:`~guandan.observation.Observation` — what that seat may know, immutable:

* ``seat`` (0..3; partners sit opposite, seats 0 and 2 against 1 and 3), ``phase``
  (:class:`~guandan.Phase`: ``PLAY``, ``TRIBUTE`` or ``RETURN``), ``level`` (the deal's
  level, a :class:`~guandan.Rank`; its two hearts are wild), ``turn`` (the seat to act);
* ``hand`` (its own :class:`~guandan.Cards`; also ``hand_counts``, a 54-byte count vector,
  and ``packed_hand``, the native core's 108-bit form);
* ``to_beat``: the :class:`~guandan.history.Play` to beat (``.seat``, ``.move``), or
  ``None`` when the seat leads; ``to_beat_seat`` the seat that made it;
* ``card_counts`` (every seat's, public at all times) and ``finish_order`` (the seats out
  so far, in order);
* ``history``: the deal's public records, oldest first — the tribute and return cards
  (:class:`~guandan.history.Tribute`, :class:`~guandan.history.Return`) and every play and
  pass (:class:`~guandan.history.Play`);
* ``levels``, ``level_side`` and ``deal_index``: the match (both sides' levels, whose level
  is played; ``None`` and 0 for a lone deal);
* ``legal_actions``: everything it may do now.

It returns one of ``observation.legal_actions``, by phase:

* ``PLAY``: a :class:`~guandan.Move`. ``legal_actions`` is a :class:`~guandan.MoveList` of
  the card-level moves (each way of spending physical cards; a wild's meaning declared),
  in the native core's order with the pass last when responding (no pass when leading);
  ``legal_actions.array`` holds them packed, for agents that score moves with numpy. Any
  legal :class:`~guandan.Move` or :class:`~guandan.RankMove` is taken, also one the agent
  built itself (:func:`~guandan.classify`, :func:`guandan.notation.parse_play`).
* ``TRIBUTE`` (it pays tribute): a card, an ``int`` 0..53; ``legal_actions`` is a tuple of
  the cards the rules allow (its highest card but a heart wild, one per suit held).
* ``RETURN`` (it received a tribute card and gives one back to its payer): a card from
  the tuple ``legal_actions``, the cards the ruleset allows (by default its cards of rank
  10 or below but the level rank; with none, its lowest).

An illegal action raises :class:`~guandan.IllegalMoveError` and changes nothing (a
simulation stops, naming the seat and agent). The registry (:mod:`guandan.registry`)
makes agents for the command line and simulations: it calls the class or factory with
``seed=`` (when it takes a ``seed``) and the spec's options as keywords. An agent that is
deterministic given its seed keeps a seeded run reproducible; one that runs in worker
processes must be picklable (defined at the top level of an importable module). The
built-in agents: ``random``, ``greedy`` (below) and ``mc`` (:mod:`guandan.search`).

>>> from guandan.deal import Deal
>>> deal = Deal.new(seed=5, level=2)
>>> play_out(deal, [GreedyAgent(), RandomAgent(1), GreedyAgent(), RandomAgent(3)])
>>> deal.is_over, len(deal.result.finish_order) in (2, 4)
(True, True)

**GreedyAgent** plays a simple, fast heuristic, scanning the packed legal moves with
numpy (no move object is made except the one it returns):

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
:class:`~guandan.rng.SplitMix64`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .cards import card_rank
from .combos import Move, MoveType, elevated_order
from .errors import GuandanError, IllegalMoveError, describe
from .observation import Observation, Phase
from .rng import SplitMix64

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "play_out"]


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
    """Uniform over the legal actions, from a seeded :class:`~guandan.rng.SplitMix64`.

    >>> from guandan.deal import Deal
    >>> deal = Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0)
    >>> print(RandomAgent(seed=1).act(deal.observation(0)))
    single 4: S4
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = SplitMix64(seed)

    def act(self, observation: Observation) -> Move | int:
        actions = observation.legal_actions
        if not len(actions):
            raise IllegalMoveError(f"seat {observation.seat} has no legal action: it is not its turn")
        action: Move | int = actions[self.rng.below(len(actions))]
        return action

    def __repr__(self) -> str:
        return "RandomAgent()"


# -- greedy: tables over packed moves --------------------------------------------------------------

_M52 = np.uint64((1 << 52) - 1)
_ODD64 = np.uint64(int("10" * 32, 2))  # the high bit of every 2-bit face count
_SHIFT60 = np.uint64(60)
_SHIFT56 = np.uint64(56)
_F15 = np.uint64(15)
_F4 = np.uint64(4)
_BOMB16 = np.uint64(16 * MoveType.BOMB)
_BIG = np.int64(1 << 40)
_DIRTY = np.int64(1 << 20)
_SEQUENCES = (MoveType.STRAIGHT, MoveType.PAIR_RUN, MoveType.TRIPLE_RUN, MoveType.STRAIGHT_FLUSH)
_SIZES = {MoveType.SINGLE: 1, MoveType.PAIR: 2, MoveType.TRIPLE: 3, MoveType.FULL_HOUSE: 5,
          MoveType.STRAIGHT: 5, MoveType.PAIR_RUN: 6, MoveType.TRIPLE_RUN: 6}
_TABLES: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _key_order(move_type: int, key_index: int, level: int) -> int:
    """1 + the elevated order of the key for rank types; for sequences 0 for the ace-low
    window, else 1 + the place of the window's lowest rank among the ranks other than the
    level rank (so a sequence and a group starting at the same low rank score alike)."""
    if key_index == 15:
        return 0
    if move_type in _SEQUENCES:
        if key_index == 12:
            return 0
        rank = key_index + 2
        return rank - 2 - (rank > level) + 1
    return elevated_order(key_index + 2, level) + 1


def _tables(level: int) -> tuple[np.ndarray, np.ndarray]:
    """Per level: the score of a non-bomb (key order, then more cards first) and the key
    order of a bomb, both indexed by ``type * 16 + key index``."""
    tables = _TABLES.get(level)
    if tables is None:
        plain = np.full(256, _BIG, dtype=np.int64)
        bomb = np.zeros(256, dtype=np.int64)
        for t in range(1, 11):
            for k in range(16):
                order = _key_order(t, k, level)
                if MoveType(t) in _SIZES:
                    plain[16 * t + k] = order * 16 + (15 - _SIZES[MoveType(t)])
                bomb[16 * t + k] = order
        tables = _TABLES[level] = (plain, bomb)
    return tables


def _sizes(array: np.ndarray) -> np.ndarray:
    lo = array[:, 0]
    hi = array[:, 1] & _M52
    sizes: np.ndarray = (
        np.bitwise_count(lo).astype(np.int64)
        + np.bitwise_count(lo & _ODD64)
        + np.bitwise_count(hi)
        + np.bitwise_count(hi & _ODD64)
    )
    return sizes


_C33 = int("0011" * 28, 2)
_C0F = int("00001111" * 14, 2)
_C04 = sum(4 << (8 * r) for r in range(13))
_C08 = sum(8 << (8 * r) for r in range(13))
_MASK64 = (1 << 64) - 1


def _protected(hand: int, level: int) -> tuple[np.uint64, np.uint64]:
    """Masks (low word, high word) of the cards a greedy agent keeps: the wilds, every
    card of a rank held four or more times (wilds not counted), the jokers when all four are held.

    The hand is packed 2 bits per face, a byte per rank; the cards of every rank are
    summed at once (bit-parallel), then each byte of 4 or more becomes ``0xFF``.
    """
    wild = 4 * (level - 2) + 1
    pairs = (hand & _C33) + ((hand >> 2) & _C33)
    per_rank = (pairs & _C0F) + ((pairs >> 4) & _C0F)
    per_rank -= ((hand >> (2 * wild)) & 3) << (8 * (level - 2))
    bits = (((per_rank + _C04) & _C08) >> 3) * 0xFF | (3 << (2 * wild))
    if (hand >> 104) & 0xF == 0b1010:
        bits |= 0xF << 104
    return np.uint64(bits & _MASK64), np.uint64(bits >> 64)


class GreedyAgent:
    """Plays its smallest combination, keeps its bombs, lets its partner's play stand
    (see the module's description). Deterministic; ``seed`` is accepted and unused.

    >>> from guandan.deal import Deal
    >>> deal = Deal(["S3 S4 C4 S8 C8 D8 H8", "S9", "D5", "D6"], level=2, leader=0)
    >>> print(GreedyAgent().act(deal.observation(0)))
    single 3: S3
    """

    name = "greedy"

    def __init__(self, seed: int = 0, bomb_threshold: int = 5) -> None:
        self.bomb_threshold = bomb_threshold
        self._masks: dict[int, tuple[np.uint64, np.uint64]] = {}

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
        """The index of the chosen move in ``observation.legal_actions`` (play phase)."""
        array = observation.legal_actions.array
        n = len(array)
        beat_seat = observation.to_beat_seat
        responding = beat_seat is not None
        if responding and n == 1:
            return 0
        seat = observation.seat
        counts = observation.card_counts
        mine = counts[seat]
        if responding and mine > 10 and beat_seat == seat ^ 2:
            return n - 1  # let the partner's play stand
        level = int(observation.level)
        plain, bomb_order = _tables(level)
        lo = array[:, 0]
        hi = array[:, 1]
        index = hi >> _SHIFT56  # type * 16 + key index
        score = plain[index]
        if mine <= 10:
            out = ((score & 15) == 15 - mine).nonzero()[0]  # a non-bomb of exactly my cards
            if not len(out) and mine >= 4:
                bombs = (index >= _BOMB16).nonzero()[0]
                if len(bombs):
                    out = bombs[_sizes(array[bombs]) == mine]
            if len(out):
                return self._lowest_of(out, lo, hi)
        if responding and beat_seat == seat ^ 2:
            return n - 1
        hand = observation.packed_hand
        masks = self._masks
        mask_key = hand | (level << 112)
        mask = masks.get(mask_key)
        if mask is None:
            if len(masks) > 256:
                masks.clear()
            mask = masks[mask_key] = _protected(hand, level)
        plo, phi = mask
        ranked = score + (((lo & plo) | (hi & phi)) != 0) * _DIRTY
        best = ranked.min()
        if best < _DIRTY:
            return self._lowest(ranked, best, lo, hi)
        opp = self.bomb_threshold
        if not responding or 0 < counts[seat ^ 1] <= opp or 0 < counts[seat ^ 3] <= opp:
            if best < _BIG:
                return self._lowest(ranked, best, lo, hi)
            bombs = (index >= _BOMB16).nonzero()[0]
            if len(bombs):
                return self._smallest_bomb(array, bombs, index >> _F4, index, bomb_order)
        return n - 1  # pass

    @staticmethod
    def _lowest(score: np.ndarray, best: Any, lo: np.ndarray, hi: np.ndarray) -> int:
        """Among the rows scoring ``best``, the one spending the lowest cards."""
        return GreedyAgent._lowest_of((score == best).nonzero()[0], lo, hi)

    @staticmethod
    def _lowest_of(ties: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> int:
        """Among the given rows, the one whose cards are lowest (highest face first compared):
        a choice that does not depend on the order of the list."""
        if len(ties) > 1:
            top = hi[ties] & _M52
            ties = ties[top == top.min()]
            if len(ties) > 1:
                return int(ties[int(np.argmin(lo[ties]))])
        return int(ties[0])

    @staticmethod
    def _smallest_bomb(array: np.ndarray, rows: np.ndarray, t: np.ndarray, index: np.ndarray, order: np.ndarray) -> int:
        sizes = _sizes(array[rows])
        types = t[rows]
        cls = np.where(sizes <= 5, sizes - 4, sizes - 3)
        cls = np.where(types == np.uint64(MoveType.STRAIGHT_FLUSH), 2, cls)
        cls = np.where(types == np.uint64(MoveType.JOKER_BOMB), 8, cls)
        strength = cls * 64 + order[index[rows]]
        return GreedyAgent._lowest_of(rows[strength == strength.min()], array[:, 0], array[:, 1])


def play_out(state: Any, agents: Sequence[Agent], max_actions: int | None = None) -> None:
    """Let the agents act in ``state`` (a :class:`~guandan.deal.Deal` or a
    :class:`~guandan.match.Match`; ``agents[seat]`` acts for ``seat``) until it is over, or
    until ``max_actions`` actions were taken.

    >>> from guandan.match import Match
    >>> m = Match(seed=9); play_out(m, [RandomAgent(seed) for seed in range(4)], max_actions=10)
    >>> len(m.history), m.is_over
    (10, False)
    """
    if isinstance(agents, str) or not isinstance(agents, Sequence) or len(agents) != 4:
        raise GuandanError(f"four agents, one per seat, got {describe(agents)}")
    if not all(callable(getattr(a, "act", None)) for a in agents):
        raise GuandanError(f"an agent has a method act(observation), got {describe(agents)}")
    taken = 0
    while not state.is_over and (max_actions is None or taken < max_actions):
        seat = state.turn
        state.act(agents[seat].act(state.observation(seat)))
        taken += 1
