"""Random positions and moves for the tests: hypothesis strategies and seeded corpus builders.

Hands are biased toward what makes move generation hard: wilds, second copies,
runs of neighbouring ranks (the ace at both ends), one suit, jokers. Declared moves are
biased toward near misses: a legal move with its declaration, cards or level changed a little.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import strategies as st

from guandan import BIG_JOKER, SMALL_JOKER, Cards, MoveType, Rank, Suit, card, legal_moves, wild_card

# neighbouring ranks on the sequence line, ace at both ends
_LINE = [Rank.ACE] + [Rank(r) for r in range(2, 15)]


def _build(level: int, wilds: int, picks: list[tuple[int, int]], jokers: tuple[int, int]) -> Cards:
    counts = bytearray(54)
    wild = card(level, 1)
    for rank, suit in picks:
        c = card(rank, suit)
        if c != wild and counts[c] < 2:
            counts[c] += 1
    counts[wild] = wilds
    counts[52], counts[53] = jokers
    return Cards(counts)


@st.composite
def small_positions(draw, max_cards: int = 12) -> tuple[Cards, int]:
    """A level and a hand of at most ``max_cards`` cards, dense in runs, copies and wilds."""
    level = draw(st.integers(2, 14))
    start = draw(st.integers(0, len(_LINE) - 1))
    width = draw(st.integers(1, 6))
    ranks = [_LINE[(start + i) % len(_LINE)] for i in range(width)]
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    wilds = draw(st.sampled_from([0, 1, 2, 2]))
    jokers = draw(st.sampled_from([(0, 0)] * 4 + [(1, 0), (2, 0), (0, 2), (2, 2), (1, 1)]))
    room = max_cards - wilds - sum(jokers)
    picks = draw(st.lists(st.tuples(st.sampled_from(ranks), st.sampled_from(suits)), max_size=max(room, 0)))
    return _build(level, wilds, picks, jokers), level


def corpus_small_positions(n: int, seed: int, max_cards: int = 12) -> list[tuple[Cards, int]]:
    """A fixed, seeded list of small positions of the same shape as :func:`small_positions`."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        level = int(rng.integers(2, 15))
        start = int(rng.integers(0, len(_LINE)))
        width = int(rng.integers(1, 7))
        ranks = [_LINE[(start + i) % len(_LINE)] for i in range(width)]
        suits = list(rng.choice(4, size=int(rng.integers(1, 5)), replace=False))
        wilds = int(rng.choice([0, 1, 2, 2]))
        jokers = [(0, 0)] * 4 + [(1, 0), (2, 0), (0, 2), (2, 2), (1, 1)]
        jk = jokers[int(rng.integers(0, len(jokers)))]
        room = max_cards - wilds - sum(jk)
        picks = [
            (int(ranks[int(rng.integers(0, width))]), int(suits[int(rng.integers(0, len(suits)))]))
            for _ in range(int(rng.integers(0, room + 1)))
        ]
        out.append((_build(level, wilds, picks, jk), level))
    return out


def random_hand(rng: np.random.Generator, size: int = 27) -> Cards:
    """``size`` cards dealt at random from the double deck."""
    deck = np.repeat(np.arange(54), 2)
    return Cards.from_cards(int(c) for c in rng.choice(deck, size=size, replace=False))


# -- declarations with cards or counts, consistent or not ------------------------------------------

_TYPES = list(MoveType)
_KEYS = [None, *Rank]
_SUITS = [None, *Suit]


def _changed_declaration(draw, how: str, move, level: int) -> tuple[MoveType, Rank | None, Suit | None, int]:
    """A move's type, key, suit and level, one of them redrawn when ``how`` names it."""
    return (
        draw(st.sampled_from(_TYPES)) if how == "type" else move.type,
        draw(st.sampled_from(_KEYS)) if how == "key" else move.key,
        draw(st.sampled_from(_SUITS)) if how == "suit" else move.suit,
        draw(st.integers(2, 14)) if how == "level" else level,
    )


