"""What each native and batch door accepts.

Hypothesis builds odd arguments for every argument of the batch API and the compiled
core: arrays of any dtype (big-endian, object, strings, dates, bools, floats), any shape
(0-d to 3-d, empty, a zero-length axis, one row more or less), any layout (strided,
reversed, Fortran) and writability, containers (lists, tuples, bytes, memoryviews), numpy
scalars, floats, bools, strings, huge and negative ints. A call either raises an error of
``guandan.errors`` whose message names the argument, or — when the value has a form the
door accepts — behaves exactly as it does for the canonical value (the same result, or the
same error about the content). One rule for every count, size, index, level, seed and
word: a Python or numpy integer in range is accepted, anything else refused.
"""

from __future__ import annotations

import decimal
import fractions
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from games import search_case
from hypothesis import HealthCheck
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from profiles import profiled

from guandan import Cards, Deal, GuandanError
from guandan.core import _core, batch
from guandan.core.search import SearchParams

DOORS = {"suppress_health_check": [HealthCheck.too_slow]}  # each property: 300 examples (profiles.py)

N = 3
HAND = Cards.parse("S3 C4 D4 C5 D5 H2 H2 SA HR").numpy()
H = np.stack([HAND, Cards.parse("SB SB HR HR").numpy(), Cards.parse("S3 H4 C5 D6 S7 S7 H7").numpy()])
L = np.array([2, 7, 14], dtype=np.uint8)
B = np.array([_core.PASS_MOVE, 0x1010000000000000, _core.PASS_MOVE], dtype=np.uint64)  # a single 3 to beat
STATE = (Deal.new(3)).native_state()
PAIR = next(int(w) for w in _core.rank_moves(HAND, 2) if int(w) >> 60 == 2)  # a pair HAND holds
MAX_ROWS = _core._MAX_ROWS


def canon(value: Any) -> Any:
    """A comparable form of a result (arrays by dtype, shape and bytes)."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (list, tuple)):
        return tuple(canon(v) for v in value)
    return value


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    """("ok", the result) or (the error's class, its message); anything else propagates."""
    try:
        return "ok", canon(call())
    except GuandanError as error:
        return type(error).__name__, str(error)


def refused(call: Callable[[], Any], name: str) -> None:
    kind, message = outcome(call)
    assert kind != "ok", f"{name}: accepted"
    assert name in message, f"the error does not name {name!r}: {message}"


# -- odd values ------------------------------------------------------------------------------------

INT_TYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


def _fits(value: int) -> list[type]:
    return [t for t in INT_TYPES if np.iinfo(t).min <= value <= np.iinfo(t).max]


def numpy_ints(value: int) -> st.SearchStrategy[Any]:
    """``value`` as a numpy integer scalar of each type that holds it."""
    return st.sampled_from(_fits(value)).map(lambda t: t(value))


def not_ints(value: int) -> st.SearchStrategy[Any]:
    """Things that look like ``value`` but are not integers: bools, floats, strings, 0-d and
    1-element arrays, containers, other numbers."""
    return st.sampled_from(
        [
            bool(value % 2),
            np.bool_(value % 2),
            float(value),
            np.float64(value),
            np.float32(1.0),
            str(value),
            np.str_(value),
            bytes([value % 256]),
            None,
            complex(value),
            fractions.Fraction(value),
            decimal.Decimal(value),
            np.array(value, dtype=object if not _fits(value) else None),
            np.array([value], dtype=object),
            [value],
            (value,),
            float("nan"),
            float("inf"),
        ]
    )


def int_args(lo: int, hi: int, cap: int | None = None) -> st.SearchStrategy[tuple[Any, int | None]]:
    """(a value, the int a door taking ints lo..hi takes it for, or None when it must refuse it).

    Accepted values are drawn from lo..cap (cap keeps sizes small enough to run)."""
    top = hi if cap is None else min(hi, cap)
    inside = st.integers(lo, top)
    outside = st.one_of(st.integers(hi + 1, hi + 2**70), st.integers(lo - 2**70, lo - 1))
    return st.one_of(
        inside.map(lambda v: (v, v)),
        inside.filter(lambda v: bool(_fits(v))).flatmap(lambda v: numpy_ints(v).map(lambda x: (x, v))),
        outside.map(lambda v: (v, None)),
        outside.filter(lambda v: bool(_fits(v))).flatmap(lambda v: numpy_ints(v).map(lambda x: (x, None))),
        st.integers(lo - 3, top + 3).flatmap(not_ints).map(lambda x: (x, None)),
    )


ODD_DTYPES = [
    np.uint8, np.int8, np.uint16, np.int32, np.int64, np.uint64, np.float32, np.float64, np.bool_, np.complex64,
    object, ">u8", ">u2", "U3", "S3", "datetime64[s]",
]  # fmt: skip


@st.composite
def odd_arrays(draw: st.DrawFn, base: np.ndarray) -> Any:
    """``base`` itself, or a variant of it of another dtype, shape, layout, writability or kind."""
    kind = draw(st.sampled_from(["same", "dtype", "shape", "layout", "read-only", "container", "scalar", "random"]))
    if kind == "same":
        return base.copy()
    if kind == "dtype":
        return base.astype(draw(st.sampled_from(ODD_DTYPES)))
    if kind == "shape":
        variants = [
            lambda: base[None],
            lambda: base[..., None],
            lambda: base.reshape(-1),
            lambda: base[:0],
            lambda: base[..., :0],
            lambda: np.array(base.flat[0]),  # 0-d
            lambda: base[0],
            lambda: np.concatenate([base, base]),
            lambda: base[:-1],
        ]
        return draw(st.sampled_from(variants))()
    if kind == "layout":
        variants = [
            lambda: np.repeat(base, 2, axis=-1)[..., ::2],  # same shape, every other element
            lambda: base[::-1],
            lambda: np.asfortranarray(base),
        ]
        return draw(st.sampled_from(variants))()
    if kind == "read-only":
        ro = base.copy()
        ro.flags.writeable = False
        return ro
    if kind == "container":
        variants = [base.tolist, lambda: tuple(base.tolist()), lambda: memoryview(base.copy()), base.tobytes,
                    lambda: bytearray(base.tobytes())]  # fmt: skip
        return draw(st.sampled_from(variants))()
    if kind == "scalar":
        return draw(st.one_of(st.just(base.flat[0]), not_ints(int(base.flat[0])), st.integers(-(2**70), 2**70)))
    dtype = draw(st.sampled_from([np.uint8, np.uint8, np.int64, np.uint64, np.float64, np.bool_, ">u8"]))
    shape = draw(st.one_of(st.just(base.shape), hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)))
    return draw(hnp.arrays(dtype, shape, elements=st.integers(0, 3) if np.dtype(dtype).kind in "iu" else None))


