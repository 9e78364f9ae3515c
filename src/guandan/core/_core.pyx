# cython: language_level=3
"""The compiled core: packed hands and moves, legal-move generation without the GIL.

This is the thin typed boundary between Python and the C core in ``csrc/``; most
users want :mod:`guandan` (``guandan.legal_moves``, ``guandan.core.batch``). Levels are
rank numbers 2..14 here as everywhere in the Python API.

A hand is a count vector of 54 faces (``uint8``, 0..2 each: anything exposing the
buffer protocol, e.g. ``Cards.counts`` or a numpy row). A rank-level move is one
``uint64`` word, a card-level move two (see ``csrc/gd_core.h`` for the layout).

>>> from guandan import Cards
>>> hand = Cards.parse("S3 C4 D4 C5 D5 H2").counts
>>> count_rank_moves(hand, 2), count_card_moves(hand, 2)
(14, 18)
>>> len(rank_moves(hand, 2)) == 14
True
"""

from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

cimport cython
from cython.view cimport array as cvarray

# the C core's declarations: a .pxd per header of csrc/ (gd_core.h, gd_play.h, gd_agents.h, gd_search.h,
# gd_encode.h, gd_tables.h, gd_solve.h)
from .gd_agents cimport gd_greedy_choose, gd_greedy_seat
from .gd_core cimport (
    GD_DETAIL_COUNT,
    GD_DETAIL_FACE,
    GD_FACES,
    GD_MAX_RANK_MOVES,
    GD_PASS_MOVE,
    GD_POSITION_COUNTS,
    GD_POSITION_LEVEL,
    GD_POSITION_OK,
    GD_POSITION_PACKED,
    gd_card_moves,
    gd_card_to_rank,
    gd_cards,
    gd_check_cards,
    gd_check_move,
    gd_count_card_moves,
    gd_count_rank_moves,
    gd_init,
    gd_move,
    gd_move_error,
    gd_move_size,
    gd_pack_cards,
    gd_prepare,
    gd_prepare_packed,
    gd_rank_moves,
    gd_unpack_cards,
    gd_view,
    gd_view_init,
)
from .gd_encode cimport (
    GD_ACTION_SIZE,
    GD_ROW_SIZE,
    GD_STATE_SIZE,
    GD_WILD_FLAGS,
    gd_encode_actions,
    gd_encode_rows,
    gd_encode_state,
    gd_record,
    gd_record_apply,
    gd_record_init,
    gd_vector_index,
    gd_wild_flags,
)
from .gd_tables cimport (
    GD_EXTERNAL,
    GD_SPACE_SIZE,
    gd_deal_seeded,
    gd_space_index,
    gd_space_init,
    gd_table,
    gd_table_random_action,
    gd_table_card_moves,
    gd_table_mask,
    gd_table_play_card,
    gd_table_play_rank,
    gd_table_rank_legal,
    gd_table_start,
    gd_table_final_state,
    gd_table_state,
    gd_tables_config,
)
from .gd_play cimport (
    GD_POLICY_GREEDY,
    GD_POLICY_RANDOM,
    gd_choose,
    gd_deal,
    gd_deal_apply,
    gd_deal_check,
    gd_deal_error,
    gd_perft,
    gd_playout,
    gd_rng,
    gd_rng_below,
    gd_rng_next,
    gd_spend,
)
from .gd_search cimport (
    GD_EVENT_PASS,
    GD_EVENT_PLAY,
    GD_OBJECTIVE_LEVELS,
    GD_OBJECTIVE_TABLE,
    GD_OBJECTIVE_WINS,
    GD_FEATURES,
    GD_POLICY_LEARNED,
    GD_POLICY_SMART,
    GD_POLICY_WEIGHTS,
    GD_HIDDEN,
    GD_POLICY_NET,
    GD_TREE_MAX_MOVES,
    GD_TREE_MAX_NODES,
    gd_candidate_stats,
    gd_candidates,
    gd_deal_weight,
    gd_event,
    gd_infer,
    gd_infoset,
    gd_infoset_check,
    gd_infoset_error,
    gd_learned_move,
    gd_linear,
    gd_move_features,
    gd_policy_belief,
    gd_rollout_seats,
    gd_sample_deal,
    gd_sample_weighted,
    gd_search,
    gd_search_params,
    gd_smart_move,
    gd_stream,
)
from .gd_solve cimport gd_cards_left, gd_solve, gd_solve_entry, gd_solve_move, gd_solver

import numpy as np

gd_init()

#: The pass word; as a play to beat it means "lead".
PASS_MOVE = GD_PASS_MOVE
#: Room for the rank-level moves of any position.
MAX_RANK_MOVES = GD_MAX_RANK_MOVES

_FACE_NAMES = [("S", "H", "C", "D")[f % 4]
               + ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")[f // 4]
               for f in range(52)] + ["SB", "HR"]


_ERRORS = None


def _errors():
    """guandan.errors (imported on first use: this module is imported while the package is)."""
    global _ERRORS
    if _ERRORS is None:
        from guandan import errors
        _ERRORS = errors
    return _ERRORS


# -- checking input ---------------------------------------------------------------------------
#
# Every argument that reaches C is checked here first: a wrong type, dtype, shape, layout
# or value raises an error of guandan.errors (all ValueErrors) naming the argument, never a
# bare TypeError / OverflowError / BufferError from a conversion, and never a silent cast.


cdef str _describe(obj):
    """How an argument looks, for error messages (arrays by dtype, shape and layout)."""
    if isinstance(obj, np.ndarray):
        layout = "" if obj.flags.c_contiguous else ", not C-contiguous"
        layout += "" if obj.flags.writeable else ", read-only"
        return f"an array of dtype {obj.dtype} and shape {obj.shape}{layout}"
    return f"{type(obj).__name__} {obj!r:.60}"


cdef object _NP_INTEGER = np.integer


cdef bint _is_int(value):
    if type(value) is int:  # the common case first; a bool's type is bool
        return True
    return not isinstance(value, bool) and isinstance(value, (int, _NP_INTEGER))


cdef int _level_index(level) except -1:
    if not _is_int(level) or not 2 <= level <= 14:
        raise _errors().InvalidCardsError(f"level must be a rank number 2..14, got {level!r}")
    return <int>level - 2


cdef enum:  # which error a bad value raises (_WORD: a move word, named as such)
    _CARDS, _MOVE, _OTHER, _WORD


cdef uint64_t _u64(value, str what, int kind) except? 0:
    """An int 0..2**64-1 (a Python or numpy integer; never a float, a bool or a string)."""
    if not _is_int(value) or not 0 <= value < 2**64:
        errors = _errors()
        error = (errors.InvalidCardsError, errors.InvalidMoveError, errors.GuandanError, errors.InvalidMoveError)[kind]
        label = what + " (a packed move)" if kind == _WORD else what
        raise error(f"{label} must be an int 0..2**64-1, got {value!r:.60}")
    return <uint64_t>value


cdef uint64_t _seed(value) except? 0:
    """A seed: any int, taken modulo 2**64 (as guandan.core.rng.SplitMix64 does)."""
    if not _is_int(value):
        raise _errors().GuandanError(f"a seed is an int, got {value!r:.60}")
    return <uint64_t>(int(value) & _MASK64)


cdef Py_ssize_t _size(value, str what, Py_ssize_t lo, Py_ssize_t hi) except? -1:
    """A count or an index: an int lo..hi."""
    if not _is_int(value) or not lo <= value <= hi:
        raise _errors().GuandanError(f"{what} must be an int {lo}..{hi}, got {value!r:.60}")
    return <Py_ssize_t>value


#: The most rows (positions, playouts) one call makes or returns: keeps sizes in range.
_MAX_ROWS = 2**40


def _int_arg(value, str what, Py_ssize_t lo, Py_ssize_t hi):
    """A count or an index given to the library: a Python or numpy integer lo..hi (never a
    bool, a float or a string), as a Python int; :class:`~guandan.GuandanError` otherwise.

    >>> _int_arg(np.uint8(3), "n", 0, 10)
    3
    >>> _int_arg(3.0, "n", 0, 10)
    Traceback (most recent call last):
    ...
    guandan.errors.GuandanError: n must be an int 0..10, got 3.0
    """
    return _size(value, what, lo, hi)


cdef gd_move _checked_move(beat, str what="the play to beat") except? 0:
    cdef gd_move m = _u64(beat, what, _WORD)
    cdef int code = gd_check_move(m)
    if code:
        raise _errors().InvalidMoveError(f"{what} 0x{m:016x} is malformed: {gd_move_error(code).decode()}")
    return m


cdef bint _uint8_buffer(obj):
    """Whether an object's buffer holds unsigned bytes (format B), not bools or chars."""
    if isinstance(obj, np.ndarray):
        return obj.dtype.char == "B"
    try:
        with memoryview(obj) as m:
            return m.format == "B"
    except TypeError:
        return False


cdef const uint8_t[::1] _counts_arg(counts, str what="the hand"):
    """A count vector of 54 faces as a typed view: bytes, bytearray or a 1-D C-contiguous uint8 array."""
    cdef const uint8_t[::1] view
    if counts is None:
        raise _errors().InvalidCardsError(f"{what} must be a count vector of {GD_FACES} faces, got None")
    if type(counts) is not bytes and type(counts) is not bytearray and not _uint8_buffer(counts):
        raise _errors().InvalidCardsError(  # a typed view would take bools ('?') as counts
            f"{what} must be a count vector of {GD_FACES} faces (bytes, bytearray or a 1-D C-contiguous "
            f"uint8 array), got {_describe(counts)}")
    try:
        view = counts
    except (TypeError, ValueError, BufferError):
        raise _errors().InvalidCardsError(
            f"{what} must be a count vector of {GD_FACES} faces (bytes, bytearray or a 1-D C-contiguous "
            f"uint8 array), got {_describe(counts)}") from None
    if view.shape[0] != GD_FACES:
        raise _errors().InvalidCardsError(f"{what} must be a count vector of {GD_FACES} faces, got {view.shape[0]}")
    return view


cdef int _pack(counts, gd_cards *packed, str what="the hand") except -1:
    """Pack a count vector argument. Its buffer is read once, into a local copy, and only the
    copy is checked, packed and named in an error (the caller's memory may change meanwhile)."""
    cdef const uint8_t[::1] view = _counts_arg(counts, what)
    cdef uint8_t local[54]
    memcpy(local, &view[0], GD_FACES)
    cdef int bad = gd_pack_cards(local, packed)
    if bad >= 0:
        raise _errors().InvalidCardsError(
            f"too many copies of {_FACE_NAMES[bad]}: {local[bad]} (the double deck has 2)")
    return 0


cdef int _view_of(counts, int level, gd_view *view) except -1:
    cdef gd_cards packed
    _pack(counts, &packed)
    gd_view_init(view, &packed, level)
    return 0


cdef int _check_packed(const gd_cards *packed) except -1:
    cdef int bad = gd_check_cards(packed)
    if bad >= 0:
        raise _errors().InvalidCardsError(
            "packed cards have bits set beyond the 54 faces" if bad == GD_FACES
            else f"packed cards hold 3 copies of {_FACE_NAMES[bad]}")
    return 0


cdef str _policy_name(policy):
    if not isinstance(policy, str) or policy not in POLICIES:
        raise _errors().GuandanError(f"policy must be one of {sorted(POLICIES)}, got {policy!r}")
    return policy


# -- packed moves and hands, one at a time ----------------------------------------------------


def check_move(beat):
    """Raise :class:`~guandan.InvalidMoveError` unless ``beat`` is a well-formed rank-level move word."""
    _checked_move(beat, "the move")


def move_size(m):
    """How many cards a rank-level move word spends (the word is checked)."""
    return gd_move_size(_checked_move(m, "the move"))


def pack_cards(counts):
    """Pack a count vector of 54 faces (uint8, 0..2 each) into two 64-bit words.

    >>> import numpy as np
    >>> pack_cards(np.array([1] + [0] * 52 + [2], dtype=np.uint8))
    (1, 8796093022208)
    """
    cdef gd_cards packed
    _pack(counts, &packed, "counts")
    return packed.w[0], packed.w[1]


def unpack_cards(lo, hi):
    """The count vector (bytes of 54 faces) of two packed words; the inverse of :func:`pack_cards`.

    The declaration bits of a card-level move (bits 52..63 of ``hi``) are ignored.
    """
    cdef gd_cards packed
    cdef uint8_t counts[54]
    packed.w[0] = _u64(lo, "lo", _CARDS)
    packed.w[1] = _u64(hi, "hi", _CARDS) & ((1 << 52) - 1)
    _check_packed(&packed)
    gd_unpack_cards(&packed, counts)
    return PyBytes_FromStringAndSize(<char *>counts, GD_FACES)


def card_to_rank(lo, hi, level):
    """The rank-level word of a card-level move at a level (the cards are checked, not the declaration)."""
    cdef uint64_t w0 = _u64(lo, "lo", _CARDS), w1 = _u64(hi, "hi", _CARDS)
    cdef int lvl = _level_index(level)
    cdef gd_cards packed
    packed.w[0] = w0
    packed.w[1] = w1 & ((1 << 52) - 1)
    _check_packed(&packed)
    return gd_card_to_rank(w0, w1, lvl)


# -- the legal moves of one position ----------------------------------------------------------


cdef gd_move _position(counts, level, beat, gd_view *view) except? 0:
    """Check one position's arguments and prepare its view; the play to beat's word."""
    cdef int lvl = _level_index(level)
    cdef gd_move b = _checked_move(beat)
    _view_of(counts, lvl, view)
    return b


cdef object _words(const gd_move *buf, size_t n):
    """The first ``n`` rank-level words of ``buf`` as a new ``uint64`` array."""
    out = np.empty(n, dtype=np.uint64)
    cdef uint64_t[::1] o = out
    if n:
        memcpy(&o[0], buf, n * sizeof(gd_move))
    return out


def rank_moves(counts, level, beat=GD_PASS_MOVE):
    """The legal rank-level moves of a position as a ``uint64`` array (the pass last when responding).

    ``beat`` is the rank-level word of the play to beat, :data:`PASS_MOVE` to lead.
    """
    cdef gd_view view
    cdef gd_move b = _position(counts, level, beat, &view)
    cdef gd_move buf[GD_MAX_RANK_MOVES]
    cdef size_t n
    with nogil:
        n = gd_rank_moves(&view, b, buf)
    return _words(buf, n)


