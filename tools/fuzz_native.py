"""Fuzz the native entry points (``guandan.core._core``) with arbitrary bytes, under atheris.

Each input picks an entry point and builds its arguments from the bytes: count vectors,
levels, packed words, batch arrays of any dtype, shape and layout, caller buffers of any
size, deal states, seeds and counts. The only outcomes allowed are a result (checked for
a few invariants) or an error of ``guandan.errors``; anything else — another exception, a
crash, a sanitizer report — is a finding, and atheris stops and writes the input that
caused it.

Run (see tools/README.md for the builds: an ASan/UBSan build of the extension compiled
with clang and libFuzzer coverage, and the LD_PRELOAD it needs)::

    python tools/fuzz_native.py -max_total_time=900 -rss_limit_mb=4096 /tmp/fuzz-corpus

Without atheris installed, ``--replay FILE...`` runs inputs through the same harness
(a crash reproducer, or a corpus directory's files) under plain Python.
"""

from __future__ import annotations

import os
import struct
import sys
from collections.abc import Callable

import numpy as np

from guandan import GuandanError
from guandan.core import _core
from guandan.core.packed import size_of_bits
from guandan.core.search import SearchParams

FACES = 54
ACTIONS = _core.ACTION_SPACE
PASS = _core.PASS_MOVE


def _little_endian(raw: bytes) -> int:
    """The unsigned little-endian value of up to 8 bytes. (Not int.from_bytes: on CPython 3.11
    its zero comes out of the small-int table through an unset digit, and valgrind memcheck then
    reports every use of that 0 -- in numpy and in the core -- as uninitialised.)"""
    return struct.unpack("<Q", raw.ljust(8, b"\0"))[0]


