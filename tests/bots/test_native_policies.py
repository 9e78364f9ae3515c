"""The built-in native policies: what they play, checked against the full list of
rank-level moves, on every position of the corpus.

The random policy draws uniformly over the rank-level legal moves (the pass included when
responding) without listing them all: it counts the moves of each kind, draws an index below
the count, and makes only the moves of the drawn index's kind. So the move it plays is the
one at the drawn index of the full list, a whole random playout is a sequence of such draws,
and its frequencies over a small position are uniform (chi-square). The greedy policy finds
its four candidates in one pass over the moves: it plays what the rule of ``gd_play.h``,
written here again in Python over ``rank_moves``, plays.
"""

from __future__ import annotations

import pathlib
from collections import Counter

import numpy as np
import pytest
from stats import chi_square_critical

from guandan import Cards
from guandan.core import _core
from guandan.core.packed import PASS_WORD
from guandan.core.rng import SplitMix64

CORPUS = np.load(pathlib.Path(__file__).resolve().parents[1] / "data" / "corpus.npz")
DECK = np.full(54, 2, np.uint8)
MASK64 = (1 << 64) - 1
DECLARATION = ~((1 << 52) - 1) & MASK64


def state_of(hand: np.ndarray, level: int, beat: int, last: int = 3, opponents: int | None = None) -> tuple:
    """A consistent native deal state in which seat 0 holds ``hand`` and leads, or answers
    ``beat`` played by seat ``last``: the rest of the double deck dealt to seats 1 to 3 in
    turn, or, with ``opponents``, that many cards to seats 1 and 3 each and the rest to 2."""
    faces = np.repeat(np.arange(54), DECK - hand)
    if opponents is None:
        parts = [faces[s::3] for s in range(3)]
    else:
        parts = [faces[:opponents], faces[2 * opponents :], faces[opponents : 2 * opponents]]
    hands = np.stack([hand, *(np.bincount(p, minlength=54).astype(np.uint8) for p in parts)])
    return hands, level, 0, -1 if beat == PASS_WORD else last, beat, 0, ()


def corpus_states():
    hands, levels, beats = CORPUS["hands"], CORPUS["levels"], CORPUS["beats"]
    for i in range(len(hands)):
        yield i, hands[i], int(levels[i]), int(beats[i])


# -- random -------------------------------------------------------------------------------------


@pytest.mark.parametrize("chunk", range(4))
def test_the_random_move_is_the_drawn_index_of_the_full_list_on_the_corpus(chunk):
    for i, hand, level, beat in list(corpus_states())[chunk::4]:
        moves = _core.rank_moves(hand, level, beat)
        seed = 1000 + i
        word, _ = _core.choose(state_of(hand, level, beat), "random", seed)
        assert word == int(moves[SplitMix64(seed).below(len(moves))]), i


def test_every_move_of_a_full_hand_lead_and_response_is_drawn():
    hand = CORPUS["hands"][np.argmax(CORPUS["hands"].sum(axis=1))]
    for beat in (PASS_WORD, 0x1010000000000000):  # a lead, and answering a single 3
        moves = {int(w) for w in _core.rank_moves(hand, 2, beat)}
        state = state_of(hand, 2, beat)
        assert {_core.choose(state, "random", seed)[0] for seed in range(40 * len(moves))} == moves


@pytest.mark.parametrize(
    ("cards", "level", "beat"),
    [
        ("S3 C4 D4 C5 D5 H2", 2, PASS_WORD),  # a lead: 14 moves, a wild among them
        ("S3 C4 D4 C5 D5 H2 H2 SA HR SB", 2, 0x1010000000000000),  # answering a single 3: the pass too
    ],
)
def test_the_random_policy_is_uniform_over_the_legal_moves(cards, level, beat):
    hand = Cards.parse(cards).numpy()
    moves = [int(w) for w in _core.rank_moves(hand, level, beat)]
    assert (PASS_WORD in moves) == (beat != PASS_WORD)
    state = state_of(hand, level, beat)
    samples = 1000 * len(moves)
    observed = Counter(_core.choose(state, "random", seed)[0] for seed in range(samples))
    assert set(observed) == set(moves)
    expected = samples / len(moves)
    chi2 = sum((observed[m] - expected) ** 2 / expected for m in moves)
    df = len(moves) - 1
    assert chi2 < chi_square_critical(df), f"chi-square {chi2:.1f} with {df} degrees of freedom"


