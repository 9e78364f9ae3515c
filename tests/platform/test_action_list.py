"""The AI-competition protocol's actionList for a deal or match state, and applying its actions."""

from __future__ import annotations

import pytest
from games import play

from guandan import Deal, IllegalMoveError, InvalidMoveError, Match
from guandan.platform.actions import action_list, apply_action, from_action, to_action


def test_a_lead_lists_every_legal_move_and_no_pass():
    deal = Deal.new(4, level=3, leader=1)
    actions = action_list(deal, 1)
    assert len(actions) == len(deal.legal_moves()) and ["PASS", "PASS", "PASS"] not in actions
    assert actions == [to_action(m) for m in deal.legal_moves()]


def test_a_response_lists_the_pass_first():
    deal = Deal(["S3 S4", "S5 D5 SK", "S7", "S9"], level=2, leader=0)
    play(deal, "S4")
    actions = action_list(deal, 1)
    assert actions[0] == ["PASS", "PASS", "PASS"]
    assert actions[1:] == [["Single", "5", ["S5"]], ["Single", "5", ["D5"]], ["Single", "K", ["SK"]]]


def test_a_seat_not_to_act_gets_an_empty_list():
    deal = Deal.new(4, level=3, leader=1)
    assert action_list(deal, 0) == action_list(deal, 2) == []


def test_tribute_and_back_stages_list_one_action_per_allowed_card():
    match = Match(3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 S4", "S5 S6 ST SJ", "S8 SA DA", "S9 ST"]])
    assert action_list(match, 2) == [["tribute", "tribute", ["SA"]], ["tribute", "tribute", ["DA"]]]
    assert action_list(match, 1) == []
    apply_action(match, ["tribute", "tribute", ["DA"]], seat=2)
    assert action_list(match, 1) == [["back", "back", ["S5"]], ["back", "back", ["S6"]], ["back", "back", ["ST"]]]
    with pytest.raises(IllegalMoveError, match="not what is due"):
        apply_action(match, ["tribute", "tribute", ["S5"]])
    apply_action(match, ["back", "back", ["S6"]])
    assert match.phase.label == "play" and match.hands[2].codes() == ["S6", "S8", "SA"]


def test_every_listed_action_can_be_applied_and_plays_that_move():
    deal = Deal.new(10, level=2)
    while not deal.is_over:
        seat = deal.turn
        actions = action_list(deal, seat)
        action = actions[len(actions) // 2]
        record = apply_action(deal, action, seat=seat)
        assert record.move == from_action(action, 2)


def test_an_illegal_protocol_action_raises():
    deal = Deal(["S3 S4", "S5 D5 SK", "S7", "S9"], level=2, leader=0)
    with pytest.raises(IllegalMoveError, match="does not hold S5"):
        apply_action(deal, ["Single", "5", ["S5"]])
    with pytest.raises(InvalidMoveError):
        apply_action(deal, ["Pair", "3", ["S3", "S4"]])


def test_the_bulk_action_list_is_to_action_of_every_move_and_its_text_is_the_json():
    import json

    import numpy as np

    from guandan import legal_moves
    from guandan.platform.actions import move_actions, move_actions_json

    positions = [("SB SB HR HR S3 H2 H2", 2, None), ("S3 S4 S5 S6 S7 H7 H7 C9 C9 D9", 7, None)]
    for seed in range(12):  # full hands, leading and answering, at several levels
        deal = Deal.new(seed, level=2 + seed % 13)
        positions.append((deal.hands[deal.turn], deal.level, None))
        first = deal.legal_moves()[len(deal.legal_moves()) // 2]
        positions.append((deal.hands[(deal.turn + 1) % 4], deal.level, first))
    for hand, level, beat in positions:
        moves = legal_moves(hand, level, beat=beat)
        expected = [to_action(m) for m in moves]
        assert move_actions(moves.array) == expected
        actions, text = move_actions_json(moves.array)
        assert actions == expected and text == json.dumps(expected, separators=(",", ":"))
    assert move_actions_json(np.empty((0, 2), dtype=np.uint64)) == ([], "[]")