def count_rank_moves(counts, level, beat=GD_PASS_MOVE):
    """How many legal rank-level moves a position has (the pass included when responding)."""
    cdef gd_view view
    cdef gd_move b = _position(counts, level, beat, &view)
    return gd_count_rank_moves(&view, b)


def card_moves(counts, level, beat=GD_PASS_MOVE):
    """The legal card-level moves of a position as a ``uint64`` array of shape ``(n, 2)``."""
    cdef gd_view view
    cdef gd_move b = _position(counts, level, beat, &view)
    cdef size_t n
    with nogil:
        n = gd_count_card_moves(&view, b)
    out = np.empty((n, 2), dtype=np.uint64)
    cdef uint64_t[:, ::1] o = out
    if n:
        with nogil:
            gd_card_moves(&view, b, &o[0, 0], n)
    return out


def count_card_moves(counts, level, beat=GD_PASS_MOVE):
    """How many legal card-level moves a position has (the pass included when responding)."""
    cdef gd_view view
    cdef gd_move b = _position(counts, level, beat, &view)
    return gd_count_card_moves(&view, b)


# -- the legal moves of a batch of positions --------------------------------------------------


def _check_batch(hands, levels, beats, packed=False):
    """Check the arrays of a batch (never converted silently): ``hands`` ``uint8 (N, 54)``
    counts, or with ``packed`` true ``uint64 (N, 2)`` packed hands."""
    errors = _errors()
    cdef bint pk = _packed_arg(packed)
    for name, arr, dtype, ndim in (("hands", hands, np.uint64 if pk else np.uint8, 2),
                                   ("levels", levels, np.uint8, 1), ("beats", beats, np.uint64, 1)):
        if not isinstance(arr, np.ndarray):
            raise errors.InvalidCardsError(
                f"{name} must be a numpy array of {np.dtype(dtype).name}, got {type(arr).__name__}")
        if arr.dtype != dtype:
            note = ""
            if name == "hands" and pk:
                note = " (packed hands)"
            elif name == "hands" and arr.dtype == np.uint64:
                note = " (counts; packed hands need packed=True)"
            raise errors.InvalidCardsError(f"{name} must have dtype {np.dtype(dtype).name}{note}, got {arr.dtype}")
        if arr.ndim != ndim:
            raise errors.InvalidCardsError(f"{name} must have {ndim} dimension(s), got shape {arr.shape}")
        if not arr.flags.c_contiguous:
            raise errors.InvalidCardsError(f"{name} must be C-contiguous (use numpy.ascontiguousarray)")
    if hands.shape[1] != (2 if pk else GD_FACES):
        raise errors.InvalidCardsError(
            f"packed hands must have shape (N, 2), got {hands.shape}" if pk
            else f"hands must have shape (N, {GD_FACES}), got {hands.shape}")
    n = hands.shape[0]
    if levels.shape[0] != n or beats.shape[0] != n:
        raise errors.InvalidCardsError(
            f"hands, levels and beats must have the same length, got {n}, {levels.shape[0]}, {beats.shape[0]}")


cdef bint _packed_arg(packed) except -1:
    """The ``packed`` flag of a batch call: True or False (a Python or numpy bool), nothing else."""
    if packed is True or packed is False or isinstance(packed, np.bool_):
        return bool(packed)
    raise _errors().GuandanError(f"packed must be True or False, got {_describe(packed)}")


cdef struct _hands:
    bint packed
    const uint8_t *counts   # row i: counts + 54 i (packed false)
    const gd_cards *cards   # row i: cards + i (packed true)


@cython.auto_pickle(False)
cdef class _HandRows:
    """A checked batch's hands, held for the call (its typed view keeps the buffer exported),
    and where its rows start."""
    cdef const uint8_t[:, ::1] counts
    cdef const uint64_t[:, ::1] words
    cdef _hands src

    def __cinit__(self, hands, bint packed):
        self.src.packed = packed
        self.src.counts = NULL
        self.src.cards = NULL
        if packed:
            self.words = hands
            if self.words.shape[0]:
                self.src.cards = <const gd_cards *>&self.words[0, 0]
        else:
            self.counts = hands
            if self.counts.shape[0]:
                self.src.counts = &self.counts[0, 0]


cdef object _range(Py_ssize_t n, start, end):
    """The positions start..end of a batch of n: ints with 0 <= start <= end <= n (end None: n)."""
    cdef Py_ssize_t s = _size(start, "start", 0, n)
    cdef Py_ssize_t e = n if end is None else _size(end, "end", 0, n)
    if s > e:
        raise _errors().GuandanError(f"bad range {s}..{e} of {n} positions")
    return s, e


cdef int _check_array_out(out, dtype, tuple shape, str what) except -1:
    """A caller's output array: exactly this dtype and shape, C-contiguous, writable."""
    if (not isinstance(out, np.ndarray) or out.dtype != dtype or out.shape != shape
            or not out.flags.c_contiguous or not out.flags.writeable):
        raise _errors().InvalidCardsError(
            f"{what} must be a writable C-contiguous {np.dtype(dtype).name} array of shape {shape}, "
            f"got {_describe(out)}")
    return 0


# One position of a batch, read once. The caller's arrays may change while the core runs
# (another thread, shared memory), so each position's level and play to beat are copied into
# a _batch_position (C locals) and its counts are read once by gd_prepare (which packs what
# it checked, and reports a bad count's value); only these copies are checked, generated
# from and named in an error (a second read of b[i] after the check let an unchecked word
# reach the generator).
cdef struct _batch_position:
    uint8_t level
    gd_move beat


cdef inline int _prepare(_batch_position *p, const _hands *src, Py_ssize_t i, uint8_t level, gd_move beat,
                         gd_view *view, int *detail) noexcept nogil:
    """Read a position's level and play to beat once, check them and the hand, prepare the view."""
    p.level = level
    p.beat = beat
    if src.packed:
        return gd_prepare_packed(src.cards + i, level, beat, view, detail)
    return gd_prepare(src.counts + GD_FACES * i, level, beat, view, detail)


cdef int _raise_position(int what, Py_ssize_t i, int detail, const _batch_position *p) except -1:
    """Raise the error gd_prepare reported for position i (naming the values it checked)."""
    if what == GD_POSITION_LEVEL:
        raise _errors().InvalidCardsError(f"position {i}: level must be a rank number 2..14, got {p.level}")
    if what == GD_POSITION_COUNTS:
        raise _errors().InvalidCardsError(
            f"position {i}: too many copies of {_FACE_NAMES[GD_DETAIL_FACE(detail)]}: {GD_DETAIL_COUNT(detail)} "
            f"(the double deck has 2)")
    if what == GD_POSITION_PACKED:
        raise _errors().InvalidCardsError(
            f"position {i}: the packed hand has bits set beyond the 54 faces" if detail == GD_FACES
            else f"position {i}: the packed hand holds 3 copies of {_FACE_NAMES[detail]} (the double deck has 2)")
    raise _errors().InvalidMoveError(
        f"position {i}: the play to beat 0x{p.beat:016x} is malformed: {gd_move_error(detail).decode()}")


def batch_count(hands, levels, beats, granularity="rank", start=0, end=None, out=None, packed=False):
    """Count the legal moves of N positions: an ``int64`` array of shape ``(N,)``.

    ``hands`` is ``uint8 (N, 54)``, or with ``packed=True`` ``uint64 (N, 2)`` (packed hands,
    :func:`batch_pack`), ``levels`` ``uint8 (N,)`` (2..14), ``beats`` ``uint64 (N,)``
    (rank-level words, :data:`PASS_MOVE` to lead). ``start``/``end`` restrict the work to a
    slice of the positions and ``out`` receives it (used to split a batch across threads).
    Every batch call takes ``packed`` the same way.
    """
    _check_batch(hands, levels, beats, packed)
    cdef _HandRows rows = _HandRows(hands, packed)
    cdef const _hands *src = &rows.src
    cdef Py_ssize_t n = hands.shape[0], s, e, i
    s, e = _range(n, start, end)
    cdef bint card = _card_granularity(granularity)
    if out is None:
        out = np.zeros(n, dtype=np.int64)
    else:
        _check_array_out(out, np.int64, (n,), "out")
    cdef int64_t[::1] o = out
    cdef const uint8_t[::1] lv = levels
    cdef const uint64_t[::1] b = beats
    cdef gd_view view
    cdef _batch_position p
    cdef int what = GD_POSITION_OK, detail = 0
    with nogil:
        for i in range(s, e):
            what = _prepare(&p, src, i, lv[i], b[i], &view, &detail)
            if what != GD_POSITION_OK:
                break
            o[i] = gd_count_card_moves(&view, p.beat) if card else gd_count_rank_moves(&view, p.beat)
    if what != GD_POSITION_OK:
        _raise_position(what, i, detail, &p)
    return out


cdef bint _card_granularity(granularity) except -1:
    if isinstance(granularity, str):  # first: an array compared with a string is an array
        if granularity == "card":
            return True
        if granularity == "rank":
            return False
    raise _errors().GuandanError(f"granularity must be 'card' or 'rank', got {_describe(granularity)}")


def batch_rank_moves(hands, levels, beats, start=0, end=None, packed=False):
    """The legal rank-level moves of N positions: ``(moves, offsets)``.

    ``moves`` is a ``uint64`` array of all the moves, position after position, and
    ``offsets`` an ``int64`` array of N + 1 entries: position i's moves are
    ``moves[offsets[i]:offsets[i + 1]]``. One pass, no per-position allocation.
    """
    _check_batch(hands, levels, beats, packed)
    cdef _HandRows rows = _HandRows(hands, packed)
    cdef const _hands *src = &rows.src
    cdef Py_ssize_t n = hands.shape[0], first, e, i
    first, e = _range(n, start, end)
    offsets = np.zeros(e - first + 1, dtype=np.int64)
    cdef int64_t[::1] off = offsets
    cdef const uint64_t[::1] b = beats
    cdef size_t cap = 64 * (e - first) + GD_MAX_RANK_MOVES, used = 0
    cdef gd_move *buf = <gd_move *>malloc(cap * sizeof(gd_move))
    cdef gd_move *grown
    cdef const uint8_t[::1] lv = levels
    cdef gd_view view
    cdef _batch_position p
    cdef int what = GD_POSITION_OK, detail = 0
    cdef bint out_of_memory = False
    if buf == NULL:
        raise MemoryError()
    with nogil:
        for i in range(first, e):
            what = _prepare(&p, src, i, lv[i], b[i], &view, &detail)
            if what != GD_POSITION_OK:
                break
            if cap - used < GD_MAX_RANK_MOVES:
                grown = <gd_move *>realloc(buf, 2 * cap * sizeof(gd_move))
                if grown == NULL:
                    out_of_memory = True
                    break
                buf = grown
                cap *= 2
            used += gd_rank_moves(&view, p.beat, buf + used)
            off[i - first + 1] = used
    if out_of_memory or what != GD_POSITION_OK:
        free(buf)
        if out_of_memory:
            raise MemoryError()
        _raise_position(what, i, detail, &p)
    return _adopt(buf, used), offsets


cdef object _adopt(gd_move *buf, size_t used):
    """A numpy array owning a malloc'd buffer (shrunk to fit), without copying."""
    cdef gd_move *fit = <gd_move *>realloc(buf, max(used, 1) * sizeof(gd_move))
    if fit != NULL:
        buf = fit
    cdef cvarray arr = cvarray(shape=(max(used, 1),), itemsize=sizeof(gd_move), format="Q",
                               mode="c", allocate_buffer=False)
    arr.data = <char *>buf
    arr.callback_free_data = free
    return np.asarray(arr)[:<Py_ssize_t>used]


def batch_card_moves(hands, levels, beats, start=0, end=None, packed=False):
    """The legal card-level moves of N positions: ``(moves, offsets)``, ``moves`` of shape ``(M, 2)``.

    One pass into a growing buffer; a position that does not fit is redone after growing it.
    """
    _check_batch(hands, levels, beats, packed)
    cdef _HandRows rows = _HandRows(hands, packed)
    cdef const _hands *src = &rows.src
    cdef Py_ssize_t n = hands.shape[0], first, e, i
    first, e = _range(n, start, end)
    offsets = np.zeros(e - first + 1, dtype=np.int64)
    cdef int64_t[::1] off = offsets
    cdef const uint8_t[::1] lv = levels
    cdef const uint64_t[::1] b = beats
    cdef size_t cap = 256 * (e - first) + 4096, used = 0, k  # in moves (2 words each)
    cdef uint64_t *buf = <uint64_t *>malloc(cap * 2 * sizeof(uint64_t))
    cdef uint64_t *grown
    cdef gd_view view
    cdef _batch_position p
    cdef int what = GD_POSITION_OK, detail = 0
    cdef bint out_of_memory = False
    if buf == NULL:
        raise MemoryError()
    with nogil:
        for i in range(first, e):
            what = _prepare(&p, src, i, lv[i], b[i], &view, &detail)
            if what != GD_POSITION_OK:
                break
            k = gd_card_moves(&view, p.beat, buf + 2 * used, cap - used)
            if k > cap - used:
                while k > cap - used:
                    cap *= 2
                grown = <uint64_t *>realloc(buf, cap * 2 * sizeof(uint64_t))
                if grown == NULL:
                    out_of_memory = True
                    break
                buf = grown
                gd_card_moves(&view, p.beat, buf + 2 * used, cap - used)
            used += k
            off[i - first + 1] = used
    if out_of_memory or what != GD_POSITION_OK:
        free(buf)
        if out_of_memory:
            raise MemoryError()
        _raise_position(what, i, detail, &p)
    return _adopt(buf, 2 * used).reshape(-1, 2), offsets


