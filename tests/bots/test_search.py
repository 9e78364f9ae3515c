"""The search bot ``mc`` and the native search under it.

Determinism under a fixed rollout budget (the same seed gives the same choices, whatever
the number of threads), budgets honoured (the rollout count exactly; a time budget within
a generous bound), only legal actions in every phase (play, tribute, return) over seeded
matches, and the weighted sampler: every sampled deal consistent with the observation,
and its effect (a seat that passed on a pair is less likely to hold a higher pair). No
timings are asserted beyond the generous bound on a time budget.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
import search_reference
from games import deal_state_of, positions_with_deals, search_case
from hypothesis import assume
from hypothesis import strategies as st
from profiles import profiled
from refusals import check

from guandan import (
    Cards,
    Deal,
    GuandanError,
    IllegalMoveError,
    InvalidCardsError,
    InvalidMoveError,
    Match,
)
from guandan.bots.agents import GreedyAgent
from guandan.bots.determinize import determinize, information_set, known_cards, tribute_above
from guandan.bots.loop import play_out
from guandan.bots.registry import agent_factory, make_agent
from guandan.bots.rollout_policy import load_weights
from guandan.bots.search import COST_CARDS, REMOVED_OPTIONS, MonteCarloAgent, SearchConfig, affordable_rollouts
from guandan.core import _core
from guandan.core.cards import card_rank, wild_card
from guandan.core.movegen import canonical_move, flush_keeping_move, pack_rank_move, straight_flushes
from guandan.core.moves import Move
from guandan.core.order import elevated_order
from guandan.core.packed import bits_of_cards, cards_of_bits
from guandan.core.rng import SplitMix64
from guandan.core.search import SearchParams
from guandan.game.history import Phase, Play, Return, Tribute
from guandan.game.tribute import return_choices


def observations(seeds, plies):
    """Observations of the seat to act, after ``plies`` greedy plays of seeded deals."""
    return [obs for obs, _ in positions_with_deals(seeds, plies)]


def summary(result):
    return [(str(c.action), c.value, c.rollouts) for c in result.choices], result.rollouts


# -- the search against its plain-Python version ---------------------------------------------------


def check_against_reference(seeds, plies, rollouts, cases, candidates=10):
    """The search, native and plain Python, stat for stat, at every position of ``seeds`` after
    ``plies`` greedy plays with two candidates or more, for each of ``cases`` (the options of
    both: a tree, a ``payoff``, a ``temperature``). Returns the positions and cases compared,
    the choices the tree's nodes made, and the cases whose drawn rollouts (``temperature``)
    changed the stats from the deterministic policy's."""
    weights = load_weights()
    compared = chose = changed = 0
    for obs, deal in positions_with_deals(seeds, plies):
        info, state = information_set(obs), deal_state_of(obs)
        words = [int(w) for w in _core.search_candidates(info, state, candidates)]
        if len(words) < 2:
            continue
        for case in cases:
            options = dict(case)
            payoff = options.pop("payoff", None)
            objective = payoff if payoff is not None else "levels"
            given = SearchParams(rollouts, seed=5, policy="learned", weights=weights, objective=objective, **options)
            native, done = _core.search(info, state, words, given)
            params = search_reference.Params(rollouts, seed=5, weights=weights, payoff=payoff, **options)
            counted = Counter()
            expected = search_reference.search(info, deal.native_state(), words, params, counted)
            np.testing.assert_array_equal(native, np.array(expected, dtype=np.float64))
            assert done == rollouts
            compared += 1
            chose += counted["chose"]
            if options.get("temperature"):
                plain, _ = _core.search(info, state, words, replace(given, temperature=0.0))
                changed += not np.array_equal(native, plain)
    return compared, chose, changed


TREES = (
    {},
    {"tree_moves": 6, "tree_visits": 2, "tree_c": 1.5},
    {"tree_moves": 3, "tree_visits": 1, "tree_first": 1.0, "payoff": (9000, 7000, 6000, 100, 2500, 4000)},
)


@pytest.mark.slow
def test_the_search_with_and_without_its_tree_is_its_plain_python_version():
    compared, chose, _ = check_against_reference([3], 9, 120, TREES)
    assert compared == 3 and chose > 10  # the tree's nodes chose, many times


@pytest.mark.slow
def test_the_search_is_its_plain_python_version_over_many_positions():
    compared, chose, _ = check_against_reference(range(20, 32), 23, 400, TREES)
    assert compared >= 30 and chose > 200


def test_the_search_with_drawn_rollouts_is_its_plain_python_version():
    cases = [{"temperature": 0.7}, {"temperature": 2.0, "tree_moves": 4, "tree_visits": 1}]
    compared, _, changed = check_against_reference([3], 30, 24, cases, candidates=6)
    assert compared == 2 and changed == 2


@pytest.mark.slow
def test_the_search_with_drawn_rollouts_is_its_plain_python_version_over_many_positions():
    cases = [{"temperature": 0.3}, {"temperature": 1.0, "tree_moves": 6, "tree_visits": 2}]
    compared, _, changed = check_against_reference(range(50, 56), 17, 60, cases, candidates=6)
    assert compared >= 10 and changed >= compared // 2