def array_form(dtype: Any, shape: Callable[[tuple[int, ...]], bool], writable: bool = False) -> Callable[[Any], bool]:
    """Whether a value is an array of exactly this dtype, a shape it accepts, C-contiguous
    (and writable if it is written to)."""

    def ok(value: Any) -> bool:
        return (
            isinstance(value, np.ndarray)
            and value.dtype == np.dtype(dtype)
            and shape(value.shape)
            and value.flags.c_contiguous
            and (value.flags.writeable or not writable)
        )

    return ok


# -- the batch arrays: hands, levels, beats -------------------------------------------------------


def _fill(fn: Callable[..., int], out: Any, h: Any = H, lv: Any = L, b: Any = B, offsets: Any = "fresh") -> Any:
    offsets = np.zeros(N + 1, np.int64) if isinstance(offsets, str) and offsets == "fresh" else offsets
    stop = fn(h, lv, b, 0, N, out, offsets)
    return stop, out[: offsets[stop]].copy(), offsets[: stop + 1].copy()


def _iter(h: Any, lv: Any, b: Any, granularity: str) -> list[Any]:
    return [(a, z, m.copy(), o.copy()) for a, z, m, o in batch.iter_legal_moves(h, lv, b, granularity, 64)]


BATCH_CALLS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "count_moves rank": lambda h, lv, b: batch.count_moves(h, lv, b),
    "count_moves card, 2 threads": lambda h, lv, b: batch.count_moves(h, lv, b, "card", threads=2),
    "legal_moves rank, 2 threads": lambda h, lv, b: batch.legal_moves(h, lv, b, threads=2),
    "legal_moves card": lambda h, lv, b: batch.legal_moves(h, lv, b, "card"),
    "legal_mask": lambda h, lv, b: batch.legal_mask(h, lv, b),
    "legal_mask, 2 threads": lambda h, lv, b: batch.legal_mask(h, lv, b, threads=2),
    "iter_legal_moves rank": lambda h, lv, b: _iter(h, lv, b, "rank"),
    "iter_legal_moves card": lambda h, lv, b: _iter(h, lv, b, "card"),
    "_core.batch_count card": lambda h, lv, b: _core.batch_count(h, lv, b, "card"),
    "_core.batch_rank_moves": lambda h, lv, b: _core.batch_rank_moves(h, lv, b),
    "_core.batch_card_moves": lambda h, lv, b: _core.batch_card_moves(h, lv, b),
    "_core.batch_mask": lambda h, lv, b: _core.batch_mask(h, lv, b, 1),
    "_core.fill_rank_moves": lambda h, lv, b: _fill(_core.fill_rank_moves, np.empty(5000, np.uint64), h, lv, b),
    "_core.fill_card_moves": lambda h, lv, b: _fill(_core.fill_card_moves, np.empty((300, 2), np.uint64), h, lv, b),
}
BATCH_ARGS = {
    "hands": (H, array_form(np.uint8, lambda s: s == H.shape)),
    "levels": (L, array_form(np.uint8, lambda s: s == L.shape)),
    "beats": (B, array_form(np.uint64, lambda s: s == B.shape)),
}


