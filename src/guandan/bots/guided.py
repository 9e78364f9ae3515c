"""The search bot with a network's judgement: ``mc-net``, :class:`GuidedSearchAgent`.

``mc`` judges each candidate move by the mean of its rollouts, a noisy number: a candidate
that successive halving dropped early has had a few dozen. A network taught by the search's
own values (its value of every candidate, :mod:`guandan.rl.expert`) carries what the search
found at many positions like this one. :class:`GuidedSearchAgent` asks both and ranks the
candidates by their blend, the network's value standing in as ``prior`` rollouts::

    value = (rollouts * mean + prior * q) / (rollouts + prior)

so a candidate the search judged at length keeps its mean, and one it judged briefly leans
on the network. The network reads the 567-value rows of the candidates only (the
:mod:`~guandan.bots.network` agent's input: a Q-network in ONNX, output ``(n, 1)`` or
``(n,)``); its scores are put in the search's unit, the levels its side gains (+3 .. -3
under the competitive rules), by the model's :func:`~guandan.bots.network.value_scale`
(3 for a network taught by the search, which scores a third of the levels), then shifted
so that their mean weighted by the candidates' rollouts is the means' one: only the
differences between a position's moves count (what a network trained on the differences,
``--advantage``, knows; a position's worth is the search's to say). The tribute and return
are the search's alone.

The search keeps every option of ``mc`` (``rollouts``, ``think_ms``, ``threads``, ...),
given beside ``model`` and ``prior``: ``mc-net:model=net.onnx:prior=200:rollouts=2000``.
Without ``model`` it is the network the package ships (the ``net`` agent's). ``prior`` is 25
by default: with an earlier shipped network, ``prior=100`` lost to ``mc`` (39% of deals) and
``prior=25`` was level with it (48% [44.5, 51.5] of 400 deals); with today's, ``prior=25`` is
level too (58 of 116 deals). The networks know less than 2,000 rollouts do, so a larger prior
only costs.

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
from ..errors import GuandanError, check_number
from ..game.history import Phase
from ..game.observation import Observation
from .network import SHIPPED_MODEL, OnnxAgent
from .search import MonteCarloAgent, SearchResult

__all__ = ["GuidedSearchAgent", "blend"]


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
    """``mc`` with its candidates ranked by the blend of their rollouts' mean and a
    network's value (see the module's description). ``model``: the ONNX Q-network (by
    default the shipped one, :data:`~guandan.bots.network.SHIPPED_MODEL`);
    ``prior``: the rollouts the network's value counts for (0: the search alone; 25 by
    default); every
    other keyword is an option of :class:`~guandan.bots.search.MonteCarloAgent`.

    >>> import os, tempfile
    >>> from guandan.rl.qnet import QNetwork
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.onnx"); QNetwork(hidden=(4,), seed=1).to_onnx(path)
    >>> agent = GuidedSearchAgent(model=path, prior=100, rollouts=400)
    >>> agent.prior, agent.search.config.rollouts, os.path.basename(agent.network.model)
    (100.0, 400, 'tiny.onnx')
    """

    name = "mc-net"

    def __init__(self, model: str | None = None, prior: float = 25.0, seed: int = 0, **search: Any) -> None:
        check_number("prior", prior, at_least=0, expected="a number of rollouts >= 0")
        known = inspect.signature(MonteCarloAgent).parameters
        unknown = sorted(set(search) - set(known))
        if unknown:
            raise GuandanError(
                f"mc-net has no option {unknown[0]!r}: model, prior, and the options of mc "
                f"({', '.join(k for k in known if k != 'seed')})"
            )
        self.prior = float(prior)
        self.network = OnnxAgent(SHIPPED_MODEL if model is None else model)
        self.search = MonteCarloAgent(seed=seed, **search)

    def __repr__(self) -> str:
        return (
            f"GuidedSearchAgent(model={os.path.basename(self.network.model)!r}, prior={self.prior}, "
            f"search={self.search!r})"
        )

    def q_values(self, observation: Observation, moves: list[Move]) -> np.ndarray:
        """The network's value of each of ``moves`` (legal actions of the observation) in
        levels: :meth:`OnnxAgent.move_values <guandan.bots.network.OnnxAgent.move_values>`
        times the model's :func:`~guandan.bots.network.value_scale`."""
        values: np.ndarray = self.network.move_values(observation, moves) * self.network.value_scale
        return values

    def analyze(self, observation: Observation) -> SearchResult:
        """The search's result with its choices ranked by the blend (their ``value`` the
        blended one); the tribute and return as the search found them."""
        result = self.search.analyze(observation)
        start = time.perf_counter()
        if observation.phase != Phase.PLAY or len(result.choices) < 2 or self.prior == 0:
            return result
        moves = [c.action for c in result.choices]
        assert all(isinstance(m, Move) for m in moves)
        q = self.q_values(observation, moves)  # type: ignore[arg-type]
        means = np.array([c.value for c in result.choices])
        counts = np.array([c.rollouts for c in result.choices], dtype=np.float64)
        values = blend(means, counts, q, self.prior)
        order = np.argsort(-values, kind="stable")
        choices = tuple(replace(result.choices[i], value=float(values[i])) for i in order)
        return SearchResult(choices, result.rollouts, result.seconds + (time.perf_counter() - start))

    def act(self, observation: Observation) -> Move | int:
        """The action of the blend in play; the search's in the tribute and return."""
        legal = observation.legal_actions
        if len(legal) == 1:
            only: Move | int = legal[0]
            return only
        return self.analyze(observation).best
