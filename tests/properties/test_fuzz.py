"""Property tests over the public API with arbitrary input.

Whatever it is fed, the library either works or raises an error of ``guandan.errors``;
a rejected action leaves the state exactly as it was; what it prints it parses back.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from games import json_paths, nested, replaced
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from profiles import profiled

import guandan
from guandan import (
    Cards,
    Deal,
    GuandanError,
    InvalidCardsError,
    InvalidMoveError,
    Match,
    RecordError,
)
from guandan.bots import playout
from guandan.bots.agents import GreedyAgent
from guandan.bots.loop import play_out
from guandan.core import _core, batch, movegen, notation, reference
from guandan.core.cards import card_index
from guandan.core.moves import is_bomb
from guandan.core.packed import PASS_WORD
from guandan.game.history import Play
from guandan.platform import actions as protocol
from guandan.records import games as records
from guandan.records import jsonio

FUZZ = {"suppress_health_check": [HealthCheck.too_slow]}  # each property: 150 examples (profiles.py)

CARD_ALPHABET = st.sampled_from(list("SHCDshcd♠♥♣♦TJQKABRtjqkabr0123456789 ,\t\nXZ-+") + ["10", "SB", "HR", "BJ", "RJ"])
card_text = st.one_of(st.text(max_size=40), st.lists(CARD_ALPHABET, max_size=40).map("".join))
words = st.one_of(
    st.integers(0, 2**64 - 1),
    st.sampled_from([int(w) for w in batch.ACTION_SPACE[::7]]),
    st.integers(-(2**70), 2**70),
)


# -- text ------------------------------------------------------------------------------------------


@profiled(150, card_text, settings=FUZZ)
def test_parsing_any_text_gives_cards_or_invalid_cards_error_and_round_trips(text):
    try:
        cards = Cards.parse(text)
    except InvalidCardsError:
        return
    for style in ("text", "unicode", "code"):
        assert Cards.parse(cards.format(style)) == cards
    assert Cards.parse(" ".join(cards.codes())) == cards


@profiled(
    150,
    st.one_of(card_text, st.integers(), st.none(), st.floats()),
    settings=FUZZ,
)
def test_parse_card_rank_and_level_raise_only_invalid_cards_error(value):
    for parse in (guandan.parse_card, guandan.parse_rank, guandan.parse_level):
        try:
            parse(value)
        except InvalidCardsError:
            pass


# -- numbers at every door of cards, combos, movegen, protocol, notation, jsonio, reference ---------
#
# One rule for numbers: a Python or numpy int is accepted wherever a number is meant and means
# what int(value) means; a bool, a float, a numpy bool or float, None, a string where no name is
# meant, is refused with an error of guandan.errors. Each door below feeds one argument.

_S, _P, _M = guandan.MoveType.SINGLE, guandan.MoveType.PAIR, guandan.MoveType
_LO, _HI = movegen.pack_move(guandan.classify("S5 H2", 2)[0])
_PAIR_WORD = movegen.pack_rank_move(guandan.classify("S5 H2", 2)[0].to_rank())


_NONE = (0,) * 11  # the counts of the ranks above 5 and the jokers
_THREE = ["Single", "3", ["S3"]]


def _small_deal():
    return Deal(["S3 S4", "S5 D5", "D5", "D6"], level=2, leader=0)


# name: (call with the value, what it raises for a value that is not an int, whether names are read;
# None: the door reads None, as the play to beat does: a lead)
DOORS = {
    "card rank": (lambda v: guandan.card(v, 0), InvalidCardsError, True),
    "card suit": (lambda v: guandan.card(5, v), InvalidCardsError, False),
    "card_index": (card_index, InvalidCardsError, False),
    "card_rank": (guandan.card_rank, InvalidCardsError, False),
    "card_suit": (guandan.card_suit, InvalidCardsError, False),
    "card_name": (guandan.card_name, InvalidCardsError, False),
    "parse_rank": (guandan.parse_rank, InvalidCardsError, True),
    "parse_level": (guandan.parse_level, InvalidCardsError, True),
    "wild_card": (guandan.wild_card, InvalidCardsError, True),
    "Cards count vector": (lambda v: Cards([v] + [0] * 53), InvalidCardsError, False),
    "Cards.from_counts": (lambda v: Cards.from_counts([0] * 53 + [v]), InvalidCardsError, False),
    "Cards.from_cards": (lambda v: Cards.from_cards([v]), InvalidCardsError, False),
    "Cards.count": (lambda v: Cards.parse("S3 HR").count(v), InvalidCardsError, False),
    "Cards.suit_ranks": (lambda v: Cards.parse("S3 H5").suit_ranks(v), InvalidCardsError, False),
    "Cards.wilds": (lambda v: Cards.parse("H5 H5").wilds(v), InvalidCardsError, True),
    "elevated_order rank": (lambda v: guandan.elevated_order(v, 2), InvalidCardsError, True),
    "elevated_order level": (lambda v: guandan.elevated_order(5, v), InvalidCardsError, True),
    "window_ranks key": (lambda v: guandan.window_ranks(_M.STRAIGHT, v), InvalidMoveError, True),
    "window_keys type": (guandan.window_keys, InvalidMoveError, True),
    "is_bomb": (is_bomb, InvalidMoveError, True),
    "MoveType.parse": (_M.parse, InvalidMoveError, True),
    "classify level": (lambda v: guandan.classify("S5 H5", v), InvalidCardsError, True),
    "Move type": (lambda v: guandan.Move(v, 5, None, "S5", 2), InvalidMoveError, True),
    "Move key": (lambda v: guandan.Move(_S, v, None, "S5", 2), InvalidMoveError, True),
    "Move suit": (lambda v: guandan.Move(_M.STRAIGHT_FLUSH, 9, v, "S9 ST SJ SQ SK", 2), InvalidMoveError, False),
    "Move level": (lambda v: guandan.Move(_S, 5, None, "S5", v), InvalidMoveError, True),
    "Move card index": (lambda v: guandan.Move(_S, 5, None, [v], 2), InvalidCardsError, False),
    "Move.pass_": (guandan.Move.pass_, InvalidCardsError, True),
    "RankMove count": (lambda v: guandan.RankMove(_S, 5, None, (0, 0, 0, v, *_NONE), 0, 2), InvalidMoveError, False),
    "RankMove wilds": (lambda v: guandan.RankMove(_P, 5, None, (0, 0, 0, 1, *_NONE), v, 2), InvalidMoveError, False),
    "RankMove.pass_": (guandan.RankMove.pass_, InvalidCardsError, True),
    "legal_moves level": (lambda v: guandan.legal_moves("S5 S6 H2", v), InvalidCardsError, True),
    "legal_moves beat": (lambda v: guandan.legal_moves("S5 S6 H2", 2, beat=v), InvalidMoveError, None),
    "count_moves level": (lambda v: guandan.count_moves("S5 S6", v, granularity="rank"), InvalidCardsError, True),
    "unpack_rank_move word": (lambda v: movegen.unpack_rank_move(v, 2), InvalidMoveError, False),
    "unpack_rank_move level": (lambda v: movegen.unpack_rank_move(_PAIR_WORD, v), InvalidCardsError, True),
    "unpack_move lo": (lambda v: movegen.unpack_move(v, _HI, 2), InvalidCardsError, False),
    "unpack_move hi": (lambda v: movegen.unpack_move(_LO, v, 2), InvalidCardsError, False),
    "unpack_move level": (lambda v: movegen.unpack_move(_LO, _HI, v), InvalidCardsError, True),
    "from_action level": (lambda v: protocol.from_action(["Single", "5", ["S5"]], v), InvalidCardsError, True),
    "tribute_action": (protocol.tribute_action, InvalidCardsError, True),
    "back_action": (protocol.back_action, InvalidCardsError, True),
    "action_list seat": (lambda v: protocol.action_list(_small_deal(), v), GuandanError, False),
    "apply_action seat": (lambda v: protocol.apply_action(_small_deal(), _THREE, v), GuandanError, None),
    "parse_play level": (lambda v: notation.parse_play("S5", v), InvalidCardsError, True),
    "moves_to_json level": (lambda v: jsonio.moves_to_json([], v, "card"), InvalidCardsError, True),
    "generate_moves level": (lambda v: reference.generate_moves("S5 H2", v), InvalidCardsError, True),
}

_NUMPY_INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def _numpy_int(n):
    fits = [t for t in _NUMPY_INTS if np.iinfo(t).min <= n <= np.iinfo(t).max]
    return st.sampled_from(fits).map(lambda t: t(n)) if fits else st.just(n)


NUMBERS = st.one_of(
    st.integers(-3, 60),
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**63, 2**64 - 1, 2**64, _LO, _HI, _PAIR_WORD, PASS_WORD]),
    st.integers(-3, 60).flatmap(_numpy_int),
    st.sampled_from([_LO, _HI, _PAIR_WORD, PASS_WORD]).map(np.uint64),
    st.integers(-3, 60).map(float),
    st.floats(),
    st.booleans(),
    st.sampled_from([np.True_, np.False_, np.float64(5), np.float32(2), None, 2 + 0j, b"5"]),
    st.integers(-3, 20).map(str),
)


def _outcome(call, value):
    """What a call does: ('ok', a comparable result) or ('error', the error's class)."""
    try:
        result = call(value)
    except GuandanError as error:
        return "error", type(error)
    if isinstance(result, movegen.MoveList):
        result = result.array.tolist()
    elif isinstance(result, Play):
        result = str(result)
    return "ok", result


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(sorted(DOORS)), NUMBERS)
def test_every_door_takes_python_and_numpy_ints_alike_and_refuses_other_numbers(door, value):
    call, error, reads_names = DOORS[door]
    is_int = (type(value) is int) or isinstance(value, np.integer)
    if is_int:
        assert _outcome(call, value) == _outcome(call, int(value)), door
    elif (isinstance(value, str) and reads_names) or (value is None and reads_names is None):
        _outcome(call, value)  # a name (or None where it means something): read, or refused by the hierarchy
    else:
        with pytest.raises(error):
            call(value)