@profiled(
    300,
    st.sampled_from(list(BATCH_CALLS)),
    st.sampled_from(list(BATCH_ARGS)),
    st.data(),
    settings=DOORS,
)
def test_batch_arrays_of_any_form_work_or_raise_an_error_naming_them(call_name, arg, data):
    base, form = BATCH_ARGS[arg]
    value = data.draw(odd_arrays(base), label=arg)
    call = BATCH_CALLS[call_name]
    arrays = {"hands": H, "levels": L, "beats": B, arg: value}
    got = outcome(lambda: call(arrays["hands"], arrays["levels"], arrays["beats"]))
    if value is None and arg == "beats" and not call_name.startswith("_core"):  # guandan.core.batch: all leads
        assert got == outcome(lambda: call(H, L, batch.lead_beats(N)))
    elif not form(value):
        assert got[0] != "ok", f"{call_name} accepted {arg} of the wrong form"
        assert arg in got[1], got
    elif np.array_equal(value, base):
        assert got == outcome(lambda: call(H, L, B))
    elif got[0] != "ok":  # the right form, other content: an error about a position's value
        assert got[1].startswith("position "), got


@profiled(
    300,
    st.sampled_from(["count_moves", "legal_moves", "legal_mask", "iter_legal_moves"]),
    st.data(),
    settings=DOORS,
)
def test_batch_hands_of_any_form_without_beats_work_or_raise(call_name, data):
    value = data.draw(odd_arrays(H), label="hands")
    call = {
        "count_moves": lambda: batch.count_moves(value, L),
        "legal_moves": lambda: batch.legal_moves(value, L, granularity="card"),
        "legal_mask": lambda: batch.legal_mask(value, L),
        "iter_legal_moves": lambda: _iter(value, L, None, "rank"),
    }[call_name]
    if array_form(np.uint8, lambda s: s == H.shape)(value) and np.array_equal(value, H):
        assert outcome(call) == outcome(lambda: canon_leads(call_name))
    elif not array_form(np.uint8, lambda s: len(s) == 2 and s[1] == 54)(value):
        refused(call, "hands")


def canon_leads(call_name: str) -> Any:
    leads = batch.lead_beats(N)
    return {
        "count_moves": lambda: batch.count_moves(H, L, leads),
        "legal_moves": lambda: batch.legal_moves(H, L, leads, granularity="card"),
        "legal_mask": lambda: batch.legal_mask(H, L, leads),
        "iter_legal_moves": lambda: _iter(H, L, leads, "rank"),
    }[call_name]()


# -- the caller's output buffers -------------------------------------------------------------------


@dataclass
class OutDoor:
    base: np.ndarray
    form: Callable[[Any], bool]
    call: Callable[[Any], Any]


def _fill_offsets(fn: Callable[..., int], out: np.ndarray) -> Callable[[Any], Any]:
    return lambda offsets: _fill(fn, out.copy(), offsets=offsets)


OUT_DOORS = {
    "batch_count out": OutDoor(
        np.zeros(N, np.int64),
        array_form(np.int64, lambda s: s == (N,), writable=True),
        lambda out: (_core.batch_count(H, L, B, "rank", 0, None, out), out),
    ),
    "batch_mask out": OutDoor(
        np.zeros((N, len(batch.ACTION_SPACE)), np.bool_),
        array_form(np.bool_, lambda s: s == (N, len(batch.ACTION_SPACE)), writable=True),
        lambda out: (_core.batch_mask(H, L, B, 0, None, out), out),
    ),
    "fill_rank_moves out": OutDoor(
        np.zeros(5000, np.uint64),
        array_form(np.uint64, lambda s: len(s) == 1 and s[0] >= _core.MAX_RANK_MOVES, writable=True),
        lambda out: _fill(_core.fill_rank_moves, out),
    ),
    "fill_card_moves out": OutDoor(
        np.zeros((300, 2), np.uint64),
        array_form(np.uint64, lambda s: len(s) == 2 and s[1] == 2 and s[0] >= 100, writable=True),
        lambda out: _fill(_core.fill_card_moves, out),
    ),
    "fill_rank_moves offsets": OutDoor(
        np.zeros(N + 1, np.int64),
        array_form(np.int64, lambda s: len(s) == 1 and s[0] >= N + 1, writable=True),
        _fill_offsets(_core.fill_rank_moves, np.zeros(5000, np.uint64)),
    ),
    "fill_card_moves offsets": OutDoor(
        np.zeros(N + 1, np.int64),
        array_form(np.int64, lambda s: len(s) == 1 and s[0] >= N + 1, writable=True),
        _fill_offsets(_core.fill_card_moves, np.zeros((300, 2), np.uint64)),
    ),
}


