"""Native deals played in C: perft, playouts and rollouts, the built-in policies' moves,
the greedy agent's scan and the learned rollout policy's features.

A *native deal state* is the tuple :class:`~guandan.core.packed.DealState` (four packed
hands, the level, the seat to act, the last seat to play, the rank-level play to beat, the
passes since, the finish order), as :meth:`guandan.Deal.native_state` makes it. The
functions here take one (or many) and play it on in the C core, seeded by a
:class:`~guandan.core.rng.SplitMix64` seed; they check every argument and raise an error of
:mod:`guandan.errors` naming the bad one.

They are the compiled core's own functions under their public names (no wrapper: some run
inside a bot's inner loop); each is documented where it is defined.

>>> from guandan.game.deal import Deal
>>> state = Deal.new(seed=7, level=2, leader=0).native_state()
>>> perft(state, 1)                                  # the leader's card-level moves
257
>>> orders = playouts(state, 3, "greedy", seed=1)    # finish orders, one row a playout
>>> orders.shape, orders[0].tolist()                 # seats 0 and 2 went out first: the deal ends
((3, 4), [0, 2, -1, -1])
>>> rollouts(state, 2, "smart", seed=1).tolist() == rollouts(state, 2, "smart", seed=1).tolist()
True
>>> word, spent = smart_move(state)                  # the smart policy's move, its cards
>>> move_features(state, [word]).shape[0]
1
"""

from __future__ import annotations

from . import _core

__all__ = [
    "HIDDEN",
    "perft",
    "playouts",
    "choose",
    "evaluate",
    "rollouts",
    "smart_move",
    "learned_move",
    "move_features",
    "greedy_choose",
]

#: The hidden units a half of a learned rollout policy's network (see ``guandan.bots.rollout_policy``).
HIDDEN: int = _core.HIDDEN

#: The number of card-level action sequences of exactly ``depth`` plies from a state.
perft = _core.perft
#: ``n`` seeded playouts of a state to the deal's end by a built-in policy (``random`` or
#: ``greedy``): their finish orders, ``int8 (n, 4)``.
playouts = _core.playouts
#: The move a built-in policy plays in a state: ``(word, spent cards)``.
choose = _core.choose
#: Each first move of ``firsts`` played from each state, then ``n`` playouts: finish orders.
evaluate = _core.evaluate
#: ``n`` rollouts of a state by the search's policies (``smart``, ``learned``, ``greedy``,
#: ``random``; one for all seats or one a seat): their finish orders, ``int8 (n, 4)``.
rollouts = _core.rollouts
#: The smart policy's move in a state: ``(word, spent cards)``.
smart_move = _core.smart_move
#: The learned policy's move in a state, under ``weights``: ``(word, spent cards)``.
learned_move = _core.learned_move
#: The learned policy's features of rank-level moves ``words`` in a state: ``float32 (k, FEATURES)``.
move_features = _core.move_features
#: The index of the move the greedy agent chooses among a position's card-level moves.
greedy_choose = _core.greedy_choose
