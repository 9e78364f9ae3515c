"""The search bot with a network's judgement: ``mc-net``, :class:`GuidedSearchAgent`.

``mc`` judges each candidate move by the mean of its rollouts, a noisy number: successive
halving's first round gives each of 32 candidates a dozen rollouts of a 2,000 budget, and
one of 200 rollouts. A network taught by the search's own values (its value of every
candidate, :mod:`guandan.rl.expert`) carries what the search found at many positions like
this one. :class:`GuidedSearchAgent` gives the network's value ``q`` of each candidate to
the search as a *prior* that counts as ``prior`` rollouts::

    value = (rollouts * mean + prior * (q + shift)) / (rollouts + prior)

in every standing of the search (``halving``, the default): the ones that decide which half
of the candidates successive halving keeps after each round, and the final ranking
(:meth:`MonteCarloAgent.analyze <guandan.bots.search.MonteCarloAgent.analyze>`'s ``prior``,
the native search's; ``shift`` brings the network's values to the means' level: their means
weighted by the rollouts made equal, so only the differences between a position's moves
count, what a network trained on the differences, ``--advantage``, knows). A candidate the
search judged at length keeps its mean; one it judged briefly leans on the network (one no
rollout reached stands at ``q + shift``), and a candidate the network rates low needs more
from its first rollouts to stay in. With ``halving=0`` the search runs alone and the blend
only ranks its result (the earlier ``mc-net``). The network reads the 567-value rows of the candidates only (the
:mod:`~guandan.bots.network` agent's input: a Q-network in ONNX, output ``(n, 1)`` or
``(n,)``); its scores are put in the search's unit, the levels its side gains (+3 .. -3
under the competitive rules), by the model's :func:`~guandan.bots.network.value_scale`
(3 for a network taught by the search, which scores a third of the levels). The tribute
and return are the search's alone.

``top=K`` narrows the search to the K candidates the network values most (in the search's
own order; ``prior=0`` then leaves their rollouts' means alone): the network picks what is
worth playing out, the rollouts pick among those, the whole budget theirs; ``top=1`` is the
network's own choice among the search's candidates. With the shipped ``net`` network at
``mc``'s 2,000 rollouts, ``top=8`` is level with ``mc`` (50.5% [46.0, 55.0] of 400 deals) and
``top=4`` no better (``benchmarks/README.md``), so it is off by default.

The search keeps every option of ``mc`` (``rollouts``, ``think_ms``, ``threads``, ...),
given beside ``model``, ``prior``, ``halving`` and ``top``:
``mc-net:model=net.onnx:prior=50:rollouts=2000``. Without ``model`` it is the network the
search taught (:data:`~guandan.bots.network.SEARCH_MODEL`; the ``net`` agent's network went on
from it by self-play, and as a prior it measured worse); ``prior`` is 25 by default (50 measured the same at 200
rollouts a decision; 100 lost at 2,000 with an earlier network, and with this one measures
+21 Elo over ``mc`` at 2,000, below); without a budget
(``rollouts``, ``think_ms``, ``max_cost``) a decision in play plays :data:`GUIDED_ROLLOUTS`,
200 rollouts, where ``mc`` plays 2,000 (the tribute and return, rare, keep ``mc``'s budget).

What it measures (``benchmarks/README.md``): the network stands in for most of the rollouts,
and adds little to many. At 200 rollouts a decision (7.4 ms of CPU against ``mc``'s 66 ms)
``mc-net`` is level with ``mc`` at its 2,000 (49.8% [45.4, 54.1] of 400 deals), where
``mc`` at 200 wins 37.5% [33.6, 41.4] (against the finalists' two rule bots it wins 87.0%
and 86.0% of the deals, ``mc`` 92.5% and 85.0%); at 2,000 and ``prior=25`` it is no clearly
stronger than ``mc`` (a sequential test of "60% of the deals" against "no stronger" stopped
at no stronger, 93 of 178 deals). With ``prior=100`` at 2,000
(``mc-net:rollouts=2000:prior=100``, the strongest search the package has) three fixed runs
on fresh seeds give 53.0% [50.7, 55.3] of 1,200 deals, Elo +21 [+5, +37], at 3.5% more CPU
time than ``mc``. The network learned the search's values, so it knows what the rollouts
would find, not better than that.

>>> import os, tempfile
>>> from guandan import Deal
>>> from guandan.rl.qnet import QNetwork
>>> path = os.path.join(tempfile.mkdtemp(), "tiny.onnx"); QNetwork(hidden=(4,), seed=1).to_onnx(path)
>>> agent = GuidedSearchAgent(model=path, prior=50, seed=1, rollouts=400)
>>> result = agent.analyze(Deal.new(seed=2, level=2, leader=0).observation(0))
>>> result.rollouts, result.best is result.choices[0].action
(400, True)
"""

