"""The greedy agent's native scan (``_core.greedy_choose``, ``csrc/gd_agents.c``) against the
numpy scan it replaced (``greedy_reference.py``): the same index on every position."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from greedy_reference import reference_choose
from hypothesis import strategies as st
from profiles import profiled
from strategies import random_hand

from guandan import Cards, Deal, GuandanError, IllegalMoveError, InvalidCardsError, InvalidMoveError, Match
from guandan.bots.agents import GreedyAgent, RandomAgent
from guandan.bots.loop import play_out
from guandan.core import _core
from guandan.core.cards import Rank
from guandan.core.packed import bits_of_cards


class _Differential:
    """Acts as ``agent``; on every play decision checks the native choice of a greedy agent
    with ``threshold`` against the numpy reference."""

    def __init__(self, agent, threshold, seen):
        self.agent, self.threshold, self.seen = agent, threshold, seen

    def act(self, observation):
        if observation.phase.label == "play":
            want = reference_choose(observation, self.threshold)
            assert GreedyAgent(bomb_threshold=self.threshold).choose(observation) == want
            self.seen.append(want)
        return self.agent.act(observation)


@pytest.mark.slow
@pytest.mark.parametrize("threshold", [5, 0, 2, 10, 27])
def test_native_greedy_chooses_as_the_numpy_scan_in_seeded_deals(threshold):
    seen = []
    for seed in range(40):
        level = 2 + seed % 13
        greedy = Deal.new(seed, level)
        play_out(greedy, [_Differential(GreedyAgent(bomb_threshold=threshold), threshold, seen) for _ in range(4)])
        mixed = Deal.new(1000 + seed, level)
        play_out(mixed, [_Differential(RandomAgent(seed + i) if i % 2 else GreedyAgent(), threshold, seen)
                         for i in range(4)])  # fmt: skip
    assert len(seen) > 5000
    assert len(set(seen)) > 50  # many different indices chosen, not always the first or the pass


@pytest.mark.slow
def test_native_greedy_chooses_as_the_numpy_scan_in_matches():
    seen = []
    for seed in range(3):
        match = Match(seed)
        play_out(match, [_Differential(RandomAgent(seed) if i == 1 else GreedyAgent(), 5, seen) for i in range(4)],
                 max_actions=3000)  # fmt: skip
    assert len(seen) > 2000


@st.composite
def positions(draw):
    """A random hand (1..27 cards, any level) to lead or to answer a random play, with random
    card counts for the other seats and the play to beat by any seat."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    size = draw(st.integers(1, 27))
    level = draw(st.integers(2, 14))
    hand = random_hand(rng, size)
    counts = [size] + [draw(st.integers(1, 27)) for _ in range(3)]
    leader_hand = random_hand(rng, 27)
    beat = None
    if draw(st.booleans()):
        leads = _core.card_moves(leader_hand.counts, level)
        lo, hi = leads[draw(st.integers(0, len(leads) - 1))].tolist()
        beat = (lo, hi)
    return hand, level, counts, beat, draw(st.integers(1, 3)), draw(st.sampled_from([0, 1, 3, 5, 8, 30]))


@profiled(400, positions())
def test_native_greedy_chooses_as_the_numpy_scan_on_random_positions(position):
    hand, level, counts, beat, beat_seat, threshold = position
    word = _core.PASS_MOVE if beat is None else _core.card_to_rank(beat[0], beat[1], level)
    moves = _core.card_moves(hand.counts, level, word)
    obs = _view(moves, level, hand, counts, None if beat is None else beat_seat)
    assert GreedyAgent(bomb_threshold=threshold).choose(obs) == reference_choose(obs, threshold)


def _view(moves, level, hand, counts, beat_seat, seat=0):
    """What the greedy agent reads of an observation."""
    return SimpleNamespace(
        seat=seat,
        level=Rank(level),
        card_counts=tuple(counts),
        to_beat_seat=beat_seat,
        packed_hand=bits_of_cards(hand),
        legal_actions=SimpleNamespace(array=moves),
    )


