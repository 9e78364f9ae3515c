"""What the deep Monte Carlo learners share, on numpy or on torch: a run's options
(:class:`TrainConfig`), choosing each table's action from Q-values (:func:`choose_actions`,
:func:`pick_actions`; among the search's candidates, :func:`pick_candidates` by
:func:`candidate_scores`) and the evaluation against the built-in bots (:func:`evaluate`).

:mod:`guandan.rl.train` (numpy) and :mod:`guandan.rl.torch_train` (torch) both build on it.

>>> TrainConfig(seed=3).tables
64
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..bots.simulate import wilson_interval
from ..errors import GuandanError
from .qnet import QNetwork
from .vector import VecTables

__all__ = ["TrainConfig", "choose_actions", "pick_actions", "pick_candidates", "candidate_scores", "evaluate",
           "keep_decisions", "deal_samples"]  # fmt: skip


@dataclass
class TrainConfig:
    """The options of a training run (their meaning: ``python -m guandan.rl.train --help``)."""

    seed: int = 0
    tables: int = 64
    hidden: tuple[int, ...] = (256, 128)
    lr: float = 5e-4
    batch: int = 512
    replay: int = 200_000
    epsilon_start: float = 0.2
    epsilon_end: float = 0.02
    epsilon_frames: int = 2_000_000
    level: int | None = None
    objective: str = "levels"
    frames: int | None = None
    minutes: float | None = None
    eval_every: int = 1_000_000
    eval_deals: int = 100
    eval_seed: int = 2026
    init: str | None = None
    candidates: int = 0
    value_scale: float = 1.0
    temperature: float = 1.0
    place_bias: list[float] | None = None
    structure: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def choose_actions(
    net: QNetwork, states: np.ndarray, actions: np.ndarray, offsets: np.ndarray,
    epsilon: float = 0.0, rng: np.random.Generator | None = None,
) -> np.ndarray:  # fmt: skip
    """Each table's action (an index into its legal moves): the highest Q (the first of
    equals), or with probability ``epsilon`` a uniform one (``rng``).

    >>> net = QNetwork(hidden=(4,), seed=0)
    >>> tables = VecTables(3, seed=1, observe="rows")
    >>> a = choose_actions(net, tables.states, tables.actions, tables.offsets)
    >>> bool(((0 <= a) & (a < np.diff(tables.offsets))).all())
    True
    """
    n = len(offsets) - 1
    total = int(offsets[-1])
    which = np.repeat(np.arange(n), np.diff(offsets))
    return pick_actions(net.q_factored(states, actions[:total], which), offsets, epsilon, rng)


#: A decision kept until its deal ends: the state (int8), the action chosen (int8), the seat.
Decision = tuple[np.ndarray, np.ndarray, int]


def keep_decisions(pending: list[list[Decision]], tables: VecTables, choice: np.ndarray) -> None:
    """Append each table's decision of this step (``choice``: the action chosen at each, an
    index into its rows) to that table's list in ``pending``; ``tables`` observe ``rows``.

    >>> tables, pending = VecTables(2, seed=1, observe="rows"), [[], []]
    >>> keep_decisions(pending, tables, np.zeros(2, np.int64))
    >>> [len(p) for p in pending], pending[0][0][0].dtype, pending[0][0][2]
    ([1, 1], dtype('int8'), 1)
    """
    assert tables.offsets is not None and tables.actions is not None and tables.states is not None
    chosen = tables.actions[tables.offsets[:-1] + choice].astype(np.int8)
    states = tables.states.astype(np.int8)
    seats = tables.seats.tolist()
    for i in range(tables.n):
        pending[i].append((states[i], chosen[i], seats[i]))


def deal_samples(decisions: list[Decision], rewards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The samples of a deal that ended: its decisions' states and actions stacked, and each
    one's target, the deal's reward (``rewards``: one a seat) of the seat that decided.

    >>> d = [(np.zeros(3, np.int8), np.ones(2, np.int8), s) for s in (0, 1)]
    >>> states, actions, targets = deal_samples(d, np.array([1.0, -1.0, 1.0, -1.0]))
    >>> states.shape, actions.shape, targets.tolist()
    ((2, 3), (2, 2), [1.0, -1.0])
    """
    return (
        np.stack([r[0] for r in decisions]),
        np.stack([r[1] for r in decisions]),
        np.array([rewards[r[2]] for r in decisions], dtype=np.float32),
    )


def pick_actions(
    q: np.ndarray, offsets: np.ndarray, epsilon: float = 0.0, rng: np.random.Generator | None = None
) -> np.ndarray:
    """Each table's action from the Q-values of all tables' legal moves (``q``, table ``i``'s
    ``q[offsets[i]:offsets[i + 1]]``): the highest (the first of equals), or with probability
    ``epsilon`` a uniform one (``rng``).

    >>> pick_actions(np.array([0.5, 2.0, 2.0, -1.0]), np.array([0, 3, 4])).tolist()
    [1, 0]
    """
    n = len(offsets) - 1
    total = int(offsets[-1])
    counts = np.diff(offsets)
    which = np.repeat(np.arange(n), counts)
    starts = offsets[:-1]
    best = np.maximum.reduceat(q, starts)
    first = np.where(q == best[which], np.arange(total), total)
    choice = np.minimum.reduceat(first, starts) - starts
    if epsilon > 0 and rng is not None:
        explore = rng.random(n) < epsilon
        uniform = (rng.random(n) * counts).astype(np.int64)
        choice = np.where(explore, uniform, choice)
    return choice.astype(np.int64)  # type: ignore[no-any-return]