# -- one position ----------------------------------------------------------------------------------


@profiled(
    150,
    hnp.arrays(np.uint8, 54, elements=st.sampled_from([0, 0, 0, 1, 1, 2, 2, 3, 255])),
    st.integers(-3, 20),
    words,
    st.sampled_from(["card", "rank"]),
    settings=FUZZ,
)
def test_native_move_generation_on_any_counts_works_or_raises_the_hierarchy(counts, level, beat, granularity):
    fns = {"card": (_core.card_moves, _core.count_card_moves), "rank": (_core.rank_moves, _core.count_rank_moves)}
    generate, count = fns[granularity]
    valid = bool((counts <= 2).all()) and 2 <= level <= 14
    try:
        moves = generate(counts, level, beat)
    except (InvalidCardsError, InvalidMoveError):
        assert not valid or not (0 <= beat < 2**64) or _core_check(beat)
        return
    assert valid
    assert count(counts, level, beat) == len(moves)
    if granularity == "rank":
        for word in moves[:20]:
            assert movegen.pack_rank_move(movegen.unpack_rank_move(int(word), level)) == int(word)
    else:
        for lo, hi in moves[:20]:
            move = movegen.unpack_move(int(lo), int(hi), level)
            assert movegen.pack_move(move) == (int(lo), int(hi))
            assert move.cards <= Cards(counts)


