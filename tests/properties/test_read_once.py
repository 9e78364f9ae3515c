"""Every input element is read once: another process flips a batch input in
shared memory while the main process calls the native core on it.

The core checks a position's hand, level and play to beat, then generates from them; if it
read an element again after the check, a word changed in between would reach the generator
unchecked (undefined behaviour: ``shift exponent 68`` in ``feasible_windows`` under UBSan,
wrong counts on the plain build). Here a real second process (``tests/flipper.py``) flips
one input between two contents as fast as it can while every batch and fill function (and
the one-position functions on a shared row, the deal state's hands, ``evaluate``'s first
moves) runs on it again and again. Every call must either raise the error of
``guandan.errors`` that the invalid content raises, naming the value that was checked, or
return, position by position, exactly the result of one of the two contents. Each case
runs for a bounded time, and both outcomes must have been seen (the race really ran).
"""

from __future__ import annotations

import multiprocessing
import re
import time
from collections.abc import Callable
from multiprocessing import shared_memory
from typing import Any

import numpy as np
import pytest
from flipper import flip
from games import search_case

from guandan import Cards, Deal, GuandanError
from guandan.core import _core
from guandan.core.search import SearchParams

# each case races for a bounded time of its own (SECONDS): a test of a second or more
pytestmark = [pytest.mark.slow, pytest.mark.races]

SECONDS = 1.5  # each case flips for this long
N = 24  # positions a batch
LEVEL = 7
HAND = Cards.parse("C2 C3 D3 H4 S5 H5 S6 S6 H6 C6 C6 H7 H7 D7 H8 C8 D8 S9 H9 D9 C10 SJ HK CK SA HA DA").numpy()
STRAIGHT = 0x5000000000011111  # 2 3 4 5 6, beaten by this hand's higher straights
BAD_KEY = (STRAIGHT & ~(15 << 56)) | (15 << 56)  # the same with key 15: malformed
ONE_COPY = 2  # C2: the hand holds one


def _batch(hands, levels, beats, packed=False):
    """Every batch and fill function, each returning one comparable result per position
    (``packed``: the hands are packed, ``uint64 (N, 2)``)."""

    def split(moves, offsets, first=0):
        return [moves[offsets[k] : offsets[k + 1]].tobytes() for k in range(len(offsets) - 1)]

    def fill(fn, out):
        results, start = [], 0
        offsets = np.zeros(N + 1, np.int64)
        while start < N:
            stop = fn(hands, levels, beats, start, N, out, offsets, packed)
            results += split(out, offsets[: stop - start + 1])
            start = stop
        return results

    calls = {
        "batch_count rank": lambda: _core.batch_count(hands, levels, beats, "rank", packed=packed).tolist(),
        "batch_count card": lambda: _core.batch_count(hands, levels, beats, "card", packed=packed).tolist(),
        "batch_rank_moves": lambda: split(*_core.batch_rank_moves(hands, levels, beats, packed=packed)),
        "batch_card_moves": lambda: split(*_core.batch_card_moves(hands, levels, beats, packed=packed)),
        "batch_mask": lambda: [row.tobytes() for row in _core.batch_mask(hands, levels, beats, packed=packed)],
        "fill_rank_moves": lambda: fill(_core.fill_rank_moves, np.empty(3 * _core.MAX_RANK_MOVES, np.uint64)),
        "fill_card_moves": lambda: fill(_core.fill_card_moves, np.empty((4000, 2), np.uint64)),
    }
    if not packed:
        calls["batch_pack"] = lambda: [row.tobytes() for row in _core.batch_pack(hands)]
    return calls