from __future__ import annotations

import inspect
import os
import time
from dataclasses import replace
from typing import Any

import numpy as np

from ..core.moves import Move
from ..errors import GuandanError, check_int, check_number, describe
from ..game.history import Phase
from ..game.observation import Observation
from .network import SEARCH_MODEL, OnnxAgent
from .search import MonteCarloAgent, SearchResult

__all__ = ["GuidedSearchAgent", "blend", "GUIDED_ROLLOUTS"]

#: The rollouts a decision of ``mc-net`` in play plays when no budget is given: a tenth of
#: ``mc``'s (:data:`~guandan.bots.search.DEFAULT_ROLLOUTS`), level with ``mc`` at about a
#: ninth of its time (``benchmarks/README.md``).
GUIDED_ROLLOUTS = 200


def blend(means: np.ndarray, rollouts: np.ndarray, q: np.ndarray, prior: float) -> np.ndarray:
    """Each candidate's search mean and network value weighed together, the network as
    ``prior`` rollouts, its values first shifted to the means' level (their means weighted
    by the rollouts made equal; with no rollout at all, left as they are).

    >>> blend(np.array([1.0, 0.0]), np.array([100, 0]), np.array([-1.0, -0.5]), 100.0).tolist()
    [1.0, 1.5]
    """
    total = float(np.sum(rollouts))
    shift = float(np.dot(rollouts, means - q)) / total if total > 0 else 0.0
    values: np.ndarray = (rollouts * means + prior * (q + shift)) / np.maximum(rollouts + prior, 1e-12)
    return values


