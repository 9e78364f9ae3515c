"""The statistics of the arena (:mod:`guandan.bots.arena`): Elo from a score, the sequential
probability ratio test on deal pairs, Elo intervals from the pairs' variance, and ratings
of many bots by maximum likelihood. Pure arithmetic (numpy), no games.

**A pair** is one deal (or one whole game) played twice from the same seed, the sides
swapped: the pair's outcome is how many of its two it won, 0, 1 or 2, scored 0, ½ or 1.
The luck of the cards cancels within a pair, so pairs vary less than deals: a pair is the
unit of every statistic here.

**Elo.** A score ``s`` (the expected share of points) is the Elo difference
``-400 log10(1/s - 1)``: 64% is +100, 50% is 0. The interval of a fixed run is the normal
interval of the mean pair score, ``s ± 1.96 σ/√N`` with ``σ`` the pairs' standard deviation,
carried over to Elo.

**The SPRT.** The generalized sequential probability ratio test decides between H0: the
Elo difference is ``elo0`` and H1: it is ``elo1`` (``elo0 < elo1``): after every pair, the
log-likelihood ratio of the outcomes seen under the two hypotheses, each hypothesis's
distribution being the one closest to what was seen (maximum likelihood) whose mean is the
hypothesis's score; the test stops at H1 when the ratio reaches ``log((1-β)/α)``, at H0 when
it falls to ``log(β/(1-α))``. The type I error (H1 when the truth is ``elo0``) is then about
``α``, the type II error (H0 at ``elo1``) about ``β``.

>>> round(elo_of_score(0.64), 1), round(score_of_elo(100), 4)
(100.0, 0.6401)
>>> [round(x, 3) for x in sprt_bounds(0.05, 0.05)]
[-2.944, 2.944]
>>> counts = [10, 30, 60]                          # pairs of 0, 1 and 2 deals won
>>> round(llr(counts, 0, 100), 2), sprt_result(llr(counts, 0, 100), sprt_bounds(0.05, 0.05))
(15.34, 'H1')
>>> estimate = pair_estimate(counts)
>>> round(estimate.elo, 1), [round(x, 1) for x in estimate.elo_ci]
(190.8, [134.4, 258.4])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import GuandanError, check_int, check_number, describe

__all__ = [
    "PAIR_SCORES",
    "Z95",
    "MAX_ELO",
    "elo_of_score",
    "score_of_elo",
    "sprt_bounds",
    "llr",
    "llr_array",
    "sprt_result",
    "PairEstimate",
    "pair_estimate",
    "Ratings",
    "fit_ratings",
    "check_sprt",
    "pair_distribution",
    "LEVEL_SCORES",
    "level_score",
    "tilted_distribution",
    "level_pair_distribution",
    "simulate_sprt",
]

#: The scores of a pair's outcomes: 0, 1 or 2 of its two deals (or games) won.
PAIR_SCORES: tuple[float, float, float] = (0.0, 0.5, 1.0)
#: The scores of a pair of deals by its levels: ``½ + L/12`` for ``L`` the first bot's levels
#: gained less the other's over the pair's two deals (-6 to +6; a deal is won by 1, 2 or 3 levels).
LEVEL_SCORES: tuple[float, ...] = tuple(i / 12 for i in range(13))
#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
#: The largest Elo difference a test takes (a score of 0.999).
MAX_ELO = 1200
#: The count given to an outcome never seen, so that the likelihoods stay finite (as fishtest does).
_EMPTY = 1e-3


def elo_of_score(score: float) -> float:
    """The Elo difference of an expected score: ``-400 log10(1/score - 1)``; ``±inf`` at 0 and 1.

    >>> elo_of_score(0.5), elo_of_score(1.0), round(elo_of_score(0.25), 1)
    (0.0, inf, -190.8)
    """
    if not 0.0 <= score <= 1.0:
        raise GuandanError(f"a score is between 0 and 1, got {describe(score)}")
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def score_of_elo(elo: float) -> float:
    """The expected score of an Elo difference: ``1 / (1 + 10^(-elo/400))``.

    >>> score_of_elo(0), round(score_of_elo(-200), 4)
    (0.5, 0.2403)
    """
    return 1.0 / (1.0 + math.pow(10.0, min(300.0, max(-300.0, -elo / 400.0))))


def check_sprt(elo0: float, elo1: float, alpha: float, beta: float) -> None:
    """Raise :class:`~guandan.GuandanError` unless the test's settings make sense:
    ``elo0 < elo1`` (within ±:data:`MAX_ELO`), ``alpha`` and ``beta`` in (0, 1) and ``alpha + beta < 1``.

    >>> check_sprt(5, 0, 0.05, 0.05)
    Traceback (most recent call last):
    ...
    guandan.errors.GuandanError: --sprt ELO0,ELO1: ELO0 must be below ELO1, got 5,0
    """
    for name, value in (("ELO0", elo0), ("ELO1", elo1)):
        between = f"a number between -{MAX_ELO} and {MAX_ELO}"
        check_number(f"--sprt ELO0,ELO1: {name}", value, at_least=-MAX_ELO, at_most=MAX_ELO, expected=between)
    if not elo0 < elo1:
        raise GuandanError(f"--sprt ELO0,ELO1: ELO0 must be below ELO1, got {elo0:g},{elo1:g}")
    for name, value in (("--alpha", alpha), ("--beta", beta)):
        check_number(name, value, above=0, below=1, expected="an error rate strictly between 0 and 1")
    if alpha + beta >= 1.0:
        raise GuandanError(f"--alpha plus --beta must be below 1, got {alpha:g} + {beta:g}")


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The SPRT's bounds on the log-likelihood ratio: H0 at ``log(β/(1-α))`` or below, H1 at
    ``log((1-β)/α)`` or above (Wald's).

    >>> [round(x, 3) for x in sprt_bounds(0.05, 0.1)]
    [-2.251, 2.89]
    """
    check_sprt(0.0, 1.0, alpha, beta)
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _constrained(p: np.ndarray, a: np.ndarray, s: float) -> np.ndarray:
    """The distribution of greatest likelihood for the frequencies ``p`` (rows, over the
    outcomes ``a``) whose mean is ``s``: ``p_i / (1 + λ (a_i - s))``, ``λ`` the root of
    ``Σ p_i (a_i - s) / (1 + λ (a_i - s))``, which falls as ``λ`` grows: Newton's steps kept
    inside a bracket that shrinks around the root (halved when a step would leave it)."""
    d = a - s  # (K,)
    low = np.full(p.shape[:-1], -1.0 / (a.max() - s))
    high = np.full(p.shape[:-1], 1.0 / (s - a.min()))
    if len(a) == 3:  # three outcomes: the root of a quadratic (the sum times its denominators)
        return p / (1.0 + _root3(p, d, low, high)[..., None] * d)
    flat_p = p.reshape(-1, len(a))
    lam = np.zeros(flat_p.shape[0])
    lows: np.ndarray = np.full(flat_p.shape[0], -1.0 / (a.max() - s))
    highs: np.ndarray = np.full(flat_p.shape[0], 1.0 / (s - a.min()))
    todo = np.arange(flat_p.shape[0])  # the rows not converged yet: most take a few steps, a few many
    for _ in range(200):
        if todo.size == 0:
            break
        x, pt = lam[todo], flat_p[todo]
        term = d / (1.0 + x[:, None] * d)
        f = (pt * term).sum(axis=-1)
        slope = -(pt * term * term).sum(axis=-1)
        lo = np.where(f > 0, x, lows[todo])
        hi = np.where(f > 0, highs[todo], x)
        step = x - f / slope
        new = np.where((step >= lo) & (step <= hi), step, (lo + hi) / 2)
        lows[todo], highs[todo], lam[todo] = lo, hi, np.where(f == 0, x, new)
        todo = todo[(np.abs(new - x) > 1e-13 * (1 + np.abs(x))) & (np.abs(f) > 1e-15)]
    q: np.ndarray = p / (1.0 + lam.reshape(p.shape[:-1])[..., None] * d)
    result: np.ndarray = q / q.sum(axis=-1, keepdims=True)
    return result