def test_drawn_rollouts_need_the_learned_policy():
    info, state, _ = door_case()
    words = _core.search_candidates(info, state, 4)
    check(lambda: _core.search(info, state, words, SearchParams(20, policy="smart", temperature=0.5)),
          GuandanError, "temperature draws the learned policy")  # fmt: skip
    smart_with_weights = SearchParams(20, policy="smart", weights=load_weights(), temperature=0.5)
    check(lambda: _core.search(info, state, words, smart_with_weights), GuandanError, "temperature draws the learned")
    for bad in (-0.1, float("nan"), "warm"):
        given = SearchParams(20, policy="learned", weights=load_weights(), temperature=bad)
        check(lambda given=given: _core.search(info, state, words, given), GuandanError, "temperature")
    check(lambda: MonteCarloAgent(policy="smart", temperature=0.5), GuandanError, "not with policy=smart")
    check(lambda: MonteCarloAgent(temperature=-1), GuandanError, "temperature")
    agent = make_agent("mc:temperature=0.5:rollouts=60", seed=1)
    assert agent.config.temperature == 0.5 and agent._params.temperature == 0.5
    obs = Deal.new(seed=4, level=2, leader=0).observation(0)
    assert agent.analyze(obs).choices == make_agent("mc:temperature=0.5:rollouts=60", seed=1).analyze(obs).choices
    assert agent.analyze(obs).choices != make_agent("mc:rollouts=60", seed=1).analyze(obs).choices


def test_the_search_with_a_prior_is_its_plain_python_version():
    """The prior's blend in successive halving's standings, position by position: the stats,
    rounds and ranks of the native search and of the plain-Python one, the same."""
    weights = load_weights()
    compared = changed = 0
    for obs, deal in positions_with_deals(range(40, 46), 11):
        info, state = information_set(obs), deal_state_of(obs)
        words = [int(w) for w in _core.search_candidates(info, state, 12)]
        if len(words) < 3:
            continue
        prior = [((i * 7919) % 13) / 6.0 - 1.0 for i in range(len(words))]  # a fixed, uneven prior
        for rollouts, a in ((150, 0.0), (150, 4.0), (150, 60.0), (5, 4.0)):  # 5: some candidates unplayed
            given = SearchParams(rollouts, seed=3, policy="learned", weights=weights, prior_rollouts=a)
            native, done = _core.search(info, state, words, given, prior)
            reference = search_reference.Params(rollouts, seed=3, weights=weights, prior_rollouts=a)
            expected = search_reference.search(info, deal.native_state(), words, reference, prior=prior)
            np.testing.assert_array_equal(native, np.array(expected, dtype=np.float64))
            plain, _ = _core.search(info, state, words, replace(given, prior_rollouts=0.0))
            changed += not np.array_equal(native[:, 3], plain[:, 3])
            compared += 1
    assert compared >= 12 and changed >= 3  # a prior that counts changes the standings, at some positions


def test_a_prior_ranks_the_candidates_it_favours_and_an_even_one_changes_nothing():
    info, state, _ = door_case()
    words = _core.search_candidates(info, state, 8)
    assert len(words) == 8
    # 240 rollouts over 8 candidates: rounds of 80, every candidate in a round as many rollouts
    params = SearchParams(240, seed=2, policy="learned", weights=load_weights(), prior_rollouts=25.0)
    plain, _ = _core.search(info, state, words, replace(params, prior_rollouts=0.0))
    even, _ = _core.search(info, state, words, params, np.full(len(words), 0.7))
    np.testing.assert_array_equal(even, plain)  # a constant prior shifted to the means: no change
    worst = int(np.argmax(plain[:, 3]))  # the plain search's last
    favoured = np.zeros(len(words))
    favoured[worst] = 30.0  # far above any result
    stats, done = _core.search(info, state, words, params, favoured)
    assert stats[worst, 3] == 0 and done == 240  # chosen, the budget played all the same
    assert stats[worst, 2] == max(stats[:, 2]) and stats[worst, 0] >= max(stats[:, 0]) - 1  # in every round
    np.testing.assert_array_equal(stats[:, 0].sum(), 240)
    # a budget too small to reach every candidate: an unplayed one stands by its prior
    tiny = replace(params, rollouts=3)
    alone, _ = _core.search(info, state, words, replace(tiny, prior_rollouts=0.0))
    unplayed = int(np.flatnonzero(alone[:, 0] == 0)[-1])
    assert alone[unplayed, 3] > 0  # without a prior it stands last: not chosen
    favoured = np.zeros(len(words))
    favoured[unplayed] = 30.0
    stats, _ = _core.search(info, state, words, tiny, favoured)
    assert stats[unplayed, 3] == 0


def test_the_reference_doors_play_a_move_canonically_and_list_a_deals_candidates():
    obs, deal = next(positions_with_deals([3], 4))
    state = deal.native_state()
    words = _core.deal_candidates(state, 5)
    assert 1 <= len(words) <= 5 and int(words[0]) == int(_core.smart_move(state)[0])
    after, over = _core.deal_play(state, int(words[0]))
    deal.play_canonical(int(words[0]))
    assert after == deal.native_state() and over is False
    check(lambda: _core.deal_play(state, 0xAF00000000000000), IllegalMoveError, "is not a legal move")
    check(lambda: _core.deal_candidates(state, 0), GuandanError, "limit")
    check(lambda: _core.deal_play(state[:3], int(words[0])), InvalidMoveError, "a deal state is")


@pytest.mark.slow
def test_the_tree_changes_what_the_playouts_find_and_not_with_the_threads():
    info, state, _ = door_case()
    words = _core.search_candidates(info, state, 12)
    w = load_weights()
    tree = {"tree_moves": 8, "tree_visits": 2, "policy": "learned", "weights": w}
    runs = [_core.search(info, state, words, SearchParams(1000, 0.0, t, seed=9, **tree)) for t in (1, 2, 3)]
    assert all(np.array_equal(runs[0][0], r[0]) and r[1] == 1000 for r in runs)
    plain = _core.search(info, state, words, SearchParams(1000, 0.0, 1, seed=9, policy="learned", weights=w))
    assert not np.array_equal(plain[0][:, 1], runs[0][0][:, 1])  # the seat's later moves differ somewhere
    # a tree of one node is a tree too: it stops growing there, and still answers alike
    small = [_core.search(info, state, words, SearchParams(1000, 0.0, t, seed=9, tree_nodes=1, **tree)) for t in (1, 2)]
    assert small[0][1] == 1000 and np.array_equal(small[0][0], small[1][0])


