"""Random positions for the tests: hypothesis strategies and a seeded corpus builder.

Hands are biased toward what makes move generation hard: wilds, second copies,
runs of neighbouring ranks (the ace at both ends), one suit, jokers.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from guandan import Cards, Rank, card

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