def _root3(p: np.ndarray, d: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """The root in (low, high) of ``Σ p_i d_i / (1 + λ d_i)`` for three outcomes: times the
    three denominators (positive there) it is ``A λ² + B λ + C`` with ``A = d0 d1 d2`` (the
    ``p`` sum to 1), ``B = Σ p_i d_i (d_j + d_k)``, ``C = Σ p_i d_i``; its roots are ``q/A``
    and ``C/q`` with ``q = -(B + sign(B) √(B² - 4AC))/2`` (no cancellation), one of them in the bracket."""
    d0, d1, d2 = (float(x) for x in d)
    a2 = d0 * d1 * d2
    b1 = p[..., 0] * d0 * (d1 + d2) + p[..., 1] * d1 * (d0 + d2) + p[..., 2] * d2 * (d0 + d1)
    c0 = (p * d).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = -(b1 + np.where(b1 >= 0, 1.0, -1.0) * np.sqrt(np.maximum(b1 * b1 - 4 * a2 * c0, 0.0))) / 2
        first = q / a2 if a2 != 0 else np.full(q.shape, np.inf)
        second = np.where(q != 0, c0 / np.where(q != 0, q, 1.0), 0.0)
    root: np.ndarray = np.where((second > low) & (second < high), second, first)
    return root


def llr_array(counts: Any, elo0: float, elo1: float, scores: Sequence[float] = PAIR_SCORES) -> np.ndarray:
    """:func:`llr` of many runs at once: ``counts`` an array of shape ``(..., len(scores))``.

    >>> [round(float(x), 2) for x in llr_array([[10, 30, 60], [60, 30, 10]], 0, 100)]
    [15.34, -25.33]
    """
    n = np.asarray(counts, dtype=float)
    a = np.asarray(scores, dtype=float)
    if n.shape[-1:] != a.shape or (n < 0).any():
        raise GuandanError(f"counts are one count >= 0 per outcome ({len(a)}), got {describe(counts)}")
    n = np.maximum(n, _EMPTY)
    total = n.sum(axis=-1)
    p = n / total[..., None]
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    q0, q1 = _constrained(p, a, s0), _constrained(p, a, s1)
    result: np.ndarray = (n * np.log(q1 / q0)).sum(axis=-1)
    return np.where(np.asarray(counts, dtype=float).sum(axis=-1) > 0, result, 0.0)


def llr(counts: Sequence[float], elo0: float, elo1: float, scores: Sequence[float] = PAIR_SCORES) -> float:
    """The log-likelihood ratio of H1 (Elo ``elo1``) against H0 (Elo ``elo0``) for the pairs
    seen: ``counts[i]`` pairs scored ``scores[i]`` (by default 0, ½ and 1: pairs of 0, 1 and 2
    deals won). Each hypothesis's likelihood is that of the distribution closest to the
    counts whose mean is its score (a generalized likelihood ratio, as fishtest computes on
    its game pairs); an outcome never seen counts ``0.001``. No pairs: 0.

    >>> round(llr([0, 10, 0], 0, 100), 3), round(llr([3, 10, 7], -50, 50), 3), llr([0, 0, 0], 0, 5)
    (-3.279, 2.265, 0.0)
    """
    return float(llr_array(list(counts), elo0, elo1, scores))


def sprt_result(value: float, bounds: tuple[float, float]) -> str | None:
    """``"H1"`` at or above the upper bound, ``"H0"`` at or below the lower, else ``None``.

    >>> sprt_result(3.0, (-2.94, 2.94)), sprt_result(0.0, (-2.94, 2.94)), sprt_result(-3, (-2.94, 2.94))
    ('H1', None, 'H0')
    """
    if value >= bounds[1]:
        return "H1"
    if value <= bounds[0]:
        return "H0"
    return None


@dataclass(frozen=True)
class PairEstimate:
    """What a run of pairs says of the first bot against the second: ``score`` (its mean
    share of the points, a pair's ½ + ½ counted as ½) with its 95% interval from the pairs'
    variance, the same as Elo (``elo``, ``elo_ci``: ``±inf`` when a bound reaches 0 or 1),
    the standard deviation of a pair's score and the number of pairs.

    >>> pair_estimate([0, 12, 0])
    PairEstimate(pairs=12, score=0.5, score_ci=(0.5, 0.5), elo=0.0, elo_ci=(0.0, 0.0), pair_sd=0.0)
    """

    pairs: int
    score: float
    score_ci: tuple[float, float]
    elo: float
    elo_ci: tuple[float, float]
    pair_sd: float

    def to_json(self) -> dict[str, Any]:
        """As JSON values (an infinite Elo as ``null``).

        >>> pair_estimate([1, 0, 1]).to_json()["elo_ci"]
        [None, None]
        """
        return {
            "pairs": self.pairs,
            "score": self.score,
            "score_ci": list(self.score_ci),
            "elo": _finite(self.elo),
            "elo_ci": [_finite(x) for x in self.elo_ci],
            "pair_sd": self.pair_sd,
        }


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def pair_estimate(counts: Sequence[float], scores: Sequence[float] = PAIR_SCORES, z: float = Z95) -> PairEstimate:
    """The score and Elo of ``counts[i]`` pairs scored ``scores[i]``, with intervals (95% by
    default) from the pairs' variance: ``mean ± z·sd/√N``, clipped to [0, 1] and carried over
    to Elo. No pairs: score ½, interval [0, 1].

    >>> e = pair_estimate([20, 50, 30]); round(e.score, 3), [round(x, 3) for x in e.score_ci]
    (0.55, [0.481, 0.619])
    """
    n = [float(c) for c in counts]
    if len(n) != len(scores) or any(c < 0 for c in n):
        raise GuandanError(f"counts are one count >= 0 per outcome ({len(scores)}), got {describe(counts)}")
    total = sum(n)
    if total == 0:
        return PairEstimate(0, 0.5, (0.0, 1.0), 0.0, (-math.inf, math.inf), 0.0)
    mean = sum(c * a for c, a in zip(n, scores)) / total
    var = sum(c * (a - mean) ** 2 for c, a in zip(n, scores)) / total
    sd = math.sqrt(var)
    half = z * sd / math.sqrt(total)
    low, high = max(0.0, mean - half), min(1.0, mean + half)
    return PairEstimate(
        int(round(total)), mean, (low, high), elo_of_score(mean), (elo_of_score(low), elo_of_score(high)), sd
    )


@dataclass(frozen=True)
class Ratings:
    """Ratings of many bots: ``elo[i]`` of bot ``i`` (the ``anchor`` at 0) with its 95%
    interval ``ci[i]`` (the anchor's is ``(0, 0)``), and the dispersion of the pairs' scores
    about the fitted model (1 for scores as spread as single wins and losses; pairs spread
    less)."""

    elo: list[float]
    ci: list[tuple[float, float]]
    anchor: int
    dispersion: float


def _expected(r: np.ndarray, i: int, j: int) -> float:
    """Bot ``i``'s expected score against bot ``j`` at ratings ``r``."""
    return 1.0 / (1.0 + math.pow(10.0, (float(r[j]) - float(r[i])) / 400.0))


def _derivatives(
    rows: list[tuple[int, int, float, float, float, float, float]], r: np.ndarray, index: dict[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """The log-likelihood's gradient and negated Hessian in the free ratings (``index``)."""
    c = math.log(10) / 400
    grad = np.zeros(len(index))
    hess = np.zeros((len(index), len(index)))
    for i, j, w, n, *_rest in rows:
        p = _expected(r, i, j)
        g, h = c * (w - n * p), c * c * n * p * (1 - p)
        for k1, s1 in ((i, 1.0), (j, -1.0)):
            if k1 not in index:
                continue
            grad[index[k1]] += s1 * g
            for k2, s2 in ((i, 1.0), (j, -1.0)):
                if k2 in index:
                    hess[index[k1], index[k2]] += s1 * s2 * h
    return grad, hess


def fit_ratings(
    results: Sequence[tuple[int, int, float, float, float]], bots: int, anchor: int = 0, prior: float = 0.5
) -> Ratings:
    """Ratings of ``bots`` bots by maximum likelihood (Bradley–Terry on the Elo scale,
    ``P(i beats j) = 1 / (1 + 10^((r_j - r_i)/400))``) from pairings' results, with bot
    ``anchor`` fixed at 0.

    ``results``: one ``(i, j, points, pairs, square)`` per pairing: bot ``i`` against bot
    ``j`` over ``pairs`` pairs, ``points`` the sum of ``i``'s pair scores (0, ½, 1 each) and
    ``square`` the sum of their squares. ``prior``: drawn pairs added to every pairing, so that
    a bot that won every pair gets a finite rating. The intervals (95%) come from the
    likelihood's curvature, widened by the dispersion of the pair scores about the fitted
    model (quasi-likelihood: a pair's score varies less, or more, than one win or loss would).

    >>> r = fit_ratings([(0, 1, 64.0, 100, 50.0), (1, 2, 64.0, 100, 50.0), (0, 2, 76.0, 100, 66.0)], 3)
    >>> [round(x) for x in r.elo], r.ci[0]
    ([0, -99, -199], (0.0, 0.0))
    """
    bots = check_int("bots", bots, 1)
    check_int("anchor", anchor, 0, bots - 1, expected=f"a bot 0..{bots - 1}")
    free = [k for k in range(bots) if k != anchor]
    index = {k: i for i, k in enumerate(free)}
    rows: list[tuple[int, int, float, float, float, float, float]] = []
    for i, j, points, pairs, square in results:
        if not (0 <= i < bots and 0 <= j < bots and i != j and 0 <= points <= pairs):
            raise GuandanError(f"a pairing's result is (i, j, points, pairs, square), got {describe((i, j, points))}")
        rows.append((i, j, points + prior / 2, pairs + prior, float(points), float(pairs), float(square)))
    r = np.zeros(bots)
    for _ in range(100):
        if not free:
            break
        grad, hess = _derivatives(rows, r, index)
        try:
            step = np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(hess, grad, rcond=None)[0]
        step = np.clip(step, -400, 400)
        for k, i in index.items():
            r[k] += step[i]
        if np.abs(step).max() < 1e-9:
            break
    # the dispersion: the pairs' squared deviations from the model, against a single win's
    deviation = expected = 0.0
    for i, j, _w, _n, points, pairs, square in rows:
        p = _expected(r, i, j)
        deviation += square - 2 * p * points + pairs * p * p
        expected += pairs * p * (1 - p)
    dispersion = deviation / expected if expected > 0 else 1.0
    ci: list[tuple[float, float]] = [(0.0, 0.0)] * bots
    if free:
        hess = _derivatives(rows, r, index)[1]
        try:
            cov = np.linalg.inv(hess) * dispersion
        except np.linalg.LinAlgError:  # a bot that met no other: no interval
            cov = np.full(hess.shape, math.inf)
        for k, i in index.items():
            half = Z95 * math.sqrt(max(0.0, float(cov[i, i])))
            ci[k] = (float(r[k]) - half, float(r[k]) + half)
    return Ratings([float(x) for x in r], ci, anchor, dispersion)


def pair_distribution(elo: float, drawn: float = 0.4) -> tuple[float, float, float]:
    """Synthetic pairs of a known strength: the chances of a pair of 0, 1 and 2 deals won
    whose mean score is ``score_of_elo(elo)``, a share ``drawn`` of the pairs split 1-1.

    >>> [round(x, 3) for x in pair_distribution(100)]
    [0.16, 0.4, 0.44]
    """
    s = score_of_elo(elo)
    win, loss = s - drawn / 2, 1 - s - drawn / 2
    if not (0 <= drawn <= 1 and win >= 0 and loss >= 0):
        raise GuandanError(f"no pairs of Elo {elo:g} split 1-1 a share {drawn:g} of the time")
    return (loss, drawn, win)


def level_score(levels: float, deals: int) -> float:
    """A pair's level score: ``½ + (levels a deal)/6`` for ``levels`` the first bot's levels
    gained less the other's over the pair's ``deals`` deals, so 0 when it lost every deal by
    three levels, 1 when it won every deal by three, ½ when the levels cancel. For a pair of
    two deals it is one of :data:`LEVEL_SCORES`.

    >>> level_score(3, 2), level_score(-6, 2), level_score(0, 30)
    (0.75, 0.0, 0.5)
    """
    if deals <= 0:
        raise GuandanError(f"a pair's level score needs its deals, got {describe(deals)}")
    return min(1.0, max(0.0, 0.5 + levels / deals / 6))


def tilted_distribution(base: Sequence[float], scores: Sequence[float], elo: float) -> tuple[float, ...]:
    """The distribution over the outcomes ``scores`` closest to ``base`` (the exponential
    tilt ``base_i e^(θ a_i)``) whose mean score is ``score_of_elo(elo)``: synthetic pairs of a
    known strength with the shape of ``base``.

    >>> [round(x, 3) for x in tilted_distribution([1, 2, 1], PAIR_SCORES, 0)]
    [0.25, 0.5, 0.25]
    >>> d = tilted_distribution([1, 2, 1], PAIR_SCORES, 100); round(sum(p * a for p, a in zip(d, PAIR_SCORES)), 4)
    0.6401
    """
    b = np.asarray(base, dtype=float)
    a = np.asarray(scores, dtype=float)
    target = score_of_elo(elo)
    if b.shape != a.shape or (b < 0).any() or b.sum() <= 0 or not a[b > 0].min() < target < a[b > 0].max():
        raise GuandanError(f"no tilt of {describe(list(base))} over {describe(list(scores))} has Elo {elo:g}")
    b = b / b.sum()

    def tilt(theta: float) -> np.ndarray:
        w = b * np.exp(theta * (a - a.mean()))
        result: np.ndarray = w / w.sum()
        return result

    low, high = -1.0, 1.0
    while float(tilt(low) @ a) > target:
        low *= 2
    while float(tilt(high) @ a) < target:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if float(tilt(middle) @ a) < target:
            low = middle
        else:
            high = middle
    return tuple(float(x) for x in tilt((low + high) / 2))


def level_pair_distribution(elo: float) -> tuple[float, ...]:
    """Synthetic pairs of deals scored by their levels (:data:`LEVEL_SCORES`) of a known
    strength: each deal won by 1, 2 or 3 levels (chances ½, 0.3, 0.2) by either side alike,
    the two deals of a pair independent, tilted to the mean ``score_of_elo(elo)``.

    >>> d = level_pair_distribution(0); len(d), round(d[6], 3), round(d[0], 3)
    (13, 0.19, 0.01)
    """
    one = {-3: 0.1, -2: 0.15, -1: 0.25, 1: 0.25, 2: 0.15, 3: 0.1}
    base = [sum(p * q for x, p in one.items() for y, q in one.items() if x + y == total) for total in range(-6, 7)]
    return tilted_distribution(base, LEVEL_SCORES, elo)


def simulate_sprt(
    elo: float,
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    *,
    runs: int = 1000,
    max_pairs: int = 20000,
    drawn: float = 0.4,
    seed: int = 0,
    scores: Sequence[float] = PAIR_SCORES,
    chances: Sequence[float] | None = None,
) -> dict[str, Any]:
    """Run the SPRT ``runs`` times on synthetic pairs of Elo ``elo`` (:func:`pair_distribution`;
    or pairs scoring ``scores[i]`` with the chances ``chances[i]``, whose mean score should be
    ``score_of_elo(elo)``: :func:`tilted_distribution`) and say how it ended: the shares of
    runs that ended at ``H1``, ``H0`` and ``inconclusive`` (at ``max_pairs``), and the pairs a
    run took (``mean_pairs``, ``median_pairs``, ``p90_pairs``). What a choice of bounds
    costs, and the test's error rates, measured.

    >>> r = simulate_sprt(100, 0, 100, runs=200, seed=1)
    >>> r["H1"] > 0.9, 20 < r["mean_pairs"] < 80
    (True, True)
    """
    check_sprt(elo0, elo1, alpha, beta)
    low, high = sprt_bounds(alpha, beta)
    rng = np.random.default_rng(seed)
    if chances is None:
        if tuple(scores) != PAIR_SCORES:
            raise GuandanError("simulate_sprt: give the chances of the outcomes scores")
        chances = pair_distribution(elo, drawn)
    p = np.asarray(chances, dtype=float)
    if p.shape != (len(scores),) or (p < 0).any() or abs(p.sum() - 1) > 1e-9:
        raise GuandanError(f"simulate_sprt: chances are one per outcome, summing to 1, got {describe(chances)}")
    counts = np.zeros((runs, len(scores)))
    active = np.ones(runs, dtype=bool)
    ended = np.full(runs, max_pairs)
    verdict = np.zeros(runs, dtype=int)  # 1: H1, -1: H0, 0: inconclusive
    for step in range(1, max_pairs + 1):
        live = np.flatnonzero(active)
        if live.size == 0:
            break
        outcome = rng.choice(len(scores), size=live.size, p=p / p.sum())
        counts[live, outcome] += 1
        value = llr_array(counts[live], elo0, elo1, scores)
        up, down = value >= high, value <= low
        verdict[live[up]] = 1
        verdict[live[down]] = -1
        stop = live[up | down]
        ended[stop] = step
        active[stop] = False
    return {
        "elo": elo,
        "runs": runs,
        "H1": float(np.mean(verdict == 1)),
        "H0": float(np.mean(verdict == -1)),
        "inconclusive": float(np.mean(verdict == 0)),
        "mean_pairs": float(ended.mean()),
        "median_pairs": float(np.median(ended)),
        "p90_pairs": float(np.percentile(ended, 90)),
    }
