"""The Game protocol: a deal and a match both satisfy it, and a driver written against it
plays either alike."""

from __future__ import annotations

from guandan import Deal, GreedyAgent, Match
from guandan.bots.loop import play_out
from guandan.game.history import Phase
from guandan.game.protocol import Game


def test_a_deal_and_a_match_are_games_and_other_things_are_not():
    assert isinstance(Deal.new(seed=2), Game) and isinstance(Match(seed=2), Game)
    assert not isinstance("deal", Game) and not isinstance(Deal.new(seed=2).observation(0), Game)


def test_a_deals_own_deal_and_levels_are_as_a_match_has_them():
    deal = Deal.new(seed=3, level=9)
    assert deal.deal is deal and deal.levels == (deal.level, deal.level)
    match = Match(seed=3)
    assert match.deal is not None and match.deal.level == match.level and match.levels[0] == match.level


def test_the_deal_in_play_of_a_match_is_what_a_game_reads_in_every_phase():
    """Through a match's deals, tribute included: in play ``deal`` is the deal being played,
    and a driver reading only the protocol sees the same seat to act and level."""
    match: Game = Match(seed=4)
    seen = set()
    for _ in range(260):
        if match.is_over:
            break
        seen.add(match.phase)
        if match.phase is Phase.PLAY:
            assert match.deal is not None and match.deal.turn == match.turn and match.deal.level == match.level
        play_out(match, [GreedyAgent()] * 4, max_actions=1)
    assert {Phase.PLAY, Phase.TRIBUTE} <= seen