class GuidedSearchAgent:
    """``mc`` with a network's value of each candidate as a prior (see the module's
    description). ``model``: the ONNX Q-network (by default the one the search taught,
    :data:`~guandan.bots.network.SEARCH_MODEL`); ``prior``: the rollouts the network's value
    counts for (0: the search alone; 25 by default); ``halving``: the prior counts in the
    search's standings, successive halving's and the final ranking (the default), or only in
    a blend of the search's result (``False``); ``top``: only the network's ``top`` best
    candidates are searched (``None``: all); every other keyword is an option of
    :class:`~guandan.bots.search.MonteCarloAgent`, the budget in play :data:`GUIDED_ROLLOUTS`
    rollouts when none is given (``search``; the tribute and return, ``card_search``, then
    keep ``mc``'s default).

    >>> import os, tempfile
    >>> from guandan.rl.qnet import QNetwork
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.onnx"); QNetwork(hidden=(4,), seed=1).to_onnx(path)
    >>> agent = GuidedSearchAgent(model=path, prior=100, rollouts=400)
    >>> agent.prior, agent.halving, agent.search.config.rollouts, os.path.basename(agent.network.model)
    (100.0, True, 400, 'tiny.onnx')
    >>> GuidedSearchAgent(model=path).search.config.rollouts, GuidedSearchAgent(model=path).card_search.config.rollouts
    (200, 2000)
    >>> GuidedSearchAgent(model=path, think_ms=50).search.config.rollouts is None
    True
    """

    name = "mc-net"

    def __init__(
        self,
        model: str | None = None,
        prior: float = 25.0,
        halving: bool = True,
        top: int | None = None,
        seed: int = 0,
        **search: Any,
    ) -> None:
        check_number("prior", prior, at_least=0, expected="a number of rollouts >= 0")
        top = check_int("top", top, 1, optional=True, expected="a number of candidates >= 1")
        if not isinstance(halving, (bool, np.bool_)) and halving not in (0, 1):
            raise GuandanError(f"halving is 1 or 0 (true or false), got {describe(halving)}")
        self.halving = bool(halving)
        if top is not None and not self.halving:
            raise GuandanError("top needs halving: the network picks the candidates the search plays out")
        self.top = top
        known = inspect.signature(MonteCarloAgent).parameters
        unknown = sorted(set(search) - set(known))
        if unknown:
            raise GuandanError(
                f"mc-net has no option {unknown[0]!r}: model, prior, halving, top, and the options of mc "
                f"({', '.join(k for k in known if k != 'seed')})"
            )
        self.prior = float(prior)
        self.network = OnnxAgent(SEARCH_MODEL if model is None else model)
        self.search = self.card_search = MonteCarloAgent(seed=seed, **search)
        if all(search.get(budget) is None for budget in ("rollouts", "think_ms", "max_cost")):
            # no budget given: GUIDED_ROLLOUTS in play; the tribute and return keep mc's default
            self.search = MonteCarloAgent(seed=seed, **{**search, "rollouts": GUIDED_ROLLOUTS})

    def __repr__(self) -> str:
        return (
            f"GuidedSearchAgent(model={os.path.basename(self.network.model)!r}, prior={self.prior}, "
            f"halving={self.halving}, top={self.top}, "
            f"search={self.search!r})"
        )

    def q_values(self, observation: Observation, moves: list[Move]) -> np.ndarray:
        """The network's value of each of ``moves`` (legal actions of the observation) in
        levels: :meth:`OnnxAgent.move_values <guandan.bots.network.OnnxAgent.move_values>`
        times the model's :func:`~guandan.bots.network.value_scale`."""
        values: np.ndarray = self.network.move_values(observation, moves) * self.network.value_scale
        return values

    def analyze(self, observation: Observation) -> SearchResult:
        """The search's result, each choice's ``value`` the blend of its mean and the
        network's value. With ``halving``, in the search's order (later round of successive
        halving first, then the blend, as ``mc``'s own: a candidate dropped early may show a
        higher value than the choice); without, ranked by the blend. The tribute and return
        as the search (``card_search``) found them."""
        if observation.phase != Phase.PLAY:
            return self.card_search.analyze(observation)
        if self.halving and (self.prior > 0 or self.top is not None):
            asked: dict[Move, float] = {}

            def prior(obs: Observation, moves: list[Move]) -> np.ndarray:
                q = self.q_values(obs, moves)
                asked.update(zip(moves, q.tolist()))
                return q

            result = self.search.analyze(observation, prior=prior, prior_rollouts=self.prior, keep=self.top)
            if not asked:  # one candidate: nothing was searched
                return result
            moves = [c.action for c in result.choices]
            q = np.array([asked[m] for m in moves])  # type: ignore[index]
            values = self._blended(result, q)
            choices = tuple(replace(c, value=float(v)) for c, v in zip(result.choices, values))
            return SearchResult(choices, result.rollouts, result.seconds)
        result = self.search.analyze(observation)
        start = time.perf_counter()
        if len(result.choices) < 2 or self.prior == 0:
            return result
        moves = [c.action for c in result.choices]
        assert all(isinstance(m, Move) for m in moves)
        q = self.q_values(observation, moves)  # type: ignore[arg-type]
        values = self._blended(result, q)
        order = np.argsort(-values, kind="stable")
        choices = tuple(replace(result.choices[i], value=float(values[i])) for i in order)
        return SearchResult(choices, result.rollouts, result.seconds + (time.perf_counter() - start))

    def _blended(self, result: SearchResult, q: np.ndarray) -> np.ndarray:
        """The choices' values blended with the network's ``q`` (in the choices' order)."""
        means = np.array([c.value for c in result.choices])
        counts = np.array([c.rollouts for c in result.choices], dtype=np.float64)
        return blend(means, counts, q, self.prior)

    def act(self, observation: Observation) -> Move | int:
        """The action of the blend in play; the search's in the tribute and return."""
        legal = observation.legal_actions
        if len(legal) == 1:
            only: Move | int = legal[0]
            return only
        return self.analyze(observation).best