def _one_position(hands, levels, beats):
    """The one-position functions on a row of the shared hands (level and beat as ints)."""
    row, level, beat = hands[0], int(levels[0]), int(beats[0])
    return {
        "count_rank_moves": lambda: [_core.count_rank_moves(row, level, beat)],
        "card_moves": lambda: [_core.card_moves(row, level, beat).tobytes()],
        "rank_moves": lambda: [_core.rank_moves(row, level).tobytes()],
        "pack_cards": lambda: [_core.pack_cards(row)],
        "spend_cards": lambda: [_core.spend_cards(row, level, 0x1000000000000010)],  # a single 3
    }


def _arrays(shm: shared_memory.SharedMemory | None, which: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """hands, levels, beats of the base position N times; the one named lives in ``shm``."""
    arrays = {
        "hands": np.tile(HAND, (N, 1)),
        "levels": np.full(N, LEVEL, np.uint8),
        "beats": np.full(N, STRAIGHT, np.uint64),
    }
    if shm is not None:
        shared = np.ndarray(arrays[which].shape, arrays[which].dtype, buffer=shm.buf)
        shared[...] = arrays[which]
        arrays[which] = shared
    return arrays["hands"], arrays["levels"], arrays["beats"]


def _outcome(call: Callable[[], list[Any]]) -> tuple[str, Any]:
    try:
        return "ok", call()
    except GuandanError as error:
        return type(error).__name__, re.sub(r"^position \d+: ", "", str(error))


def _race(template: np.ndarray, a: np.ndarray, b: np.ndarray, calls: Callable[[np.ndarray], dict[str, Callable]]):
    """Flip a shared copy of ``template`` between ``a`` and ``b`` while calling each of
    ``calls(shared)`` in turn; check every outcome against those of ``a`` and ``b``."""
    expected = {}
    for content in (a, b):
        fixed = content.copy()
        for name, call in calls(fixed).items():
            expected.setdefault(name, []).append(_outcome(call))
    seen: dict[str, set[str]] = {name: set() for name in expected}
    ctx = multiprocessing.get_context("spawn")
    shm = shared_memory.SharedMemory(create=True, size=template.nbytes)
    ready, stop, flips = ctx.Event(), ctx.Event(), ctx.Value("q", 0)
    process = None
    try:
        shared = np.ndarray(template.shape, template.dtype, buffer=shm.buf)
        shared[...] = a
        process = ctx.Process(
            target=flip,
            args=(shm.name, template.dtype.str, template.shape, a.tobytes(), b.tobytes(), ready, stop, SECONDS, flips),
            daemon=True,
        )
        process.start()
        assert ready.wait(60), "the flipping process did not start"
        named = list(calls(shared).items())
        deadline = time.monotonic() + SECONDS
        while time.monotonic() < deadline:
            for name, call in named:
                kind, value = _outcome(call)
                (want_a, result_a), (want_b, result_b) = expected[name]
                if kind != "ok":
                    errors = [(want, result) for want, result in expected[name] if want != "ok"]
                    assert (kind, value) in errors, f"{name}: {kind}: {value!r} is not the error of either content"
                    seen[name].add("error")
                    continue
                assert len(value) == len(result_a if want_a == "ok" else result_b), name
                for i, got in enumerate(value):
                    ok_a = want_a == "ok" and got == result_a[i]
                    ok_b = want_b == "ok" and got == result_b[i]
                    assert ok_a or ok_b, f"{name}: position {i} is the result of neither content"
                    if ok_a != ok_b:
                        seen[name].add("a" if ok_a else "b")
        stop.set()
        process.join(30)
        assert process.exitcode == 0
        assert flips.value > 0
    finally:
        stop.set()
        if process is not None and process.is_alive():
            process.kill()
            process.join(5)
        del shared
        shm.close()
        shm.unlink()
    return seen


def _flipped(arr: np.ndarray, where: tuple[Any, ...] | slice, value: int) -> np.ndarray:
    out = arr.copy()
    out[where] = value
    return out


BASE_H, BASE_L, BASE_B = _arrays(None, "")
BASE_P = _core.batch_pack(BASE_H)  # the hands packed, uint64 (N, 2)
C2 = 2 * ONE_COPY  # the bit of face ONE_COPY's 2-bit field in word 0


def _batch_calls(which: str) -> Callable[[np.ndarray], dict[str, Callable]]:
    """The batch calls with the named array shared (and the one-position calls on its rows);
    ``packed``: the packed hands shared, the batch calls given ``packed=True``."""

    def calls(shared):
        arrays = dict(zip(("hands", "levels", "beats"), (BASE_H, BASE_L, BASE_B)))
        arrays["hands" if which == "packed" else which] = shared
        found = _batch(arrays["hands"], arrays["levels"], arrays["beats"], which == "packed")
        if which == "hands":
            found.update(_one_position(arrays["hands"], arrays["levels"], arrays["beats"]))
        return found

    return calls


# a deal in progress (seat 0 leads at level 2) with its hands as a uint8 (4, 54) count array
_STATE = (Deal.new(1)).native_state()
DEAL_HANDS = np.stack([np.frombuffer(_core.unpack_cards(h & (2**64 - 1), h >> 64), np.uint8) for h in _STATE[0]])
FIRSTS = _core.rank_moves(DEAL_HANDS[0], 2)[:3].copy()
JOKER_BOMB = 0xAF00000000000000  # well-formed, not in seat 0's hand


def _deal_calls(shared):
    state = (shared, *_STATE[1:])
    return {
        "playouts": lambda: [_core.playouts(state, 4, "random", 5).tobytes()],
        "perft": lambda: [_core.perft(state, 1)],
        "choose": lambda: [_core.choose(state, "greedy", 5)],
        "evaluate": lambda: [_core.evaluate([state], FIRSTS, 2, "greedy", 5).tobytes()],
    }


def _firsts_calls(shared):
    state = (DEAL_HANDS, *_STATE[1:])
    return {
        "evaluate": lambda: [_core.evaluate([state], shared, 2, "greedy", 5).tobytes()],
        "action_indices": lambda: [_core.action_indices(shared).tobytes()],
    }


# the greedy agent's native scan: a deal's card-level moves; the cards of row 1 (a single S3,
# the agent's choice) flipped to H2 (a wild the agent keeps: another row is chosen), or the
# declaration of row 0 to a malformed word (type 11)
GREEDY_HAND = Cards.parse("S3 S4 C4 S8 C8 D8 H8 H2 SB")
GREEDY_MOVES = _core.card_moves(GREEDY_HAND.counts, 2)
_PACKED_HAND = int(_core.pack_cards(GREEDY_HAND.counts)[0]) | int(_core.pack_cards(GREEDY_HAND.counts)[1]) << 64


def _greedy_calls(shared):
    return {"greedy_choose": lambda: [_core.greedy_choose(shared, 2, _PACKED_HAND, 9, False, False, True)]}
# the search's information set (a deal after nine greedy plays) and its candidates
INFO, SEARCH_STATE, CANDIDATES = search_case(5)
EVENTS = INFO[7]
BAD_EVENTS = _flipped(EVENTS, (0, 0), 9)  # kind 9: malformed
# the first play read as a pass on the same cards by the next seat: another weighting (one
# element flips, so a copy made while it flips is one content or the other)
OTHER_EVENTS = _flipped(EVENTS, (0, 0), 2 | (((int(EVENTS[0, 0]) >> 8) + 1) % 4) << 8 | (int(EVENTS[0, 0]) >> 8) << 16)


def _events_calls(shared):
    info = (*INFO[:7], shared)
    params = SearchParams(40, 0.0, 1, "smart", 5, 8, 0.25, 0.25)
    return {
        "sample_deals": lambda: [_core.sample_deals(info, 6, 5, 8, 0.25, 0.25)],
        "search": lambda: [_core.search(info, SEARCH_STATE, CANDIDATES, params)[0].tobytes()],
    }


def _candidates_calls(shared):
    params = SearchParams(40, 0.0, 1, "smart", 5)
    return {"search": lambda: [_core.search(INFO, SEARCH_STATE, shared, params)[0].tobytes()]}


CASES = {
    # the play to beat: a valid straight and the same word with key 15 (malformed)
    "beat malformed": (BASE_B, _flipped(BASE_B, slice(None), BAD_KEY), _batch_calls("beats")),
    # two valid plays to beat: a straight and the lead
    "beat straight or lead": (BASE_B, _flipped(BASE_B, slice(None), _core.PASS_MOVE), _batch_calls("beats")),
    # a hand byte: one copy and three (too many)
    "hand byte 1 or 3": (BASE_H, _flipped(BASE_H, (slice(None), ONE_COPY), 3), _batch_calls("hands")),
    # a hand byte: one copy and two
    "hand byte 1 or 2": (BASE_H, _flipped(BASE_H, (slice(None), ONE_COPY), 2), _batch_calls("hands")),
    # the level: 7 and 15 (no such rank)
    "level 7 or 15": (BASE_L, _flipped(BASE_L, slice(None), 15), _batch_calls("levels")),
    # the level: 7 and 8
    "level 7 or 8": (BASE_L, _flipped(BASE_L, slice(None), 8), _batch_calls("levels")),
    # a packed hand's word 0: one copy of C2, or three (its field 3: not a card count)
    "packed hand 1 or 3 copies": (BASE_P, _flipped(BASE_P, (slice(None), 0), int(BASE_P[0, 0]) | 3 << C2),
                                  _batch_calls("packed")),
    # or two copies
    "packed hand 1 or 2 copies": (BASE_P, _flipped(BASE_P, (slice(None), 0), int(BASE_P[0, 0]) ^ 3 << C2),
                                  _batch_calls("packed")),
    # a packed hand's word 1: valid, or a bit set beyond the 54 faces
    "packed hand stray bit": (BASE_P, _flipped(BASE_P, (slice(None), 1), int(BASE_P[0, 1]) | 1 << 50),
                              _batch_calls("packed")),
    # a native deal's hands: seat 0 holds one copy of face 1, or three
    "deal hand byte 1 or 3": (DEAL_HANDS, _flipped(DEAL_HANDS, (0, 1), 3), _deal_calls),
    # or none
    "deal hand byte 1 or 0": (DEAL_HANDS, _flipped(DEAL_HANDS, (0, 1), 0), _deal_calls),
    # evaluate's first moves: legal ones, or the first replaced by a joker bomb seat 0 lacks
    "evaluate firsts legal or not": (FIRSTS, _flipped(FIRSTS, 0, JOKER_BOMB), _firsts_calls),
    # the greedy agent's moves: a row's word changes the choice, or is malformed
    "greedy moves row chosen or not": (GREEDY_MOVES, _flipped(GREEDY_MOVES, (1, 0), 0x4),
                                       _greedy_calls),
    "greedy moves row malformed": (GREEDY_MOVES, _flipped(GREEDY_MOVES, (0, 1), 0xB << 60), _greedy_calls),
    # the search's events: well-formed, or one malformed; or other well-formed events
    "search events malformed": (EVENTS, BAD_EVENTS, _events_calls),
    "search events other": (EVENTS, OTHER_EVENTS, _events_calls),
    # the search's candidates: legal ones, or the first replaced by a joker bomb the seat lacks
    "search candidates legal or not": (CANDIDATES, _flipped(CANDIDATES, 0, JOKER_BOMB), _candidates_calls),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_flipped_input_gives_the_result_or_error_of_one_content(case):
    a, b, calls = CASES[case]
    seen = _race(a, a, b, calls)
    # the race really ran: some calls saw the second content (its error, or its result where
    # the two differ) and some the first
    both = [name for name, kinds in seen.items() if "a" in kinds and kinds & {"b", "error"}]
    assert both, f"no call saw both contents: {seen}"