def batch_pack(hands):
    """Pack N count rows (``uint8 (N, 54)``) into the core's layout: ``uint64 (N, 2)``, 2 bits a
    face (the words of :func:`pack_cards`), for the batch calls' ``packed=True``.

    >>> batch_pack(np.array([[1] + [0] * 52 + [2]], dtype=np.uint8)).tolist()
    [[1, 8796093022208]]
    """
    errors = _errors()
    if (not isinstance(hands, np.ndarray) or hands.dtype != np.uint8 or hands.ndim != 2
            or hands.shape[1] != GD_FACES or not hands.flags.c_contiguous):
        raise errors.InvalidCardsError(
            f"hands must be a C-contiguous uint8 array of shape (N, {GD_FACES}), got {_describe(hands)}")
    cdef Py_ssize_t n = hands.shape[0], i = 0
    out = np.empty((n, 2), dtype=np.uint64)
    cdef uint64_t[:, ::1] o = out
    cdef const uint8_t[:, ::1] h = hands
    cdef uint8_t row[54]  # each row read once: only this copy is checked, packed and named
    cdef gd_cards packed
    cdef int bad = -1
    with nogil:
        while i < n:
            memcpy(row, &h[i, 0], GD_FACES)
            bad = gd_pack_cards(row, &packed)
            if bad >= 0:
                break
            o[i, 0] = packed.w[0]
            o[i, 1] = packed.w[1]
            i += 1
    if bad >= 0:
        raise errors.InvalidCardsError(
            f"position {i}: too many copies of {_FACE_NAMES[bad]}: {row[bad]} (the double deck has 2)")
    return out


# -- a fixed action space for rank-level moves ------------------------------------------------


cdef Py_ssize_t _action_index(const uint64_t[::1] space, uint64_t word) noexcept nogil:
    """Binary search of a word in the sorted action space; -1 if absent."""
    cdef Py_ssize_t lo = 0, hi = space.shape[0], mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if space[mid] < word:
            lo = mid + 1
        else:
            hi = mid
    if lo < space.shape[0] and space[lo] == word:
        return lo
    return -1


def _build_action_space():
    deck = bytes([2]) * GD_FACES
    words = [rank_moves(deck, level) for level in range(2, 15)]
    words.append(np.array([GD_PASS_MOVE], dtype=np.uint64))
    space = np.unique(np.concatenate(words))
    space.flags.writeable = False
    return space


#: Every rank-level move any position can have at any level (the whole double deck led at
#: each level, and the pass), sorted by packed word: index i stands for ACTION_SPACE[i].
ACTION_SPACE = _build_action_space()


def batch_mask(hands, levels, beats, start=0, end=None, out=None, packed=False):
    """Legal-move masks of N positions over :data:`ACTION_SPACE`: ``bool (N, len(ACTION_SPACE))``.

    ``out[i, a]`` is true when ``ACTION_SPACE[a]`` is a legal rank-level move of position i.
    With ``out`` given, its rows ``start..end`` are overwritten (whatever they held).
    """
    _check_batch(hands, levels, beats, packed)
    cdef _HandRows rows = _HandRows(hands, packed)
    cdef const _hands *src = &rows.src
    cdef Py_ssize_t n = hands.shape[0], first, e, i, a
    first, e = _range(n, start, end)
    cdef const uint64_t[::1] space = ACTION_SPACE
    cdef bint clear = out is not None
    if out is None:
        out = np.zeros((n, space.shape[0]), dtype=np.bool_)
    else:
        _check_array_out(out, np.bool_, (n, space.shape[0]), "out")
    cdef uint8_t[:, ::1] o = out.view(np.uint8)
    cdef const uint64_t[::1] b = beats
    cdef gd_move buf[GD_MAX_RANK_MOVES]
    cdef size_t k, j
    cdef const uint8_t[::1] lv = levels
    cdef gd_view view
    cdef _batch_position p
    cdef int what = GD_POSITION_OK, detail = 0
    with nogil:
        for i in range(first, e):
            what = _prepare(&p, src, i, lv[i], b[i], &view, &detail)
            if what != GD_POSITION_OK:
                break
            k = gd_rank_moves(&view, p.beat, buf)
            if clear:
                memset(&o[i, 0], 0, o.shape[1])
            for j in range(k):
                a = _action_index(space, buf[j])
                if a >= 0:  # always: the whole deck bounds every hand (tested)
                    o[i, a] = 1
    if what != GD_POSITION_OK:
        _raise_position(what, i, detail, &p)
    return out


cdef object _words_arg(words, str what):
    """Rank-level words as a private C-contiguous ``uint64`` array: integers 0..2**64-1, never
    converted silently from floats, bools or strings. A caller's array is copied first (read
    once): the checks and the result are of the copy, which nobody else can change."""
    errors = _errors()
    if isinstance(words, np.ndarray):
        arr = words.copy(order="C")
        if arr.dtype == np.uint64:
            return arr
    else:  # element by element: numpy would turn a list mixing ints >= 2**63 and others into floats
        try:
            arr = np.array(words, dtype=object)
        except (TypeError, ValueError, OverflowError):
            raise errors.InvalidMoveError(
                f"{what} must be integers (rank-level words), got {_describe(words)}") from None
    if arr.dtype.kind not in "iuO":
        raise errors.InvalidMoveError(f"{what} must be integers (rank-level words), got {_describe(arr)}")
    if arr.size == 0:
        return np.zeros(arr.shape, dtype=np.uint64)
    if arr.dtype.kind in "iu":
        if arr.min() < 0:
            raise errors.InvalidMoveError(f"{what} must be integers 0..2**64-1, got {int(arr.min())}")
        return arr.astype(np.uint64)
    flat = arr.ravel().tolist()
    for w in flat:
        if not _is_int(w) or not 0 <= w < 2**64:
            raise errors.InvalidMoveError(f"{what} must be integers 0..2**64-1 (rank-level words), got {w!r:.60}")
    return np.array(flat, dtype=np.uint64).reshape(arr.shape)


def action_indices(words):
    """The action-space indices of rank-level words (``uint64`` array); raises if one is not an action."""
    words = _words_arg(words, "words")
    if words.size == 0:
        return np.zeros(words.shape, dtype=np.intp)
    idx = np.searchsorted(ACTION_SPACE, words)
    idx = np.minimum(idx, len(ACTION_SPACE) - 1)
    bad = ACTION_SPACE[idx] != words
    if np.any(bad):
        raise _errors().InvalidMoveError(f"0x{int(words[bad][0]):016x} is not in the action space")
    return idx


# -- filling a caller's buffer ------------------------------------------------------------------


def _check_out(out, offsets, Py_ssize_t positions, int width):
    errors = _errors()
    shape = "(M,)" if width == 1 else "(M, 2)"
    if (not isinstance(out, np.ndarray) or out.dtype != np.uint64 or out.ndim != (1 if width == 1 else 2)
            or (width == 2 and out.shape[1] != 2) or not out.flags.c_contiguous or not out.flags.writeable):
        raise errors.InvalidCardsError(f"out must be a writable C-contiguous uint64 array of shape {shape}")
    if (not isinstance(offsets, np.ndarray) or offsets.dtype != np.int64 or offsets.ndim != 1
            or not offsets.flags.c_contiguous or not offsets.flags.writeable):
        raise errors.InvalidCardsError("offsets must be a writable C-contiguous int64 array")
    if offsets.shape[0] < positions + 1:
        raise errors.InvalidCardsError(f"offsets needs room for {positions + 1} entries, has {offsets.shape[0]}")


def fill_rank_moves(hands, levels, beats, start, end, out, offsets, packed=False):
    """Write the rank-level moves of positions ``start``, ``start + 1``, … into ``out`` while
    there is room for any position (:data:`MAX_RANK_MOVES`), and return the position where it
    stopped. ``offsets[k]`` is where position ``start + k``'s moves begin (``offsets[0] = 0``).
    """
    _check_batch(hands, levels, beats, packed)
    cdef _HandRows rows = _HandRows(hands, packed)
    cdef const _hands *src = &rows.src
    cdef Py_ssize_t n = hands.shape[0], first, last, i
    first, last = _range(n, start, end)
    i = first
    _check_out(out, offsets, last - first, 1)
    if out.shape[0] < GD_MAX_RANK_MOVES:
        raise _errors().InvalidCardsError(f"out must hold at least {GD_MAX_RANK_MOVES} moves, holds {out.shape[0]}")
    cdef uint64_t[::1] o = out
    cdef int64_t[::1] off = offsets
    cdef const uint8_t[::1] lv = levels
    cdef const uint64_t[::1] b = beats
    cdef size_t cap = o.shape[0], used = 0
    cdef gd_view view
    cdef _batch_position p
    cdef int what = GD_POSITION_OK, detail = 0
    off[0] = 0
    with nogil:
        while i < last and cap - used >= GD_MAX_RANK_MOVES:
            what = _prepare(&p, src, i, lv[i], b[i], &view, &detail)
            if what != GD_POSITION_OK:
                break
            used += gd_rank_moves(&view, p.beat, &o[used])
            off[i - first + 1] = used
            i += 1
    if what != GD_POSITION_OK:
        _raise_position(what, i, detail, &p)
    return i


def fill_card_moves(hands, levels, beats, start, end, out, offsets, packed=False):
    """Write the card-level moves of positions ``start``, ``start + 1``, … into ``out``
    (``uint64 (M, 2)``) while they fit, and return the position where it stopped; raise if
    the first one alone does not fit. ``offsets`` as for :func:`fill_rank_moves`.
    """
    _check_batch(hands, levels, beats, packed)
    cdef _HandRows rows = _HandRows(hands, packed)
    cdef const _hands *src = &rows.src
    cdef Py_ssize_t n = hands.shape[0], first, last, i
    first, last = _range(n, start, end)
    i = first
    _check_out(out, offsets, last - first, 2)
    cdef uint64_t[:, ::1] o = out
    cdef int64_t[::1] off = offsets
    cdef const uint8_t[::1] lv = levels
    cdef const uint64_t[::1] b = beats
    cdef size_t cap = o.shape[0], used = 0, k = 0
    cdef gd_view view
    cdef _batch_position p
    cdef int what = GD_POSITION_OK, detail = 0
    off[0] = 0
    with nogil:
        while i < last:
            what = _prepare(&p, src, i, lv[i], b[i], &view, &detail)
            if what != GD_POSITION_OK:
                break
            k = gd_card_moves(&view, p.beat, &o[0, 0] + 2 * used if cap else NULL, cap - used)
            if k > cap - used:
                break
            used += k
            off[i - first + 1] = used
            i += 1
    if what != GD_POSITION_OK:
        _raise_position(what, i, detail, &p)
    if i == first and first < last:
        raise _errors().InvalidCardsError(f"out holds {cap} moves; position {first} alone has {k}")
    return i


# -- native deals: the trick flow, playouts, perft ----------------------------------------------


cdef int _packed_hand_arg(value, gd_cards *out, str what) except -1:
    """A packed hand into ``out``: an int 0 <= value < 2**108 (2 bits a face, the gd_cards
    layout) holding at most 2 copies of a face; ``what`` names it in the errors."""
    if not _is_int(value) or not 0 <= value < _LIMIT108:
        raise _errors().InvalidCardsError(f"{what}: a packed hand is an int below 2**108, got {value!r:.60}")
    value = int(value)
    out.w[0] = <uint64_t>(value & _MASK64)
    out.w[1] = <uint64_t>(value >> 64)
    cdef int bad = gd_check_cards(out)
    if bad >= 0:
        raise _errors().InvalidCardsError(
            f"{what}: packed cards have bits set beyond the 54 faces" if bad == GD_FACES
            else f"{what}: packed cards hold 3 copies of {_FACE_NAMES[bad]}")
    return 0


_MASK64 = (1 << 64) - 1
POLICIES = {"random": GD_POLICY_RANDOM, "greedy": GD_POLICY_GREEDY}


cdef object _LIMIT108 = 1 << 108


cdef int _seat_arg(value, str name, int lo) except -99:
    """A seat or a count of passes in a deal state: an int lo..3 (a Python or numpy integer)."""
    if not _is_int(value) or not lo <= value <= 3:
        raise _errors().InvalidMoveError(f"{name} must be an int {lo}..3, got {value!r:.60}")
    return <int>value


cdef int _deal_from(state, gd_deal *d) except -1:
    """Fill a gd_deal from (hands, level, turn, last, beat, passes, finished): hands as four
    packed ints (2 bits a face, the gd_cards layout) or a uint8 (4, 54) count array, level a
    rank number 2..14, last the seat of the play to beat or -1, beat its rank-level word."""
    errors = _errors()
    try:
        hands, level, turn, last, beat, passes, finished = state
    except (TypeError, ValueError):
        raise errors.InvalidMoveError(
            "a deal state is (hands, level, turn, last, beat, passes, finished)") from None
    cdef int s, bad
    cdef const uint8_t[:, ::1] counts
    cdef uint8_t rows[4][54]  # the caller's array read once: only this copy is checked and used
    if isinstance(hands, np.ndarray):
        if hands.dtype != np.uint8 or hands.shape != (4, GD_FACES) or not hands.flags.c_contiguous:
            raise errors.InvalidCardsError(
                f"hands must be a C-contiguous uint8 array of shape (4, 54), got {_describe(hands)}")
        counts = hands
        memcpy(rows, &counts[0, 0], sizeof(rows))
        for s in range(4):
            bad = gd_pack_cards(rows[s], &d.hands[s])
            if bad >= 0:
                raise errors.InvalidCardsError(f"hands[{s}] (seat {s}): too many copies of {_FACE_NAMES[bad]}: "
                                               f"{rows[s][bad]} (the double deck has 2)")
    else:
        if not isinstance(hands, (tuple, list)) or len(hands) != 4:
            raise errors.InvalidCardsError(
                f"a deal's hands are four packed ints or a uint8 (4, 54) array, got {_describe(hands)}")
        for s in range(4):
            h = hands[s]
            if not _is_int(h) or not 0 <= h < _LIMIT108:
                raise errors.InvalidCardsError(
                    f"hands[{s}] (seat {s}): a packed hand is an int below 2**108, got {h!r:.60}")
            h = int(h)
            d.hands[s].w[0] = <uint64_t>(h & _MASK64)
            d.hands[s].w[1] = <uint64_t>(h >> 64)
    d.level = _level_index(level)
    d.turn = _seat_arg(turn, "turn", 0)
    d.last = _seat_arg(last, "last", -1)
    d.passes = _seat_arg(passes, "passes", 0)
    d.beat = _checked_move(beat)
    if type(finished) is not tuple:
        if not isinstance(finished, (tuple, list)):
            raise errors.InvalidMoveError(
                f"finished must be a tuple of at most three seats 0..3, got {_describe(finished)}")
        finished = tuple(finished)
    if len(finished) > 3:
        raise errors.InvalidMoveError(f"finished must list at most three seats 0..3, got {finished!r}")
    d.n_finished = len(finished)
    for s in range(d.n_finished):
        x = finished[s]
        if not _is_int(x) or not 0 <= x <= 3:
            raise errors.InvalidMoveError(f"finished must list at most three seats 0..3, got {finished!r}")
        d.finished[s] = <uint8_t>x
    d.over = 0
    cdef int code = gd_deal_check(d)
    if code:
        raise errors.InvalidMoveError(f"inconsistent deal state: {gd_deal_error(code).decode()}")
    return 0


