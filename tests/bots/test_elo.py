"""The arena's statistics, checked by simulation on synthetic pairs of known strength: the
SPRT's error rates within their nominal alpha and beta, its expected stopping time below a
fixed run's, the Elo interval's coverage at its nominal rate, the ratings' recovery."""

from __future__ import annotations

import math

import numpy as np
import pytest
from refusals import check

from guandan import GuandanError
from guandan.bots.elo import (
    LEVEL_SCORES,
    PAIR_SCORES,
    Z95,
    check_sprt,
    elo_of_score,
    fit_ratings,
    level_pair_distribution,
    level_score,
    llr,
    llr_array,
    pair_distribution,
    pair_estimate,
    score_of_elo,
    simulate_sprt,
    sprt_bounds,
    sprt_result,
    tilted_distribution,
)
from guandan.bots.simulate import wilson_interval


def test_elo_and_score_are_inverse():
    for elo in (-600, -100, -3.5, 0, 7, 100, 400):
        assert elo_of_score(score_of_elo(elo)) == pytest.approx(elo, abs=1e-9)
    assert score_of_elo(400) == pytest.approx(10 / 11)
    assert elo_of_score(0) == -math.inf and elo_of_score(1) == math.inf
    assert score_of_elo(1e9) == 1.0 and score_of_elo(-1e9) < 1e-200  # no overflow


@pytest.mark.parametrize(
    "elo0, elo1, alpha, beta, match",
    [
        (5, 5, 0.05, 0.05, "ELO0 must be below ELO1"),
        (10, 0, 0.05, 0.05, "ELO0 must be below ELO1"),
        (0, 5, 0.0, 0.05, "--alpha"),
        (0, 5, 1.0, 0.05, "--alpha"),
        (0, 5, 0.05, -0.1, "--beta"),
        (0, 5, 0.6, 0.6, "below 1"),
        (float("nan"), 5, 0.05, 0.05, "ELO0 is a number"),
        ("0", 5, 0.05, 0.05, "ELO0 is a number"),
        (0, 5000, 0.05, 0.05, "ELO1 is a number between -1200 and 1200"),
    ],
)
def test_bad_test_settings_are_refused(elo0, elo1, alpha, beta, match):
    check(lambda: check_sprt(elo0, elo1, alpha, beta), GuandanError, match)


def test_the_bounds_are_walds():
    low, high = sprt_bounds(0.05, 0.1)
    assert low == pytest.approx(math.log(0.1 / 0.95)) and high == pytest.approx(math.log(0.9 / 0.05))
    assert sprt_result(high, (low, high)) == "H1" and sprt_result(low, (low, high)) == "H0"
    assert sprt_result(0.0, (low, high)) is None


def test_the_llr_agrees_with_the_normal_approximation_near_the_hypotheses():
    """For many pairs whose mean lies between the hypotheses, the exact generalized LLR is
    close to the approximation N (s1 - s0)(2 mean - s0 - s1) / (2 variance)."""
    counts = [3000, 4000, 3300]  # mean 0.5146
    n = sum(counts)
    mean = (0.5 * counts[1] + counts[2]) / n
    var = (counts[0] * mean**2 + counts[1] * (0.5 - mean) ** 2 + counts[2] * (1 - mean) ** 2) / n
    for elo1 in (5, 10):
        s0, s1 = score_of_elo(0), score_of_elo(elo1)
        approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
        assert llr(counts, 0, elo1) == pytest.approx(approx, rel=0.01)


def test_the_llr_grows_with_the_wins_and_is_zero_without_pairs():
    values = [llr([10, 20, w], 0, 50) for w in range(0, 40, 5)]
    assert values == sorted(values) and values[0] < 0 < values[-1]
    assert llr([0, 0, 0], 0, 50) == 0.0
    # the same counts, in the five outcomes of pairs of games (¼ and ¾ never seen): nearly the same
    assert llr([10, 0, 20, 0, 25], 0, 50, (0, 0.25, 0.5, 0.75, 1)) == pytest.approx(llr([10, 20, 25], 0, 50), abs=0.01)