HAND = Cards.parse("S3 S4 C4 S8 C8 D8 H8 H2 SB")
MOVES = _core.card_moves(HAND.counts, 2)


def _call(moves=MOVES, level=2, hand=None, mine=9, responding=False, partner_play=False, opponent_low=True):
    hand = bits_of_cards(HAND) if hand is None else hand
    return _core.greedy_choose(moves, level, hand, mine, responding, partner_play, opponent_low)


def test_greedy_choose_takes_the_deals_array_and_its_copies():
    deal = Deal([HAND, "S9", "D5", "D6"], level=2, leader=0)
    index = _call(deal.legal_moves().array)
    assert str(deal.legal_moves()[index]) == "single 3: S3"
    assert _call(MOVES.copy()) == _call(memoryview(MOVES)) == index
    assert _call(MOVES, responding=np.bool_(False)) == index


@pytest.mark.parametrize(
    "moves",
    [
        MOVES.astype(np.int64),
        MOVES.astype(">u8"),
        MOVES.T.copy(),
        np.asfortranarray(MOVES),
        MOVES[::2],
        MOVES.reshape(-1),
        MOVES[None],
        MOVES.tolist(),
        MOVES.tobytes(),
        None,
        3,
    ],
)
def test_greedy_choose_refuses_other_arrays_by_name(moves):
    with pytest.raises(InvalidMoveError, match="moves must be a C-contiguous uint64 array of shape"):
        _call(moves)


def test_greedy_choose_refuses_an_empty_list_and_malformed_rows():
    with pytest.raises(IllegalMoveError, match="no legal move"):
        _call(MOVES[:0])
    for bad_hi in (0xB << 60, 1 << 44 | 1 << 60, 3 | 1 << 60):
        bad = MOVES.copy()
        bad[3, 1] = bad_hi
        with pytest.raises(InvalidMoveError, match="moves: row 3 is not a card-level move"):
            _call(bad)
    bad = MOVES.copy()
    bad[len(bad) - 1, 0] = 3  # a face held three times, in the last row
    with pytest.raises(InvalidMoveError, match=f"row {len(bad) - 1} "):
        _call(bad)


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"level": 15}, InvalidCardsError, "level"),
        ({"level": 2.0}, InvalidCardsError, "level"),
        ({"level": True}, InvalidCardsError, "level"),
        ({"hand": 2**108}, InvalidCardsError, "hand"),
        ({"hand": -1}, InvalidCardsError, "hand"),
        ({"hand": 3}, InvalidCardsError, r"the hand \(packed\): packed cards hold 3 copies of S2"),
        ({"hand": "S3"}, InvalidCardsError, "hand"),
        ({"mine": 109}, GuandanError, "mine"),
        ({"mine": -1}, GuandanError, "mine"),
        ({"mine": 9.0}, GuandanError, "mine"),
        ({"responding": 1}, GuandanError, "responding"),
        ({"partner_play": None}, GuandanError, "partner_play"),
        ({"opponent_low": "yes"}, GuandanError, "opponent_low"),
    ],
)
def test_greedy_choose_refuses_bad_arguments_by_name(kwargs, error, name):
    with pytest.raises(error, match=name):
        _call(**kwargs)


def test_greedy_choose_takes_numpy_integers():
    assert _call(level=np.uint8(2), hand=np.uint64(bits_of_cards(Cards.parse("S3 S4"))), mine=np.int64(2),
                 moves=_core.card_moves(Cards.parse("S3 S4").counts, 2)) == 0  # fmt: skip


def test_a_greedy_agent_refuses_a_threshold_that_is_not_a_number():
    with pytest.raises(GuandanError, match="bomb_threshold"):
        GreedyAgent(bomb_threshold="5")