def test_a_random_playout_is_a_sequence_of_draws_from_the_full_lists():
    """Replayed in Python — rank_moves, one SplitMix64 stream, the canonical cards and the
    trick flow of deal_step — a random playout ends with the same finish order."""
    for i, hand, level, beat in list(corpus_states())[:2000:97]:
        start = state_of(hand, level, beat)
        state, rng, over = start, SplitMix64(77 + i), False
        while not over:
            hands, lvl, turn, _, to_beat = state[:5]
            h = hands[turn]  # a count row at first, a packed int after a step
            counts = h if isinstance(h, np.ndarray) else np.frombuffer(_core.unpack_cards(h & MASK64, h >> 64), "u1")
            moves = _core.rank_moves(counts, lvl, to_beat)
            word = int(moves[rng.below(len(moves))])
            spent = 0 if word == PASS_WORD else _core.spend_cards(counts, lvl, word)
            state, over = _core.deal_step(state, spent & MASK64, (spent >> 64) | (word & DECLARATION))
        played = _core.playouts(start, 1, "random", 77 + i)[0]
        assert tuple(played[: len(state[6])].tolist()) == state[6], i


# -- greedy -------------------------------------------------------------------------------------


def _nibble(word: int, r: int) -> int:
    return (word >> (4 * r)) & 15


def _jokers(word: int) -> int:
    """How many jokers a rank-level move spends."""
    kind, key, x = word >> 60, (word >> 56) & 15, (word >> 54) & 3
    if kind in (1, 2) and key in (13, 14):
        return kind
    return 2 if kind == 4 and x else 4 if kind == 10 else 0


def _size(word: int) -> int:
    return sum(_nibble(word, r) for r in range(13)) + ((word >> 52) & 3) + _jokers(word)


def _weakness(word: int, level: int) -> tuple:
    """The greedy policy's order: non-bombs by key order, more cards, fewer wilds; then bombs
    by their order (class, key order, wilds)."""
    kind, key, wilds, size = word >> 60, (word >> 56) & 15, (word >> 52) & 3, _size(word)
    elevated = key if key >= 13 else 12 if key == level else key if key < level else key - 1
    window = 0 if key == 12 else key + 1
    if kind in (8, 9, 10):
        cls = 8 if kind == 10 else 2 if kind == 9 else size - 4 if size <= 5 else size - 3
        return (1, cls, window if kind == 9 else elevated, wilds)
    return (0, window if kind in (5, 6, 7) else elevated, -size, wilds)


def greedy(state: tuple) -> int:
    """The rule of gd_choose's greedy policy (gd_play.h), over the full list of moves."""
    hands, level, turn, last, beat = state[:5]
    lv = level - 2
    counts = [int(c) for c in hands[turn]]
    moves = [int(w) for w in _core.rank_moves(hands[turn], level, beat)]
    leading, mine = beat == PASS_WORD, sum(counts)
    partners = not leading and last == turn ^ 2
    if not leading and len(moves) == 1 or partners and mine > 10:
        return PASS_WORD
    plays = [w for w in moves if w != PASS_WORD]
    weakest = lambda ws: min(ws, key=lambda w: _weakness(w, lv))  # noqa: E731  (the first of equals)
    out = [w for w in plays if _size(w) == mine]
    if mine <= 10 and out:
        return weakest(out)
    if partners:
        return PASS_WORD
    naturals = [sum(counts[4 * r : 4 * r + 4]) - (counts[4 * r + 1] if r == lv else 0) for r in range(13)]
    all_jokers = counts[52] == 2 and counts[53] == 2

    def kept(w: int) -> bool:
        return bool((w >> 52) & 3) or any(_nibble(w, r) and naturals[r] >= 4 for r in range(13)) or (
            all_jokers and _jokers(w) > 0
        )

    bombs = [w for w in plays if w >> 60 in (8, 9, 10)]
    others = [w for w in plays if w >> 60 not in (8, 9, 10)]
    clean = [w for w in others if not kept(w)]
    if clean:
        return weakest(clean)
    close = any(0 < int(hands[s].sum()) <= 5 for s in (turn ^ 1, turn ^ 3))
    if leading or close:
        return weakest(others) if others else weakest(bombs) if bombs else PASS_WORD
    return PASS_WORD


@pytest.mark.parametrize("chunk", [0, *(pytest.param(c, marks=pytest.mark.slow) for c in range(1, 4))])
def test_the_greedy_move_is_the_rule_over_the_full_list_on_the_corpus(chunk):
    for i, hand, level, beat in list(corpus_states())[chunk::4]:
        # the play to beat by an opponent or the partner; opponents holding many cards or few
        state = state_of(hand, level, beat, last=(3, 2)[i % 2], opponents=(None, 4, 6)[i % 3])
        assert _core.choose(state, "greedy", 0)[0] == greedy(state), i