def test_the_three_outcome_root_agrees_with_the_general_one():
    rng = np.random.default_rng(4)
    counts = rng.integers(0, 50, size=(200, 3))
    five = np.zeros((200, 5))
    five[:, [0, 2, 4]] = counts
    # the general route (five outcomes, two never seen) with the same pseudo-counts for the two
    three = llr_array(counts, -20, 30)
    assert np.all(np.isfinite(three))
    general = llr_array(five, -20, 30, (0, 0.25, 0.5, 0.75, 1))
    assert np.abs(three - general).max() < 0.05


def test_pair_estimate_of_a_known_sample():
    estimate = pair_estimate([20, 50, 30])
    assert estimate.score == pytest.approx(0.55) and estimate.pairs == 100
    sd = math.sqrt((20 * 0.55**2 + 50 * 0.05**2 + 30 * 0.45**2) / 100)
    assert estimate.pair_sd == pytest.approx(sd)
    assert estimate.score_ci == pytest.approx((0.55 - Z95 * sd / 10, 0.55 + Z95 * sd / 10))
    assert estimate.elo_ci[0] == pytest.approx(elo_of_score(0.55 - Z95 * sd / 10))


def _synthetic_pairs(rng, elo, n, drawn=0.4):
    return rng.multinomial(n, pair_distribution(elo, drawn))


def _wilson(k, n):
    return wilson_interval(int(k), int(n))


def _check_sprt_errors(elo0, elo1, alpha, beta, runs, seed, levels=False):
    """The measured error rates, each with its 95% interval, within the nominal ones. Pairs of
    0, 1 or 2 deals won (:func:`pair_distribution`), or with ``levels`` pairs scored by their
    levels (:func:`level_pair_distribution`, thirteen outcomes)."""
    scores = LEVEL_SCORES if levels else PAIR_SCORES
    chances = level_pair_distribution if levels else pair_distribution
    at_h0 = simulate_sprt(elo0, elo0, elo1, alpha, beta, runs=runs, seed=seed, scores=scores, chances=chances(elo0))
    at_h1 = simulate_sprt(elo1, elo0, elo1, alpha, beta, runs=runs, seed=seed + 1, scores=scores,
                          chances=chances(elo1))  # fmt: skip
    type1 = _wilson(round(at_h0["H1"] * runs), runs)
    type2 = _wilson(round(at_h1["H0"] * runs), runs)
    print(f"\nSPRT [{elo0}, {elo1}] alpha {alpha} beta {beta} on {'levels' if levels else 'wins'}, {runs} runs a "
          f"hypothesis: type I {at_h0['H1']:.4f} [{type1[0]:.4f}, {type1[1]:.4f}], type II {at_h1['H0']:.4f} "
          f"[{type2[0]:.4f}, {type2[1]:.4f}]; pairs a run: at H0 mean {at_h0['mean_pairs']:.1f} "
          f"(median {at_h0['median_pairs']:.0f}), at H1 mean {at_h1['mean_pairs']:.1f} "
          f"(median {at_h1['median_pairs']:.0f})")  # fmt: skip
    assert type1[0] <= alpha and type2[0] <= beta  # not above the nominal rates
    assert at_h0["H1"] > alpha / 4 and at_h1["H0"] > beta / 4  # and not a test that never errs
    assert at_h0["inconclusive"] == at_h1["inconclusive"] == 0.0
    # the expected stopping time, below the pairs a fixed run of the same error rates needs
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    middle = np.asarray(chances((elo0 + elo1) / 2))
    a = np.asarray(scores)
    sd = math.sqrt(float(middle @ (a - middle @ a) ** 2))  # a pair's spread at the midpoint
    z = {0.05: 1.6448536269514722, 0.1: 1.2815515655446004}
    fixed = ((z[alpha] + z[beta]) * sd / (s1 - s0)) ** 2
    assert at_h0["mean_pairs"] < fixed and at_h1["mean_pairs"] < fixed
    return at_h0, at_h1


