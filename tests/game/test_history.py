"""``guandan.game.history``: the action records, a deal's history kept packed until read, the
phases, and the moves decoded from the words the core wrote."""

from __future__ import annotations

import pytest

from guandan import Deal, GreedyAgent, Match, Move, RandomAgent, Rank, legal_moves
from guandan.bots.loop import play_out
from guandan.core.movegen import pack_move
from guandan.game.history import History, Phase, Play, Return, Tribute, decode_move, decode_play


def test_every_legal_move_decodes_from_its_words_into_the_play_it_is():
    for move in legal_moves("S3 C4 D4 C5 D5 H2 SB SB HR", 2):
        lo, hi = pack_move(move)
        assert decode_move(lo, hi, Rank.TWO) == move
        play = decode_play(3, lo, hi, Rank.TWO)
        assert play == Play(3, move) and not play.is_pass and str(play) == f"seat 3: {move.format('text')}"
    passed = decode_play(1, *pack_move(Move.pass_(2)), Rank.TWO)
    assert passed.is_pass and passed == Play(1, Move.pass_(2)) and str(passed) == "seat 1: pass"


def trailing(records):
    n = 0
    for record in reversed(records):
        if not (isinstance(record, Play) and record.is_pass):
            break
        n += 1
    return n


@pytest.mark.parametrize("seed", range(3))
def test_a_seats_history_is_the_deals_read_back_from_the_packed_plays_at_every_step(seed):
    deal = Deal.new(seed, level=2 + seed)
    agents = [RandomAgent(seed), GreedyAgent(), RandomAgent(seed + 1), GreedyAgent()]
    while not deal.is_over:
        history = deal.observation(deal.turn).history
        assert isinstance(history, History)
        assert len(history) == len(deal.history) and history == list(deal.history) and history == tuple(deal.history)
        assert list(history) == list(deal.history) and history[-3:] == list(deal.history[-3:])
        assert history.trailing_passes() == trailing(deal.history)
        play_out(deal, agents, max_actions=1)
    assert (history == 5) is False and repr(History((), (), Rank.TWO)) == "History([])"


def test_a_match_history_starts_with_its_tribute_and_return_records():
    match = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA DA", "C5"]])
    match.pay_tribute("DA")
    match.return_card("D4")
    history = match.observation(match.turn).history
    assert list(history)[:2] == [Tribute(2, match.history[0].card), Return(1, 2, match.history[1].card)]
    assert str(history[0]) == "seat 2: tribute DA" and str(history[1]) == "seat 1: return D4 to seat 2"


def test_the_phases_are_named_as_in_code_cli_and_json():
    assert [p.label for p in Phase] == ["tribute", "return", "play", "over"]
    assert [int(p) for p in Phase] == [0, 1, 2, 3] and Phase.PLAY < Phase.OVER