def _core_check(word):
    try:
        _core.check_move(word)
    except InvalidMoveError:
        return True
    return False


@profiled(
    150,
    st.integers(0, 2**64 - 1),
    st.integers(0, 2**64 - 1),
    st.integers(2, 14),
    settings=FUZZ,
)
def test_unpacking_any_words_gives_a_move_or_raises_the_hierarchy(lo, hi, level):
    try:
        move = movegen.unpack_move(lo, hi, level)
    except (InvalidCardsError, InvalidMoveError):
        pass
    else:
        assert movegen.unpack_move(*movegen.pack_move(move), level) == move
    try:
        rank_move = movegen.unpack_rank_move(lo, level)
    except InvalidMoveError:
        pass
    else:
        assert movegen.pack_rank_move(rank_move) == lo


@profiled(
    150,
    st.lists(st.sampled_from(range(54)), max_size=14),
    st.integers(2, 14),
    st.one_of(st.none(), st.sampled_from(["single", "pair", "full_house", "straight", "bomb", "x", "pair:5"])),
    settings=FUZZ,
)
def test_classify_and_parse_play_on_any_cards(cards, level, declared):
    try:
        hand = Cards.from_cards(cards)
    except InvalidCardsError:
        return
    moves = guandan.classify(hand, level)
    for move in moves:
        assert move.cards == hand and protocol.from_action(protocol.to_action(move), level) == move
    try:
        move = notation.parse_play(hand, level, declared)
    except GuandanError:
        return
    assert move in moves


@profiled(
    150,
    st.lists(
        st.one_of(st.text(max_size=8), st.integers(-5, 60), st.none(), st.lists(st.text(max_size=4), max_size=6)),
        min_size=0,
        max_size=4,
    ),
    st.integers(2, 14),
    settings=FUZZ,
)
def test_protocol_actions_of_any_shape_convert_or_raise_the_hierarchy(action, level):
    for read in (lambda: protocol.from_action(action, level), lambda: protocol.parse_tribute_action(action)):
        try:
            read()
        except GuandanError:
            pass