@pytest.mark.slow
def test_sprt_error_rates_within_nominal_on_synthetic_pairs():
    _check_sprt_errors(0, 100, 0.05, 0.05, runs=1500, seed=11)


@pytest.mark.slow
@pytest.mark.parametrize("elo0, elo1, alpha, beta", [(0, 30, 0.05, 0.05), (-10, 20, 0.05, 0.1), (0, 60, 0.1, 0.05)])
def test_sprt_error_rates_within_nominal_many_runs(elo0, elo1, alpha, beta):
    _check_sprt_errors(elo0, elo1, alpha, beta, runs=3000, seed=21)


@pytest.mark.slow
def test_sprt_on_level_scores_error_rates_within_nominal():
    """The test on pairs scored by their levels (thirteen outcomes, not three): the same
    generalized likelihood ratio, the same guarantees."""
    _check_sprt_errors(0, 100, 0.05, 0.05, runs=600, seed=12, levels=True)


@pytest.mark.slow
@pytest.mark.parametrize("elo0, elo1, alpha, beta", [(0, 30, 0.05, 0.05), (-10, 20, 0.05, 0.1), (0, 60, 0.1, 0.05)])
def test_sprt_on_level_scores_error_rates_within_nominal_many_runs(elo0, elo1, alpha, beta):
    _check_sprt_errors(elo0, elo1, alpha, beta, runs=2000, seed=22, levels=True)


def test_level_scores_and_tilted_distributions():
    assert LEVEL_SCORES[0] == 0 and LEVEL_SCORES[6] == 0.5 and LEVEL_SCORES[-1] == 1 and len(LEVEL_SCORES) == 13
    assert [level_score(x, 2) for x in (-6, 0, 6)] == [0.0, 0.5, 1.0]
    assert level_score(5, 30) == pytest.approx(0.5 + 5 / 30 / 6) and level_score(99, 1) == 1.0
    check(lambda: level_score(1, 0), GuandanError, "needs its deals")
    for elo in (-150, 0, 40, 200):
        chances = level_pair_distribution(elo)
        assert sum(chances) == pytest.approx(1) and min(chances) > 0
        assert sum(p * a for p, a in zip(chances, LEVEL_SCORES)) == pytest.approx(score_of_elo(elo))
    symmetric = level_pair_distribution(0)
    assert symmetric == pytest.approx(symmetric[::-1])
    # a tilt of three outcomes with the base's shape: the chances' ratios are geometric in the score
    loss, drawn, win = tilted_distribution([1, 1, 1], PAIR_SCORES, 100)
    assert drawn / loss == pytest.approx(win / drawn)
    check(lambda: tilted_distribution([0, 1, 0], PAIR_SCORES, 50), GuandanError, "no tilt")
    check(lambda: tilted_distribution([1, 1], PAIR_SCORES, 50), GuandanError, "no tilt")
    check(lambda: simulate_sprt(0, 0, 50, scores=LEVEL_SCORES), GuandanError, "give the chances")
    check(lambda: simulate_sprt(0, 0, 50, chances=[0.5, 0.5]), GuandanError, "one per outcome")


def test_the_llr_on_many_outcomes_agrees_with_the_normal_approximation():
    """On thirteen outcomes as on three: many pairs, mean between the hypotheses."""
    rng = np.random.default_rng(13)
    counts = rng.multinomial(20000, level_pair_distribution(8))
    n, a = counts.sum(), np.asarray(LEVEL_SCORES)
    mean = counts @ a / n
    var = counts @ (a - mean) ** 2 / n
    s0, s1 = score_of_elo(0), score_of_elo(15)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert llr(counts, 0, 15, LEVEL_SCORES) == pytest.approx(approx, rel=0.02, abs=0.05)


def test_the_sprt_between_the_hypotheses_stops_either_way_and_takes_longer():
    middle = simulate_sprt(50, 0, 100, runs=400, seed=3)
    edge = simulate_sprt(100, 0, 100, runs=400, seed=3)
    assert 0.3 < middle["H1"] < 0.7 and middle["mean_pairs"] > edge["mean_pairs"]