def pick_candidates(
    scores: np.ndarray, places: np.ndarray, offsets: np.ndarray, epsilon: float | np.ndarray = 0.0,
    rng: np.random.Generator | None = None,
) -> np.ndarray:  # fmt: skip
    """Each table's action among its search candidates (the actions of ``places >= 0``, see
    :meth:`~guandan.rl.vector.VecTables.places`): the highest of ``scores`` (the first of
    equals), or with probability ``epsilon`` (one for all tables, or one a table) a candidate
    drawn uniformly (``rng``). Every table has a candidate (the smart policy's own choice is
    always legal).

    >>> scores, places = np.array([0.5, 2.0, 9.0, -1.0]), np.array([1, 0, -1, 0], np.int8)
    >>> pick_candidates(scores, places, np.array([0, 3, 4])).tolist()
    [1, 0]
    """
    allowed = places >= 0
    starts = offsets[:-1]
    counts = np.add.reduceat(allowed.astype(np.int64), starts)
    if (counts == 0).any():
        raise GuandanError(f"table {int(np.argmin(counts))} has no candidate among its actions")
    choice = pick_actions(np.where(allowed, scores, -np.inf), offsets)
    if rng is not None and bool(np.any(np.asarray(epsilon) > 0)):
        n = len(offsets) - 1
        if np.ndim(epsilon) and np.shape(epsilon) != (n,):
            raise GuandanError(f"one epsilon a table: {n} tables, epsilon of shape {np.shape(epsilon)}")
        explore = rng.random(n) < epsilon
        kth = (rng.random(n) * counts).astype(np.int64)  # the kth candidate of the table
        before = np.concatenate([[0], np.cumsum(allowed)])[starts]  # candidates of the tables before
        uniform = np.flatnonzero(allowed)[before + kth] - starts
        choice = np.where(explore, uniform, choice)
    return choice.astype(np.int64)


def candidate_scores(q: np.ndarray, places: np.ndarray, config: TrainConfig) -> np.ndarray:
    """What a run choosing among the candidates (``config.candidates``) ranks them by: the
    Q-values, divided by ``config.temperature`` and each plus the bias of its place when the
    run has a place prior (``config.place_bias``; places beyond the list take its last), as the
    ``net`` agent scores them.

    >>> c = TrainConfig(candidates=8, temperature=0.5, place_bias=[1.0, 0.0])
    >>> candidate_scores(np.array([1.0, 1.0, 1.0]), np.array([0, 1, 5], np.int8), c).tolist()
    [3.0, 2.0, 2.0]
    """
    if config.place_bias is None:
        return q
    bias = np.asarray(config.place_bias, dtype=np.float32)
    where = np.minimum(np.maximum(places, 0), len(bias) - 1)
    return q / np.float32(config.temperature) + bias[where]  # type: ignore[no-any-return]


def evaluate(net: QNetwork | Callable[[VecTables], np.ndarray], opponent: str, deals: int, seed: int) -> dict[str, Any]:
    """Deals won by the greedy network against a built-in ``opponent`` (``"random"`` or
    ``"greedy"``) over ``deals`` seeded deals played twice with sides swapped: ``{"won", "n",
    "rate", "lo", "hi"}`` (95% Wilson interval). ``net``: a network, which plays the legal
    action of the highest Q, or a function choosing every table's action (``"rows"`` tables).

    >>> result = evaluate(QNetwork(hidden=(4,), seed=0), "random", 2, seed=1)
    >>> result["n"], 0 <= result["won"] <= 4
    (4, True)
    """
    won = 0
    for side in (0, 1):
        policies = tuple("external" if (s & 1) == side else opponent for s in range(4))
        tables = VecTables(deals, seed=seed, observe="rows", level=None, policies=policies, objective="wins")
        done = np.zeros(deals, dtype=bool)
        while not done.all():
            assert tables.states is not None and tables.actions is not None and tables.offsets is not None
            if isinstance(net, QNetwork):
                a = choose_actions(net, tables.states, tables.actions, tables.offsets)
            else:
                a = net(tables)
            rewards, ended, _ = tables.step(a)
            fresh = (ended > 0) & ~done
            won += int((rewards[fresh, side] > 0).sum())
            done |= fresh
    n = 2 * deals
    lo, hi = wilson_interval(won, n)
    return {"won": won, "n": n, "rate": won / n, "lo": lo, "hi": hi}


def _eval_line(record: dict[str, Any]) -> str:
    parts = [f"[{record['wall'] / 60:6.1f} min] eval at {record['frames']:,} frames:"]
    for opponent in ("random", "greedy"):
        r = record.get("vs_" + opponent)
        if r:
            parts.append(f"vs {opponent} {r['won']}/{r['n']} = {r['rate']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]")
    return " ".join(parts)