class Bytes:
    """Arguments drawn from the input: a tiny stand-in for atheris.FuzzedDataProvider that
    also works without atheris (for --replay)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out + bytes(n - len(out))

    def int(self, lo: int, hi: int) -> int:
        """An int in lo..hi (inclusive)."""
        span = hi - lo + 1
        nbytes = max(1, (span.bit_length() + 7) // 8)
        return lo + _little_endian(self.take(nbytes)) % span

    def pick(self, options: list) -> object:
        return options[self.int(0, len(options) - 1)]

    def u64(self) -> int:
        return _little_endian(self.take(8))

    def word(self) -> int:
        """A rank-level word: often a real action, sometimes the pass, else any 64 bits."""
        kind = self.int(0, 7)
        if kind <= 4:
            return int(ACTIONS[self.int(0, len(ACTIONS) - 1)])
        if kind <= 6:
            return PASS
        return self.u64()

    def counts(self) -> bytes:
        """54 counts: mostly a real hand (0..2 each), sometimes any bytes."""
        raw = self.take(FACES)
        if self.int(0, 15) == 0:
            return raw
        return bytes(b % 3 if b % 5 else 0 for b in raw)

    def level(self) -> object:
        if self.int(0, 3):
            return self.int(2, 14)
        return self.pick([self.int(0, 255), -1, 2.0, None, np.uint8(5), 2**64, "2"])

    def hands_array(self, n: int) -> object:
        counts = np.frombuffer(b"".join(self.counts() for _ in range(n)), dtype=np.uint8).reshape(n, FACES)
        return self.shaped(counts.copy())

    def shaped(self, arr: np.ndarray) -> object:
        """The array as it is (usually), or with a wrong dtype, shape or layout, or as a list."""
        how = self.int(0, 27)
        if how == 0:
            return arr.astype(self.pick([np.int8, np.int64, np.uint64, np.float32, np.uint16]))
        if how == 1 and arr.ndim == 2 and len(arr) > 1:
            return arr[::2]
        if how == 2:
            return arr.reshape(-1)
        if how == 3:
            return arr.tolist()
        if how == 4:
            ro = arr.copy()
            ro.flags.writeable = False
            return ro
        if how == 5 and arr.ndim >= 1 and arr.shape[0] > 0:
            return arr[:-1].copy()
        if how == 6:
            return np.asfortranarray(arr[..., None] if arr.ndim == 1 else arr)
        return arr


def _state(b: Bytes) -> object:
    """A native deal state: a random partition of the deck (often consistent), or junk."""
    if b.int(0, 15) == 0:
        return b.pick([None, (), "state", (1, 2, 3, 4, 5, 6, 7), [0] * 7])
    seats = [0, 0, 0, 0]
    for face in range(FACES):
        for _ in range(2):
            s = b.int(0, 5)
            if s < 4:
                seats[s] += 1 << (2 * face)  # 2 bits a face: 01 one copy, 10 two
    hands: object = tuple(seats)
    if b.int(0, 7) == 0:
        hands = np.stack([np.frombuffer(_core.unpack_cards(h & (2**64 - 1), h >> 64), np.uint8) for h in seats])
    empty = [s for s in range(4) if not seats[s]]
    finished = tuple(empty) if b.int(0, 3) else tuple(b.int(-1, 4) for _ in range(b.int(0, 4)))
    holding = [s for s in range(4) if seats[s]] or [0]
    turn = holding[b.int(0, len(holding) - 1)] if b.int(0, 7) else b.int(-2, 5)
    if b.int(0, 1):
        last, beat, passes = -1, PASS, 0
    else:
        last, passes = b.int(-1, 4), b.int(0, 3)
        beat = b.word()
        if b.int(0, 1) and 0 <= last <= 3 and seats[last]:
            hand = _core.unpack_cards(seats[last] & (2**64 - 1), seats[last] >> 64)
            moves = _core.rank_moves(hand, 2)
            if len(moves):
                beat = int(moves[b.int(0, len(moves) - 1)])
    return hands, b.level(), turn, last, beat, passes, finished


def _packed_row(b: Bytes) -> list[int]:
    """A packed hand's two words: its 2-bit fields from counts (a field of 3 now and then),
    sometimes bits beyond the 54 faces or any 128 bits."""
    if b.int(0, 15) == 0:
        return [b.u64(), b.u64()]
    bits = sum((c & 3) << (2 * f) for f, c in enumerate(b.counts()))
    if b.int(0, 15) == 0:
        bits |= 1 << b.int(108, 127)
    return [bits & (2**64 - 1), bits >> 64]


def _batch(b: Bytes) -> tuple[object, object, object, bool]:
    """hands (counts, or packed words with the flag true), levels, beats, and the flag."""
    n = b.int(0, 6)
    packed = b.int(0, 3) == 0
    if packed:
        hands = b.shaped(np.array([_packed_row(b) for _ in range(n)], np.uint64).reshape(n, 2))
    else:
        hands = b.hands_array(n)
    levels = b.shaped(np.array([b.int(2, 14) if b.int(0, 15) else b.int(0, 255) for _ in range(n)], dtype=np.uint8))
    beats = b.pick([None, "array"])
    if beats is not None:
        beats = b.shaped(np.array([b.word() for _ in range(n)], dtype=np.uint64))
    return hands, levels, beats, packed


def _beats(hands: object, beats: object) -> object:
    if beats is None:
        return np.full(len(hands) if isinstance(hands, np.ndarray) and hands.ndim >= 1 else 0, PASS, np.uint64)
    return beats


def one_position(b: Bytes) -> None:
    fn = b.pick([_core.rank_moves, _core.count_rank_moves, _core.card_moves, _core.count_card_moves])
    counts: object = b.counts()
    if b.int(0, 7) == 0:
        counts = b.shaped(np.frombuffer(counts, np.uint8).copy())
    level, beat = b.level(), b.word()
    out = fn(counts, level, beat)
    if fn in (_core.rank_moves, _core.card_moves):
        count = (_core.count_rank_moves if fn is _core.rank_moves else _core.count_card_moves)(counts, level, beat)
        assert count == len(out), (count, len(out))


def words_and_cards(b: Bytes) -> None:
    which = b.int(0, 6)
    if which == 0:
        _core.check_move(b.word())
    elif which == 1:
        _core.move_size(b.word())
    elif which == 2:
        lo, hi = _core.pack_cards(b.counts())
        assert _core.unpack_cards(lo, hi) is not None
    elif which == 3:
        _core.unpack_cards(b.u64(), b.u64())
    elif which == 4:
        _core.card_to_rank(b.u64(), b.u64(), b.level())
    elif which == 5:
        _core.spend_cards(b.counts(), b.level(), b.word())
    else:
        words = [b.word() for _ in range(b.int(0, 5))]
        _core.action_indices(b.pick([words, np.array(words, dtype=np.uint64), [float(w) for w in words], [-1]]))


def batches(b: Bytes) -> None:
    hands, levels, beats, packed = _batch(b)
    beats = _beats(hands, beats)
    which = b.int(0, 4)
    n = hands.shape[0] if isinstance(hands, np.ndarray) and hands.ndim == 2 else 0
    start, end = (0, None) if b.int(0, 3) else (b.int(-1, n + 1), b.pick([None, b.int(-1, n + 1)]))
    if which == 0:
        out = b.pick([None, np.zeros(n, np.int64), np.zeros(max(n - 1, 0), np.int64), np.zeros(n, np.int32)])
        _core.batch_count(hands, levels, beats, b.pick(["rank", "card", "x"]), start, end, out, packed)
    elif which == 1:
        moves, offsets = _core.batch_rank_moves(hands, levels, beats, start, end, packed)
        assert offsets[-1] == len(moves)
    elif which == 2:
        moves, offsets = _core.batch_card_moves(hands, levels, beats, start, end, packed)
        assert offsets[-1] == len(moves)
    elif which == 3:
        width = len(ACTIONS)
        out = b.pick([None, np.zeros((n, width), np.bool_), np.zeros((n, width - 1), np.bool_)])
        _core.batch_mask(hands, levels, beats, start, end, out, packed)
    else:
        counts = b.hands_array(n)
        words = _core.batch_pack(counts)  # accepted: counts is a uint8 (m, 54) array
        assert isinstance(counts, np.ndarray) and words.shape == (counts.shape[0], 2)


def fills(b: Bytes) -> None:
    hands, levels, beats, packed = _batch(b)
    beats = _beats(hands, beats)
    n = hands.shape[0] if isinstance(hands, np.ndarray) and hands.ndim == 2 else 0
    start, end = (0, n) if b.int(0, 3) else (b.int(-1, n + 1), b.int(-1, n + 1))
    size = b.pick([0, 1, 7, 100, 4095, 4096, 5000, b.int(0, 70000)])
    offsets = b.shaped(np.zeros(n + 1 if b.int(0, 3) else b.int(0, n + 2), dtype=np.int64))
    if b.int(0, 1):
        out = b.shaped(np.zeros(size, dtype=np.uint64))
        stop = _core.fill_rank_moves(hands, levels, beats, start, end, out, offsets, packed)
    else:
        out = b.shaped(np.zeros((size, 2), dtype=np.uint64))
        stop = _core.fill_card_moves(hands, levels, beats, start, end, out, offsets, packed)
    assert start <= stop <= end


def deals(b: Bytes) -> None:
    state = _state(b)
    which = b.int(0, 4)
    seed = b.pick([0, 1, b.u64(), -5, 1.5])
    policy = b.pick(["random", "greedy", "x", None])
    if which == 0:
        orders = _core.playouts(state, b.pick([0, 1, 3, -1, 2.0]), policy, seed)
        assert orders.shape[1] == 4
    elif which == 1:
        _core.choose(state, policy, seed)
    elif which == 2:
        _core.perft(state, b.pick([0, 1, 2, -1, 1.0]))
    elif which == 3:
        _core.deal_step(state, b.u64(), b.pick([PASS, b.u64()]))
    else:
        states = [state] + [_state(b) for _ in range(b.int(0, 2))]
        firsts = [b.word() for _ in range(b.int(0, 3))]
        _core.evaluate(states, firsts, b.pick([1, 2, 0]), policy, seed)


def rng(b: Bytes) -> None:
    _core.rng_draws(b.pick([0, b.u64(), -1, "s"]), [b.pick([0, 1, 6, b.u64(), -1, 2**64]) for _ in range(b.int(0, 4))])


def agents(b: Bytes) -> None:
    """The greedy agent's native scan and a deal's card-level moves from its packed hand."""
    lo, hi = _packed_row(b)
    if b.int(0, 1):
        moves = _core.packed_card_moves(lo, hi, b.level(), b.pick([PASS, b.word()]))
        assert moves.ndim == 2 and moves.shape[1] == 2
        return
    counts = b.counts()
    moves = _core.card_moves(counts, 2) if b.int(0, 7) else np.array([[b.u64(), b.u64()]], np.uint64)
    moves = b.shaped(moves)
    hand = b.pick([lo | hi << 64, b.u64() << 64 | b.u64(), -1, 2**108, "hand"])
    flags = [b.pick([True, False, 1, None]) for _ in range(3)]
    got = _core.greedy_choose(moves, b.level(), hand, b.pick([b.int(0, 108), -1, 109, 1.0]), *flags)
    assert 0 <= got < len(moves)


def _infoset(b: Bytes, state: tuple) -> object:
    """A seat's information set from a deal state's hands: often consistent, or junk."""
    if b.int(0, 15) == 0:
        return b.pick([None, (), (0,) * 8, "infoset"])
    hands = state[0] if isinstance(state[0], tuple) else (0, 0, 0, 0)
    seat = b.int(0, 3) if b.int(0, 7) else b.int(-1, 5)
    pool = sum(h for s, h in enumerate(hands) if s != seat) if b.int(0, 7) else b.u64()
    sizes = [0 if s == seat else size_of_bits(hands[s]) for s in range(4)]
    need = sizes if b.int(0, 7) else [b.int(-1, 30) for _ in range(4)]
    known = [b.u64() if b.int(0, 31) == 0 else 0 for _ in range(4)]
    forbid = [b.u64() if b.int(0, 31) == 0 else 0 for _ in range(4)]
    rows = [[b.pick([1, 2, 1, 2, b.u64() & 0xFFFFFF]) | b.int(0, 3) << 8 | b.int(0, 3) << 16, *_packed_row(b)]
            for _ in range(b.int(0, 3))]
    events = np.array(rows, dtype=np.uint64).reshape(-1, 3)
    return (seat, state[1], hands[seat] if 0 <= seat < 4 else 0, pool, known, forbid, need, b.shaped(events))


def searches(b: Bytes) -> None:
    """The search's doors: sampled deals and their weights, candidates, the search loop (tiny
    budgets), rollouts and the smart policy's move."""
    state = _state(b)
    if not isinstance(state, tuple) or len(state) != 7:
        state = ((0, 0, 0, 0), 2, 0, -1, PASS, 0, ())
    info = _infoset(b, state)
    sstate = state[1:] if b.int(0, 7) else b.pick([None, (2, 0, -1, PASS, 0), (2, 0, -1, PASS, 0, (), 1)])
    which = b.int(0, 5)
    if which == 0:
        deals = _core.sample_deals(info, b.pick([0, 1, 3, -1]), b.u64(), b.pick([1, 4, 0]), 0.5, 0.5)
        assert all(len(d) == 4 for d in deals)
    elif which == 1:
        _core.deal_weight(info, [b.u64() for _ in range(b.pick([4, 4, 3]))], b.pick([0.5, -1.0, 2.0]), 0.5)
    elif which == 2:
        cands = _core.search_candidates(info, sstate, b.pick([1, 4, 0, 5000]))
        assert cands.ndim == 1
    elif which == 3:
        cands = b.pick([[b.word() for _ in range(b.int(0, 4))], np.array([b.word()], np.uint64), [-1], [1.5]])
        params = SearchParams(b.pick([0, 1, 20, -1]), b.pick([0.0, 0.001, -1.0]), b.pick([1, 2, 0, 65]),
                              b.pick(["smart", "greedy", "random", "x"]), b.u64(), b.pick([1, 3, 0]), 0.5, 0.5,
                              b.pick(["levels", "wins", "x"]))  # fmt: skip
        values, played = _core.search(info, sstate, cands, params)
        assert played >= 0
    elif which == 4:
        orders = _core.rollouts(state, b.pick([0, 1, 3, -1]), b.pick(["smart", "greedy", "random", ["smart"] * 4, "x"]),
                                b.u64())
        assert orders.shape[1] == 4
    else:
        _core.smart_move(state)


TARGETS: list[Callable[[Bytes], None]] = [one_position, words_and_cards, batches, fills, deals, rng, agents, searches]


def test_one_input(data: bytes) -> None:
    b = Bytes(data)
    target = TARGETS[b.int(0, len(TARGETS) - 1)]
    try:
        target(b)
    except GuandanError:
        pass  # bad input, reported as it should be


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--replay":
        paths = []
        for arg in sys.argv[2:]:
            paths += [os.path.join(arg, f) for f in sorted(os.listdir(arg))] if os.path.isdir(arg) else [arg]
        for path in paths:
            with open(path, "rb") as f:
                test_one_input(f.read())
        print(f"replayed {len(paths)} inputs: no finding")
        return
    import atheris  # the coverage that guides it is the C core's (a GUANDAN_FUZZ build)

    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