# -- batches ---------------------------------------------------------------------------------------

DTYPES = st.sampled_from([np.uint8, np.uint8, np.uint8, np.int8, np.int64, np.uint64, np.float32])


@st.composite
def batch_arrays(draw):
    n = draw(st.integers(0, 6))
    hands = draw(hnp.arrays(draw(DTYPES), draw(st.sampled_from([(n, 54), (n, 54), (n, 53), (54,), (n, 2, 54)])),
                            elements=st.integers(0, 3)))
    levels = draw(hnp.arrays(draw(DTYPES), draw(st.sampled_from([(n,), (n,), (n + 1,)])), elements=st.integers(0, 16)))
    some_words = [PASS_WORD, 0, 2**64 - 1, *[int(w) for w in batch.ACTION_SPACE[:50]]]
    beats = draw(
        st.one_of(
            st.none(),
            hnp.arrays(draw(st.sampled_from([np.uint64, np.int64])), n, elements=st.integers(0, 2**63 - 1)),
            hnp.arrays(np.uint64, n, elements=st.sampled_from(some_words)),
        )
    )
    if draw(st.booleans()) and hands.ndim == 2 and hands.shape[0] > 1:
        hands = hands[::2]
    return hands, levels, beats


@profiled(
    150,
    batch_arrays(),
    st.sampled_from(["rank", "card"]),
    st.sampled_from([1, 2]),
    settings=FUZZ,
)
def test_batch_calls_on_any_arrays_work_or_raise_the_hierarchy(arrays, granularity, threads):
    hands, levels, beats = arrays
    try:
        counts = batch.count_moves(hands, levels, beats, granularity, threads=threads)
    except (InvalidCardsError, InvalidMoveError):
        for call in (
            lambda: batch.legal_moves(hands, levels, beats, granularity, threads=threads),
            lambda: batch.legal_mask(hands, levels, beats, threads=threads),
            lambda: list(batch.iter_legal_moves(hands, levels, beats, granularity, buffer_moves=64)),
        ):
            with pytest.raises((InvalidCardsError, InvalidMoveError)):
                call()
        return
    moves, offsets = batch.legal_moves(hands, levels, beats, granularity, threads=threads)
    assert np.diff(offsets).tolist() == counts.tolist()
    streamed = [len(m) for _, _, m, _ in batch.iter_legal_moves(hands, levels, beats, granularity, buffer_moves=64)]
    assert sum(streamed) == len(moves)
    if granularity == "rank":
        mask = batch.legal_mask(hands, levels, beats, threads=threads)
        assert mask.sum(axis=1).tolist() == counts.tolist()


# -- deals and matches with random actions ---------------------------------------------------------


def _junk_action(data, state):
    """Something to try: often a legal action, often not."""
    level = state.level
    kind = data.draw(st.sampled_from(["legal", "legal", "cards", "pass", "rank", "index", "seat", "junk"]))
    actions = state.legal_actions()
    if kind == "legal" and len(actions):
        return data.draw(st.sampled_from(list(actions))), None
    if kind == "cards":
        cards = data.draw(st.lists(st.integers(0, 53), min_size=1, max_size=6))
        try:
            moves = guandan.classify(Cards.from_cards(cards), level)
        except InvalidCardsError:
            return cards, None
        return (data.draw(st.sampled_from(moves)) if moves else cards), None
    if kind == "pass":
        return guandan.Move.pass_(level), None
    if kind == "rank" and getattr(state, "phase", guandan.Phase.PLAY) == guandan.Phase.PLAY:
        return data.draw(
            st.sampled_from(list(guandan.legal_moves(Cards.deck(), level, granularity="rank")[::50]))
        ), None
    if kind == "index":
        return data.draw(st.integers(-200, 200)), None
    if kind == "seat" and len(actions):
        return data.draw(st.sampled_from(list(actions))), data.draw(st.integers(-1, 5))
    return data.draw(st.one_of(st.none(), st.text(max_size=3), st.floats(), st.integers(54, 99))), None