def test_mc_spends_its_choices_keeping_the_hands_straight_flushes():
    changed = 0
    for obs in observations(range(4), 0) + observations(range(4), 6):
        if not straight_flushes(obs.hand, obs.level):
            continue
        for choice in MonteCarloAgent(seed=1, rollouts=200).analyze(obs).choices:
            word = pack_rank_move(choice.action.to_rank())
            assert choice.action == flush_keeping_move(word, obs.hand, obs.level) and choice.action in obs.legal_actions
            changed += choice.action != canonical_move(word, obs.hand, obs.level)
    assert changed  # some choice of these positions is spent otherwise than canonically


def test_removed_options_are_refused_by_name():
    """The options that measured no gain are gone from ``mc``: a spec naming one is refused
    with its name and the version after which it went; the keywords are gone too."""
    assert set(REMOVED_OPTIONS) == {
        "solve_cards", "solve_nodes", "solve_cost", "policy_weight", "policy_events",
        "tree_moves", "tree_visits", "tree_nodes", "tree_c", "tree_first",
    }  # fmt: skip
    for name in REMOVED_OPTIONS:
        check(lambda: make_agent(f"mc:rollouts=100:{name}=1"), GuandanError, f"option '{name}' was removed after")  # noqa: B023
        with pytest.raises(TypeError, match=name):
            MonteCarloAgent(**{name: 1})
    check(lambda: make_agent("mc:tree_moves=6,greedy"), GuandanError, "agent mc: option 'tree_moves' was removed")


def test_a_spec_makes_one_configuration_that_its_agents_share():
    factory = agent_factory("mc:rollouts=300:policy=smart:tries=2")
    a, b = factory(1), factory(2)
    assert a.config is b.config == SearchConfig(rollouts=300, policy="smart", tries=2)
    assert (a.seed, b.seed, a._params.policy, a._params.tries, a._params.weights) == (1, 2, "smart", 2, None)
    check(lambda: agent_factory("mc:tries=0"), GuandanError, "agent mc:tries=0: tries is an int")
    check(lambda: MonteCarloAgent.from_config({"rollouts": 3}), GuandanError, "config must be a SearchConfig")
    learned = MonteCarloAgent(seed=1)
    assert learned._params.weights is not None and learned._params.policy == "learned"


# -- determinism and budgets -----------------------------------------------------------------------


@pytest.mark.parametrize("plies", [*(pytest.param(p, marks=pytest.mark.slow) for p in (0, 17)), 45])
def test_a_rollout_budget_gives_the_same_choices_for_the_same_seed_whatever_the_threads(plies):
    for obs in observations(range(3), plies):
        one = summary(MonteCarloAgent(seed=5, rollouts=600, threads=1).analyze(obs))
        assert one == summary(MonteCarloAgent(seed=5, rollouts=600, threads=1).analyze(obs))
        for threads in (2, 3, 8):
            assert summary(MonteCarloAgent(seed=5, rollouts=600, threads=threads).analyze(obs)) == one
        if len(one[0]) > 2:  # another seed samples other deals
            assert summary(MonteCarloAgent(seed=6, rollouts=600).analyze(obs)) != one


@pytest.mark.slow
def test_deals_weighted_by_the_policy_give_the_same_choices_whatever_the_threads():
    """With the policy's belief (the core's ``policy_weight``: integer fixed-point weights) the
    means do not depend on which thread played which deal; the weighting changes the values,
    not the rollouts played."""
    changed = 0
    w = load_weights()
    for obs in observations(range(3), 45):
        info, state = information_set(obs), deal_state_of(obs)
        words = _core.search_candidates(info, state, 32)
        if len(words) < 2:
            continue
        believe = SearchParams(400, policy="learned", seed=5, weights=w, policy_weight=0.5, policy_events=16)
        one = _core.search(info, state, words, believe)
        for threads in (2, 5):
            threaded = _core.search(info, state, words, replace(believe, threads=threads))
            assert np.array_equal(threaded[0], one[0]) and threaded[1] == one[1]
        plain = _core.search(info, state, words, replace(believe, policy_weight=1.0))
        assert plain[1] == one[1]
        changed += not np.array_equal(plain[0][:, 1], one[0][:, 1])
    assert changed > 0


@pytest.mark.slow
def test_a_seeded_game_is_replayed_move_for_move():
    def game():
        deal = Deal.new(seed=31, level=5)
        play_out(deal, [MonteCarloAgent(seed=1, rollouts=150), GreedyAgent(), make_agent("mc:rollouts=150", 2),
                        MonteCarloAgent(seed=3, rollouts=150, threads=2)])
        return deal.history

    assert game() == game()


@pytest.mark.slow
def test_the_rollout_budget_is_played_exactly():
    for obs in observations(range(6), 9):
        for budget in (1, 7, 100, 1000):
            result = MonteCarloAgent(seed=2, rollouts=budget).analyze(obs)
            if len(result.choices) > 1:
                assert result.rollouts == budget == sum(c.rollouts for c in result.choices)
            else:
                assert result.rollouts == 0


def test_a_cost_cap_plays_what_it_affords_with_the_cards_left():
    """``max_cost`` alone: every decision its affordable rollouts (more as the hands empty);
    with ``rollouts``: the smaller of the two."""
    played = {}
    for plies in (0, 30, 70):
        for obs in observations(range(2), plies):
            left = sum(obs.card_counts)
            affordable = affordable_rollouts(60, left)
            alone = MonteCarloAgent(seed=2, max_cost=60).analyze(obs)
            capped = MonteCarloAgent(seed=2, rollouts=150, max_cost=60).analyze(obs)
            if len(alone.choices) > 1:
                assert alone.rollouts == affordable == sum(c.rollouts for c in alone.choices)
                assert capped.rollouts == min(150, affordable)
                played[left] = alone.rollouts
    assert played[108] == 60 and max(played.values()) > 150  # fuller hands, fewer rollouts
    assert all(played[a] >= played[b] for a in played for b in played if a < b)