cdef object _state_of(const gd_deal *d):
    hands = tuple(int(d.hands[s].w[0]) | int(d.hands[s].w[1]) << 64 for s in range(4))
    finished = tuple(int(d.finished[s]) for s in range(d.n_finished))
    return hands, d.level + 2, d.turn, d.last, d.beat, d.passes, finished


def deal_step(state, lo, hi):
    """Play a card-level move (two words) for the seat to act: ``(state, over)`` after it.

    The move must be legal (it is checked against the seat's card-level moves)."""
    cdef gd_deal d
    _deal_from(state, &d)
    lo = _u64(lo, "lo", _MOVE)
    hi = _u64(hi, "hi", _MOVE)
    legal = card_moves(_counts_of(&d.hands[d.turn]), d.level + 2, d.beat)
    if not np.any((legal[:, 0] == lo) & (legal[:, 1] == hi)):
        raise _errors().IllegalMoveError(f"0x{hi:016x}{lo:016x} is not a legal move of seat {d.turn}")
    cdef gd_cards spent
    spent.w[0] = lo
    spent.w[1] = hi & ((1 << 52) - 1)
    gd_deal_apply(&d, gd_card_to_rank(lo, hi, d.level), &spent)
    return _state_of(&d), bool(d.over)


cdef bytes _counts_of(const gd_cards *c):
    cdef uint8_t counts[54]
    gd_unpack_cards(c, counts)
    return PyBytes_FromStringAndSize(<char *>counts, GD_FACES)


def playouts(state, n, policy="random", seed=0):
    """Play ``n`` deals to the end from one state with a built-in policy (``random``:
    uniform over rank-level moves; ``greedy``), in the native core without the GIL.

    Returns an ``int8 (n, 4)`` array of finish orders (seats, 1st place first; -1 for
    places never decided, the two losers of a double-down). Playout i continues one
    SplitMix64 stream seeded with ``seed``, so the results depend only on the state, n,
    the policy and the seed.
    """
    cdef gd_deal start, d
    _deal_from(state, &start)
    cdef int pol = POLICIES[_policy_name(policy)]
    cdef Py_ssize_t count = _size(n, "n", 0, _MAX_ROWS)
    cdef gd_rng rng
    rng.state = _seed(seed)
    out = np.full((count, 4), -1, dtype=np.int8)
    cdef int8_t[:, ::1] o = out
    cdef Py_ssize_t i
    cdef int k, seat, placed
    with nogil:
        for i in range(count):
            d = start
            gd_playout(&d, pol, &rng)
            for k in range(d.n_finished):
                o[i, k] = d.finished[k]
            if d.n_finished == 3:  # the seat left holding cards is 4th
                placed = 0
                for k in range(3):
                    placed |= 1 << d.finished[k]
                for seat in range(4):
                    if not (placed >> seat) & 1:
                        o[i, 3] = seat
    return out


cdef tuple _word_and_spent(const gd_deal *d, gd_move m):
    """A policy's move for the seat to act and the packed cards it spends (canonically)."""
    cdef gd_cards spent
    gd_spend(&d.hands[d.turn], d.level, m, &spent)
    return m, int(spent.w[0]) | int(spent.w[1]) << 64


def choose(state, policy="greedy", seed=0):
    """The rank-level word a built-in policy plays in a state, and the packed cards it spends."""
    cdef gd_deal d
    _deal_from(state, &d)
    cdef int pol = POLICIES[_policy_name(policy)]
    cdef gd_rng rng
    rng.state = _seed(seed)
    return _word_and_spent(&d, gd_choose(&d, pol, &rng))


def perft(state, depth):
    """The number of card-level action sequences of exactly ``depth`` plies from a state."""
    cdef gd_deal d
    _deal_from(state, &d)
    cdef int plies = <int>_size(depth, "depth", 0, 2**31 - 1)
    cdef int64_t total
    with nogil:
        total = gd_perft(&d, plies)
    if total < 0:
        raise MemoryError()
    return total


# -- exact endgames: perfect-information solves with a transposition table -----------------------

#: The transposition table of a solve: 2^SOLVE_TABLE_BITS entries (16 bytes each).
SOLVE_TABLE_BITS = 18


cdef int _solver_init(gd_solver *s, promotion, budget) except -1:
    """A solver with a zeroed table of 2^SOLVE_TABLE_BITS entries, the promotion and the budget checked."""
    errors = _errors()
    if isinstance(promotion, (str, bytes)) or not isinstance(promotion, (tuple, list)) or len(promotion) != 3:
        raise errors.GuandanError(f"promotion is three gains 0..12 (partner 2nd, 3rd, 4th), got {_describe(promotion)}")
    cdef int i
    for i in range(3):
        s.promotion[i] = <uint8_t>_size(promotion[i], "promotion", 0, 12)
    s.budget = _size(budget, "budget", 1, _MAX_ROWS)
    s.mask = (1ull << SOLVE_TABLE_BITS) - 1
    s.table = <gd_solve_entry *>calloc(s.mask + 1, sizeof(gd_solve_entry))
    if s.table == NULL:
        raise MemoryError()
    s.nodes = 0
    s.aborted = 0
    s.generation = 1
    return 0


def solve(state, side, promotion=(3, 2, 1), budget=1_000_000):
    """The perfect-information value of a deal state for ``side`` (0: seats 0 and 2), both
    sides playing their best, in levels under ``promotion`` — ``(value, nodes)``, ``value``
    ``None`` when ``budget`` visited states were not enough (``gd_solve``: alpha-beta over the
    rank-level moves, each spent canonically, with a transposition table)."""
    cdef gd_deal d
    _deal_from(state, &d)
    cdef int sd = <int>_size(side, "side", 0, 1)
    cdef gd_solver s
    _solver_init(&s, promotion, budget)
    cdef int value = 0, ok
    try:
        with nogil:
            ok = gd_solve(&s, &d, sd, &value)
        return (value if ok else None), int(s.nodes)
    finally:
        free(s.table)


def solve_move(state, promotion=(3, 2, 1), budget=1_000_000):
    """The best rank-level move of the seat to act in a deal state with every hand known, by
    solving each of its moves: ``(word, value, nodes)`` (``value`` for the seat's side), or
    ``(None, None, nodes)`` when ``budget`` visited states were not enough."""
    cdef gd_deal d
    _deal_from(state, &d)
    if d.over:
        raise _errors().IllegalMoveError("the deal is over: there is no move to solve")
    cdef gd_solver s
    _solver_init(&s, promotion, budget)
    cdef int value = 0, ok
    cdef gd_move move = GD_PASS_MOVE
    try:
        with nogil:
            ok = gd_solve_move(&s, &d, &move, &value)
        if not ok:
            return None, None, int(s.nodes)
        return int(move), value, int(s.nodes)
    finally:
        free(s.table)


def cards_left(state):
    """The cards left in the four hands of a deal state together."""
    cdef gd_deal d
    _deal_from(state, &d)
    return int(gd_cards_left(&d))


def evaluate(states, firsts, n=1, policy="greedy", seed=0):
    """Play out each candidate first move in each state: ``int8 (S, F, n, 4)`` finish orders.

    ``states`` are deal states (as for :func:`playouts`) with the same seat to act — the
    determinizations of a search — and ``firsts`` rank-level words legal for that seat in
    every state; each is played (its cards spent canonically) and the deal played out
    ``n`` times with the policy, all in the native core. One SplitMix64 stream from ``seed``.
    """
    errors = _errors()
    cdef int pol = POLICIES[_policy_name(policy)]
    cdef Py_ssize_t count = _size(n, "n", 1, _MAX_ROWS)
    cdef uint64_t seed_state = _seed(seed)
    if not isinstance(states, (list, tuple)):
        raise errors.InvalidMoveError(f"states must be a list of deal states, got {_describe(states)}")
    states = list(states)
    words = _words_arg(firsts, "firsts")
    if words.ndim != 1:
        raise errors.InvalidMoveError(f"firsts must be a 1-D sequence of rank-level words, got shape {words.shape}")
    cdef Py_ssize_t S = len(states), F = len(words), si, fi, j
    if S * F and count > _MAX_ROWS // (S * F):
        raise errors.GuandanError(f"{S} states x {F} moves x {count} playouts is too many")
    cdef gd_deal *deals = <gd_deal *>malloc(max(S, 1) * sizeof(gd_deal))
    if deals == NULL:
        raise MemoryError()
    cdef gd_move legal[GD_MAX_RANK_MOVES]
    cdef gd_view view
    cdef size_t nl
    cdef const uint64_t[::1] fw = words
    try:
        for si in range(S):
            _deal_from(states[si], &deals[si])
            gd_view_init(&view, &deals[si].hands[deals[si].turn], deals[si].level)
            nl = gd_rank_moves(&view, deals[si].beat, legal)
            for fi in range(F):
                for j in range(<Py_ssize_t>nl):
                    if legal[j] == fw[fi]:
                        break
                else:
                    raise _errors().IllegalMoveError(
                        f"firsts[{fi}] = 0x{fw[fi]:016x} is not a legal move of seat {deals[si].turn} in states[{si}]")
        out = np.full((S, F, count, 4), -1, dtype=np.int8)
        _evaluate(deals, S, fw, count, pol, seed_state, out)
        return out
    finally:
        free(deals)


cdef void _evaluate(gd_deal *deals, Py_ssize_t S, const uint64_t[::1] fw, Py_ssize_t n, int policy, uint64_t seed,
                    int8_t[:, :, :, ::1] o) noexcept nogil:
    cdef gd_rng rng
    rng.state = seed
    cdef gd_deal after, d
    cdef gd_cards spent
    cdef Py_ssize_t si, fi, k, c
    cdef int placed, seat
    for si in range(S):
        for fi in range(fw.shape[0]):
            after = deals[si]
            gd_spend(&after.hands[after.turn], after.level, fw[fi], &spent)
            gd_deal_apply(&after, fw[fi], &spent)
            for k in range(n):
                d = after
                gd_playout(&d, policy, &rng)
                for c in range(d.n_finished):
                    o[si, fi, k, c] = d.finished[c]
                if d.n_finished == 3:
                    placed = 0
                    for c in range(3):
                        placed |= 1 << d.finished[c]
                    for seat in range(4):
                        if not (placed >> seat) & 1:
                            o[si, fi, k, 3] = seat


def spend_cards(counts, level, word):
    """The physical cards (a packed int, 2 bits a face) a rank-level move spends from a hand,
    chosen canonically (the suits holding the most copies first; see ``gd_spend``)."""
    cdef gd_view view
    cdef int lvl = _level_index(level)
    _view_of(counts, lvl, &view)
    cdef gd_move m = _checked_move(word, "the move")
    if m == GD_PASS_MOVE:
        return 0
    cdef gd_move legal[GD_MAX_RANK_MOVES]
    cdef size_t n = gd_rank_moves(&view, GD_PASS_MOVE, legal), i
    for i in range(n):
        if legal[i] == m:
            break
    else:
        raise _errors().IllegalMoveError(f"0x{m:016x} cannot be played from this hand")
    cdef gd_cards spent
    gd_spend(&view.cards, lvl, m, &spent)
    return int(spent.w[0]) | int(spent.w[1]) << 64


def rng_draws(seed, bounds):
    """Draws of the native SplitMix64 seeded ``seed``: ``below(b)`` for each bound (0: a raw
    64-bit output) — the same numbers as :class:`guandan.core.rng.SplitMix64` (a check)."""
    cdef gd_rng rng
    rng.state = _seed(seed)
    if not isinstance(bounds, (list, tuple)):
        raise _errors().GuandanError(f"bounds must be a list of ints 0..2**64-1, got {_describe(bounds)}")
    cdef uint64_t b
    out = []
    for bound in bounds:
        b = _u64(bound, "a bound", _OTHER)
        out.append(gd_rng_next(&rng) if b == 0 else gd_rng_below(&rng, b))
    return out


# -- the greedy agent's choice among card-level moves -------------------------------------------
#
# The choice of guandan.bots.agents.GreedyAgent made in C (csrc/gd_agents.c), on the card-level
# move array a deal holds. Every argument is checked here; the C scan reads each move row
# once and checks it (a malformed word raises InvalidMoveError naming its row).


cdef bint _u64_format(const char *fmt) noexcept:
    """Whether a buffer format is a native unsigned 64-bit integer ('L' or 'Q', optionally '@', '=' or '<')."""
    if fmt == NULL:
        return False
    if fmt[0] == b'@' or fmt[0] == b'=' or fmt[0] == b'<':
        fmt += 1
    return (fmt[0] == b'L' or fmt[0] == b'Q') and fmt[1] == 0


cdef int _flag(value, str what) except -1:
    """A yes or no: a bool or a numpy bool (never an int, a string or None)."""
    if value is True or value is False or isinstance(value, np.bool_):
        return 1 if value else 0
    raise _errors().GuandanError(f"{what} must be a bool, got {value!r:.60}")