@profiled(
    300,
    st.sampled_from(list(OUT_DOORS)),
    st.data(),
    settings=DOORS,
)
def test_output_buffers_of_any_form_are_filled_or_refused_by_name(door_name, data):
    door = OUT_DOORS[door_name]
    value = data.draw(odd_arrays(door.base), label=door_name)
    got = outcome(lambda: door.call(value))
    if value is None and door_name.endswith("out") and not door_name.startswith("fill"):
        assert got[0] == "ok" and got[1][0] == outcome(lambda: door.call(door.base.copy()))[1][0]  # allocated
    elif door.form(value):
        expected = outcome(lambda: door.call(door.base.copy()))
        if value.shape == door.base.shape:
            assert got == expected
        elif value.shape[0] > door.base.shape[0]:  # a larger buffer: the same moves and offsets
            assert got[0] == "ok" and got[1][1:] == expected[1][1:], (got, expected)
        else:  # a smaller one: fewer positions, or an error about its size
            assert got[0] == "ok" or door_name.split()[-1] in got[1], got
    else:
        assert got[0] != "ok", f"{door_name}: accepted"
        assert door_name.split()[-1] in got[1], got


# -- count vectors of one position -----------------------------------------------------------------


def _counts_form(value: Any) -> bool:
    """bytes, bytearray, a 1-D uint8 memoryview or C-contiguous uint8 array of 54 counts."""
    if isinstance(value, (bytes, bytearray)):
        return len(value) == 54
    if isinstance(value, memoryview):
        return value.format == "B" and value.ndim == 1 and value.shape == (54,) and value.c_contiguous
    return array_form(np.uint8, lambda s: s == (54,))(value)


COUNTS_CALLS: dict[str, Callable[[Any], Any]] = {
    "pack_cards": _core.pack_cards,
    "count_rank_moves": lambda c: _core.count_rank_moves(c, 2),
    "card_moves": lambda c: _core.card_moves(c, 2, 0x1010000000000000),
    "rank_moves": lambda c: _core.rank_moves(c, 14),
    "count_card_moves": lambda c: _core.count_card_moves(c, 7),
    "spend_cards": lambda c: _core.spend_cards(c, 2, PAIR),
}


@profiled(
    300,
    st.sampled_from(list(COUNTS_CALLS)),
    st.data(),
    settings=DOORS,
)
def test_count_vectors_of_any_form_work_or_are_refused(call_name, data):
    value = data.draw(odd_arrays(HAND), label="counts")
    call = COUNTS_CALLS[call_name]
    got = outcome(lambda: call(value))
    if not _counts_form(value):
        assert got[0] == "InvalidCardsError" and ("count vector" in got[1] or "54 faces" in got[1]), got
    elif bytes(value) == HAND.tobytes():
        assert got == outcome(lambda: call(HAND))
    elif got[0] != "ok":  # another hand: too many copies, or the pair is not in it
        assert "count vector" not in got[1], got


# -- integers: counts, sizes, indices, levels, seeds, words ---------------------------------------

WORDS = [int(w) for w in batch.ACTION_SPACE[::97]]
FIRST = int(_core.rank_moves(_core.unpack_cards(STATE[0][0] & (2**64 - 1), STATE[0][0] >> 64), 2)[0])


INFO, SSTATE, CANDS = search_case(3)  # an information set with plays and passes, its state, four candidates


def _info(**change: Any) -> tuple[Any, ...]:
    names = ("seat", "level", "hand", "pool", "known", "forbid", "need", "events")
    return tuple(change.get(name, value) for name, value in zip(names, INFO))


def _state(**change: Any) -> tuple[Any, ...]:
    names = ("hands", "level", "turn", "last", "beat", "passes", "finished")
    return tuple(change.get(name, value) for name, value in zip(names, STATE))


# name: (lo, hi, cap on accepted values drawn, the call, what its error names)
GREEDY_MOVES = _core.card_moves(HAND, 2)


