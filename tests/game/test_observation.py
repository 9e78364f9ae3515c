"""``guandan.game.observation``: what one seat sees, an immutable :class:`Observation` built
with keywords only: its own hand and the public state of the deal and the match."""

from __future__ import annotations

import pytest

from guandan import (
    Deal,
    GreedyAgent,
    Match,
    RandomAgent,
    Rank,
)
from guandan.bots.loop import play_out
from guandan.game.observation import Observation
from guandan.game.rules import NANJING


def test_an_observation_is_immutable_and_of_its_class_once_made():
    """``Observation`` is filled in through a private subclass: what comes out is an
    ``Observation``, immutable; a subclass of the user's keeps its class."""
    from guandan.game.observation import Observation

    obs = Deal.new(4).observation(0)
    assert type(obs) is Observation and obs.seat == 0 and obs.to_beat_seat is None
    for change in (lambda: setattr(obs, "seat", 1), lambda: delattr(obs, "seat"),
                   lambda: setattr(obs, "__class__", Observation)):  # fmt: skip
        with pytest.raises(AttributeError, match="immutable"):
            change()

    class Annotated(Observation):
        __slots__ = ("note",)

    mine = Annotated(seat=1, phase=obs.phase, level=obs.level, turn=0, card_counts=obs.card_counts, finish_order=(),
                     legal_actions=(), packed_hand=obs.packed_hand, beat=(0, 0x100, 0x11 << 56), history=obs.history,
                     deal_index=3)  # fmt: skip
    assert mine.replace(deal_index=4).deal_index == 4 and type(mine.replace()) is Annotated
    assert type(mine) is Annotated and (mine.seat, mine.to_beat_seat, mine.deal_index) == (1, 0, 3)
    assert mine.hand == obs.hand and str(mine.to_beat) == "seat 0: single 3: S3"
    with pytest.raises(AttributeError, match="immutable"):
        mine.seat = 2


@pytest.mark.parametrize("seed", range(3))
def test_every_seat_sees_its_own_hand_and_the_public_state_at_every_step(seed):
    deal = Deal.new(seed, level=3 + seed)
    agents = [GreedyAgent(), RandomAgent(seed), GreedyAgent(), RandomAgent(seed + 5)]
    while not deal.is_over:
        for seat in range(4):
            obs = deal.observation(seat)
            assert obs.seat == seat and obs.hand == deal.hand(seat) and obs.hand_counts == deal.hand(seat).counts
            assert (obs.turn, obs.phase, obs.level) == (deal.turn, deal.phase, deal.level)
            assert obs.finish_order == deal.finish_order
            assert obs.card_counts == deal.card_counts == tuple(len(deal.hand(s)) for s in range(4))
            assert obs.to_beat == deal.to_beat
            assert obs.to_beat_seat == (None if deal.to_beat is None else deal.to_beat.seat)
            assert obs.is_my_turn == (seat == deal.turn)
            if obs.is_my_turn:
                assert list(obs.legal_actions) == list(deal.legal_moves())
            else:
                assert len(obs.legal_actions) == 0
        play_out(deal, agents, max_actions=1)


def test_a_match_observation_carries_the_levels_whose_level_it_is_and_the_ruleset():
    match = Match(seed=2, ruleset=NANJING)
    obs = match.observation(match.turn)
    assert obs.levels == (Rank.TWO, Rank.TWO) and obs.deal_index == 0 and obs.ruleset is NANJING
    assert obs.level == match.deal.level


def test_replace_changes_only_the_fields_named_and_an_observation_is_built_with_keywords():
    obs = Deal(["S3 S4", "S9", "D5", "D6"], level=2, leader=0).observation(0)
    later = obs.replace(turn=1, legal_actions=(), deal_index=4)
    assert (later.turn, later.legal_actions, later.deal_index) == (1, (), 4) and not later.is_my_turn
    assert (later.hand, later.card_counts, later.history, later.seat) == (obs.hand, obs.card_counts, obs.history, 0)
    assert obs.turn == 0 and obs.is_my_turn
    with pytest.raises(TypeError, match="no field 'colour'"):
        obs.replace(colour="red")
    with pytest.raises(TypeError):
        Observation(0, obs.phase, obs.level)  # keywords only
    assert repr(obs).startswith("<Observation seat 0 play level 2 turn 0 counts (2, 1, 1, 1)")
