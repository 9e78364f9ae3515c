"""``guandan.records.jsonio``: moves and move lists as JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest
from refusals import check
from strategies import random_hand

import guandan
from guandan import (
    Cards,
    GuandanError,
    InvalidMoveError,
    Move,
    classify,
    legal_moves,
    parse_card,
)
from guandan.core.reference import generate_moves
from guandan.records import jsonio
from guandan.records.jsonio import move_to_json, moves_to_json

# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: jsonio.move_to_json(None), InvalidMoveError, "not a move"),
        (lambda: jsonio.moves_to_json([], 2, "x"), GuandanError, "granularity"),
    ],
)
def test_bad_moves_to_json_raise(call, error, match):
    check(call, error, match)


def test_move_to_json_card_and_rank():
    (move,) = classify("S7 C7 H3 HR HR", 3)
    assert move_to_json(move) == {
        "type": "full_house",
        "key": "7",
        "size": 5,
        "suit": None,
        "cards": ["H3", "S7", "C7", "HR", "HR"],
        "as": ["S7", "H7", "C7", "HR", "HR"],
    }
    assert move_to_json(move.to_rank()) == {
        "type": "full_house",
        "key": "7",
        "size": 5,
        "suit": None,
        "ranks": {"7": 2, "R": 2},
        "wilds": 1,
    }


def test_moves_to_json_is_json_serialisable():
    doc = moves_to_json(generate_moves("S5 C5 H2", "2"), "2", "card")
    assert json.loads(json.dumps(doc)) == doc
    assert [m["type"] for m in doc["moves"]] == ["single", "single", "single", "pair", "pair", "pair", "triple"]
    with pytest.raises(guandan.GuandanError, match="granularity"):
        moves_to_json([], 2, "suit")


def test_move_to_json_pass_at_both_granularities():
    assert move_to_json(Move.pass_(2))["key"] is None
    assert move_to_json(guandan.RankMove.pass_(2)) == {
        "type": "pass",
        "key": None,
        "size": 0,
        "suit": None,
        "ranks": {},
        "wilds": 0,
    }


@pytest.mark.parametrize("seed", range(6))
def test_every_legal_move_is_json_whose_fields_say_what_it_spends(seed):
    hand, level = random_hand(np.random.default_rng(seed), size=16), 2 + seed * 2
    for move in legal_moves(hand, level):
        doc = json.loads(json.dumps(move_to_json(move)))
        assert doc["type"] == move.type.label and doc["size"] == move.size == len(doc["cards"])
        assert Cards.parse(" ".join(doc["cards"])) == move.cards
        assert [parse_card(c) for c in doc["as"]] == list(move.declared)  # each wild as what it stands for
        assert doc["suit"] == (move.suit.letter if move.suit is not None else None)
        rank = json.loads(json.dumps(move_to_json(move.to_rank())))
        assert sum(rank["ranks"].values()) + rank["wilds"] == move.size and all(n > 0 for n in rank["ranks"].values())
        shared = ("type", "key", "size", "suit")
        assert {k: rank[k] for k in shared} == {k: doc[k] for k in shared}
    listed = moves_to_json(legal_moves(hand, level, granularity="rank"), level, "rank")
    assert json.loads(json.dumps(listed)) == listed