PACKED_HAND = int(_core.pack_cards(HAND)[0]) | int(_core.pack_cards(HAND)[1]) << 64


def _greedy(level: Any = 2, hand: Any = PACKED_HAND, mine: Any = 9) -> int:
    """The greedy agent's native scan on a lead of HAND."""
    return _core.greedy_choose(GREEDY_MOVES, level, hand, mine, False, False, True)


INT_DOORS: dict[str, tuple[int, int, int | None, Callable[[Any], Any], str]] = {
    "lead_beats n": (0, MAX_ROWS, 40, batch.lead_beats, "n is an int"),
    "count_moves threads": (1, 1024, 4, lambda v: batch.count_moves(H, L, B, threads=v), "threads"),
    "legal_moves threads": (1, 1024, 4, lambda v: batch.legal_moves(H, L, B, "card", threads=v), "threads"),
    "legal_mask threads": (1, 1024, 4, lambda v: batch.legal_mask(H, L, B, threads=v), "threads"),
    "iter_legal_moves buffer_moves": (
        1,
        MAX_ROWS,
        5000,
        lambda v: [(a, z, m.copy()) for a, z, m, _ in batch.iter_legal_moves(H, L, B, "card", v)],
        "buffer_moves",
    ),
    "batch_count start": (0, N, None, lambda v: _core.batch_count(H, L, B, "rank", v), "start"),
    "batch_count end": (0, N, None, lambda v: _core.batch_count(H, L, B, "card", 0, v), "end"),
    "batch_rank_moves start": (0, N, None, lambda v: _core.batch_rank_moves(H, L, B, v), "start"),
    "batch_card_moves end": (0, N, None, lambda v: _core.batch_card_moves(H, L, B, 0, v), "end"),
    "batch_mask start": (0, N, None, lambda v: _core.batch_mask(H, L, B, v, None), "start"),
    "fill_rank_moves start": (
        0,
        N,
        None,
        lambda v: _core.fill_rank_moves(H, L, B, v, N, np.zeros(5000, np.uint64), np.zeros(N + 1, np.int64)),
        "start",
    ),
    "fill_card_moves end": (
        0,
        N,
        None,
        lambda v: _core.fill_card_moves(H, L, B, 0, v, np.zeros((300, 2), np.uint64), np.zeros(N + 1, np.int64)),
        "end",
    ),
    "count_rank_moves level": (2, 14, None, lambda v: _core.count_rank_moves(HAND, v), "level"),
    "card_moves level": (2, 14, None, lambda v: _core.card_moves(HAND, v), "level"),
    "spend_cards level": (2, 14, None, lambda v: _core.spend_cards(HAND, v, PAIR), "level"),
    "card_to_rank level": (2, 14, None, lambda v: _core.card_to_rank(0x40, 0x2000000000000000, v), "level"),
    "count_card_moves beat": (0, 2**64 - 1, None, lambda v: _core.count_card_moves(HAND, 2, v), "play to beat"),
    "check_move word": (0, 2**64 - 1, None, _core.check_move, "the move"),
    "move_size word": (0, 2**64 - 1, None, _core.move_size, "the move"),
    "spend_cards word": (0, 2**64 - 1, None, lambda v: _core.spend_cards(HAND, 2, v), "the move"),
    "unpack_cards lo": (0, 2**64 - 1, None, lambda v: _core.unpack_cards(v, 0), "lo"),
    "unpack_cards hi": (0, 2**64 - 1, None, lambda v: _core.unpack_cards(0, v), "hi"),
    "card_to_rank lo": (0, 2**64 - 1, None, lambda v: _core.card_to_rank(v, 0x1000000000000000, 2), "lo"),
    "deal_step hi": (0, 2**64 - 1, None, lambda v: _core.deal_step(STATE, 0, v), "hi"),
    "rng_draws bound": (0, 2**64 - 1, None, lambda v: _core.rng_draws(1, [v, 0]), "bound"),
    "playouts n": (0, MAX_ROWS, 3, lambda v: _core.playouts(STATE, v, "random", 1), "n is an int"),
    "evaluate n": (1, MAX_ROWS, 2, lambda v: _core.evaluate([STATE], [FIRST], v, "greedy", 1), "n is an int"),
    "perft depth": (0, 2**31 - 1, 1, lambda v: _core.perft(STATE, v), "depth"),
    "deal level": (2, 14, None, lambda v: _core.perft(_state(level=v), 1), "level"),
    "deal turn": (0, 3, None, lambda v: _core.perft(_state(turn=v), 1), "turn"),
    "deal last": (-1, 3, None, lambda v: _core.choose(_state(last=v)), "last"),
    "deal passes": (0, 3, None, lambda v: _core.choose(_state(passes=v)), "passes"),
    "deal beat": (0, 2**64 - 1, None, lambda v: _core.choose(_state(beat=v)), "play to beat"),
    "deal finished seat": (0, 3, None, lambda v: _core.choose(_state(finished=(v,))), "finished"),
    "deal packed hand": (0, 2**108 - 1, None, lambda v: _core.choose(_state(hands=(v, *STATE[0][1:]))), "hands[0]"),
    "greedy_choose level": (2, 14, None, lambda v: _greedy(level=v), "level"),
    "greedy_choose packed hand": (0, 2**108 - 1, None, lambda v: _greedy(hand=v), "hand"),
    "greedy_choose mine": (0, 108, None, lambda v: _greedy(mine=v), "mine"),
    "packed_card_moves lo": (0, 2**64 - 1, None, lambda v: _core.packed_card_moves(v, 0, 2), "lo"),
    "packed_card_moves hi": (0, 2**64 - 1, None, lambda v: _core.packed_card_moves(0, v, 2), "hi"),
    "packed_card_moves level": (2, 14, None, lambda v: _core.packed_card_moves(*_core.pack_cards(HAND), v), "level"),
    "packed_card_moves beat": (0, 2**64 - 1, None, lambda v: _core.packed_card_moves(0x10, 0, 2, v), "play to beat"),
    "sample_deals n": (0, 2**24, 3, lambda v: _core.sample_deals(INFO, v, 1), "n is an int"),
    "sample_deals tries": (1, 4096, 3, lambda v: _core.sample_deals(INFO, 2, 1, v, 0.5), "tries"),
    "search rollouts": (
        0, MAX_ROWS, 30, lambda v: _core.search(INFO, SSTATE, CANDS, SearchParams(v, 0.0, 1, "smart")), "rollouts"
    ),
    "search threads": (1, 64, 4, lambda v: _core.search(INFO, SSTATE, CANDS, SearchParams(20, 0.0, v)), "threads"),
    "search_candidates limit": (1, 4096, None, lambda v: _core.search_candidates(INFO, SSTATE, v), "limit"),
    "rollouts n": (0, MAX_ROWS, 3, lambda v: _core.rollouts(STATE, v, "smart", 1), "n is an int"),
    "infoset seat": (0, 3, None, lambda v: _core.sample_deals(_info(seat=v), 1), "seat"),
    "infoset level": (2, 14, None, lambda v: _core.sample_deals(_info(level=v), 1), "level"),
    "infoset hand": (0, 2**108 - 1, None, lambda v: _core.sample_deals(_info(hand=v), 1), "hand"),
    "infoset need": (0, 28, None, lambda v: _core.sample_deals(_info(need=(v, *INFO[6][1:])), 1), "need[0]"),
    "search state turn": (0, 3, None, lambda v: _core.search_candidates(INFO, (SSTATE[0], v, *SSTATE[2:]), 3), "turn"),
}


