"""The search's native parts: deals sampled for what one seat knows, the belief in a
sampled deal, the candidate moves and the search loop (rollouts on threads, exact
endgames, a tree), all in C.

An *information set* is what one seat knows (:class:`~guandan.core.packed.InfoSet`: its
seat, the level, its hand, the cards it cannot see, what each other seat is known to
hold, may not hold and must hold, the deal's events), as
:func:`guandan.bots.determinize.information_set` makes it; a *search state* the public part
of a native deal state (:class:`~guandan.core.packed.SearchState`).

They are the compiled core's own functions under their public names, each documented
where it is defined; the bound constants are plain ints. :class:`SearchParams` is the search's
parameter struct (``gd_search_params`` in ``csrc/gd_search.h``), field for field: the
search takes it as one object and copies it into the struct, checking each field there.

>>> from guandan.game.deal import Deal
>>> from guandan.bots.determinize import information_set
>>> deal = Deal.new(seed=3, level=2, leader=0)
>>> obs = deal.observation(0)
>>> info = information_set(obs)
>>> hands = sample_deals(info, 2, seed=1)          # two deals consistent with seat 0's view
>>> len(hands), hands[0][0] == obs.packed_hand
(2, True)
>>> 1 <= MAX_THREADS and 1 <= TREE_MAX_MOVES <= MAX_RANK_MOVES
True
>>> words = search_candidates(info, deal.native_state().public(), 4)
>>> stats, played = search(info, deal.native_state().public(), words, SearchParams(rollouts=40, seed=1))
>>> stats.shape, played
((4, 4), 40)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from . import _core

__all__ = [
    "MAX_RANK_MOVES",
    "MAX_THREADS",
    "TREE_MAX_MOVES",
    "TREE_MAX_NODES",
    "sample_deals",
    "policy_belief",
    "search_candidates",
    "deal_candidates",
    "search",
    "SearchParams",
    "SearchPolicyName",
    "VALUE_FEATURES",
    "VALUE_HIDDEN",
    "value_features",
    "value_of",
    "value_size",
]

#: The search's rollout policies.
SearchPolicyName = Literal["smart", "learned", "greedy", "random"]

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
#: The same for the seat to act in a whole deal's state (``Deal.native_state()``): the search's
#: candidates read its hand and the card counts alone.
deal_candidates = _core.deal_candidates
#: The search: each candidate's statistics over sampled deals, and how many rollouts ran.
search = _core.search
#: The numbers a state value reads of a whole deal state, and the widest of its hidden layers.
VALUE_FEATURES: int = _core.VALUE_FEATURES
VALUE_HIDDEN: int = _core.VALUE_HIDDEN
#: A state value's numbers of a whole deal state (``gd_value_features``).
value_features = _core.value_features
#: A state value's value of a whole deal state, under its weights and widths (``gd_value_eval``).
value_of = _core.value_of
#: The weights of a state value of two hidden widths.
value_size = _core.value_size


@dataclass(frozen=True)
class SearchParams:
    """The parameters of one :func:`search`: the C struct ``gd_search_params`` field for
    field (``csrc/gd_search.h`` says what each does), the defaults those of a plain search.
    :func:`search` checks each field as it copies it into the struct.

    Budgets: ``rollouts`` > 0 plays exactly that many (the result then does not depend on
    ``threads``); ``seconds`` > 0 stops starting rollouts after that long; at least one is
    needed. ``policy``: every seat's rollout policy; ``weights``: the learned policy's
    (``policy="learned"`` needs them); ``temperature`` > 0 (learned only): the policy draws each
    rollout move with probability proportional to ``exp(score / temperature)`` instead of
    playing the highest score (``gd_learned_sample``). ``tries``, ``pass_weight``, ``bomb_weight``: the
    weighted sampler (``gd_infer``; ``tries=1`` samples uniformly). ``objective``: a rollout
    scores the levels won or lost (``levels``, a win with the partner 2nd, 3rd, 4th worth
    ``promotion``'s three values: the ruleset's), 1 / -1 (``wins``), or six integer payoffs
    (each within ±10**6): a win of the seat's side with its partner 2nd, 3rd, 4th, then a
    loss with the other side's partner 2nd, 3rd, 4th (no endgame solves then).

    The rest are the core's experiments, off by default, which ``mc`` no longer offers (they
    measured no gain: ``benchmarks/README.md``); the core keeps them, tested.
    ``solve_cards`` > 0: an *endgame* when the four hands hold that many cards or fewer in
    all: each sampled deal after a candidate is solved exactly (``gd_solve``, at most
    ``solve_nodes`` states; one that runs out is played out), a solve counting as
    ``solve_cost`` rollouts of the ``rollouts`` budget. ``policy_weight`` < 1 (with
    ``weights``): each sampled deal counts in the means with the weight :func:`policy_belief`
    gives it (the other seats' latest ``policy_events`` plays and passes). ``tree_moves`` > 0
    (at most :data:`TREE_MAX_MOVES`): the seat's own later decisions in the playouts are
    searched too, in a tree keyed by the public line of play (``gd_tree.h``) of at most
    ``tree_nodes`` nodes (at most :data:`TREE_MAX_NODES`), each of at most ``tree_moves``
    moves (the rollout policy's first), choosing by PUCT (exploration ``tree_c`` in results,
    the policy's move's prior ``tree_first`` in (0, 1]) once it has seen ``tree_visits``
    playouts (with ``temperature``, the policy's move of a node is the one its first playout
    drew).

    ``prior_rollouts`` > 0: :func:`search`'s ``prior``, a value for each candidate (a
    network's, say), counts as that many rollouts in the standings that decide successive
    halving's eliminations and the final ranking (``csrc/gd_search.h`` gives the blend).

    ``value`` (the weights of a state value, :mod:`guandan.bots.state_value`, of hidden widths
    ``value_hidden``): each rollout stops ``value_plies`` plies after its candidate and scores
    the value of the whole deal state it reached (``gd_value_eval``: the levels the side to act
    can expect) for the searching side, or the deal's result when it ended first; results are
    then kept in fixed point (``GD_VALUE_ONE``). With ``objective="levels"`` only, and neither
    a tree nor weighted deals. ``value_mix`` in [0, 1] below 1: the rollout reads the value
    there and plays on to the deal's end, scoring ``(1 - value_mix)`` times its result plus
    ``value_mix`` times the value.

    >>> SearchParams(rollouts=400, seed=7).threads, SearchParams().objective
    (1, 'levels')
    """

    rollouts: int = 0
    seconds: float = 0.0
    threads: int = 1
    policy: SearchPolicyName = "smart"
    seed: int = 0
    tries: int = 1
    pass_weight: float = 1.0
    bomb_weight: float = 1.0
    objective: Literal["levels", "wins"] | tuple[int, ...] = "levels"
    promotion: tuple[int, int, int] = (3, 2, 1)
    solve_cards: int = 0
    solve_nodes: int = 100_000
    solve_cost: int = 50
    weights: npt.NDArray[np.floating[Any]] | None = field(default=None, compare=False, repr=False)
    temperature: float = 0.0
    policy_weight: float = 1.0
    policy_events: int = 0
    tree_moves: int = 0
    tree_visits: int = 8
    tree_nodes: int = 4096
    tree_c: float = 1.0
    tree_first: float = 0.5
    prior_rollouts: float = 0.0
    value: npt.NDArray[np.floating[Any]] | None = field(default=None, compare=False, repr=False)
    value_hidden: tuple[int, int] = (128, 64)
    value_plies: int = 0
    value_mix: float = 1.0
