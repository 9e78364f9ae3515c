"""The packed formats of :mod:`guandan.core.packed` against their authority, the C header
``csrc/gd_core.h``: every constant read from the header's text and compared, and the
accessors against the words the native core writes."""

from __future__ import annotations

import pathlib
import re

import pytest

from guandan import Cards, MoveType, classify, legal_moves, parse_level, wild_card
from guandan.core import _core, packed
from guandan.core.movegen import pack_move, pack_rank_move

HEADER = (pathlib.Path(__file__).resolve().parents[2] / "csrc" / "gd_core.h").read_text(encoding="utf-8")


def define(name: str) -> str:
    found = re.search(rf"^#define {name}(?=[\s(])(.*?)(?<!\\)$", HEADER, re.M | re.S)
    assert found, f"{name} is not defined in gd_core.h"
    return found.group(1).replace("\\\n", " ").strip()


def enum_values() -> dict[str, int]:
    body = re.search(r"enum \{\s*(GD_PASS = 0,.*?)\};", HEADER, re.S)
    assert body
    return {name: int(value) for name, value in re.findall(r"(GD_\w+) = (\d+)", body.group(1))}


def test_the_move_types_are_the_headers():
    values = enum_values()
    assert {f"GD_{t.name}": int(t) for t in MoveType} == values


def test_the_key_fields_and_sizes_are_the_headers():
    assert int(define("GD_KEY_SMALL_JOKER")) == packed.KEY_SMALL_JOKER
    assert int(define("GD_KEY_BIG_JOKER")) == packed.KEY_BIG_JOKER
    assert int(define("GD_KEY_NONE")) == packed.KEY_NONE
    assert int(define("GD_MAX_RANK_MOVES")) == packed.MAX_RANK_MOVES
    assert int(define("GD_FACES")) == 54 and int(define("GD_SMALL_JOKER")) == 52 and int(define("GD_BIG_JOKER")) == 53


def test_the_declaration_shifts_and_masks_are_the_headers():
    decl = define(r"GD_DECL\(type, key, x, wilds\)")
    shifts = dict(re.findall(r"\(uint64_t\)\((\w+)\) << (\d+)", decl))
    assert shifts == {
        "type": str(packed.TYPE_SHIFT),
        "key": str(packed.KEY_SHIFT),
        "x": str(packed.X_SHIFT),
        "wilds": str(packed.WILDS_SHIFT),
    }
    assert define("GD_DECL_MASK") == f"(0xFFFull << {packed.WILDS_SHIFT})"
    assert packed.DECLARATION_MASK == 0xFFF << packed.WILDS_SHIFT == ~packed.MASK52 & packed.MASK64
    for accessor, shift, width in (("GD_MOVE_TYPE", 60, None), ("GD_MOVE_KEY", 56, 15), ("GD_MOVE_X", 54, 3),
                                   ("GD_MOVE_WILDS", 52, 3)):  # fmt: skip
        text = define(rf"{accessor}\(m\)")
        assert f">> {shift}" in text and (width is None or f"& {width}u" in text), text
    assert "4 * (r)" in define(r"GD_MOVE_NIBBLE\(m, r\)") and "& 15u" in define(r"GD_MOVE_NIBBLE\(m, r\)")
    assert packed.PASS_WORD == _core.PASS_MOVE == (0 << 60) | (packed.KEY_NONE << 56)


@pytest.mark.parametrize("level", [2, 7, 14])
def test_the_accessors_read_what_the_core_writes(level):
    hand = Cards.parse("S3 C3 D3 H3 S4 C4 D4 S5 C5 D5 S6 S7 SB SB HR HR") + Cards.from_cards([wild_card(level)] * 2)
    for move in legal_moves(hand, level, granularity="rank"):
        word = pack_rank_move(move)
        assert packed.word_type(word) == move.type
        assert packed.word_key(word) == (packed.KEY_NONE if move.key is None else move.key - 2)
        assert packed.word_wilds(word) == move.wilds
        assert packed.word_counts(word) == list(move.ranks[:13])
        assert packed.word_jokers(word) == move.ranks[13:]
        assert packed.word_size(word) == move.size == _core.move_size(word)
        if move.type == MoveType.STRAIGHT_FLUSH:
            assert packed.word_x(word) == move.suit
        elif move.type == MoveType.FULL_HOUSE:
            assert packed.word_x(word) == (1 if move.ranks[13] == 2 else 2 if move.ranks[14] == 2 else 0)
        else:
            assert packed.word_x(word) == 0
    for move in legal_moves(hand, level):
        lo, hi = pack_move(move)
        assert packed.cards_of_bits(packed.move_bits(lo, hi)) == move.cards


def test_hands_round_trip_through_bits_and_words():
    hand = Cards.parse("S2 S2 H9 DA SB HR HR")
    bits = packed.bits_of_cards(hand)
    assert packed.cards_of_bits(bits) == hand and packed.size_of_bits(bits) == len(hand)
    assert packed.bits_of_words(*packed.hand_words(bits)) == bits
    assert tuple(int(w) for w in _core.pack_cards(hand.counts)) == packed.hand_words(bits)
    assert packed.cards_of_bits(packed.face_bit(53) * 2) == Cards.parse("HR HR")
    assert packed.cards_of_bits(bits & packed.rank_bits(2)) == Cards.parse("S2 S2")


def test_declarations_are_classify():
    for text, level in (("S3 C3 S5 C5 H9", 9), ("S7 C7 D7 H3 H3", 3), ("D9 DT DJ H2 H2", 2), ("SB HR", 2)):
        cards = Cards.parse(text)
        want = sorted((int(m.type), m.key and int(m.key), m.suit and int(m.suit)) for m in classify(cards, level))
        got = sorted(packed.declarations(cards.counts, parse_level(level)))
        assert got == want, text
