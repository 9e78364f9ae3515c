"""benchmarks/oracle_headroom.py: the oracle's information sets sample the true deal (or keep
the revealed share of the hidden cards in their true hands), and a pair is played for real."""

from __future__ import annotations

import numpy as np
import pytest
from scripts import load_script

from guandan import Deal
from guandan.bots.agents import GreedyAgent
from guandan.core.packed import bits_of_cards
from guandan.core.rng import SplitMix64
from guandan.core.search import sample_deals

oracle = load_script("oracle_headroom")


def position():
    deal = Deal.new(seed=4, level=2)
    for _ in range(13):
        deal.play(GreedyAgent().act(deal.observation(deal.turn)))
    return deal


def contains(hand, cards):
    return all((hand >> (2 * f)) & 3 >= (cards >> (2 * f)) & 3 for f in range(54))


def test_the_oracle_samples_the_true_deal_and_the_honest_seat_does_not():
    deal = position()
    obs = deal.observation(deal.turn)
    truth = [bits_of_cards(h) for h in deal.hands]
    try:
        oracle._truth = truth
        assert all(list(h) == truth for h in sample_deals(oracle._oracle_information_set(obs), 20, seed=1))
    finally:
        oracle._truth = None
    honest = sample_deals(oracle._oracle_information_set(obs), 20, seed=1)
    assert any(list(h) != truth for h in honest)


@pytest.mark.parametrize("share", [0.25, 0.5, 0.75])
def test_a_partial_oracle_knows_a_share_of_the_hidden_cards_in_their_true_hands(share):
    deal = position()
    me = deal.turn
    obs = deal.observation(me)
    truth = [bits_of_cards(h) for h in deal.hands]
    honest = oracle._honest(obs)
    try:
        oracle._truth, oracle._reveal = truth, (share, SplitMix64(3))
        info = oracle._oracle_information_set(obs)
    finally:
        oracle._truth, oracle._reveal = None, None
    hidden = sum(honest.need)
    revealed = hidden - sum(info.need)
    assert 0.5 * share * hidden < revealed < min(1.5 * share, 1.0) * hidden  # about the share, not all
    for s in range(4):
        assert contains(truth[s], info.known[s])  # what is revealed is where it truly is
    for hands in sample_deals(info, 10, seed=2):
        for s in range(4):
            assert contains(hands[s], info.known[s])
            assert sum((hands[s] >> (2 * f)) & 3 for f in range(54)) == len(deal.hands[s])


def test_a_pair_is_played_with_the_oracle_on_each_side(monkeypatch):
    monkeypatch.setattr(oracle.search_module, "information_set", oracle._honest)  # restored after the test
    won0, levels0, won1, levels1 = oracle.play_pair("mc:rollouts=20", 3, 11)
    assert won0 in (0, 1) and won1 in (0, 1)
    assert (levels0 > 0) == bool(won0) and (levels1 > 0) == bool(won1) and levels0 != 0 and levels1 != 0
    assert oracle.play_pair("mc:rollouts=20", 3, 11) == (won0, levels0, won1, levels1)  # seeded
    with pytest.raises(SystemExit, match="does not make a search bot"):
        oracle.play_pair("greedy", 0, 1)


def test_revealing_more_of_the_hidden_cards_places_more_of_them_right():
    shares = oracle.placement(1, (0.0, 0.5, 0.75), samples=8)
    assert set(shares) == {"uniform", "rules"}
    for row in shares.values():
        assert 0.2 < row[0] < row[1] < row[2] < 1.0  # a sampler guesses some, each rung more
    assert oracle._truth is None and oracle._reveal is None  # left as it was


def test_a_belief_commits_the_faces_it_is_sure_of_and_nothing_else():
    deal = position()
    me = deal.turn
    obs = deal.observation(me)
    honest = oracle._honest(obs)
    truth = [bits_of_cards(h) for h in deal.hands]
    sure = np.zeros((3, 54))
    for r in range(3):
        held = truth[(me + 1 + r) & 3]
        for face in range(54):
            unseen = (honest.pool >> (2 * face)) & 3
            sure[r, face] = float(unseen > 0 and (held >> (2 * face)) & 3 == unseen)  # all its unseen copies
    try:
        oracle._believed = (np.full((3, 54), 1 / 3), 0.9)
        assert oracle._oracle_information_set(obs)[:7] == honest[:7]  # an undecided belief commits nothing
        oracle._believed = (sure, 0.9)
        info = oracle._oracle_information_set(obs)
    finally:
        oracle._believed = None
    committed = sum(honest.need) - sum(info.need)
    assert committed >= 10 and info.pool != 0  # the faces wholly in one hand, not the split ones
    for s in range(4):
        assert contains(truth[s], info.known[s])
    for hands in sample_deals(info, 5, seed=3):
        for s in range(4):
            assert contains(hands[s], info.known[s])
            assert sum((hands[s] >> (2 * f)) & 3 for f in range(54)) == len(deal.hands[s])
