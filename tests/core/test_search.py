"""guandan.core.search: the search's native parts under their public names."""

from guandan import Deal
from guandan.bots.determinize import information_set
from guandan.bots.playout import public_state
from guandan.core import _core, search
from guandan.core.packed import cards_of_bits


def test_the_names_are_the_native_functions_and_constants():
    for name in search.__all__:
        assert getattr(search, name) is getattr(_core, name) or getattr(search, name) == getattr(_core, name), name
    assert search.MAX_RANK_MOVES >= search.TREE_MAX_MOVES >= 1 and search.MAX_THREADS >= 1


def test_sampled_deals_keep_the_seats_own_hand_and_every_card():
    obs = Deal.new(seed=12, level=4, leader=3).observation(1)
    deals = search.sample_deals(information_set(obs), 3, seed=5)
    assert len(deals) == 3 and deals == search.sample_deals(information_set(obs), 3, seed=5)
    for hands in deals:
        assert hands[1] == obs.packed_hand
        assert sum(len(cards_of_bits(h)) for h in hands) == 108


def test_the_candidates_are_legal_moves_of_the_position():
    deal = Deal.new(seed=2, level=2, leader=0)
    obs = deal.observation(0)
    state = public_state(int(obs.level), 0, obs.to_beat, obs.history, obs.finish_order)
    words = search.search_candidates(information_set(obs), state, 8)
    assert 1 <= len(words) <= 8
    assert {int(w) for w in words} <= {int(w) for w in deal.legal_moves("rank").array}