#: The batch calls, whose threads=None means as many as cores (the search refuses None).
BATCH_THREADS = {"count_moves threads", "legal_moves threads", "legal_mask threads"}


@profiled(
    300,
    st.sampled_from(list(INT_DOORS)),
    st.data(),
    settings=DOORS,
)
def test_int_arguments_take_python_and_numpy_ints_and_refuse_the_rest(door_name, data):
    lo, hi, cap, call, name = INT_DOORS[door_name]
    strategy = int_args(lo, hi, cap)
    if door_name.endswith((" word", " beat", " hi")):
        words = st.sampled_from(WORDS + [_core.PASS_MOVE, 0])  # mostly well-formed words
        strategy = st.one_of(
            strategy, words.map(lambda v: (v, v)), words.flatmap(numpy_ints).map(lambda v: (v, int(v)))
        )
    value, accepted = data.draw(strategy, label=door_name)
    got = outcome(lambda: call(value))
    if value is None and door_name.endswith(" threads") and door_name in BATCH_THREADS:  # None: as many as cores
        assert got == outcome(lambda: call(os.cpu_count() or 1))
    elif value is None and door_name.endswith(" end"):  # None: to the last position
        assert got == outcome(lambda: call(N))
    elif accepted is None:
        assert got[0] != "ok", f"{door_name}: accepted {value!r}"
        assert name in got[1], got
    else:
        assert got == outcome(lambda: call(accepted))


