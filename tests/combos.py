"""Helpers for the tests of the combinations (rules §2–§4): describing what ``classify``
declares (type, key, suit and what each wild stands for, read from ``Move.declared``), checking
that the declared faces form the combination, and the one declaration of some cards."""

from __future__ import annotations

from collections import Counter

from guandan import (
    BIG_JOKER,
    NATURAL_RANKS,
    SMALL_JOKER,
    Cards,
    Rank,
    Suit,
    card,
    card_name,
    card_rank,
    card_suit,
    parse_rank,
    wild_card,
)
from guandan.core.classify import classify
from guandan.core.moves import SEQUENCE_TYPES, Move, MoveType, window_ranks

S, H, C, D = Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS


ALL_LEVELS = list(NATURAL_RANKS)


def wild_meanings(move: Move) -> list[int]:
    """The faces the move's wilds stand for, ascending: declared faces minus the natural cards."""
    wild = wild_card(move.level)
    naturals = Counter(c for c in move.cards if c != wild)
    declared = Counter(move.declared)
    assert not naturals - declared, f"declared faces of {move} lost natural cards"
    meanings = sorted((declared - naturals).elements())
    assert len(meanings) == move.cards.count(wild), f"{move}: one declared face per wild"
    return meanings


def describe(move: Move) -> str:
    """``type key [suit] [what each wild stands for]`` — the rank for most moves, the face
    (rank and suit) in a straight flush."""
    text = move.type.label
    if move.key is not None:
        text += f" {move.key.label}"
    if move.suit is not None:
        text += f" {move.suit.letter}"
    meanings = wild_meanings(move)
    if meanings:
        if move.type == MoveType.STRAIGHT_FLUSH:
            text += " [" + " ".join(card_name(c) for c in meanings) + "]"
        else:
            text += " [" + " ".join(card_rank(c).label for c in meanings) + "]"
    return text


def declarations(cards: str | Cards, level) -> list[str]:
    """Every declaration of exactly these cards, described and sorted."""
    moves = classify(cards, level)
    hand = Cards.parse(cards) if isinstance(cards, str) else cards
    for move in moves:
        assert move.cards == hand
        assert move.level == level
        assert move.size == len(hand)
        check_declared_shape(move)
    return sorted(describe(m) for m in moves)


def check_declared_shape(move: Move) -> None:
    """The declared faces really form the declared combination."""
    declared = list(move.declared)
    assert len(declared) == move.size
    ranks = Counter(card_rank(c) for c in declared)
    for c in wild_meanings(move):
        assert not card_rank(c).is_joker, f"{move}: a wild never stands for a joker"
    t, key = move.type, move.key
    if t in (MoveType.SINGLE, MoveType.PAIR, MoveType.TRIPLE, MoveType.BOMB):
        assert ranks == {key: move.size}
    elif t == MoveType.FULL_HOUSE:
        assert ranks[key] == 3
        ((other, n),) = [(r, n) for r, n in ranks.items() if r != key]
        assert n == 2 and other != key
    elif t in SEQUENCE_TYPES:
        _, width = SEQUENCE_TYPES[t]
        assert ranks == {r: width for r in window_ranks(t, key)}
        if t == MoveType.STRAIGHT_FLUSH:
            assert {card_suit(c) for c in declared} == {move.suit}
        else:
            assert move.suit is None
    elif t == MoveType.JOKER_BOMB:
        assert Counter(declared) == {SMALL_JOKER: 2, BIG_JOKER: 2}
    else:  # pragma: no cover - classify never returns a pass
        raise AssertionError(f"unexpected move {move}")


def only(cards: str, level, move_type: MoveType | None = None, key=None) -> Move:
    """The single declaration of ``cards`` (of the given type/key when several exist)."""
    moves = [
        m
        for m in classify(cards, level)
        if (move_type is None or m.type == move_type) and (key is None or m.key == parse_rank(key))
    ]
    assert len(moves) == 1, f"{cards} at level {level}: {[str(m) for m in moves]}"
    return moves[0]


def faces(rank: int, suits) -> list[int]:
    return [card(rank, s) for s in suits]


def single(rank: int, level) -> Move:
    """A single of a rank that is not a wild (spade for naturals)."""
    c = SMALL_JOKER if rank == Rank.SMALL_JOKER else BIG_JOKER if rank == Rank.BIG_JOKER else card(rank, S)
    return only(Cards.from_cards([c]), level)


def group(rank: int, n: int, level, move_type: MoveType) -> Move:
    """``n`` natural non-heart cards of a rank (jokers: both copies), as the given type."""
    if rank == Rank.SMALL_JOKER:
        cards = [SMALL_JOKER] * n
    elif rank == Rank.BIG_JOKER:
        cards = [BIG_JOKER] * n
    else:
        cards = (faces(rank, (S, C, D)) * 2)[:n]
    return only(Cards.from_cards(cards), level, move_type)


def sequence(move_type: MoveType, key, level, flush_suit: Suit | None = None) -> Move:
    """A wild-free sequence of a window; mixed suits unless a flush suit is given."""
    length, width = SEQUENCE_TYPES[move_type]
    cards = []
    for i, r in enumerate(window_ranks(move_type, parse_rank(key))):
        if flush_suit is not None:
            cards.append(card(r, flush_suit))
        elif width == 1:
            cards.append(card(r, (S, C)[i % 2]))
        else:
            cards += faces(r, (S, C, D)[:width])
    return only(Cards.from_cards(cards), level, move_type)


def elevated_ladder(level) -> list[Rank]:
    """The elevated order of rules §2, written out: naturals without the level, the level, jokers."""
    return [r for r in NATURAL_RANKS if r != level] + [Rank(level), Rank.SMALL_JOKER, Rank.BIG_JOKER]
