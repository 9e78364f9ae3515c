# Part of _core.pyx (included there, in this order; one extension module): checking input: every
# argument that reaches C, checked first.

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
    if kind == _OTHER and (not _is_int(value) or not 0 <= value < 2**64):
        value = _errors().check_int(what, value, 0, 2**64 - 1, expected="an int 0..2**64-1")
    if not _is_int(value) or not 0 <= value < 2**64:
        errors = _errors()
        error = (errors.InvalidCardsError, errors.InvalidMoveError, errors.GuandanError, errors.InvalidMoveError)[kind]
        label = what + " (a packed move)" if kind == _WORD else what
        raise error(f"{label} must be an int 0..2**64-1, got {value!r:.60}")
    return <uint64_t>value


# The checks of arguments that are not cards or moves accept here, in C, what they accept;
# a value they do not is handed to guandan.errors' check (check_int, check_number,
# check_bool, check_choice), which raises its ArgumentError: one wording for the whole
# library, and the call that passes pays no Python call.

cdef uint64_t _seed(value) except? 0:
    """A seed: any int, taken modulo 2**64 (as guandan.core.rng.SplitMix64 does)."""
    if not _is_int(value):
        value = _errors().check_int("a seed", value)
    return <uint64_t>(int(value) & _MASK64)


cdef Py_ssize_t _size(value, str what, Py_ssize_t lo, Py_ssize_t hi) except? -1:
    """A count or an index: an int lo..hi."""
    if not _is_int(value) or not lo <= value <= hi:
        value = _errors().check_int(what, value, lo, hi)
    return <Py_ssize_t>value


#: The most rows (positions, playouts) one call makes or returns: keeps sizes in range.
_MAX_ROWS = 2**40


def _int_arg(value, str what, Py_ssize_t lo, Py_ssize_t hi):
    """A count or an index given to the library: a Python or numpy integer lo..hi (never a
    bool, a float or a string), as a Python int; :class:`~guandan.errors.ArgumentError` otherwise.

    >>> _int_arg(np.uint8(3), "n", 0, 10)
    3
    >>> _int_arg(3.0, "n", 0, 10)
    Traceback (most recent call last):
    ...
    guandan.errors.ArgumentError: n is an int 0..10, got 3.0
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
        return _errors().check_choice("policy", policy, sorted(POLICIES))
    return policy
