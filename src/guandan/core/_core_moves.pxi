# Part of _core.pyx (included there, in this order; one extension module): packed moves and hands,
# the legal moves of one position and of batches, the action space.

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
    return _errors().check_bool("packed", packed)


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
    return _errors().check_choice("granularity", granularity, ("card", "rank"), "'card' or 'rank'") == "card"


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
