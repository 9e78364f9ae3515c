"""The match model behind ``mc:objective=match``: its values against closed forms and a
second, independent solve; the payoffs a search gets; the search bot playing whole matches
with it."""

from __future__ import annotations

import numpy as np
import pytest
from refusals import check

from guandan import GuandanError, Match
from guandan.bots.loop import play_out
from guandan.bots.match_value import PAYOFF_SCALE, PLACES, MatchModel, deal_payoffs, match_model
from guandan.bots.search import MonteCarloAgent
from guandan.core.cards import Rank
from guandan.game.rules import COMPETITIVE_2022, NANJING, PLATFORM
from guandan.game.scoring import settle


def test_at_both_aces_the_side_whose_a_is_played_wins_as_the_closed_form_says():
    # competitive rules: the side at its own A passes with its partner 2nd or 3rd (a), stays
    # with a 1st-and-4th win (b), and after any loss the other side plays its own A:
    # x = a + b x + (1 - x) / 2
    q2, q3, q4 = PLACES
    a, b = 0.5 * (q2 + q3), 0.5 * q4
    x = (a + 0.5) / (1.5 - b)
    model = MatchModel(COMPETITIVE_2022)
    assert model.chance(("A", "A"), 0) == pytest.approx(x, abs=1e-12)
    assert model.chance(("A", "A"), 1, side=1) == pytest.approx(x, abs=1e-12)
    # the platform's rules: a pass needs the partner 2nd; two failures drop a side to 2
    assert MatchModel(PLATFORM).chance(("A", "A"), 0) < x


@pytest.mark.parametrize("rules", [COMPETITIVE_2022, pytest.param(NANJING, marks=pytest.mark.slow), PLATFORM])
def test_the_values_solve_the_models_equations_by_a_second_method(rules):
    # the fixed point by a linear solve over the same states (I - P) v = b, against value iteration
    model = MatchModel(rules)
    n = model._n
    transition = np.zeros((n, n))
    ends = np.zeros(n)
    for r in range(6):
        nxt, p = model._next[r], model._p[r]
        inner = nxt >= 0
        transition[np.flatnonzero(inner), nxt[inner]] += p
        ends[~inner] += p * model._end[r][~inner]
    solved = np.linalg.solve(np.eye(n) - transition, ends)
    np.testing.assert_allclose(model._values, solved, atol=1e-10)


def test_the_transitions_are_the_matchs_own():
    # every result from a state leads where Match.settle says, and a side at its own A that
    # wins with its partner 2nd or 3rd has won the match
    model = MatchModel(COMPETITIVE_2022)
    after = model.outcomes(("A", "9"), 0)
    assert after[:2] == (1.0, 1.0) and 0 < after[2] < 1
    done = settle((Rank.ACE, Rank.NINE), 0, (0, 0), 0, 4, COMPETITIVE_2022)
    assert done.levels == (Rank.ACE, Rank.NINE) and not done.passed
    assert after[2] == pytest.approx(model.chance(("A", "9"), 0, (1, 0)))  # no demotion: the same state again
    # a win is worth more than a loss, and a bigger win more than a smaller one, at an even start
    even = model.outcomes(("5", "5"), 1, side=1)
    assert even[0] > even[1] > even[2] > 0.5 > even[5] > even[4] > even[3]
    # the two sides' chances add up to one
    for levels, own in ((("7", "Q"), 0), (("A", "K"), 1), (("2", "2"), None)):
        assert model.chance(levels, own, side=0) + model.chance(levels, own, side=1) == pytest.approx(1.0)


def test_a_deal_cap_decides_by_the_levels_when_no_deal_is_left():
    capped = MatchModel(COMPETITIVE_2022.with_deal_cap(4))
    # the last deal: a loss that leaves the opponents below A still wins on levels
    last = capped.outcomes(("A", "10"), 0, deals_played=3)
    assert last == (1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
    # equal levels after the last deal: the side that won it
    assert capped.outcomes(("Q", "Q"), 1, deals_played=3, side=0) == (1.0, 1.0, 1.0, 0.0, 0.0, 0.0)
    assert capped.chance(("Q", "Q"), 1, deals_played=3) == pytest.approx(0.5)
    # further from the cap, a lead in levels is worth less
    assert capped.chance(("9", "5"), 0, deals_played=0) < capped.chance(("9", "5"), 0, deals_played=2)


def test_the_payoffs_of_an_observation_are_its_sides_chances():
    m = Match(seed=4, levels=("K", "A"), level_side=1)
    obs = m.observation(m.turn)
    pay = deal_payoffs(obs)
    side = obs.seat & 1
    expected = match_model(COMPETITIVE_2022).outcomes(("K", "A"), 1, side=side)
    assert pay == tuple(round(v * PAYOFF_SCALE) for v in expected)
    from guandan import Deal

    assert deal_payoffs(Deal.new(seed=1, level=2).observation(0)) is None  # a single deal


def test_bad_places_and_options_are_refused():
    check(lambda: MatchModel(COMPETITIVE_2022, places=(0.5, 0.5)), GuandanError, "places are three chances")
    check(lambda: MatchModel(COMPETITIVE_2022, places=(0.5, 0.6, 0.1)), GuandanError, "places are three chances")
    check(lambda: MatchModel(COMPETITIVE_2022).outcomes(("2", "2"), None, side=2), GuandanError, "side is 0 or 1")
    check(lambda: MonteCarloAgent(objective="points"), GuandanError, "objective is")


@pytest.mark.slow
def test_mc_plays_whole_matches_for_the_match():
    m = Match(seed=5, levels=("Q", "K"), level_side=1)
    bots = [MonteCarloAgent(seed=s, rollouts=150, objective="match") for s in range(4)]
    play_out(m, bots)
    assert m.is_over and m.winner in (0, 1)
    values = [c.value for c in bots[0].analyze(Match(seed=6, levels=("A", "A"), level_side=0).observation(0)).choices]
    assert all(0 <= v <= PAYOFF_SCALE for v in values)