def greedy_choose(moves, level, hand, mine, responding, partner_play, opponent_low):
    """The index of the move :class:`guandan.bots.agents.GreedyAgent` chooses among card-level ``moves``.

    ``moves``: a C-contiguous ``uint64`` array of shape ``(n, 2)``, n >= 1 (a position's legal
    moves, the pass last when responding); ``level``: the rank number 2..14; ``hand``: the
    seat's cards packed in one int (2 bits a face, 0 <= hand < 2**108); ``mine``: how many
    cards it holds (0..108); ``responding``: whether there is a play to beat;
    ``partner_play``: whether that play is its partner's; ``opponent_low``: whether an
    opponent holding cards holds ``bomb_threshold`` or fewer.

    >>> from guandan import Deal
    >>> deal = Deal(["S3 S4 C4 S8 C8 D8 H8", "S9", "D5", "D6"], level=2, leader=0)
    >>> moves = deal.legal_moves()
    >>> print(moves[greedy_choose(moves.array, 2, deal.observation(0).packed_hand, 7, False, False, True)])
    single 3: S3
    """
    cdef gd_greedy_seat seat
    seat.level = _level_index(level)
    _packed_hand_arg(hand, &seat.hand, "the hand (packed)")
    seat.mine = <int>_size(mine, "mine (the cards held)", 0, 108)
    seat.responding = _flag(responding, "responding")
    seat.partner_play = _flag(partner_play, "partner_play")
    seat.opponent_low = _flag(opponent_low, "opponent_low")
    cdef Py_buffer buf
    try:
        PyObject_GetBuffer(moves, &buf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
    except (TypeError, ValueError, BufferError):
        raise _errors().InvalidMoveError(
            f"moves must be a C-contiguous uint64 array of shape (n, 2), got {_describe(moves)}") from None
    cdef ptrdiff_t got
    cdef Py_ssize_t n
    try:
        if buf.ndim != 2 or buf.shape[1] != 2 or buf.itemsize != 8 or not _u64_format(buf.format):
            raise _errors().InvalidMoveError(
                f"moves must be a C-contiguous uint64 array of shape (n, 2), got {_describe(moves)}")
        n = buf.shape[0]
        if n < 1:
            raise _errors().IllegalMoveError("no legal move to choose from")
        got = gd_greedy_choose(<const uint64_t *>buf.buf, <size_t>n, &seat)
    finally:
        PyBuffer_Release(&buf)
    if got < 0:
        raise _errors().InvalidMoveError(f"moves: row {-1 - got} is not a card-level move")
    return got


# -- a deal's legal moves from its packed hand --------------------------------------------------


cdef enum:  # rows written to the stack first; a position with more moves is generated again into its array
    _STACK_ROWS = 1024


def packed_card_moves(lo, hi, level, beat=GD_PASS_MOVE):
    """The legal card-level moves of a hand given packed (two words, as :func:`pack_cards`
    returns; the hand a :class:`~guandan.Deal` keeps): the ``uint64`` array of shape ``(n, 2)``
    of :func:`card_moves` on the same cards, generated once (not counted first).

    >>> from guandan import Cards
    >>> hand = Cards.parse("S3 C4 D4 C5 D5 H2").counts
    >>> bool((packed_card_moves(*pack_cards(hand), 2) == card_moves(hand, 2)).all())
    True
    """
    cdef gd_cards packed
    packed.w[0] = _u64(lo, "lo", _CARDS)
    packed.w[1] = _u64(hi, "hi", _CARDS)
    _check_packed(&packed)
    cdef int lvl = _level_index(level)
    cdef gd_move b = _checked_move(beat)
    cdef gd_view view
    gd_view_init(&view, &packed, lvl)
    cdef uint64_t buf[2 * _STACK_ROWS]
    cdef size_t n
    with nogil:
        n = gd_card_moves(&view, b, buf, _STACK_ROWS)
    out = np.empty((n, 2), dtype=np.uint64)
    cdef uint64_t[:, ::1] o = out
    if n > _STACK_ROWS:
        with nogil:
            gd_card_moves(&view, b, &o[0, 0], n)
    elif n:
        memcpy(&o[0, 0], buf, n * 2 * sizeof(uint64_t))
    return out


# -- search: information sets, sampled deals, the smart policy, the search loop -----------------
#
# An information set is what one seat knows, as a tuple (see _infoset_from); a search state
# the public part of a deal state, (level, turn, last, beat, passes, finished). Both are
# checked and read once: ints are immutable, the events array is copied into C memory before
# it is checked, and only the copy reaches the sampler.


#: The rollout policies of the search, by name: random and greedy as for :func:`playouts`,
#: ``smart`` and ``learned`` (a linear score over move features, with weights given;
#: ``csrc/gd_search.c``).
SEARCH_POLICIES = {"random": GD_POLICY_RANDOM, "greedy": GD_POLICY_GREEDY, "smart": GD_POLICY_SMART,
                   "learned": GD_POLICY_LEARNED}
#: The most threads one search runs.
MAX_THREADS = 64
#: The most moves a node of a search's tree holds (``search(tree_moves=)``).
TREE_MAX_MOVES = GD_TREE_MAX_MOVES
#: The most nodes a search's tree may be given (``search(tree_nodes=)``).
TREE_MAX_NODES = GD_TREE_MAX_NODES
#: The features of a move for the learned policy, and its weights (a leading and a
#: responding half).
FEATURES = GD_FEATURES
POLICY_WEIGHTS = GD_POLICY_WEIGHTS
#: The hidden units of each half of a policy with a hidden layer, and the length of its
#: weights: the linear weights, then for each half each unit's inputs, bias and output.
HIDDEN = GD_HIDDEN
POLICY_NET = GD_POLICY_NET


cdef int _search_policy(policy) except -1:
    if not isinstance(policy, str) or policy not in SEARCH_POLICIES:
        raise _errors().GuandanError(f"policy must be one of {', '.join(SEARCH_POLICIES)}, got {_describe(policy)}")
    return SEARCH_POLICIES[policy]


cdef int _check_legal(const gd_deal *d, const uint64_t[::1] words, str what) except -1:
    """Refuse a word that is not a legal rank-level move of the seat to act."""
    cdef gd_move legal[GD_MAX_RANK_MOVES]
    cdef gd_view view
    gd_view_init(&view, &d.hands[d.turn], d.level)
    cdef size_t nl = gd_rank_moves(&view, d.beat, legal), j
    cdef Py_ssize_t i
    for i in range(words.shape[0]):
        for j in range(nl):
            if legal[j] == words[i]:
                break
        else:
            raise _errors().IllegalMoveError(f"{what}[{i}] = 0x{words[i]:016x} is not a legal move of seat {d.turn}")
    return 0


cdef int _linear_from(weights, gd_linear *lin) except -1:
    """Check and copy the learned policy's weights: POLICY_WEIGHTS finite numbers (a linear
    score), or POLICY_NET (with the hidden layer: the linear weights, then for the leading
    and the responding half each hidden unit's FEATURES inputs, its bias and its output)."""
    errors = _errors()
    what = f"weights are {GD_POLICY_WEIGHTS} or {GD_POLICY_NET} finite numbers"
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise errors.GuandanError(f"{what}, got {_describe(weights)}") from None
    if (
        w.shape not in ((GD_POLICY_WEIGHTS,), (GD_POLICY_NET,))
        or not np.isfinite(w).all()
        or (np.abs(w) > 1e30).any()
    ):
        raise errors.GuandanError(f"{what}, got {_describe(weights)}")
    cdef int i, h, j, k, at = GD_POLICY_WEIGHTS
    for i in range(GD_POLICY_WEIGHTS):
        lin.w[i] = <float>w[i]
    lin.hidden = GD_HIDDEN if w.shape[0] == GD_POLICY_NET else 0
    for h in range(2):
        for j in range(GD_HIDDEN):
            for k in range(GD_FEATURES):
                lin.u[h][j][k] = <float>w[at + k] if lin.hidden else 0.0
            lin.b[h][j] = <float>w[at + GD_FEATURES] if lin.hidden else 0.0
            lin.v[h][j] = <float>w[at + GD_FEATURES + 1] if lin.hidden else 0.0
            if lin.hidden:
                at += GD_FEATURES + 2
    return 0


cdef int _policies_need_weights(const uint8_t *pol, int n, weights, gd_linear *lin) except -1:
    """Copy the weights into lin when given (1), else refuse a learned policy (0)."""
    cdef int s
    if weights is not None:
        _linear_from(weights, lin)
        return 1
    for s in range(n):
        if pol[s] == GD_POLICY_LEARNED:
            raise _errors().GuandanError("the learned policy needs its weights (weights=...)")
    return 0


def move_features(state, words):
    """The learned policy's features of moves in a deal state: a ``float32 (k, POLICY_WEIGHTS)``
    array, row i for ``words[i]`` (rank-level words legal for the seat to act, the pass
    included when it responds), in the leading half when the seat leads, else the responding
    half (``gd_move_features``)."""
    cdef gd_deal d
    _deal_from(state, &d)
    w = _words_arg(words, "words")
    if w.ndim != 1:
        raise _errors().InvalidMoveError("words must be a 1-D sequence of rank-level words")
    cdef const uint64_t[::1] cw = w
    _check_legal(&d, cw, "words")
    cdef Py_ssize_t k = w.shape[0], i
    out = np.zeros((k, GD_POLICY_WEIGHTS), dtype=np.float32)
    cdef float[:, ::1] o = out
    with nogil:
        for i in range(k):
            gd_move_features(&d, cw[i], &o[i, 0])
    return out


def learned_move(state, weights):
    """The rank-level word the learned policy plays in a deal state with these weights, and
    the packed cards it spends."""
    cdef gd_deal d
    _deal_from(state, &d)
    cdef gd_linear lin
    _linear_from(weights, &lin)
    return _word_and_spent(&d, gd_learned_move(&d, &lin))


cdef object _infoset_from(infoset, gd_infoset *s):
    """Check and copy ``(seat, level, hand, pool, known, forbid, need, events)``: the seat,
    the level (2..14), its packed hand, the packed pool of cards to deal, four packed sets
    of known and of forbidden cards, four counts of pool cards to deal, and the events as a
    ``uint64 (E, 3)`` array: ``kind | seat << 8 | other << 16`` (kind 1 a play, 2 a pass),
    then the card-level move ``lo, hi`` played or passed on. Returns the buffer holding the
    events ``s`` points to: keep it while ``s`` is in use."""
    errors = _errors()
    try:
        seat, level, hand, pool, known, forbid, need, events = infoset
    except (TypeError, ValueError):
        raise errors.InvalidCardsError(
            "an information set is (seat, level, hand, pool, known, forbid, need, events)") from None
    memset(s, 0, sizeof(gd_infoset))
    s.seat = <uint8_t>_size(seat, "seat", 0, 3)
    s.level = _level_index(level)
    _packed_hand_arg(hand, &s.hand, "hand")
    _packed_hand_arg(pool, &s.pool, "pool")
    cdef int i
    for name, values in (("known", known), ("forbid", forbid), ("need", need)):
        if not isinstance(values, (tuple, list)) or len(values) != 4:
            raise errors.InvalidCardsError(f"{name} must be four values, one per seat, got {_describe(values)}")
    for i in range(4):
        _packed_hand_arg(known[i], &s.known[i], f"known[{i}]")
        _packed_hand_arg(forbid[i], &s.forbid[i], f"forbid[{i}]")
        s.need[i] = <uint8_t>_size(need[i], f"need[{i}]", 0, 28)
    if (not isinstance(events, np.ndarray) or events.dtype != np.uint64 or events.ndim != 2
            or events.shape[1] != 3):
        raise errors.InvalidMoveError(f"events must be a uint64 array of shape (E, 3), got {_describe(events)}")
    cdef Py_ssize_t n = events.shape[0], e
    local = np.ascontiguousarray(events).copy()  # read once: only this copy is checked and used
    cdef const uint64_t[:, ::1] ev = local
    store = np.zeros(max(n, 1) * sizeof(gd_event), dtype=np.uint8)
    cdef uint8_t[::1] raw = store
    cdef gd_event *rows = <gd_event *>&raw[0]
    cdef gd_cards cards
    cdef uint64_t meta
    cdef int code
    for e in range(n):
        meta = ev[e, 0]
        rows[e].kind = meta & 0xFF
        rows[e].seat = (meta >> 8) & 0xFF
        rows[e].other = (meta >> 16) & 0xFF
        rows[e].lo = ev[e, 1]
        rows[e].hi = ev[e, 2]
        cards.w[0] = ev[e, 1]
        cards.w[1] = ev[e, 2] & ((1 << 52) - 1)
        if (meta >> 24 or rows[e].kind not in (GD_EVENT_PLAY, GD_EVENT_PASS) or rows[e].seat > 3
                or rows[e].other > 3 or gd_check_cards(&cards) >= 0):
            raise errors.InvalidMoveError(f"events[{e}] is malformed (kind 1 or 2, seats 0..3, valid cards)")
        rows[e].word = gd_card_to_rank(ev[e, 1], ev[e, 2], s.level)
        code = gd_check_move(rows[e].word)
        if code or rows[e].word == GD_PASS_MOVE:
            raise errors.InvalidMoveError(f"events[{e}] is not a play: {gd_move_error(code).decode()}")
    s.events = rows
    s.n_events = n
    code = gd_infoset_check(s)
    if code:
        raise errors.InvalidCardsError(f"inconsistent information set: {gd_infoset_error(code).decode()}")
    return store


cdef double _real_arg(value, str name, double lo, double hi) except? -1.0:
    """A real number in [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, (int, float, _NP_INTEGER, np.floating)) \
            or not lo <= float(value) <= hi:
        raise _errors().GuandanError(f"{name} must be a number {lo:g}..{hi:g}, got {value!r:.60}")
    return float(value)


cdef double _unit_weight(value, str name) except -1.0:
    """A likelihood factor: a number in (0, 1]."""
    if isinstance(value, bool) or not isinstance(value, (int, float, _NP_INTEGER, np.floating)) \
            or not 0.0 < float(value) <= 1.0:
        raise _errors().GuandanError(f"{name} must be a number in (0, 1], got {value!r:.60}")
    return float(value)


cdef int _infer_from(gd_infer *inf, tries, pass_weight, bomb_weight) except -1:
    inf.tries = <int>_size(tries, "tries", 1, 4096)
    inf.pass_weight = _unit_weight(pass_weight, "pass_weight")
    inf.bomb_weight = _unit_weight(bomb_weight, "bomb_weight")
    return 0


cdef object _hands_out(const gd_cards *hands):
    return tuple(int(hands[s].w[0]) | int(hands[s].w[1]) << 64 for s in range(4))


cdef int _root_from(const gd_infoset *info, state, gd_deal *d) except -1:
    """The search's root: the public state ``(level, turn, last, beat, passes, finished)``
    with the seat's own hand, checked as a whole deal with one sampled deal's hands."""
    errors = _errors()
    try:
        level, turn, last, beat, passes, finished = state
    except (TypeError, ValueError):
        raise errors.InvalidMoveError("a search state is (level, turn, last, beat, passes, finished)") from None
    cdef gd_rng rng
    rng.state = 0
    cdef gd_cards hands[4]
    gd_sample_deal(info, &rng, hands)
    _deal_from((_hands_out(hands), level, turn, last, beat, passes, finished), d)
    if d.level != info.level:
        raise errors.InvalidMoveError(f"the state's level {d.level + 2} is not the information set's {info.level + 2}")
    if d.turn != info.seat:
        raise errors.InvalidMoveError(f"the seat to act ({d.turn}) must be the information set's seat ({info.seat})")
    return 0


def sample_deals(infoset, n, seed=0, tries=1, pass_weight=1.0, bomb_weight=1.0):
    """``n`` deals consistent with an information set (see ``_infoset_from``): a tuple of
    ``n`` tuples of four packed hands. Deal i is drawn from the stream ``(seed, i)``; with
    ``tries`` > 1 and a weight below 1, each is the one kept of ``tries`` draws by its
    likelihood (``gd_sample_weighted``)."""
    cdef gd_infoset info
    _events = _infoset_from(infoset, &info)  # holds the events that info points to
    cdef gd_infer inf
    _infer_from(&inf, tries, pass_weight, bomb_weight)
    cdef Py_ssize_t count = _size(n, "n", 0, 1 << 24), i
    cdef uint64_t base = _seed(seed)
    cdef gd_rng rng
    cdef gd_cards *hands = <gd_cards *>malloc(max(count, 1) * 4 * sizeof(gd_cards))
    if hands == NULL:
        raise MemoryError()
    try:
        with nogil:
            for i in range(count):
                rng.state = gd_stream(base, i, 1)
                gd_sample_weighted(&info, &inf, &rng, &hands[4 * i])
        return tuple(_hands_out(&hands[4 * i]) for i in range(count))
    finally:
        free(hands)


def deal_weight(infoset, hands, pass_weight=1.0, bomb_weight=1.0):
    """The likelihood weight (0, 1] of four packed hands given an information set's events
    (``gd_deal_weight``). The hands are those of now, checked to be consistent with it."""
    cdef gd_infoset info
    _events = _infoset_from(infoset, &info)  # holds the events that info points to
    cdef gd_infer inf
    _infer_from(&inf, 1, pass_weight, bomb_weight)
    cdef gd_cards h[4]
    _hands_of(&info, hands, h)
    return gd_deal_weight(&info, &inf, h)


def policy_belief(infoset, hands, weights, miss, events):
    """How likely the other seats' plays were under the learned policy in four packed hands
    (those of now; ``gd_policy_belief``): ``miss`` to the power of the plays and passes, among
    the other seats' latest ``events``, that the policy with these weights would not have
    made with the hands of then; 1.0 when the events do not replay as a deal."""
    cdef gd_infoset info
    _events = _infoset_from(infoset, &info)  # holds the events that info points to
    cdef gd_linear lin
    _linear_from(weights, &lin)
    cdef double m = _unit_weight(miss, "policy_weight")
    cdef int n = <int>_size(events, "events", 0, 1 << 16)
    cdef gd_cards h[4]
    _hands_of(&info, hands, h)
    cdef double out
    with nogil:
        out = gd_policy_belief(&info, &lin, m, n, h)
    return out


cdef int _hands_of(const gd_infoset *info, hands, gd_cards *h) except -1:
    """Four packed hands, the information set's seat holding its own hand."""
    if not isinstance(hands, (tuple, list)) or len(hands) != 4:
        raise _errors().InvalidCardsError(f"hands are four packed hands, got {_describe(hands)}")
    cdef int s
    for s in range(4):
        _packed_hand_arg(hands[s], &h[s], f"hands[{s}]")
    if h[info.seat].w[0] != info.hand.w[0] or h[info.seat].w[1] != info.hand.w[1]:
        raise _errors().InvalidCardsError(f"hands[{info.seat}] is not the information set's own hand")
    return 0


def deal_play(state, word):
    """Play a legal rank-level move (or the pass) for the seat to act with its canonical cards
    (``gd_spend``, as every native playout spends them): ``(state, over)`` after it."""
    cdef gd_deal d
    _deal_from(state, &d)
    cdef uint64_t[::1] one = np.array([_u64(word, "word", _MOVE)], dtype=np.uint64)
    _check_legal(&d, one, "word")
    cdef gd_cards spent
    gd_spend(&d.hands[d.turn], d.level, one[0], &spent)
    gd_deal_apply(&d, one[0], &spent)
    return _state_of(&d), bool(d.over)


def deal_candidates(state, limit):
    """The candidate moves ``gd_candidates`` gives for the seat to act in a whole deal state
    (rank-level words, ``uint64``, at most ``limit``, the smart policy's choice first)."""
    cdef gd_deal d
    _deal_from(state, &d)
    cdef size_t lim = <size_t>_size(limit, "limit", 1, GD_MAX_RANK_MOVES)
    cdef gd_move buf[GD_MAX_RANK_MOVES]
    cdef size_t k
    with nogil:
        k = gd_candidates(&d, lim, buf)
    return _words(buf, k)


def search_candidates(infoset, state, limit):
    """The candidate moves of a search (rank-level words, ``uint64``), at most ``limit``, in
    the smart policy's order (its own choice first; see ``gd_candidates``)."""
    cdef gd_infoset info
    _events = _infoset_from(infoset, &info)  # holds the events that info points to
    cdef gd_deal root
    _root_from(&info, state, &root)
    cdef size_t lim = <size_t>_size(limit, "limit", 1, GD_MAX_RANK_MOVES)
    cdef gd_move buf[GD_MAX_RANK_MOVES]
    cdef size_t k
    with nogil:
        k = gd_candidates(&root, lim, buf)
    return _words(buf, k)


def search(infoset, state, candidates, rollouts=0, seconds=0.0, threads=1, policy="smart", seed=0,
           tries=1, pass_weight=1.0, bomb_weight=1.0, objective="levels", promotion=(3, 2, 1),
           solve_cards=0, solve_nodes=100_000, solve_cost=50, weights=None, policy_weight=1.0, policy_events=0,
           tree_moves=0, tree_visits=8, tree_nodes=4096, tree_c=1.0, tree_first=0.5):
    """Determinized search with successive halving over candidate moves (``gd_search``),
    without the GIL, on ``threads`` threads: ``(stats, rollouts played)``, ``stats`` a
    ``float64 (k, 4)`` array of each candidate's rollouts, mean result (levels, for the
    seat's side), last round and rank (0: the choice).

    ``candidates``: rank-level words legal for the seat (distinct). Budgets: ``rollouts`` >
    0 plays exactly that many (the result then does not depend on ``threads``);
    ``seconds`` > 0 stops starting rollouts after that long; at least one is needed.
    ``objective``: a rollout scores the levels won or lost (``levels``, a win with the partner
    2nd, 3rd, 4th worth ``promotion``'s three values: the ruleset's), 1 / -1 (``wins``), or
    six integer payoffs (each within ±10**6): a win of the seat's side with its partner 2nd, 3rd,
    4th, then a loss with the other side's partner 2nd, 3rd, 4th (no endgame solves then).
    ``solve_cards`` > 0: an *endgame* when the four hands hold that many cards or fewer in
    all: each sampled deal after a candidate is solved exactly (``gd_solve``, at most
    ``solve_nodes`` states; one that runs out is played out), a solve counting as
    ``solve_cost`` rollouts of the ``rollouts`` budget (the rollouts played then count solves).
    ``weights``: the learned policy's (``policy="learned"`` needs them). ``policy_weight`` < 1
    (with ``weights``): each sampled deal counts in the means with the weight
    :func:`policy_belief` gives it (the other seats' latest ``policy_events`` plays and passes).
    ``tree_moves`` > 0 (at most ``TREE_MAX_MOVES``): the seat's own later decisions in the
    playouts are searched too, in a tree keyed by the public line of play (``gd_tree.h``) of
    at most ``tree_nodes`` nodes (at most ``TREE_MAX_NODES``, about 400 bytes each), each of at most
    ``tree_moves`` moves (the rollout policy's
    first), choosing by PUCT (exploration ``tree_c`` in results, the policy's move's prior
    ``tree_first`` in (0, 1]) once it has seen ``tree_visits`` playouts."""
    errors = _errors()
    cdef gd_infoset info
    _events = _infoset_from(infoset, &info)  # holds the events that info points to
    cdef gd_deal root
    _root_from(&info, state, &root)
    words = _words_arg(candidates, "candidates")
    if words.ndim != 1 or words.shape[0] == 0:
        raise errors.InvalidMoveError("candidates must be a non-empty 1-D sequence of rank-level words")
    if len(set(words.tolist())) != words.shape[0]:
        raise errors.InvalidMoveError("candidates must be distinct")
    cdef const uint64_t[::1] cw = words
    _check_legal(&root, cw, "candidates")
    cdef Py_ssize_t k = words.shape[0], i
    cdef gd_search_params p
    p.seed = _seed(seed)
    p.rollouts = _size(rollouts, "rollouts", 0, _MAX_ROWS)
    p.seconds = _real_arg(seconds, "seconds", 0.0, 1e6)
    if p.rollouts == 0 and p.seconds <= 0:
        raise errors.GuandanError("give a budget: rollouts > 0 or seconds > 0")
    p.threads = <int>_size(threads, "threads", 1, MAX_THREADS)
    p.policy = <uint8_t>_search_policy(policy)
    cdef gd_linear lin
    p.linear = &lin if _policies_need_weights(&p.policy, 1, weights, &lin) else NULL
    memset(p.payoff, 0, sizeof(p.payoff))
    if isinstance(objective, (tuple, list)) and len(objective) == 6:
        p.objective = GD_OBJECTIVE_TABLE
        for i in range(6):
            p.payoff[i] = <int32_t>_int_arg(objective[i], "objective's payoff", -1_000_000, 1_000_000)
    elif isinstance(objective, str) and objective in ("levels", "wins"):
        p.objective = GD_OBJECTIVE_WINS if objective == "wins" else GD_OBJECTIVE_LEVELS
    else:
        raise errors.GuandanError(
            f"objective must be 'levels', 'wins' or six payoffs (a win with the partner 2nd, 3rd, 4th; "
            f"a loss likewise), got {_describe(objective)}")
    if isinstance(promotion, (str, bytes)) or not isinstance(promotion, (tuple, list)) or len(promotion) != 3:
        raise errors.GuandanError(f"promotion is three gains 0..12 (partner 2nd, 3rd, 4th), got {_describe(promotion)}")
    for i in range(3):
        p.promotion[i] = <uint8_t>_size(promotion[i], "promotion", 0, 12)
    p.solve_cards = <uint8_t>_size(solve_cards, "solve_cards", 0, 108)
    p.solve_nodes = _size(solve_nodes, "solve_nodes", 1, _MAX_ROWS)
    p.solve_cost = <uint32_t>_size(solve_cost, "solve_cost", 1, 1_000_000)
    _infer_from(&p.infer, tries, pass_weight, bomb_weight)
    p.policy_weight = _unit_weight(policy_weight, "policy_weight")
    p.policy_events = <int>_size(policy_events, "policy_events", 0, 1 << 16)
    if p.policy_weight < 1.0 and p.policy_events > 0 and p.linear == NULL:
        raise errors.GuandanError("weighting deals by the learned policy needs its weights (weights=...)")
    p.tree_moves = <uint8_t>_size(tree_moves, "tree_moves", 0, GD_TREE_MAX_MOVES)
    p.tree_visits = <uint32_t>_size(tree_visits, "tree_visits", 1, 1 << 30)
    p.tree_nodes = <uint32_t>_size(tree_nodes, "tree_nodes", 1, GD_TREE_MAX_NODES)
    p.tree_c = _real_arg(tree_c, "tree_c", 0.0, 1e6)
    p.tree_first = _unit_weight(tree_first, "tree_first")
    cdef gd_candidate_stats *stats = <gd_candidate_stats *>malloc(k * sizeof(gd_candidate_stats))
    if stats == NULL:
        raise MemoryError()
    cdef int64_t done
    try:
        with nogil:
            done = gd_search(&info, &root, &cw[0], k, &p, stats)
        if done < 0:
            raise MemoryError()
        out = np.empty((k, 4), dtype=np.float64)
        for i in range(k):
            out[i, 0] = stats[i].n
            out[i, 1] = stats[i].sum / stats[i].weight if stats[i].n else 0.0
            out[i, 2] = stats[i].round
            out[i, 3] = stats[i].rank
        return out, done
    finally:
        free(stats)


def rollouts(state, n, policies="smart", seed=0, weights=None, seat_weights=None):
    """Play a deal state (as for :func:`playouts`) to its end ``n`` times, seat s playing
    ``policies[s]`` (one name for every seat, or four): ``int8 (n, 4)`` finish orders.
    Rollout i draws from the stream ``(seed, i)``. ``weights``: the learned policy's;
    ``seat_weights``: four, one a seat (``None``: ``weights``), for learned policies of
    different weights at one table."""
    cdef gd_deal start, d
    _deal_from(state, &start)
    if isinstance(policies, str):
        policies = (policies,) * 4
    if not isinstance(policies, (tuple, list)) or len(policies) != 4:
        raise _errors().GuandanError(f"policies: one name, or four (one per seat), got {_describe(policies)}")
    if seat_weights is None:
        seat_weights = (None,) * 4
    if not isinstance(seat_weights, (tuple, list)) or len(seat_weights) != 4:
        raise _errors().GuandanError(
            f"seat_weights: four (weights or None, one per seat), got {_describe(seat_weights)}"
        )
    cdef uint8_t pol[4]
    cdef gd_linear lin[4]
    cdef const gd_linear *plin[4]
    cdef int s
    for s in range(4):
        pol[s] = <uint8_t>_search_policy(policies[s])
        given = seat_weights[s] if seat_weights[s] is not None else weights
        plin[s] = &lin[s] if _policies_need_weights(&pol[s], 1, given, &lin[s]) else NULL
    cdef Py_ssize_t count = _size(n, "n", 0, _MAX_ROWS), i
    cdef uint64_t base = _seed(seed)
    cdef gd_rng rng
    out = np.full((count, 4), -1, dtype=np.int8)
    cdef int8_t[:, ::1] o = out
    cdef int k, seat, placed
    with nogil:
        for i in range(count):
            d = start
            rng.state = gd_stream(base, i, 2)
            gd_rollout_seats(&d, pol, plin, &rng)
            for k in range(d.n_finished):
                o[i, k] = d.finished[k]
            if d.n_finished == 3:
                placed = 0
                for k in range(3):
                    placed |= 1 << d.finished[k]
                for seat in range(4):
                    if not (placed >> seat) & 1:
                        o[i, 3] = seat
    return out


def smart_move(state):
    """The rank-level word the smart policy plays in a deal state, and the packed cards it spends."""
    cdef gd_deal d
    _deal_from(state, &d)
    return _word_and_spent(&d, gd_smart_move(&d))


# -- encodings for learning agents: card vectors, the 513 state values, the 567-value rows ------

#: The sizes of the encodings: a state, an action (a card vector), a row (the two), the wild flags.
STATE_SIZE = GD_STATE_SIZE
ACTION_SIZE = GD_ACTION_SIZE
ROW_SIZE = GD_ROW_SIZE
WILD_FLAGS = GD_WILD_FLAGS
#: VECTOR_INDEX[face]: the card-vector index of each face of the core (suits H, S, C, D, then rank).
VECTOR_INDEX = tuple(gd_vector_index(face) for face in range(GD_FACES))


cdef int _moves_arg(moves, str what) except -1:
    """A card-level move array: uint64 (n, 2), C-contiguous."""
    if not isinstance(moves, np.ndarray) or moves.dtype != np.uint64 or moves.ndim != 2 or moves.shape[1] != 2 \
            or not moves.flags.c_contiguous:
        raise _errors().InvalidMoveError(
            f"{what} must be a C-contiguous uint64 array of shape (n, 2) (card-level moves), got {_describe(moves)}")
    return 0


cdef int _check_spent(const uint64_t *moves, Py_ssize_t n, str what) except -1:
    """Every move's cards valid (no face with 3 copies, no stray bits): else the first bad row named."""
    cdef Py_ssize_t i
    cdef gd_cards c
    for i in range(n):
        c.w[0] = moves[2 * i]
        c.w[1] = moves[2 * i + 1] & ~(<uint64_t>0xFFF << 52)
        if gd_check_cards(&c) >= 0:
            raise _errors().InvalidMoveError(f"{what}[{i}] is not a card-level move: its cards are not valid")
    return 0


cdef int _record_play(gd_record *r, play, Py_ssize_t i) except -1:
    """Apply one play of a tuple of plays, ``(seat, lo, hi)``, to a record, read once and checked
    (the error names ``plays[i]``)."""
    cdef uint64_t seat
    cdef gd_cards spent
    if type(play) is not tuple or len(play) != 3:
        raise _errors().InvalidMoveError(f"plays[{i}] is not (seat 0..3, lo, hi)")
    seat = _u64(play[0], "a play's seat", _MOVE)
    spent.w[0] = _u64(play[1], "a play's lo", _MOVE)
    spent.w[1] = _u64(play[2], "a play's hi", _MOVE) & ~(<uint64_t>0xFFF << 52)
    if seat > 3 or gd_check_cards(&spent) >= 0:
        raise _errors().InvalidMoveError(f"plays[{i}] is not (seat 0..3, a card-level move)")
    gd_record_apply(r, <int>seat, &spent)
    return 0


cdef int _record_from(plays, gd_record *r) except -1:
    """The public record of a deal from its plays, read once: a uint64 (k, 3) array of (seat,
    lo, hi), or a tuple of such triples (a deal's ``packed_plays``)."""
    cdef Py_ssize_t i
    cdef uint64_t seat
    cdef gd_cards spent
    cdef const uint64_t[:, ::1] p
    gd_record_init(r)
    if type(plays) is tuple:
        for i in range(len(plays)):
            _record_play(r, plays[i], i)
        return 0
    if not isinstance(plays, np.ndarray) or plays.dtype != np.uint64 or plays.ndim != 2 or plays.shape[1] != 3 \
            or not plays.flags.c_contiguous:
        raise _errors().InvalidMoveError(
            f"plays must be a tuple of (seat, lo, hi) or a C-contiguous uint64 array of shape (k, 3), "
            f"got {_describe(plays)}")
    p = plays
    for i in range(p.shape[0]):
        seat = p[i, 0]
        spent.w[0] = p[i, 1]
        spent.w[1] = p[i, 2] & ~(<uint64_t>0xFFF << 52)
        if seat > 3 or gd_check_cards(&spent) >= 0:
            raise _errors().InvalidMoveError(f"plays[{i}] is not (seat 0..3, a card-level move)")
        gd_record_apply(r, <int>seat, &spent)
    return 0


cdef int _counts4(counts, uint8_t *out) except -1:
    if not isinstance(counts, (tuple, list)) or len(counts) != 4 or not all(
            _is_int(c) and 0 <= c <= 28 for c in counts):
        raise _errors().InvalidCardsError(f"counts must be four card counts 0..28, got {_describe(counts)}")
    for s in range(4):
        out[s] = <uint8_t>counts[s]
    return 0


cdef int _state_of_seat(hand, seat, plays, counts, level, own_level, other_level, float *out) except -1:
    cdef gd_cards h
    cdef gd_record r
    cdef uint8_t c[4]
    _packed_hand_arg(hand, &h, "hand")
    cdef int s = _seat_arg(seat, "seat", 0)
    _record_from(plays, &r)
    _counts4(counts, c)
    cdef int lv = _level_index(level), own = _level_index(own_level), other = _level_index(other_level)
    gd_encode_state(&h, s, &r, c, lv, own, other, out)
    return 0


@cython.auto_pickle(False)
cdef class Record:
    """A deal's public record kept up to date play by play, for encoding states without reading
    the whole history each time: :meth:`sync` applies the plays it has not seen yet.

    >>> record = Record(); record.sync(((0, 16, 1 << 60),)); record.plies
    1
    """

    cdef gd_record r
    cdef readonly Py_ssize_t plies

    def __cinit__(self):
        gd_record_init(&self.r)
        self.plies = 0

    def clear(self):
        """Forget every play (a new deal)."""
        gd_record_init(&self.r)
        self.plies = 0

    def sync(self, plays):
        """Apply the plays of ``plays`` (a deal's ``packed_plays``: a tuple of (seat, lo, hi))
        past the ones already applied; a shorter tuple starts the record again."""
        if type(plays) is not tuple:
            raise _errors().InvalidMoveError(f"plays must be a tuple of (seat, lo, hi), got {_describe(plays)}")
        cdef Py_ssize_t i, n = len(plays)
        if n < self.plies:
            self.clear()
        for i in range(self.plies, n):
            _record_play(&self.r, plays[i], i)
            self.plies = i + 1

    def encode_state(self, hand, seat, counts, level, own_level, other_level):
        """The 513 state values of ``seat`` holding ``hand`` (as :func:`encode_state`) on this record."""
        cdef gd_cards h
        cdef uint8_t c[4]
        _packed_hand_arg(hand, &h, "hand")
        cdef int s = _seat_arg(seat, "seat", 0)
        _counts4(counts, c)
        cdef int lv = _level_index(level), own = _level_index(own_level), other = _level_index(other_level)
        out = np.empty(GD_STATE_SIZE, dtype=np.float32)
        cdef float[::1] o = out
        gd_encode_state(&h, s, &self.r, c, lv, own, other, &o[0])
        return out


def encode_state(hand, seat, plays, counts, level, own_level, other_level):
    """The 513 state values of ``seat`` holding ``hand`` (a packed int), the deal's ``plays``
    so far (uint64 (k, 3): seat, lo, hi), every seat's card count and the levels (2..14)."""
    out = np.empty(GD_STATE_SIZE, dtype=np.float32)
    cdef float[::1] o = out
    _state_of_seat(hand, seat, plays, counts, level, own_level, other_level, &o[0])
    return out


def encode_rows(hand, seat, plays, counts, level, own_level, other_level, moves):
    """The 567-value rows of a decision: the state (as :func:`encode_state`) then each
    card-level move's card vector, one row per move of ``moves`` (uint64 (n, 2))."""
    _moves_arg(moves, "moves")
    cdef float state[GD_STATE_SIZE]
    _state_of_seat(hand, seat, plays, counts, level, own_level, other_level, state)
    cdef const uint64_t[:, ::1] m = moves
    cdef Py_ssize_t n = m.shape[0]
    if n:
        _check_spent(&m[0, 0], n, "moves")
    out = np.empty((n, GD_ROW_SIZE), dtype=np.float32)
    cdef float[:, ::1] o = out
    if n:
        with nogil:
            gd_encode_rows(state, &m[0, 0], <size_t>n, &o[0, 0])
    return out


def encode_actions(moves):
    """The card vectors (float32 (n, 54)) of card-level moves (uint64 (n, 2)); a pass is all 0."""
    _moves_arg(moves, "moves")
    cdef const uint64_t[:, ::1] m = moves
    cdef Py_ssize_t n = m.shape[0]
    if n:
        _check_spent(&m[0, 0], n, "moves")
    out = np.empty((n, GD_ACTION_SIZE), dtype=np.float32)
    cdef float[:, ::1] o = out
    if n:
        with nogil:
            gd_encode_actions(&m[0, 0], <size_t>n, &o[0, 0])
    return out


def wild_flags(hand, level):
    """The 12 wild flags of a hand (a packed int) at a level 2..14: float32 (12,)."""
    cdef gd_cards h
    _packed_hand_arg(hand, &h, "hand")
    cdef int lv = _level_index(level)
    out = np.empty(GD_WILD_FLAGS, dtype=np.float32)
    cdef float[::1] o = out
    gd_wild_flags(&h, lv, &o[0])
    return out


# -- vectorized tables: many seeded deals stepped in one call -------------------------------------


if len(ACTION_SPACE) != GD_SPACE_SIZE:  # pragma: no cover  (the C tables size their masks by it)
    raise ImportError(f"the action space has {len(ACTION_SPACE)} words, the C tables expect {GD_SPACE_SIZE}")

cdef const uint64_t[::1] _space_words = ACTION_SPACE
gd_space_init(&_space_words[0])

#: The policies a table's seat may have: the caller acts, or a built-in policy plays it.
TABLE_POLICIES = {"external": GD_EXTERNAL, "random": GD_POLICY_RANDOM, "greedy": GD_POLICY_GREEDY}


cdef int _table_array(arr, dtype, tuple shape, str what) except -1:
    """An array handed to the tables: exactly this dtype and shape, C-contiguous, writable."""
    if (not isinstance(arr, np.ndarray) or arr.dtype != dtype or arr.shape != shape
            or not arr.flags.c_contiguous or not arr.flags.writeable):
        raise _errors().GuandanError(
            f"{what} must be a writable C-contiguous {np.dtype(dtype).name} array of shape {shape}, "
            f"got {_describe(arr)}")
    return 0


@cython.auto_pickle(False)
cdef class NativeTables:
    """``n`` tables playing seeded deals one after another in the C core (see
    ``guandan.rl.vector`` for the documented API over it). ``deal_states`` and
    ``policy_states``: each table's two generator states (``uint64 (n,)``); ``level`` a rank
    2..14 or ``None`` (drawn per deal); ``policies`` four names of :data:`TABLE_POLICIES`;
    ``promotion`` the levels of a win with the partner 2nd, 3rd, 4th; ``wins`` whether a deal
    is worth +1 / -1 instead of its levels."""

    cdef gd_table *tables
    cdef gd_tables_config config
    cdef readonly Py_ssize_t n
    cdef object _space
    cdef uint64_t *store       # the card-level moves of the last gather, two words each
    cdef size_t store_cap, store_used
    cdef int64_t *offsets      # n + 1 offsets into the store
    cdef bint masked, gathered  # the observation the next step reads is up to date

    def __cinit__(self, n, deal_states, policy_states, level, policies, promotion, wins):
        self.n = _size(n, "the number of tables", 1, 1 << 24)
        self.tables = <gd_table *>malloc(self.n * sizeof(gd_table))
        self.offsets = <int64_t *>malloc((self.n + 1) * sizeof(int64_t))
        self.store_cap = 1024 * <size_t>self.n
        self.store = <uint64_t *>malloc(self.store_cap * 2 * sizeof(uint64_t))
        if not self.tables or not self.offsets or not self.store:
            raise MemoryError()
        self.store_used = 0
        self._space = ACTION_SPACE
        cdef const uint64_t[::1] space = ACTION_SPACE
        self.config.space = &space[0]
        errors = _errors()
        self.config.level = -1 if level is None else _level_index(level)
        if not isinstance(policies, (tuple, list)) or len(policies) != 4 or not all(
                isinstance(p, str) and p in TABLE_POLICIES for p in policies):
            raise errors.GuandanError(f"policies are four of {sorted(TABLE_POLICIES)}, got {_describe(policies)}")
        if "external" not in policies:
            raise errors.GuandanError("at least one seat is the caller's (policy 'external')")
        for s in range(4):
            self.config.policy[s] = TABLE_POLICIES[policies[s]]
        if not isinstance(promotion, (tuple, list)) or len(promotion) != 3 or not all(
                _is_int(g) and 0 <= g <= 12 for g in promotion):
            raise errors.GuandanError(f"promotion is three gains 0..12, got {_describe(promotion)}")
        for k in range(3):
            self.config.promotion[k] = <int>promotion[k]
        if not isinstance(wins, bool):
            raise errors.GuandanError(f"wins is True or False, got {_describe(wins)}")
        self.config.wins = wins
        self.restart(deal_states, policy_states)

    def __dealloc__(self):
        free(self.tables)
        free(self.offsets)
        free(self.store)

    def restart(self, deal_states, policy_states):
        """Start every table again from its two generator states (``uint64 (n,)`` each)."""
        for arr, what in ((deal_states, "deal_states"), (policy_states, "policy_states")):
            if (not isinstance(arr, np.ndarray) or arr.dtype != np.uint64 or arr.shape != (self.n,)):
                raise _errors().GuandanError(
                    f"{what} must be a uint64 array of shape ({self.n},), got {_describe(arr)}")
        cdef const uint64_t[::1] d = np.ascontiguousarray(deal_states)
        cdef const uint64_t[::1] p = np.ascontiguousarray(policy_states)
        cdef Py_ssize_t i
        with nogil:
            for i in range(self.n):
                gd_table_start(&self.tables[i], &self.config, d[i], p[i])
        self.masked = self.gathered = False

    def dump(self):
        """Every table's whole state (its deal, record, generators, counters) as bytes, for a
        checkpoint: :meth:`load` of them on tables of the same count and configuration, in the
        same build, goes on exactly where these are."""
        return bytes((<char *>self.tables)[:self.n * sizeof(gd_table)])

    def load(self, data):
        """Set every table's state from :meth:`dump`'s bytes (then observe before stepping)."""
        if not isinstance(data, bytes) or len(data) != self.n * sizeof(gd_table):
            raise _errors().GuandanError(
                f"table states are the {self.n * sizeof(gd_table)} bytes dump() gives for {self.n} tables, "
                f"got {_describe(data)}")
        cdef const char *src = data
        memcpy(self.tables, src, self.n * sizeof(gd_table))
        self.masked = self.gathered = False

    def observe_mask(self, mask, seats):
        """Each table's decision: its legal-move mask over the action space into ``mask``
        (``bool (n, 2213)``) and the seat to act into ``seats`` (``int8 (n,)``)."""
        _table_array(mask, np.bool_, (self.n, GD_SPACE_SIZE), "mask")
        _table_array(seats, np.int8, (self.n,), "seats")
        cdef uint8_t[:, ::1] o = mask.view(np.uint8)
        cdef int8_t[::1] st = seats
        cdef Py_ssize_t i
        with nogil:
            for i in range(self.n):
                gd_table_mask(&self.tables[i], &self.config, &o[i, 0])
                st[i] = self.tables[i].deal.turn
        self.masked = True

    def observe_states(self, states, seats):
        """The 513 state values of the seat to act at each table into ``states`` (``float32
        (n, 513)``), the seats into ``seats`` (``int8 (n,)``)."""
        _table_array(states, np.float32, (self.n, GD_STATE_SIZE), "states")
        _table_array(seats, np.int8, (self.n,), "seats")
        cdef float[:, ::1] o = states
        cdef int8_t[::1] st = seats
        cdef Py_ssize_t i
        with nogil:
            for i in range(self.n):
                gd_table_state(&self.tables[i], &o[i, 0])
                st[i] = self.tables[i].deal.turn
        self.masked = False  # a step reads what was observed last: the card-level moves, once gathered

    def final_states(self, tables, seat, states):
        """The 513 state values of ``seat`` at the end of the last deal that ended at each of
        ``tables`` (``int64 (k,)`` table indices) into ``states`` (``float32 (k, 513)``): the
        terminal observations of the deals a step ended (zeros at a table where none has)."""
        if not isinstance(tables, np.ndarray) or tables.ndim != 1:
            raise _errors().GuandanError(f"tables must be an int64 array of shape (k,), got {_describe(tables)}")
        _table_array(tables, np.int64, (len(tables),), "tables")
        cdef Py_ssize_t k = len(tables)
        _table_array(states, np.float32, (k, GD_STATE_SIZE), "states")
        cdef int s = _size(seat, "a seat", 0, 3)
        cdef const int64_t[::1] idx = tables
        cdef float[:, ::1] o = states
        cdef Py_ssize_t j
        for j in range(k):
            if idx[j] < 0 or idx[j] >= self.n:
                raise _errors().GuandanError(f"a table index is 0..{self.n - 1}, got {idx[j]}")
        with nogil:
            for j in range(k):
                gd_table_final_state(&self.tables[idx[j]], s, &o[j, 0])

    def gather(self, offsets):
        """Gather each table's card-level legal moves (kept by the tables); their offsets into
        ``offsets`` (``int64 (n + 1,)``: table i's moves are ``offsets[i]:offsets[i + 1]``).
        Returns how many there are in all."""
        _table_array(offsets, np.int64, (self.n + 1,), "offsets")
        cdef int64_t[::1] off = offsets
        cdef Py_ssize_t i
        cdef size_t used = 0, k
        cdef uint64_t *grown
        cdef bint failed = False
        with nogil:
            for i in range(self.n):
                self.offsets[i] = <int64_t>used
                k = gd_table_card_moves(&self.tables[i], &self.store[2 * used], self.store_cap - used)
                if used + k > self.store_cap:
                    grown = <uint64_t *>realloc(self.store, 2 * (used + k + 1024 * <size_t>self.n) * sizeof(uint64_t))
                    if not grown:
                        failed = True
                        break
                    self.store = grown
                    self.store_cap = used + k + 1024 * <size_t>self.n
                    k = gd_table_card_moves(&self.tables[i], &self.store[2 * used], self.store_cap - used)
                used += k
            self.offsets[self.n] = <int64_t>used
            if not failed:
                memcpy(&off[0], self.offsets, (self.n + 1) * sizeof(int64_t))
        if failed:
            raise MemoryError()
        self.store_used = used
        self.gathered = True
        return used

    def card_vectors(self, out):
        """The card vectors of the gathered moves into ``out[:total]`` (``float32 (cap, 54)``,
        cap at least the total :meth:`gather` returned)."""
        if (not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.ndim != 2 or out.shape[1] != 54
                or out.shape[0] < <Py_ssize_t>self.store_used or not out.flags.c_contiguous or not out.flags.writeable):
            raise _errors().GuandanError(
                f"out must be a writable C-contiguous float32 array of shape (at least {self.store_used}, 54), "
                f"got {_describe(out)}")
        if not self.gathered:
            raise _errors().GuandanError("no moves gathered since the last step: call gather first")
        cdef float[:, ::1] o = out
        if self.store_used:
            with nogil:
                gd_encode_actions(self.store, self.store_used, &o[0, 0])

    def moves(self, i):
        """The gathered card-level moves of table ``i`` (a copy, ``uint64 (k, 2)``)."""
        cdef Py_ssize_t t = _size(i, "a table", 0, self.n - 1)
        if not self.gathered:
            raise _errors().GuandanError("no moves gathered since the last step: call gather first")
        cdef Py_ssize_t a = self.offsets[t], b = self.offsets[t + 1]
        out = np.empty((b - a, 2), dtype=np.uint64)
        cdef uint64_t[:, ::1] o = out
        if b > a:
            memcpy(&o[0, 0], &self.store[2 * a], (b - a) * 2 * sizeof(uint64_t))
        return out

    cdef int _outputs(self, actions, rewards, ended, finish) except -1:
        if (not isinstance(actions, np.ndarray) or actions.dtype.kind not in "iu" or actions.shape != (self.n,)):
            raise _errors().GuandanError(
                f"actions must be an integer array of shape ({self.n},), got {_describe(actions)}")
        _table_array(rewards, np.float32, (self.n, 4), "rewards")
        _table_array(ended, np.int32, (self.n,), "ended")
        _table_array(finish, np.int8, (self.n, 4), "finish")
        return 0

    def step_rank(self, actions, rewards, ended, finish):
        """Play each table's action, an index of the action space legal in the mask last
        observed; then the built-in seats, dealing anew where a deal ended. Writes each
        seat's reward (``float32 (n, 4)``), the number of deals that ended (``int32 (n,)``)
        and the finish order of the last that ended (``int8 (n, 4)``, -1 where none or
        undecided). Every action is checked before any is played: a bad one raises
        :class:`~guandan.IllegalMoveError` naming its table and nothing changes."""
        self._outputs(actions, rewards, ended, finish)
        if not self.masked:
            raise _errors().GuandanError("the tables' masks were not observed since the last step: observe_mask first")
        cdef const int64_t[::1] a = np.ascontiguousarray(actions, dtype=np.int64)  # a copy: read once
        cdef Py_ssize_t i, bad = -1
        with nogil:
            for i in range(self.n):
                if not gd_table_rank_legal(&self.tables[i], a[i]):
                    bad = i
                    break
        if bad >= 0:
            raise _errors().IllegalMoveError(
                f"table {bad}: action {a[bad]} is not a legal move of seat {self.tables[bad].deal.turn} "
                f"(an index of ACTION_SPACE whose mask bit is set)", reason="bad_index",
                seat=self.tables[bad].deal.turn, got=int(a[bad]))
        cdef float[:, ::1] r = rewards
        cdef int32_t[::1] e = ended
        cdef int8_t[:, ::1] f = finish
        with nogil:
            for i in range(self.n):
                e[i] = gd_table_play_rank(&self.tables[i], &self.config, self.config.space[a[i]], &r[i, 0], &f[i, 0])
        self.masked = self.gathered = False

    def step_card(self, actions, rewards, ended, finish):
        """As :meth:`step_rank`, each action an index into the table's gathered card-level moves."""
        self._outputs(actions, rewards, ended, finish)
        if not self.gathered:
            raise _errors().GuandanError("the tables' moves were not gathered since the last step: gather first")
        cdef const int64_t[::1] a = np.ascontiguousarray(actions, dtype=np.int64)
        cdef Py_ssize_t i, bad = -1
        with nogil:
            for i in range(self.n):
                if a[i] < 0 or a[i] >= self.offsets[i + 1] - self.offsets[i]:
                    bad = i
                    break
        if bad >= 0:
            count = self.offsets[bad + 1] - self.offsets[bad]
            raise _errors().IllegalMoveError(
                f"table {bad}: action {a[bad]} out of range: seat {self.tables[bad].deal.turn} has {count} legal moves",
                reason="bad_index", seat=self.tables[bad].deal.turn, expected=int(count), got=int(a[bad]))
        cdef float[:, ::1] r = rewards
        cdef int32_t[::1] e = ended
        cdef int8_t[:, ::1] f = finish
        cdef int64_t k
        with nogil:
            for i in range(self.n):
                k = self.offsets[i] + a[i]
                e[i] = gd_table_play_card(&self.tables[i], &self.config, self.store[2 * k], self.store[2 * k + 1],
                                          &r[i, 0], &f[i, 0])
        self.masked = self.gathered = False

    def random_actions(self, seed, out):
        """A uniformly drawn legal action of each table's mask last observed into ``out``
        (``int64 (n,)``), table i drawing from its own stream of ``seed`` (the same seed, the same draws)."""
        _table_array(out, np.int64, (self.n,), "out")
        if not self.masked:
            raise _errors().GuandanError("the tables' masks were not observed since the last step: observe_mask first")
        cdef uint64_t base = _seed(seed)
        cdef int64_t[::1] o = out
        cdef Py_ssize_t i
        cdef gd_rng rng
        with nogil:
            for i in range(self.n):
                rng.state = gd_stream(base, i, 0)
                o[i] = gd_table_random_action(&self.tables[i], &rng)

    def table(self, i):
        """Table ``i`` now: ``(seed, level, dealt, plies, state)`` — the current deal's seed and
        level (2..14), the deals dealt so far, the plies of this deal, its native state."""
        cdef Py_ssize_t t = _size(i, "a table", 0, self.n - 1)
        cdef gd_table *x = &self.tables[t]
        return int(x.seed), x.deal.level + 2, int(x.dealt), int(x.plies), _state_of(&x.deal)


def canonical_words(hand, level, beat, word):
    """The card-level move ``(lo, hi)`` that plays the rank-level ``word`` from a packed ``hand``
    facing the rank-level ``beat`` (the pass word to lead), its cards spent canonically (as the
    built-in policies spend them, ``gd_spend``); :class:`~guandan.IllegalMoveError` unless the
    word is a legal rank-level move of that position."""
    cdef gd_cards h
    _packed_hand_arg(hand, &h, "hand")
    cdef int lvl = _level_index(level)
    cdef gd_move b = _checked_move(beat)
    cdef gd_move m = _checked_move(word, "the move")
    cdef gd_view view
    gd_view_init(&view, &h, lvl)
    cdef gd_move legal[GD_MAX_RANK_MOVES]
    cdef size_t n, i
    cdef bint found = False
    with nogil:
        n = gd_rank_moves(&view, b, legal)
        for i in range(n):
            if legal[i] == m:
                found = True
                break
    if not found:
        raise _errors().IllegalMoveError(f"0x{m:016x} is not a legal rank-level move here", reason="not_legal")
    if m == GD_PASS_MOVE:
        return 0, m
    cdef gd_cards spent
    gd_spend(&h, lvl, m, &spent)
    return int(spent.w[0]), int(spent.w[1] | (m & (<uint64_t>0xFFF << 52)))


def rank_mask(hand, level, beat, out):
    """Mark the legal rank-level moves of a position (a packed ``hand``, the ``level``, the
    rank-level ``beat``) in ``out``, an int8 or uint8 array of ``len(ACTION_SPACE)`` (zeroed
    first); returns how many there are."""
    cdef gd_cards h
    _packed_hand_arg(hand, &h, "hand")
    cdef int lvl = _level_index(level)
    cdef gd_move b = _checked_move(beat)
    if (not isinstance(out, np.ndarray) or out.dtype.char not in "bB" or out.shape != (GD_SPACE_SIZE,)
            or not out.flags.c_contiguous or not out.flags.writeable):
        raise _errors().GuandanError(
            f"out must be a writable C-contiguous int8 array of shape ({GD_SPACE_SIZE},), got {_describe(out)}")
    cdef uint8_t[::1] o = out.view(np.uint8)
    cdef gd_view view
    gd_view_init(&view, &h, lvl)
    cdef gd_move legal[GD_MAX_RANK_MOVES]
    cdef size_t n, i
    cdef ptrdiff_t a
    with nogil:
        n = gd_rank_moves(&view, b, legal)
        memset(&o[0], 0, GD_SPACE_SIZE)
        for i in range(n):
            a = gd_space_index(NULL, legal[i])
            if a >= 0:
                o[a] = 1
    return n


def deal_seeded(seed, level):
    """The native deal of a seed (as ``Deal.new(seed, level)`` deals it): its state."""
    cdef gd_deal d
    gd_deal_seeded(&d, _seed(seed), _level_index(level))
    return _state_of(&d)