def _coverage(elo, pairs, runs, seed):
    rng = np.random.default_rng(seed)
    covered = 0
    for _ in range(runs):
        low, high = pair_estimate(_synthetic_pairs(rng, elo, pairs)).elo_ci
        covered += low <= elo <= high
    return covered


def test_the_elo_interval_covers_the_truth_at_its_nominal_rate():
    runs = 1000
    covered = _coverage(60, 300, runs, seed=5)
    low, high = _wilson(covered, runs)
    assert low <= 0.95 <= high, covered / runs


@pytest.mark.slow
@pytest.mark.parametrize("elo, pairs", [(0, 100), (150, 200), (-40, 1000)])
def test_the_elo_interval_covers_the_truth_at_its_nominal_rate_many_runs(elo, pairs):
    runs = 4000
    covered = _coverage(elo, pairs, runs, seed=6)
    low, high = _wilson(covered, runs)
    assert low <= 0.95 <= high, covered / runs


TRUE = [0.0, 120.0, -80.0, 40.0, -200.0]


def _tournament(rng, pairs, truth=TRUE, drawn=0.2):
    results = []
    for i in range(len(truth)):
        for j in range(i + 1, len(truth)):
            counts = rng.multinomial(pairs, pair_distribution(truth[i] - truth[j], drawn))
            points = counts[1] * 0.5 + counts[2]
            square = counts[1] * 0.25 + counts[2]
            results.append((i, j, float(points), float(pairs), float(square)))
    return results


def test_the_rating_fit_recovers_known_ratings():
    ratings = fit_ratings(_tournament(np.random.default_rng(8), 400), len(TRUE), anchor=0, prior=0)
    assert ratings.elo[0] == 0 and ratings.ci[0] == (0.0, 0.0)
    for true, elo, (low, high) in zip(TRUE, ratings.elo, ratings.ci):
        assert low <= true <= high and abs(elo - true) < 40
    assert 0.3 < ratings.dispersion < 0.8  # pairs split 1-1 vary less than single wins and losses


def test_the_rating_fit_takes_any_anchor_and_a_gauntlet():
    results = _tournament(np.random.default_rng(9), 300)
    one = fit_ratings(results, len(TRUE), anchor=0)
    three = fit_ratings(results, len(TRUE), anchor=3)
    assert three.elo[3] == 0 and all(
        a - one.elo[3] == pytest.approx(b, abs=1e-6) for a, b in zip(one.elo, three.elo)
    )  # the same ratings, shifted
    gauntlet = [r for r in results if r[0] == 0]  # bot 0 against each other one
    fitted = fit_ratings(gauntlet, len(TRUE), anchor=0)
    assert all(low <= t <= high for t, (low, high) in zip(TRUE, fitted.ci))


def test_a_bot_that_won_every_pair_gets_a_finite_rating():
    ratings = fit_ratings([(0, 1, 10.0, 10, 10.0)], 2)
    assert math.isfinite(ratings.elo[1]) and ratings.elo[1] < -300


@pytest.mark.slow
def test_the_rating_intervals_cover_the_truth_at_their_nominal_rate():
    rng = np.random.default_rng(10)
    covered = total = 0
    for _ in range(300):  # (with 150 pairs a pairing, the normal approximation covers 93%)
        ratings = fit_ratings(_tournament(rng, 600), len(TRUE), anchor=0, prior=0)
        for true, (low, high) in list(zip(TRUE, ratings.ci))[1:]:
            covered += low <= true <= high
            total += 1
    low, high = _wilson(covered, total)
    assert low <= 0.95 <= high, covered / total


@pytest.mark.parametrize(
    "results, bots, anchor, match",
    [
        ([], 0, 0, "bots"),
        ([], 2, 2, "anchor"),
        ([(0, 0, 1.0, 2, 1.0)], 2, 0, "pairing"),
        ([(0, 1, 3.0, 2, 1.0)], 2, 0, "pairing"),
    ],
)
def test_bad_rating_input_is_refused(results, bots, anchor, match):
    check(lambda: fit_ratings(results, bots, anchor), GuandanError, match)