def _drive(state, data, steps):
    for _ in range(steps):
        if state.is_over:
            break
        action, seat = _junk_action(data, state)
        before = state.snapshot()
        try:
            state.act(action, seat)
        except GuandanError:
            assert state.snapshot() == before
            continue
        if isinstance(state, Deal) and data.draw(st.integers(0, 9)) == 0:
            state.undo()
            assert state.snapshot() == before


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**64 - 1), st.integers(2, 14), st.data())
def test_deals_under_random_legal_and_illegal_actions(seed, level, data):
    deal = Deal.new(seed, level)
    _drive(deal, data, 60)
    assert records.replay(json.loads(json.dumps(records.record(deal)))) == deal


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(["competitive_2022", "huaian", "nanjing"]), st.data())
def test_matches_under_random_legal_and_illegal_actions(seed, ruleset, data):
    m = Match(
        seed, ruleset, levels=(13, 14), level_side=1, previous=data.draw(st.sampled_from([None, (0, 2), (1, 0, 3, 2)]))
    )
    _drive(m, data, 60)
    assert records.replay(json.loads(json.dumps(records.record(m)))) == m


# -- native deal states ----------------------------------------------------------------------------


@profiled(
    150,
    st.tuples(
        st.one_of(st.lists(st.integers(-1, 2**108), min_size=3, max_size=5).map(tuple), st.none()),
        st.integers(0, 16),
        st.integers(-1, 5),
        st.integers(-2, 4),
        words,
        st.integers(-1, 4),
        st.lists(st.integers(-1, 4), max_size=4).map(tuple),
    ),
    st.integers(0, 3),
    settings=FUZZ,
)
def test_native_entry_points_on_any_deal_state(state, n):
    for call in (
        lambda: _core.playouts(state, n, "random", 1),
        lambda: _core.choose(state, "greedy"),
        lambda: _core.perft(state, 1),
        lambda: _core.evaluate([state], [PASS_WORD], 1),
        lambda: _core.deal_step(state, 0, PASS_WORD),
    ):
        try:
            call()
        except GuandanError:
            pass


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 30), st.data())
def test_native_playouts_from_reachable_states_end_in_a_finish_order(seed, plies, data):
    deal = Deal.new(seed)
    for _ in range(plies):
        if deal.is_over:
            return
        deal.play_index(data.draw(st.integers(0, len(deal.legal_moves()) - 1)))
    if deal.is_over:
        return
    orders = playout.playouts(deal, 3, data.draw(st.sampled_from(["random", "greedy"])), seed)
    for row in orders.tolist():
        assert sorted(s for s in row if s >= 0) == sorted(set(s for s in row if s >= 0)) and row[0] >= 0


# -- records ---------------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


#: Values of every wrong kind for a record's fields: bools and floats where ints are meant, ints
#: too long to print, values nested deeper than repr goes, and values that are not JSON at all.
WRONG = st.one_of(
    st.booleans(),
    st.integers(),
    st.just(10**5000),
    st.floats(),
    st.tuples(st.integers()),
    st.sampled_from([np.array([1, 2]), np.int64(1), np.array("guandan.deal")]),
    st.integers(2, 3000).map(nested),
    st.integers(2, 3000).map(lambda n: nested(n, kind=dict)),
)


_DEAL = Deal.new(seed=5, level=3)
play_out(_DEAL, [GreedyAgent()] * 4, max_actions=25)
_MATCH = Match(seed=3, levels=(5, 9), previous=(1, 0, 3, 2), hands=[["S3 HR", "D4 HR", "S8 SA DA", "C5"]])
play_out(_MATCH, [GreedyAgent()] * 4, max_actions=12)
RECORDS = [records.record(_DEAL), records.record(_MATCH)]


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.sampled_from(RECORDS), st.data(), st.one_of(JSON, WRONG))
def test_a_record_with_any_value_changed_replays_or_raises_record_error(record, data, new):
    path = data.draw(st.sampled_from(list(json_paths(record))))
    corrupt = replaced(record, path, new)
    try:
        state = records.replay(corrupt)
    except RecordError:
        return
    assert records.record(state) == corrupt  # accepted only when it is exactly a record of what it replays


@pytest.mark.slow
def test_the_native_fuzz_harness_runs_without_atheris():
    """tools/fuzz_native.py (run under atheris by tools/fuzz.sh) replays inputs in plain Python."""
    import importlib.util
    import pathlib
    import random

    path = pathlib.Path(__file__).resolve().parents[2] / "tools" / "fuzz_native.py"
    spec = importlib.util.spec_from_file_location("fuzz_native", path)
    assert spec is not None and spec.loader is not None
    harness = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(harness)
    rng = random.Random(6)
    for _ in range(1500):
        harness.test_one_input(rng.randbytes(rng.randrange(0, 700)))
