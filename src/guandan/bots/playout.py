"""Native playouts for search: deals played to the end inside the C core.

A playout starts from any :class:`~guandan.Deal` in progress and plays it out with a
built-in policy — ``random`` (uniform over the rank-level legal moves, the pass included
when responding) or ``greedy`` (the weakest combination; see ``csrc/gd_play.h``) — seeded,
without a Python object per move (their speed: ``benchmarks/README.md``, "Playouts"). The
physical cards of each rank-level move are chosen canonically (the suits holding the most
copies first), so no card-level move is ever expanded.

>>> from guandan import Deal
>>> deal = Deal.new(seed=7, level=2, leader=0)
>>> orders = playouts(deal, 1000, "random", seed=1)
>>> orders.shape, sorted(set(orders[:, 0].tolist())) == [0, 1, 2, 3]
((1000, 4), True)
>>> bool((playouts(deal, 1000, "random", seed=1) == orders).all())   # seeded
True
>>> from guandan.game.scoring import side_scores
>>> bool(-3 <= side_scores(orders, side=0).mean() <= 3)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from ..core import playouts as native
from ..core.cards import Cards
from ..core.movegen import pack_rank_move, spent_move
from ..core.moves import Move
from ..core.packed import PASS_WORD, DealState, SearchState, bits_of_cards
from ..errors import GuandanError, describe
from ..game.deal import Deal
from ..game.history import History, Play

__all__ = ["native_state", "public_state", "playouts", "policy_move", "Policy"]

Policy = Literal["random", "greedy"]


def native_state(
    hands: Sequence[Cards],
    level: int,
    turn: int,
    to_beat: Play | None,
    recent: Sequence[Any],
    finish_order: Sequence[int],
) -> DealState:
    """A native deal state from its parts: four hands, the level, the seat to act, the play
    to beat (``None`` to lead), the records of the deal so far or of its current trick
    (oldest first: the passes at the end are counted), and the finish order. (A deal's own
    state is :meth:`~guandan.Deal.native_state`; this one is for hands a bot imagines.)"""
    public = public_state(level, turn, to_beat, recent, finish_order)
    return DealState(tuple(bits_of_cards(hand) for hand in hands), *public)


def public_state(
    level: int, turn: int, to_beat: Play | None, recent: Sequence[Any], finish_order: Sequence[int]
) -> SearchState:
    """The public part of a native deal state (:func:`native_state` without the hands): what
    the search's root takes.

    >>> from guandan import Deal
    >>> deal = Deal.new(seed=7, level=2, leader=0)
    >>> public_state(2, 0, None, (), ()) == deal.native_state().public()
    True
    """
    if to_beat is None:
        last, beat, passes = -1, PASS_WORD, 0
    else:
        last, beat = to_beat.seat, pack_rank_move(to_beat.move.to_rank())
        if isinstance(recent, History):
            passes = recent.trailing_passes()  # read from the packed plays, none decoded
        else:
            passes = 0
            for record in reversed(recent):
                if not getattr(record, "is_pass", False):
                    break
                passes += 1
    return SearchState(level, turn, last, beat, passes, tuple(finish_order))


def playouts(deal: Deal, n: int, policy: Policy = "random", seed: int = 0) -> np.ndarray:
    """Play the deal to its end ``n`` times: an ``int8 (n, 4)`` array of finish orders.

    Row i lists the seats in finishing order, 1st first; the places a double-down leaves
    undecided are -1. The results depend only on the deal, ``n``, the policy and the seed.
    """
    return native.playouts(_state_of(deal), n, policy, seed)


def policy_move(deal: Deal, policy: Policy = "greedy", seed: int = 0) -> Move:
    """The card-level move a built-in native policy plays for the seat to act."""
    word, cards = native.choose(_state_of(deal), policy, seed)
    return spent_move(word, cards, deal.level)


def _state_of(deal: Deal) -> DealState:
    """A deal's native state, or an error naming what was given instead of a deal."""
    if not isinstance(deal, Deal):
        raise GuandanError(f"a deal state is taken from a Deal, got {describe(deal)}")
    return deal.native_state()