@st.composite
def declared_moves(draw) -> tuple[MoveType, Rank | None, Suit | None, Cards, int]:
    """The fields of a card-level move, ``(type, key, suit, cards, level)``, which may or may not
    make a move: a legal move of a small position kept as it is, or with its type, key, suit,
    level or cards changed a little, or a declaration drawn at random with a few of the hand's
    cards (the pass with and without cards among them)."""
    hand, level = draw(small_positions(max_cards=12))
    moves = list(legal_moves(hand, level)) if hand else []
    how = draw(st.sampled_from(["keep", "type", "key", "suit", "level", "add", "remove", "swap", "random"]))
    if not moves or how == "random":
        cards = draw(st.lists(st.sampled_from(list(hand) or [0]), max_size=11))
        counts = bytearray(54)
        for c in cards:
            counts[c] = min(2, counts[c] + 1)
        return (
            draw(st.sampled_from(_TYPES)),
            draw(st.sampled_from(_KEYS)),
            draw(st.sampled_from(_SUITS)),
            Cards(bytes(counts)),
            level,
        )
    move = draw(st.sampled_from(moves))
    t, key, suit, level = _changed_declaration(draw, how, move, level)
    counts = bytearray(move.cards.counts)
    if how in ("add", "swap"):
        c = draw(st.integers(0, 53))
        counts[c] = min(2, counts[c] + 1)
    if how in ("remove", "swap"):
        held = [c for c in range(54) if counts[c]]
        counts[draw(st.sampled_from(held))] -= 1
    return t, key, suit, Cards(bytes(counts)), level


@st.composite
def counted_moves(draw) -> tuple[MoveType, Rank | None, Suit | None, tuple[int, ...], int, int]:
    """The fields of a rank-level move, ``(type, key, suit, ranks, wilds, level)``, which may or may
    not make a move: a legal rank-level move of a small position kept as it is, or with its
    declaration, level, a count or its wilds changed a little, or counts drawn at random."""
    hand, level = draw(small_positions(max_cards=12))
    moves = list(legal_moves(hand, level, granularity="rank")) if hand else []
    how = draw(st.sampled_from(["keep", "type", "key", "suit", "level", "count", "joker", "wilds", "random"]))
    if not moves or how == "random":
        ranks = draw(st.lists(st.sampled_from([0, 0, 0, 1, 1, 2, 3, 8]), min_size=13, max_size=13))
        jokers = draw(st.sampled_from([(0, 0), (0, 0), (1, 0), (0, 2), (2, 2)]))
        return (
            draw(st.sampled_from(_TYPES)),
            draw(st.sampled_from(_KEYS)),
            draw(st.sampled_from(_SUITS)),
            (*ranks, *jokers),
            draw(st.integers(0, 2)),
            level,
        )
    move = draw(st.sampled_from(moves))
    t, key, suit, level = _changed_declaration(draw, how, move, level)
    ranks, wilds = list(move.ranks), move.wilds
    if how == "count":
        r = draw(st.integers(0, 12))
        ranks[r] = max(0, min(8, ranks[r] + draw(st.sampled_from([-1, 1, 2]))))
    elif how == "joker":
        ranks[draw(st.sampled_from([13, 14]))] = draw(st.integers(0, 2))
    elif how == "wilds":
        wilds = draw(st.integers(0, 2))
    return t, key, suit, tuple(ranks), wilds, level


@st.composite
def small_hands(draw, max_cards: int = 8):
    """A level and a hand of few cards, dense in neighbouring ranks, wilds and jokers."""
    level = draw(st.integers(2, 14))
    line = [14] + list(range(2, 15))
    start = draw(st.integers(0, len(line) - 1))
    ranks = line[start : start + draw(st.integers(1, 4))] or [line[start]]
    suits = draw(st.lists(st.sampled_from([0, 1, 2, 3]), min_size=1, max_size=4, unique=True))
    counts = [0] * 54
    n = draw(st.integers(1, max_cards))
    for _ in range(n):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            c = wild_card(level)
        elif kind == 1:
            c = draw(st.sampled_from([SMALL_JOKER, BIG_JOKER]))
        else:
            c = card(draw(st.sampled_from(ranks)), draw(st.sampled_from(suits)))
        if counts[c] < 2:
            counts[c] += 1
    return Cards.from_counts(counts), level


def small_hand_corpus(seed: int, count: int) -> list[tuple[Cards, int]]:
    """``count`` seeded hands of one to ten cards over a few ranks, wilds and jokers, with their levels."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        level = rng.randint(2, 14)
        ranks = rng.sample(range(2, 15), rng.randint(1, 4))
        counts = [0] * 54
        for _ in range(rng.randint(1, 10)):
            r = rng.random()
            c = (
                wild_card(level)
                if r < 0.15
                else rng.choice([SMALL_JOKER, BIG_JOKER])
                if r < 0.2
                else card(rng.choice(ranks), rng.randint(0, 3))
            )
            if counts[c] < 2:
                counts[c] += 1
        out.append((Cards.from_counts(counts), level))
    return out
