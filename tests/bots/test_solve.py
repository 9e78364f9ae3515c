"""The exact endgame solver (``gd_solve``, ``_core.solve``): the native alpha-beta search with a
transposition table gives the plain-Python minimax's value on small seeded and random endgames,
for both sides and under other promotions; its budget is honoured; its best move is a move of
that value; bad arguments are refused."""

from __future__ import annotations

import random

import pytest
from solve_reference import deal_value, solve

from guandan import Deal, GreedyAgent, GuandanError, IllegalMoveError, RandomAgent
from guandan.core import _core
from guandan.core.movegen import canonical_move
from guandan.core.search import SearchParams
from guandan.game.scoring import DealResult


def endgame(seed: int, cards: int) -> Deal:
    """The first seeded deal from ``seed`` on, played by greedy and random agents, that reaches a
    position of at most ``cards`` cards left (many deals end before: a side out 1st and 2nd)."""
    for s in range(seed, seed + 1000):
        deal = Deal.new(s, 2 + s % 13)
        agents = [GreedyAgent(), RandomAgent(s), GreedyAgent(), RandomAgent(s + 1)]
        while not deal.is_over and sum(deal.card_counts) > cards:
            deal.act(agents[deal.turn].act(deal.observation(deal.turn)))
        if not deal.is_over:
            return deal
    raise AssertionError(f"no seeded deal from {seed} reaches {cards} cards")


def small_deal(rng: random.Random, most: int = 3) -> Deal:
    """A random position of at most ``most`` cards a seat (jokers, wilds, same-suit runs likely),
    some seats perhaps out already, mid-trick or leading."""
    level = rng.randint(2, 14)
    faces = list(range(54)) * 2
    rng.shuffle(faces)
    sizes = [rng.randint(0, most) for _ in range(4)]
    out = [s for s in range(4) if sizes[s] == 0]
    if len(out) > 1 or not sum(sizes):
        sizes = [max(1, n) for n in sizes]
        out = []
    hands, at = [], 0
    for n in sizes:
        hands.append(faces[at : at + n])
        at += n
    leader = next(s for s in range(4) if sizes[s])
    deal = Deal(hands, level, leader, finish_order=tuple(out))
    for _ in range(rng.randint(0, 2)):  # a play or two into the trick
        if deal.is_over or sum(deal.card_counts) <= 2:
            break
        deal.act(rng.choice(list(deal.legal_moves())))
    return deal


@pytest.mark.parametrize("seed", [0, 1000, 2000, 3000])
def test_the_native_solver_gives_the_minimax_value_of_seeded_endgames(seed):
    deal = endgame(seed, 6)
    for side in (0, 1):
        want = solve(deal, side)
        value, nodes = _core.solve(deal.native_state(), side)
        assert value == want and nodes >= 1


@pytest.mark.parametrize(
    ("most", "count"), [(2, 50), pytest.param(3, 150, marks=pytest.mark.slow)], ids=["2-a-seat", "3-a-seat"]
)
def test_the_native_solver_gives_the_minimax_value_of_random_small_positions(most, count):
    rng = random.Random(7)
    checked = 0
    for _ in range(count):
        deal = small_deal(rng, most)
        if deal.is_over:
            continue
        for side, promotion in ((0, (3, 2, 1)), (1, (3, 2, 1)), (0, (3, 2, 0)), (1, (1, 1, 1))):
            assert _core.solve(deal.native_state(), side, promotion)[0] == solve(deal, side, promotion), deal
        checked += 1
    assert checked > count * 2 // 3


def test_a_solve_that_runs_out_of_its_budget_says_so():
    deal = endgame(3, 30)
    value, nodes = _core.solve(deal.native_state(), 0, budget=50)
    assert value is None and nodes == 51
    word, v, nodes = _core.solve_move(deal.native_state(), budget=50)
    assert (word, v) == (None, None)