@profiled(
    300,
    st.sampled_from(["playouts", "choose", "evaluate", "rng_draws", "sample_deals", "search", "rollouts"]),
    st.data(),
    settings=DOORS,
)
def test_seeds_are_any_python_or_numpy_int_and_nothing_else(call_name, data):
    call = {
        "sample_deals": lambda s: _core.sample_deals(INFO, 2, s, 4, 0.5),
        "search": lambda s: _core.search(INFO, SSTATE, CANDS, SearchParams(12, 0.0, 1, "smart", s)),
        "rollouts": lambda s: _core.rollouts(STATE, 2, "smart", s),
        "playouts": lambda s: _core.playouts(STATE, 2, "random", s),
        "choose": lambda s: _core.choose(STATE, "random", s),
        "evaluate": lambda s: _core.evaluate([STATE], [FIRST], 1, "random", s),
        "rng_draws": lambda s: _core.rng_draws(s, [0, 5]),
    }[call_name]
    whole = st.integers(-(2**80), 2**80)
    value, accepted = data.draw(
        st.one_of(
            whole.map(lambda v: (v, v)),
            whole.filter(lambda v: bool(_fits(v))).flatmap(lambda v: numpy_ints(v).map(lambda x: (x, v))),
            st.integers(-5, 5).flatmap(not_ints).map(lambda x: (x, None)),
        )
    )
    got = outcome(lambda: call(value))
    if accepted is None:
        assert got[0] == "ArgumentError" and "seed" in got[1], got
    else:  # taken modulo 2**64, like guandan.core.rng.SplitMix64
        assert got == outcome(lambda: call(accepted % 2**64))


@profiled(
    300,
    st.one_of(st.sampled_from(["rank", "card"]), st.text(max_size=5), st.sampled_from(["RANK", b"rank", None, 1])),
    st.data(),
    settings=DOORS,
)
def test_a_granularity_is_the_string_rank_or_card(granularity, data):
    value = data.draw(
        st.one_of(
            st.just(granularity),
            st.just(np.str_(granularity)) if isinstance(granularity, str) else st.nothing(),
            st.just(np.array([granularity, granularity])),
            st.just(np.array(granularity)),
        )
    )
    for call in (
        lambda: batch.count_moves(H, L, B, value),
        lambda: batch.count_moves(H, L, B, value, threads=2),
        lambda: batch.legal_moves(H, L, B, value),
        lambda: batch.iter_legal_moves(H, L, B, value),
        lambda: _core.batch_count(H, L, B, value),
    ):
        if isinstance(value, str) and value in ("rank", "card"):
            assert outcome(call)[0] == "ok"
        else:
            refused(call, "granularity")


# -- rank-level words (action_indices, evaluate's first moves) and deal hands ---------------------


@profiled(300, st.data(), settings=DOORS)
def test_word_arrays_of_any_form_are_taken_as_their_integers_or_refused(data):
    base = np.array([WORDS[1], _core.PASS_MOVE, WORDS[3]], dtype=np.uint64)
    value = data.draw(st.one_of(odd_arrays(base), odd_arrays(base.astype(np.int64))))
    got = outcome(lambda: _core.action_indices(value))
    if isinstance(value, (memoryview, bytes, bytearray)):  # buffers of bytes: either way, never a crash
        assert got[0] in ("ok", "InvalidMoveError"), got
        return
    is_int = lambda w: isinstance(w, (int, np.integer)) and not isinstance(w, (bool, np.bool_))  # noqa: E731
    if isinstance(value, np.ndarray) and value.dtype.kind not in "iuO":
        flat = None
    else:
        flat = np.asarray(value, dtype=object).ravel().tolist()
    if flat is None or not all(is_int(w) for w in flat):
        assert got[0] == "InvalidMoveError" and "words" in got[1], got
    elif all(0 <= w < 2**64 for w in flat):
        canonical = np.array([int(w) for w in flat], dtype=np.uint64).reshape(np.shape(value))
        assert got == outcome(lambda: _core.action_indices(canonical))
    else:
        assert got[0] == "InvalidMoveError" and "0..2**64-1" in got[1], got


@profiled(300, st.data(), settings=DOORS)
def test_evaluate_first_moves_of_any_form(data):
    legal = [int(w) for w in _core.rank_moves(_core.unpack_cards(STATE[0][0] & (2**64 - 1), STATE[0][0] >> 64), 2)]
    base = np.array(legal[:3], dtype=np.uint64)
    value = data.draw(odd_arrays(base))
    got = outcome(lambda: _core.evaluate([STATE], value, 1, "greedy", 4))
    if isinstance(value, np.ndarray) and value.dtype.kind in "iu" and value.ndim == 1 and np.array_equal(value, base):
        assert got == outcome(lambda: _core.evaluate([STATE], legal[:3], 1, "greedy", 4))
    elif got[0] != "ok":
        assert got[0] in ("InvalidMoveError", "IllegalMoveError") and "firsts" in got[1], got


