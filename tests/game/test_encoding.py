"""The encodings for learning agents: the 567-value rows, card vectors, the wild flags, the
history tokens. The native encoder is checked against the plain-Python reference exactly, on
seeded positions of play, on adversarial hands and histories (hypothesis) and on the worked
examples of docs/encodings.md (every nonzero index and value)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan import Cards, Deal, GuandanError, InvalidCardsError, InvalidMoveError, Match
from guandan.bots.agents import GreedyAgent, RandomAgent
from guandan.bots.loop import play_out
from guandan.bots.registry import make_agents
from guandan.core import _core
from guandan.core.cards import NUM_FACES, card_name, parse_card
from guandan.core.packed import bits_of_cards
from guandan.game.encoding import (
    ROW_SIZE,
    VECTOR_INDEX,
    card_vector,
    decision_levels,
    encode_actions,
    encode_rows,
    encode_state,
    history_tokens,
    reference_rows,
    reference_state,
    reference_wild_flags,
)

# -- the worked examples of docs/encodings.md ------------------------------------------------------

EXAMPLES = [
    (
        2026, 2, 0, 2,
        "4:1 12:1 14:1 15:1 16:2 20:1 22:1 24:1 25:1 29:1 31:1 33..35:1 36:2 42..44:1 46:1 48:2 49..52:1 "
        "66..69:2 70:1 71..77:2 78:1 79:2 80:1 81:1 83..85:2 86:1 87:2 88:1 89:2 90:1 91:1 92..94:2 95:1 96:2 "
        "97:1 98:2 99..101:1 103..107:2 108..110:1 111:2 112:1 113:2 115..118:1 119:2 120..227:-1 417:1 445:1 "
        "473:1 474:1 487:1 500:1",
        {0: ("single 3: S3", "527:1"), 297: ("straight 10: C10 DJ DQ DK DA", "547:1 561:1 562:1 563:1 564:1")},
    ),
    (
        7, 5, 9, 0,
        "3:2 4:2 6:1 9:1 14:1 16:1 19:2 20:1 22:1 24:1 25:2 34:2 35:2 46:1 47:2 53:1 54:1 59..61:1 63:1 65:1 "
        "66:2 67:2 68:1 71:2 72:1 73:2 74:2 76:2 77:2 78..80:1 81:2 82:1 83:2 84:2 86:1 87:2 88:1 89:2 90:1 "
        "92..96:2 97:1 98:2 99:1 102:1 103:2 104:1 105:1 106:2 107:1 108:2 109:2 110:1 111:2 114:1 115:1 "
        "116..118:2 119:1 240:1 259:1 266:1 272:1 315:1 328:1 345:1 349:1 375:1 384:1 413:1 443:1 469:1 477:1 "
        "490:1 503:1",
        {0: ("pair 5: S5 H5", "516:1 529:1"), 38: ("pass", "")},
    ),
    (
        11, 9, 23, 2,
        "2:2 5:2 6:1 9:1 11:1 13:1 18:1 30:1 32:1 33:1 36:1 39..41:1 42:2 44:1 46:1 48:1 50:1 52:2 66:2 67:1 "
        "70:2 72:1 73:2 74:2 75:1 76:1 78:1 79:1 80:2 82:1 83:2 84:1 86:1 87..94:2 95..99:1 100:2 101:1 103:2 "
        "104:1 105:1 109:2 110:1 111:2 112:1 113:1 115:2 116:1 117:2 119:1 158:1 210:1 229:1 243:2 244:1 248:1 "
        "257:1 263:1 268:1 269:1 276:1 285:2 292:1 318:1 335:1 347:1 355:1 367:1 374:1 407:1 440:1 469:1 481:1 "
        "494:1 507:1",
        {0: ("single 9: C9", "546:1"), 4: ("pass", "")},
    ),
]


def _nonzeros(text: str) -> dict[int, float]:
    out: dict[int, float] = {}
    for item in text.split():
        where, value = item.split(":")
        a, _, b = where.partition("..")
        for i in range(int(a), int(b or a) + 1):
            out[i] = float(value)
    return out


def _as_dict(values: np.ndarray, base: int = 0) -> dict[int, float]:
    return {int(i) + base: float(values[i]) for i in np.flatnonzero(values)}


@pytest.mark.parametrize(("seed", "level", "plies", "seat", "state", "actions"), EXAMPLES)
def test_the_worked_examples_are_reproduced_value_for_value(seed, level, plies, seat, state, actions):
    deal = Deal.new(seed=seed, level=level)
    play_out(deal, make_agents("greedy", seed), max_actions=plies)
    assert deal.turn == seat
    obs = deal.observation(seat)
    rows = encode_rows(obs)
    assert rows.shape == (len(obs.legal_actions), ROW_SIZE) and rows.dtype == np.float32
    assert _as_dict(rows[0, :513]) == _nonzeros(state)
    for index, (move, vector) in actions.items():
        assert str(obs.legal_actions[index]) == move
        assert _as_dict(rows[index, 513:], 513) == _nonzeros(vector)
    assert np.array_equal(rows, reference_rows(obs))


# -- card vectors ----------------------------------------------------------------------------------


def test_the_card_vector_index_puts_hearts_first_then_spades_clubs_diamonds_by_rank():
    assert VECTOR_INDEX[parse_card("H2")] == 0
    assert VECTOR_INDEX[parse_card("S2")] == 13
    assert VECTOR_INDEX[parse_card("CA")] == 38
    assert VECTOR_INDEX[parse_card("DA")] == 51
    assert VECTOR_INDEX[52] == 52 and VECTOR_INDEX[53] == 53
    assert sorted(VECTOR_INDEX) == list(range(NUM_FACES))
    for face in range(NUM_FACES):
        v = card_vector(Cards([1 if f == face else 0 for f in range(NUM_FACES)]))
        assert np.flatnonzero(v).tolist() == [VECTOR_INDEX[face]], card_name(face)


def test_action_vectors_are_the_cards_played_and_a_pass_is_zero():
    deal = Deal(["S3 S3 H4", "S9", "D5", "D6"], level=2, leader=0)
    moves = deal.legal_moves()
    vectors = encode_actions(moves.array)
    for move, v in zip(moves, vectors):
        assert np.array_equal(v, card_vector(move.cards))
    deal.play_index(0)
    response = deal.legal_moves()
    assert not encode_actions(response.array)[-1].any()  # the pass, last


# -- native against the reference ------------------------------------------------------------------


def _positions(seed: int, count: int, level: int, agents) -> list:
    deal = Deal.new(seed=seed, level=level)
    observations = []
    while not deal.is_over and len(observations) < count:
        observations.append(deal.observation(deal.turn))
        for other in range(4):  # a seat not to act: its state only
            if other != deal.turn:
                observations.append(deal.observation(other))
        seat = deal.turn
        deal.play(agents[seat].act(deal.observation(seat)))
    return observations


def _check_along(seed: int, count: int) -> None:
    agents = [RandomAgent(seed), GreedyAgent(), RandomAgent(seed + 100), GreedyAgent()]
    for obs in _positions(seed, count, 2 + seed % 13, agents):
        assert np.array_equal(encode_state(obs), reference_state(obs))
        if obs.legal_actions:
            assert np.array_equal(encode_rows(obs), reference_rows(obs))


@pytest.mark.parametrize("seed", range(3))
def test_native_rows_equal_the_reference_along_seeded_deals(seed):
    _check_along(seed, 40)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, 15))
def test_native_rows_equal_the_reference_along_whole_seeded_deals(seed):
    _check_along(seed, 400)


def test_rows_in_a_match_hold_both_sides_levels():
    match = Match(seed=5, levels=(4, 11), level_side=1)
    obs = match.observation(match.turn)
    level, own, other = decision_levels(obs)
    assert level == 11 and {own, other} == {4, 11}
    state = encode_state(obs)
    assert state[474 + own - 2] == 1 and state[487 + other - 2] == 1 and state[500 + 9] == 1
    assert np.array_equal(state, reference_state(obs))


hands = st.lists(st.integers(0, 2), min_size=NUM_FACES, max_size=NUM_FACES).map(Cards)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hands, st.integers(2, 14))
def test_native_wild_flags_equal_the_reference_on_any_hand(hand, level):
    assert np.array_equal(_core.wild_flags(bits_of_cards(hand), level), reference_wild_flags(hand, level))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 25), st.integers(2, 14), st.integers(0, 30))
def test_wild_heavy_hands_flag_as_the_reference(size, level, seed):
    # the hand holds both wilds and a random rest: every flag's branch is reached
    rng = np.random.default_rng(seed)
    counts = np.zeros(NUM_FACES, dtype=np.uint8)
    counts[4 * (level - 2) + 1] = 2
    for face in rng.choice(52, size=size, replace=False):
        counts[face] = min(2, counts[face] + rng.integers(1, 3))
    hand = Cards(counts.tolist())
    assert np.array_equal(_core.wild_flags(bits_of_cards(hand), level), reference_wild_flags(hand, level))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 14), st.integers(0, 200))
def test_native_rows_equal_the_reference_anywhere_in_a_random_deal(seed, level, plies):
    deal = Deal.new(seed=seed, level=level)
    play_out(deal, [RandomAgent(seed + s) for s in range(4)], max_actions=plies)
    for seat in range(4):
        obs = deal.observation(seat)
        assert np.array_equal(encode_state(obs), reference_state(obs))
        if obs.legal_actions:
            assert np.array_equal(encode_rows(obs), reference_rows(obs))


def test_a_seat_that_has_finished_reads_as_minus_ones_for_its_last_action():
    # seat 3 goes out; seat 0 (its next seat) sees seat 3's last action as the previous seat's...
    deal = Deal(["S3 S4", "S9", "D5 D6", "HA"], level=2, leader=3)
    deal.play_index(0)  # seat 3 plays HA and is out
    obs = deal.observation(0)
    state = encode_state(obs)
    assert state[120 + VECTOR_INDEX[parse_card("HA")]] == 1  # the previous seat acted last
    deal.play_index(len(deal.legal_moves()) - 1)  # seat 0 passes
    deal.play_index(len(deal.legal_moves()) - 1)  # seat 1 passes
    deal.play_index(len(deal.legal_moves()) - 1)  # seat 2 passes: jiefeng, seat 1 (seat 3's partner) leads
    obs = deal.observation(deal.turn)
    assert deal.turn == 1
    state = encode_state(obs)
    assert (state[174:228] == -1).all()  # the partner, seat 3, has finished
    assert np.array_equal(state, reference_state(obs))
    assert np.array_equal(encode_state(deal.observation(0)), reference_state(deal.observation(0)))


# -- history tokens --------------------------------------------------------------------------------


def test_history_tokens_are_the_plays_in_order_with_relative_seats_and_a_length():
    deal = Deal.new(seed=8, level=2)
    play_out(deal, make_agents("greedy", 8), max_actions=10)
    obs = deal.observation(deal.turn)
    seats, cards, length = history_tokens(obs, max_len=16)
    plays = deal.history
    assert length == 10 and (seats[10:] == -1).all() and not cards[10:].any()
    for k, play in enumerate(plays):
        assert seats[k] == (play.seat - obs.seat) % 4
        assert np.array_equal(cards[k], card_vector(play.move.cards))
    absolute, _, _ = history_tokens(obs, max_len=16, relative=False)
    assert absolute[:10].tolist() == [p.seat for p in plays]
    latest, cards4, n = history_tokens(obs, max_len=4)
    assert n == 4 and np.array_equal(cards4, cards[6:10])


# -- bad input -------------------------------------------------------------------------------------


def test_bad_input_to_the_encoders_raises_errors_naming_it():
    deal = Deal.new(seed=1)
    obs = deal.observation(deal.turn)
    with pytest.raises(GuandanError, match="Observation"):
        encode_rows("not an observation")  # type: ignore[arg-type]
    with pytest.raises(GuandanError, match="play phase"):
        encode_rows(deal.observation((deal.turn + 1) % 4))
    with pytest.raises(InvalidMoveError, match=r"uint64 array of shape \(n, 2\)"):
        encode_actions(np.zeros((3, 2), dtype=np.int64))
    with pytest.raises(InvalidMoveError, match=r"moves\[0\] is not a card-level move"):
        encode_actions(np.array([[0xFFFFFFFFFFFFFFFF, 0]], dtype=np.uint64))  # 3 copies of a face
    with pytest.raises(InvalidMoveError, match="plays"):
        _core.encode_state(obs.packed_hand, 0, np.zeros((1, 2), dtype=np.uint64), (27,) * 4, 2, 2, 2)
    with pytest.raises(InvalidMoveError, match=r"plays\[0\]"):
        _core.encode_state(obs.packed_hand, 0, np.array([[7, 0, 0]], dtype=np.uint64), (27,) * 4, 2, 2, 2)
    with pytest.raises(InvalidCardsError, match="counts"):
        _core.encode_state(obs.packed_hand, 0, np.zeros((0, 3), dtype=np.uint64), (27, 27, 29, 27), 2, 2, 2)
    with pytest.raises(InvalidCardsError, match="level"):
        _core.encode_state(obs.packed_hand, 0, np.zeros((0, 3), dtype=np.uint64), (27,) * 4, 2, 15, 2)
    with pytest.raises(GuandanError, match="max_len"):
        history_tokens(obs, max_len=0)