@pytest.mark.parametrize("seed", [100, 1100, 2100, 3100])
def test_the_solved_move_reaches_the_solved_value(seed):
    deal = endgame(seed, 12)
    side = deal.turn & 1
    word, value, _ = _core.solve_move(deal.native_state())
    assert value == _core.solve(deal.native_state(), side)[0]
    deal.play(canonical_move(word, deal.hand(deal.turn), deal.level))
    after = deal_value(deal, side) if deal.is_over else _core.solve(deal.native_state(), side)[0]
    assert after == value


def test_bad_arguments_are_refused():
    state = endgame(1, 12).native_state()
    for call, match in (
        (lambda: _core.solve(state, 2), "side"),
        (lambda: _core.solve(state, 0, (3, 2)), "promotion"),
        (lambda: _core.solve(state, 0, (3, 2, 13)), "promotion"),
        (lambda: _core.solve(state, 0, budget=0), "budget"),
        (lambda: _core.solve((1, 2, 3), 0), "deal state"),
    ):
        with pytest.raises(GuandanError, match=match):
            call()
    over = Deal(["S3", "", "S4", "D5"], level=2, leader=0, finish_order=(1,))
    over.play_index(0)
    over.play_index(len(over.legal_moves()) - 1)  # seat 2 passes; seat 3 ...
    while not over.is_over:
        over.play_index(0)
    with pytest.raises(IllegalMoveError):
        over.native_state()


def _after(state, word):
    """A native deal state after the seat to act plays a rank-level word, its cards spent canonically."""
    from guandan.core.packed import DECLARATION_MASK, cards_of_bits, hand_words

    hand = cards_of_bits(state.hands[state.turn])
    lo, hi = hand_words(_core.spend_cards(hand.counts, state.level, word))
    return _core.deal_step(state, lo, hi | (word & DECLARATION_MASK))


def _endgame_search_case(seed: int, cards: int = 12):
    """A seeded endgame of at most ``cards`` cards whose seat to act has three moves or more:
    the deal, the seat's information set, the search's state."""
    from guandan.bots.determinize import information_set
    from guandan.bots.playout import public_state

    deal = endgame(seed, cards)
    while len(deal.legal_moves("rank")) < 3:
        deal = endgame(seed := seed + 1, cards)
    obs = deal.observation(deal.turn)
    info = information_set(obs)
    state = public_state(int(obs.level), obs.seat, obs.to_beat, obs.history, obs.finish_order)
    return deal, info, state


@pytest.mark.parametrize("seed", [40, 1040, 2040])
def test_an_endgame_search_is_the_mean_of_exact_solves_over_its_sampled_deals(seed):
    """With two candidates (one round) and a budget of W solves each, the search's value of a
    candidate is the mean, over the W deals the sampler draws from the same seed, of that deal
    solved exactly after the candidate."""
    from guandan.core.packed import DealState

    deal, info, state = _endgame_search_case(seed)
    cands = _core.search_candidates(info, state, 2)
    assert len(cands) == 2
    worlds, cost = 6, 50
    stats, done = _core.search(info, state, cands, SearchParams(worlds * 2 * cost, 0.0, 1, "smart", 9, 1, 1.0, 1.0,
                               "levels", (3, 2, 1), 12, 10**6, cost))  # fmt: skip
    assert done == worlds * 2
    side = state.turn & 1
    for i, word in enumerate(cands):
        values = []
        for hands in _core.sample_deals(info, worlds, 9):
            after, over = _after(DealState(tuple(hands), *state), int(word))
            if over:
                result = DealResult(tuple(after[6]))  # the finish order
                gain = (3, 2, 1)[result.partner_place - 2]
                values.append(gain if result.winning_side == side else -gain)
            else:
                values.append(_core.solve(after, side)[0])
        assert stats[i, 0] == worlds and stats[i, 1] == sum(values) / worlds


def test_an_endgame_search_chooses_the_same_whatever_the_threads():
    deal, info, state = _endgame_search_case(77)
    cands = _core.search_candidates(info, state, 8)
    one, _ = _core.search(info, state, cands, SearchParams(4000, 0.0, 1, "smart", 5, solve_cards=12))
    two, _ = _core.search(info, state, cands, SearchParams(4000, 0.0, 2, "smart", 5, solve_cards=12))
    assert one.tolist() == two.tolist()