@profiled(300, st.data(), settings=DOORS)
def test_deal_hands_arrays_of_any_form(data):
    counts = np.stack([np.frombuffer(_core.unpack_cards(h & (2**64 - 1), h >> 64), np.uint8) for h in STATE[0]])
    value = data.draw(odd_arrays(counts))
    got = outcome(lambda: _core.choose((value, *STATE[1:]), "greedy", 1))
    if array_form(np.uint8, lambda s: s == (4, 54))(value):
        if np.array_equal(value, counts):
            assert got == outcome(lambda: _core.choose(STATE, "greedy", 1))
    else:
        assert got[0] == "InvalidCardsError" and "hands" in got[1], got


@profiled(300, st.data(), settings=DOORS)
def test_search_events_and_candidates_of_any_form(data):
    events = INFO[7]
    value = data.draw(odd_arrays(events), label="events")
    got = outcome(lambda: _core.sample_deals(_info(events=value), 2, 5, 4, 0.5))
    if isinstance(value, np.ndarray) and value.dtype == np.uint64 and value.ndim == 2 and value.shape[1] == 3:
        if np.array_equal(value, events):  # any layout, read-only too: the same events
            assert got == outcome(lambda: _core.sample_deals(INFO, 2, 5, 4, 0.5))
        else:  # other events: taken, or refused by name
            assert got[0] == "ok" or ("events[" in got[1] and got[0] == "InvalidMoveError"), got
    else:
        assert got[0] == "InvalidMoveError" and "events" in got[1], got
    words = data.draw(odd_arrays(CANDS.copy()), label="candidates")
    got = outcome(lambda: _core.search(INFO, SSTATE, words, SearchParams(16, 0.0, 1, "smart", 3)))
    if isinstance(words, np.ndarray) and words.dtype.kind in "iu" and words.ndim == 1 and np.array_equal(words, CANDS):
        listed = [int(w) for w in CANDS]
        assert got == outcome(lambda: _core.search(INFO, SSTATE, listed, SearchParams(16, 0.0, 1, "smart", 3)))
    elif got[0] != "ok":
        assert got[0] in ("InvalidMoveError", "IllegalMoveError") and "candidates" in got[1], got


@pytest.mark.parametrize("n", [2**40 + 1, 2**63, 2**70, np.uint64(2**64 - 1)])
def test_sizes_beyond_any_memory_are_refused_before_allocating(n):
    """Sizes no memory holds: before, numpy's own ValueError ("Maximum allowed dimension exceeded") came out."""
    refused(lambda: batch.lead_beats(n), "n is an int")
    refused(lambda: list(batch.iter_legal_moves(H, L, B, buffer_moves=n)), "buffer_moves")
    refused(lambda: _core.playouts(STATE, n), "n is an int")
    refused(lambda: _core.rollouts(STATE, n), "n is an int")
    refused(lambda: _core.sample_deals(INFO, n), "n is an int")
    refused(lambda: _core.search(INFO, SSTATE, CANDS, SearchParams(n)), "rollouts")


def test_a_0_d_hands_array_is_refused_by_name():
    """A 0-d array as the hands: before, ``batch.count_moves`` raised TypeError (len())."""
    for hands in (np.array(5, np.uint8), np.array(2.0), np.uint8(1)):
        for call in (
            lambda: batch.count_moves(hands, L, B),  # noqa: B023
            lambda: batch.count_moves(hands, L, B, threads=2),  # noqa: B023
            lambda: batch.legal_moves(hands, L, B, threads=2),  # noqa: B023
            lambda: batch.legal_mask(hands, L),  # noqa: B023
        ):
            refused(call, "hands")


@profiled(300, st.data(), settings=DOORS)
def test_greedy_moves_arrays_of_any_form(data):
    """The greedy agent's native scan takes a C-contiguous uint64 (n, 2) array, n >= 1."""
    value = data.draw(odd_arrays(GREEDY_MOVES))
    got = outcome(lambda: _greedy_moves(value))
    if array_form(np.uint64, lambda s: len(s) == 2 and s[1] == 2)(value) or isinstance(value, memoryview):
        if isinstance(value, np.ndarray) and np.array_equal(value, GREEDY_MOVES):
            assert got == outcome(lambda: _greedy_moves(GREEDY_MOVES))
        elif got[0] != "ok":  # random contents or no rows
            assert "row" in got[1] or "no legal move" in got[1] or "moves must be" in got[1], got
    else:
        assert got[0] == "InvalidMoveError" and "moves must be" in got[1], got


def _greedy_moves(moves: Any) -> int:
    return _core.greedy_choose(moves, 2, PACKED_HAND, 9, False, False, True)
