# Part of _core.pyx (included there, in this order; one extension module): encodings for learning
# agents.

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
