"""The search's native parts: deals sampled for what one seat knows, the belief in a
sampled deal, the candidate moves and the search loop (rollouts on threads, exact
endgames, a tree), all in C.

An *information set* is what one seat knows (:class:`~guandan.core.packed.InfoSet`: its
seat, the level, its hand, the cards it cannot see, what each other seat is known to
hold, may not hold and must hold, the deal's events), as
:func:`guandan.bots.determinize.information_set` makes it; a *search state* the public part
of a native deal state (:class:`~guandan.core.packed.SearchState`).

They are the compiled core's own functions under their public names, each documented
where it is defined; the bound constants are plain ints.

>>> from guandan.game.deal import Deal
>>> from guandan.bots.determinize import information_set
>>> obs = Deal.new(seed=3, level=2, leader=0).observation(0)
>>> info = information_set(obs)
>>> hands = sample_deals(info, 2, seed=1)          # two deals consistent with seat 0's view
>>> len(hands), hands[0][0] == obs.packed_hand
(2, True)
>>> 1 <= MAX_THREADS and 1 <= TREE_MAX_MOVES <= MAX_RANK_MOVES
True
"""

from __future__ import annotations

from . import _core

__all__ = [
    "MAX_RANK_MOVES",
    "MAX_THREADS",
    "TREE_MAX_MOVES",
    "TREE_MAX_NODES",
    "sample_deals",
    "policy_belief",
    "search_candidates",
    "search",
]

#: Room for the rank-level moves of any position (the most candidates a search weighs).
MAX_RANK_MOVES: int = _core.MAX_RANK_MOVES
#: The most threads one search runs its rollouts on.
MAX_THREADS: int = _core.MAX_THREADS
#: The most moves a node of the search's tree expands.
TREE_MAX_MOVES: int = _core.TREE_MAX_MOVES
#: The most nodes of the search's tree.
TREE_MAX_NODES: int = _core.TREE_MAX_NODES

#: ``n`` seeded deals (four packed hands each) consistent with an information set.
sample_deals = _core.sample_deals
#: How likely the learned policy made a deal's recorded plays, were ``hands`` the hands.
policy_belief = _core.policy_belief
#: The rank-level moves a search weighs in a position (at most ``limit``), best first.
search_candidates = _core.search_candidates
#: The search: each candidate's statistics over sampled deals, and how many rollouts ran.
search = _core.search