def test_the_affordable_rollouts_fall_with_the_cards_left_and_cost_alike():
    whole = COST_CARDS**2 + 108**2  # a rollout from a whole deal, in the model's units
    assert affordable_rollouts(1, 108) == 1 and affordable_rollouts(1000, 0) == 1000 * whole // COST_CARDS**2
    assert affordable_rollouts(1, 107) == 1  # never 0
    counts = [affordable_rollouts(10_000, c) for c in range(109)]
    assert counts == sorted(counts, reverse=True)
    costs = [n * (COST_CARDS**2 + c * c) for c, n in enumerate(counts)]  # the model's cost of each decision
    assert max(costs) <= 10_000 * whole and min(costs) > 0.99 * max(costs)


def test_a_cost_cap_gives_the_same_choices_whatever_the_threads_and_caps_the_card_phase():
    for obs in observations([4], 20):
        one = summary(MonteCarloAgent(seed=5, max_cost=100).analyze(obs))
        assert summary(MonteCarloAgent(seed=5, max_cost=100, threads=3).analyze(obs)) == one
    match = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2),
                  hands=[["S3 HR", "D4 HR", "S8 SA DA C7 D7 S2", "C5"]])
    obs = match.observation(match.turn)
    left = sum(obs.card_counts)
    assert obs.phase == Phase.TRIBUTE and len(obs.legal_actions) == 2 and affordable_rollouts(2, left) < 400
    result = MonteCarloAgent(seed=1, rollouts=400, max_cost=2).analyze(obs)
    assert result.rollouts == 2 * (affordable_rollouts(2, left) // 2)  # the same deals for both cards


@pytest.mark.slow
def test_successive_halving_gives_the_survivors_more_rollouts():
    obs = observations([4], 0)[0]  # a full-hand lead: 32 candidates
    result = MonteCarloAgent(seed=1, rollouts=3200).analyze(obs)
    n = [c.rollouts for c in result.choices]
    assert len(n) == 32 and sum(n) == 3200
    assert n[0] == n[1] == max(n) and n[0] >= 4 * min(n)  # the last two shared the last round


def test_a_time_budget_is_honoured_within_a_generous_bound():
    obs = observations([7], 0)[0]
    for think_ms in (1, 20):
        for rollouts in (None, 10**7):  # the time alone; or before ten million rollouts (minutes)
            result = MonteCarloAgent(seed=1, think_ms=think_ms, rollouts=rollouts).analyze(obs)
            assert result.seconds < think_ms / 1000 + 1.0  # the documented margin is a few ms
            assert result.best == result.choices[0].action and result.rollouts < 10**6
    both = MonteCarloAgent(seed=1, rollouts=50, think_ms=10_000).analyze(obs)
    assert both.rollouts == 50  # the rollouts ran out first


def test_a_spent_time_budget_still_answers_with_the_policys_choice():
    obs = observations([8], 3)[0]
    state = deal_state_of(obs)
    words = _core.search_candidates(information_set(obs), state, 32)
    stats, done = _core.search(information_set(obs), state, words, SearchParams(0, 1e-9, 1, "smart", 1))
    assert done <= 1 and stats[0, 3] == 0  # no time: the prior order stands, the policy's move first


# -- legal actions in every phase ------------------------------------------------------------------


@pytest.mark.slow
def test_only_legal_actions_in_every_phase_over_seeded_matches():
    acted: Counter = Counter()
    for seed in range(3):
        match = Match(seed=100 + seed, ruleset="competitive_2022+cap4")
        agents = [MonteCarloAgent(seed=s, rollouts=40, candidates=8) if s % 2 == 0 or seed == 0 else GreedyAgent()
                  for s in range(4)]  # the first match all search bots: they pay and receive tributes
        while not match.is_over:
            seat = match.turn
            obs = match.observation(seat)
            action = agents[seat].act(obs)
            if isinstance(agents[seat], MonteCarloAgent):
                acted[obs.phase] += 1
                if obs.phase == Phase.PLAY:
                    assert isinstance(action, Move) and match.can_play(action, seat)
                else:
                    assert action in obs.legal_actions
            match.act(action)  # raises on an illegal action
    assert acted[Phase.PLAY] > 100 and acted[Phase.TRIBUTE] > 0 and acted[Phase.RETURN] > 0


def test_tribute_and_return_choices_are_searched():
    match = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2),
                  hands=[["S3 HR", "D4 HR", "S8 SA DA C7 D7 S2", "C5"]])
    obs = match.observation(match.turn)
    assert obs.phase == Phase.TRIBUTE and tuple(obs.legal_actions) == (48, 51)  # SA or DA
    result = MonteCarloAgent(seed=1, rollouts=400).analyze(obs)
    assert sorted(c.action for c in result.choices) == [48, 51] and result.rollouts == 400
    match.pay_tribute(result.best)
    obs = match.observation(match.turn)
    assert obs.phase == Phase.RETURN
    result = MonteCarloAgent(seed=1, rollouts=300).analyze(obs)
    assert {c.action for c in result.choices} == set(obs.legal_actions)
    assert all(c.rollouts == result.rollouts // len(result.choices) for c in result.choices)


def test_analyze_needs_the_seat_to_act():
    deal = Deal.new(seed=1, level=2, leader=0)
    with pytest.raises(GuandanError, match="not to act"):
        MonteCarloAgent().analyze(deal.observation(1))
    with pytest.raises(GuandanError, match="Observation"):
        MonteCarloAgent().analyze(deal)


# -- the weighted sampler --------------------------------------------------------------------------


def consistent(obs, hands):
    """Whether four hands are a deal the observation allows (what a seat knows, rules §6)."""
    me = obs.seat
    if hands[me] != obs.hand or [len(h) for h in hands] != list(obs.card_counts):
        return False
    played = Cards.from_cards(c for r in obs.history if isinstance(r, Play) for c in r.move.cards)
    if sum(hands, start=Cards()) + played != Cards.deck():
        return False
    for record in obs.history:  # a tribute payer holds nothing above its tribute but a wild
        if isinstance(record, Tribute) and record.seat != me:
            above = cards_of_bits(tribute_above(record.card, int(obs.level)))
            returned = [r.card for r in obs.history if isinstance(r, Return) and r.to == record.seat]
            if any(c in above and c not in returned for c in hands[record.seat]):
                return False
    return True


@pytest.mark.slow
def test_weighted_samples_are_consistent_deals():
    rng = SplitMix64(4)
    seen = 0
    for obs in observations(range(12), 23) + observations(range(12, 20), 61):
        for _ in range(20):
            hands = determinize(obs, rng, weighted=True)
            assert consistent(obs, hands)
            seen += 1
    assert seen > 300


@pytest.mark.slow
def test_weighted_samples_are_consistent_over_matches_with_tributes():
    rng = SplitMix64(9)
    phases: Counter = Counter()
    for seed in range(4):
        match = Match(seed=seed, ruleset="competitive_2022+cap5")
        while not match.is_over:
            obs = match.observation(match.turn)
            if obs.phase == Phase.PLAY and any(isinstance(r, Tribute) for r in obs.history):
                for s in range(4):
                    other = match.observation(s)
                    assert consistent(other, determinize(other, rng, weighted=True))
                    phases["after tribute"] += 1
            match.act(GreedyAgent().act(obs))
    assert phases["after tribute"] > 200


def pair_deal():
    """Seat 0 leads a pair of 5s, seat 1 passes; seat 2 is the observer."""
    deal = Deal(["S5 C5 S3 D4", "S6 H7 C8 D9 ST CJ SQ DQ", "S8 H9 CT DJ SK HA", "D6 C7 H8 S9 HT SJ CQ HK"],
                level=2, leader=0)
    deal.play(next(m for m in deal.legal_moves() if m.type.label == "pair"))
    deal.play(deal.legal_moves()[-1])  # seat 1 passes
    return deal


def holds_higher_pair(hand: Cards, key: int, level: int) -> bool:
    ranks = Counter(card_rank(c) for c in hand if c != wild_card(level) and c < 52)
    return any(2 <= n < 4 and elevated_order(r, level) > elevated_order(key, level) for r, n in ranks.items())


@pytest.mark.slow
def test_a_seat_that_passed_on_a_pair_is_less_likely_to_hold_a_higher_pair():
    deal = pair_deal()
    obs = deal.observation(2)
    n = 4000
    info = information_set(obs)
    uniform = _core.sample_deals(info, n, seed=1)
    weighted = _core.sample_deals(info, n, seed=1, tries=16, pass_weight=0.25, bomb_weight=1.0)
    count = {name: sum(holds_higher_pair(cards_of_bits(h[1]), 5, 2) for h in samples)
             for name, samples in (("uniform", uniform), ("weighted", weighted))}
    p = count["uniform"] / n
    assert 0.2 < p < 0.9  # the case is informative either way
    # with weight w, a deal is kept in proportion to it: the share drops towards p w / (p w + 1 - p)
    target = p * 0.25 / (p * 0.25 + 1 - p)
    q = count["weighted"] / n
    sigma = math.sqrt(p * (1 - p) / n + q * (1 - q) / n)
    assert q < p - 8 * sigma, count
    assert abs(q - target) < 0.1, (q, target)
    # seat 3 passed on nothing: its hands are alike in both
    seat3 = [sum(holds_higher_pair(cards_of_bits(h[3]), 5, 2) for h in samples) / n for samples in (uniform, weighted)]
    assert abs(seat3[0] - seat3[1]) < 0.03, seat3


def test_deal_weights_count_what_the_play_reveals():
    deal = pair_deal()
    info = information_set(deal.observation(2))
    hands = [bits_of_cards(h) for h in deal.hands]
    assert holds_higher_pair(deal.hands[1], 5, 2)  # seat 1 really held QQ
    assert _core.deal_weight(info, hands, pass_weight=0.25) == 0.25
    assert _core.deal_weight(info, hands, pass_weight=1.0) == 1.0
    # a single 7 played from four 7s breaks a bomb
    broke = Deal(["S7 H7 C7 D7 S3", "S6 H9", "S8 H3", "D6 C9"], level=2, leader=0)
    broke.play(next(m for m in broke.legal_moves() if m.type.label == "single" and m.key == 7))
    info = information_set(broke.observation(1))
    hands = [bits_of_cards(h) for h in broke.hands]
    assert _core.deal_weight(info, hands, bomb_weight=0.5) == 0.5
    fewer = [bits_of_cards(Cards.parse(t)) for t in ("S3 S4 H7 C7", "S6 H9", "S8 H3", "D6 C9 D7")]
    assert _core.deal_weight(info, fewer, bomb_weight=0.5) == 1.0


@pytest.mark.slow
def test_a_tribute_payers_cards_above_its_tribute_go_to_the_other_seats():
    match = Match(seed=13, levels=(5, 9), previous=(1, 0, 3, 2))  # seat 2 pays seat 1 an ace, at level 9
    greedy = GreedyAgent()
    match.act(greedy.act(match.observation(2)))
    match.act(greedy.act(match.observation(1)))
    (tribute,) = [r for r in match.deal_history if isinstance(r, Tribute)]
    (returned,) = [r for r in match.deal_history if isinstance(r, Return)]
    above = cards_of_bits(tribute_above(tribute.card, 9))
    assert len(above) > 4 and returned.card not in above
    rng = SplitMix64(1)
    for seat in (0, 1, 3):
        obs = match.observation(seat)
        for _ in range(200):
            hands = determinize(obs, rng, weighted=True)
            assert consistent(obs, hands)
            assert not any(c in above for c in hands[2])
        uniform = [determinize(obs, rng) for _ in range(50)]
        assert any(c in above for hands in uniform for c in hands[2])  # the uniform sampler has no such rule


def test_a_tribute_card_returned_to_its_payer_is_placed_once():
    """Under a rule that lets any card be returned (huaian), the receiver may give the tribute
    card itself back: the payer holds it again and the receiver does not (known_cards once
    placed it with both, and no deal was consistent)."""
    match = Match(seed=0, ruleset="huaian", levels=(5, 9), previous=(1, 0, 3, 2))
    greedy = GreedyAgent()
    card = greedy.act(match.observation(2))
    match.pay_tribute(card)
    match.return_card(card)  # the same big joker, back to seat 2
    rng = SplitMix64(3)
    for _ in range(40):
        match.act(greedy.act(match.observation(match.turn)))
    for seat in range(4):
        obs = match.observation(seat)
        assert cards_of_bits(bits_of_cards(known_cards(obs).get(1, Cards()))).count(card) == 0
        for weighted in (False, True):
            assert consistent(obs, determinize(obs, rng, weighted=weighted))
    assert MonteCarloAgent(seed=1, rollouts=100).analyze(match.observation(match.turn)).rollouts == 100


def test_a_double_tribute_receiver_holding_both_faces_searches_its_return():
    """Both tribute faces in the hand of the 2nd-place receiver (a big joker and a small one
    of its own, the small one received): which card it received is ambiguous, and the
    search must not place a card it cannot know with its partner."""
    rest = list(Cards.deck() - Cards.parse("HR HR SB SB"))
    low = [c for c in rest if card_rank(c) <= 10 and card_rank(c) != 2]
    others = [c for c in rest if c not in low[:52]]
    hands = [
        Cards.from_cards(low[0:13] + others[0:14]),                  # seat 0: 1st place
        Cards.parse("SB") + Cards.from_cards(low[13:26] + others[14:27]),  # pays SB
        Cards.parse("HR SB") + Cards.from_cards(low[26:39] + others[27:39]),  # 2nd place: its own HR and SB
        Cards.parse("HR") + Cards.from_cards(low[39:52] + others[39:52]),  # pays HR
    ]
    assert [len(h) for h in hands] == [27] * 4 and sum(hands, start=Cards()) == Cards.deck()
    match = Match(seed=1, levels=(2, 2), previous=(0, 2), hands=[hands])  # a double-down: seats 1 and 3 pay
    greedy = GreedyAgent()
    while match.phase == Phase.TRIBUTE:
        match.act(greedy.act(match.observation(match.turn)))
    while match.turn != 2:
        match.act(greedy.act(match.observation(match.turn)))
    obs = match.observation(2)
    assert obs.phase == Phase.RETURN and obs.hand.count(53) == 1 and obs.hand.count(52) == 2
    result = MonteCarloAgent(seed=1, rollouts=200).analyze(obs)
    assert result.best in obs.legal_actions and 0 < result.rollouts <= 200  # whole worlds: 7 x 28 cards


@pytest.mark.slow
def test_the_native_sampler_deals_uniformly_and_honours_a_forbidden_set():
    hand = Cards.deck() - Cards.parse("S3 S4 S5 S6 S7")
    pool = Cards.parse("S3 S4 S5 S6 S7")
    level = 2
    base = (0, level, bits_of_cards(hand), bits_of_cards(pool), (0, 0, 0, 0), (0, 0, 0, 0), (0, 2, 2, 1),
            np.zeros((0, 3), np.uint64))
    n = 30_000
    counts = Counter(tuple(h[1:]) for h in _core.sample_deals(base, n, seed=7))
    assert len(counts) == 30  # 5! / (2! 2! 1!) ways
    chi2 = sum((c - n / 30) ** 2 / (n / 30) for c in counts.values())
    assert chi2 < 70  # 29 degrees of freedom, p < 1e-4
    forbid = bits_of_cards(Cards.parse("S3 S4"))  # seat 3 may not hold S3 or S4
    limited = (*base[:5], (0, 0, 0, forbid), *base[6:])
    counts = Counter(tuple(h[1:]) for h in _core.sample_deals(limited, n, seed=7))
    assert len(counts) == 18 and all(not (h[2] & forbid) for h in counts)  # 3 choices for seat 3, 6 splits
    chi2 = sum((c - n / 18) ** 2 / (n / 18) for c in counts.values())
    assert chi2 < 50  # 17 degrees of freedom


# -- the native door -------------------------------------------------------------------------------


def door_case():
    obs = observations([2], 5)[0]
    return information_set(obs), deal_state_of(obs), obs


def test_bad_information_sets_are_refused_by_name():
    info, state, _ = door_case()
    seat, level, hand, pool, known, forbid, need, events = info
    cases = [
        ((5, *info[1:]), GuandanError, "seat"),
        ((seat, 1, *info[2:]), InvalidCardsError, "level"),
        ((seat, level, 3 << 0, *info[3:]), InvalidCardsError, "hand"),
        ((seat, level, hand, -1, *info[4:]), InvalidCardsError, "pool"),
        ((seat, level, hand, pool, (0, 0, 0), *info[5:]), InvalidCardsError, "known"),
        ((*info[:6], tuple(0 if s == seat else 28 for s in range(4)), events), InvalidCardsError, "inconsistent"),
        ((*info[:6], (1, 1, 1, 1), events), InvalidCardsError, "none to the seat itself"),
        ((*info[:6], (1.5, 0, 0, 0), events), GuandanError, "need"),
        ((*info[:7], events.astype(np.int64)), InvalidMoveError, "events"),
        ((*info[:7], np.array([[9, 0, 0]], np.uint64)), InvalidMoveError, r"events\[0\] is malformed"),
        ((*info[:7], np.array([[1, 0, 0]], np.uint64)), InvalidMoveError, r"events\[0\] is not a play"),
        (info[:7], InvalidCardsError, "an information set is"),
    ]
    for bad, error, name in cases:
        with pytest.raises(error, match=name):
            _core.sample_deals(bad, 1)
    with pytest.raises(InvalidMoveError, match="seat to act"):
        _core.search_candidates(info, (state[0], (state[1] + 1) % 4, *state[2:]), 5)


def test_bad_search_arguments_are_refused_by_name():
    info, state, obs = door_case()
    words = _core.search_candidates(info, state, 6)
    good = {"rollouts": 10}
    for kwargs, error, name in [
        ({"rollouts": 0}, GuandanError, "give a budget"),
        ({"rollouts": -1}, GuandanError, "rollouts"),
        ({"rollouts": 10, "seconds": -1.0}, GuandanError, "seconds"),
        ({**good, "threads": 0}, GuandanError, "threads"),
        ({**good, "threads": 65}, GuandanError, "threads"),
        ({**good, "policy": "clever"}, GuandanError, "policy"),
        ({**good, "tries": 0}, GuandanError, "tries"),
        ({**good, "pass_weight": 0.0}, GuandanError, "pass_weight"),
        ({**good, "bomb_weight": True}, GuandanError, "bomb_weight"),
        ({**good, "seed": 1.5}, GuandanError, "seed"),
        ({**good, "policy_weight": 0.0}, GuandanError, "policy_weight"),
        ({**good, "policy_weight": 0.5, "policy_events": 4}, GuandanError, "needs its weights"),
        ({**good, "policy_events": -1}, GuandanError, "policy_events"),
        ({**good, "tree_moves": _core.TREE_MAX_MOVES + 1}, GuandanError, "tree_moves"),
        ({**good, "tree_visits": 0}, GuandanError, "tree_visits"),
        ({**good, "tree_nodes": 0}, GuandanError, "tree_nodes"),
        ({**good, "tree_nodes": _core.TREE_MAX_NODES + 1}, GuandanError, "tree_nodes"),
        ({**good, "tree_c": -0.5}, GuandanError, "tree_c"),
        ({**good, "tree_c": "wide"}, GuandanError, "tree_c"),
        ({**good, "tree_first": 0.0}, GuandanError, "tree_first"),
        ({**good, "tree_c": 10**400}, GuandanError, "tree_c is a number in .*got <int of 1329 bits>"),
        ({"rollouts": 10, "seconds": -(10**400)}, GuandanError, "seconds is a number"),
        ({**good, "pass_weight": 10**400}, GuandanError, "pass_weight is a number"),
        ({**good, "prior_rollouts": -1.0}, GuandanError, "prior_rollouts"),
        ({**good, "prior_rollouts": 25.0}, GuandanError, "needs a prior"),
    ]:
        with pytest.raises(error, match=name):
            _core.search(info, state, words, SearchParams(**kwargs))
    with_prior = SearchParams(10, prior_rollouts=25.0)
    for prior, name in [
        ([0.0] * (len(words) - 1), f"one number for each of the {len(words)} candidates"),
        ([[0.0] * len(words)], "one number for each"),
        ([float("nan")] + [0.0] * (len(words) - 1), "finite numbers within"),
        ([1e7] + [0.0] * (len(words) - 1), "finite numbers within"),
        (["high"] * len(words), "a number for each candidate"),
    ]:
        with pytest.raises(GuandanError, match=name):
            _core.search(info, state, words, with_prior, prior)
    with pytest.raises(InvalidMoveError, match="distinct"):
        _core.search(info, state, [words[0], words[0]], SearchParams(10))
    with pytest.raises(InvalidMoveError, match="non-empty"):
        _core.search(info, state, [], SearchParams(10))
    illegal = 0xAF00000000000000  # a joker bomb the seat does not hold
    if illegal not in set(int(w) for w in _core.rank_moves(obs.hand_counts, int(obs.level))):
        with pytest.raises(IllegalMoveError, match=r"candidates\[1\]"):
            _core.search(info, state, [int(words[0]), illegal], SearchParams(10))


def test_candidates_hold_the_policys_move_first_the_pass_and_the_smallest_bomb():
    deal = Deal(["S3 S4 S5 S6 S7 S9 S9 H9 D9 CK", "SA", "D3", "D4"], level=2, leader=1)
    deal.play(deal.legal_moves()[0])  # seat 1: single A
    obs = deal.observation(2)
    assert obs.seat == deal.turn or deal.turn == 2
    deal2 = Deal(["S3 S4 S5 S6 S7 S9 S9 H9 D9 CK", "SA SA", "D3", "D4"], level=2, leader=1)
    deal2.play(next(m for m in deal2.legal_moves() if m.type.label == "single"))
    deal2.play(deal2.legal_moves()[-1])  # seat 2 passes
    deal2.play(deal2.legal_moves()[-1])  # seat 3 passes
    obs = deal2.observation(0)
    info, state = information_set(obs), deal_state_of(obs)
    words = [int(w) for w in _core.search_candidates(info, state, 3)]
    choice, _ = _core.smart_move(deal2.native_state())
    assert words[0] == choice and _core.PASS_MOVE in words
    assert any(w >> 60 == 8 for w in words)  # the bomb of 9s


def test_rollouts_take_a_policy_per_seat():
    state = (Deal.new(seed=3, level=2)).native_state()
    smart = _core.rollouts(state, 20, "smart", seed=1)
    assert (smart == smart[0]).all()  # smart is deterministic
    mixed = _core.rollouts(state, 50, ["random", "smart", "greedy", "smart"], seed=1)
    assert mixed.shape == (50, 4) and (mixed[:, 0] >= 0).all() and len({tuple(r) for r in mixed}) > 1
    assert np.array_equal(mixed, _core.rollouts(state, 50, ("random", "smart", "greedy", "smart"), seed=1))
    with pytest.raises(GuandanError, match="policies"):
        _core.rollouts(state, 1, ["smart"] * 3)
    with pytest.raises(GuandanError, match="policy is one of"):
        _core.rollouts(state, 1, "clever")


@pytest.mark.slow
def test_simulate_runs_the_search_bot_on_worker_processes_as_in_this_process():
    """One thread a bot (the default): each worker process runs its bots' rollouts itself, and
    a seeded run gives the same rows on one process or two."""
    from guandan.bots.simulate import simulate

    one = simulate(3, "mc:rollouts=120,greedy", seed=4, kind="deal", workers=1)
    two = simulate(3, "mc:rollouts=120,greedy", seed=4, kind="deal", workers=2, chunk=1)
    assert one.rows == two.rows and len(one.rows) == 3
    threaded = simulate(3, "mc:rollouts=120:threads=2,greedy", seed=4, kind="deal", workers=1)
    assert [r["finish_order"] for r in threaded.rows] == [r["finish_order"] for r in one.rows]


@profiled(
    400,
    counts=st.lists(st.integers(0, 2), min_size=54, max_size=54).filter(any),
    level=st.integers(2, 14),
    high_only=st.booleans(),
)
def test_the_card_phase_returns_the_card_the_return_rule_gives(counts, level, high_only):
    """The card search's return (read from the packed bits) is the lowest card the ``low``
    rule allows in the elevated order, as :func:`return_choices` gives it; hands without low
    cards and with the level rank among them included."""
    from guandan.bots.search import _lowest_return

    if high_only:  # no card of rank 2..10 but the level's: the rule's fallback
        counts = [n if f >= 36 or f // 4 + 2 == level else 0 for f, n in enumerate(counts)]
        assume(any(counts))
    hand = Cards.from_counts(counts)
    expected = min(return_choices(hand.counts, level, "low"), key=lambda c: (elevated_order(card_rank(c), level), c))
    assert _lowest_return(bits_of_cards(hand), level) == expected


def test_the_search_scores_rollouts_under_the_rulesets_promotion():
    """A rollout is worth the levels the rules give its result: with a promotion of nothing
    every candidate's value is 0, with one level a place it is the wins objective's value,
    and the bot reads the promotion from the observation's ruleset (Nanjing's 3, 2, 0)."""
    from guandan import Match
    from guandan.game.rules import COMPETITIVE_2022, NANJING

    info, state, cands = search_case(5)
    flat, _ = _core.search(info, state, cands, SearchParams(400, 0.0, 1, "smart", 7, promotion=(0, 0, 0)))
    assert flat[:, 1].tolist() == [0.0] * len(cands)
    ones, _ = _core.search(info, state, cands, SearchParams(400, 0.0, 1, "smart", 7, promotion=(1, 1, 1)))
    wins, _ = _core.search(info, state, cands, SearchParams(400, 0.0, 1, "smart", 7, objective="wins"))
    assert ones.tolist() == wins.tolist()
    levels, _ = _core.search(info, state, cands, SearchParams(400, 0.0, 1, "smart", 7))
    assert levels.tolist() != ones.tolist()
    nothing = replace(COMPETITIVE_2022, name="nothing", promotion=(0, 0, 0))
    match = Match(11, nothing)
    result = MonteCarloAgent(seed=3, rollouts=300).analyze(match.observation(match.turn))
    assert {c.value for c in result.choices} == {0.0}
    match = Match(11, NANJING)
    a = MonteCarloAgent(seed=3, rollouts=300).analyze(match.observation(match.turn))
    b = MonteCarloAgent(seed=3, rollouts=300).analyze(Match(11).observation(match.turn))
    assert [c.value for c in a.choices] != [c.value for c in b.choices]
    with pytest.raises(GuandanError, match="promotion"):
        _core.search(info, state, cands, SearchParams(10, promotion=(3, 2)))


# -- bad input -------------------------------------------------------------------------------------


def test_search_arguments_are_checked():
    from guandan.bots import search

    for kwargs in ({"determinizations": 0}, {"playouts": 1.5}, {"candidates": -1}, {"policy": "x"}):
        check(lambda: search.BasicMonteCarloAgent(**kwargs), GuandanError)  # noqa: B023
    for kwargs, match in (
        ({"rollouts": 0}, "rollouts is a count of deals per decision"),
        ({"rollouts": 2.5}, "rollouts is a count of deals per decision"),
        ({"think_ms": 0}, "think_ms is a number of milliseconds in \\(0, 1000000000]"),
        ({"think_ms": "fast"}, "think_ms is a number"),
        ({"max_cost": 0}, "max_cost is a cost from 1"),
        ({"max_cost": 2.5}, "max_cost is a cost from 1"),
        ({"threads": 0}, "threads is an int 1..64"),
        ({"threads": True}, "threads is an int"),
        ({"candidates": 0}, "candidates is an int"),
        ({"policy": "x"}, "policy is one of smart, learned, greedy, random"),
        ({"tries": 0}, "tries is an int"),
        ({"pass_weight": 0}, "pass_weight is a number in"),
        ({"bomb_weight": 1.5}, "bomb_weight is a number in"),
        ({"objective": "points"}, "objective is"),
        ({"weights": 3}, "weights is the path"),
        ({"seed": "1"}, "seed is an int"),
    ):
        check(lambda: search.MonteCarloAgent(**kwargs), GuandanError, match)  # noqa: B023
