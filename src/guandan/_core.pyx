# cython: language_level=3
"""The compiled core: packed hands and moves, legal-move generation without the GIL.

Most users want :mod:`guandan` itself; this module is the thin typed boundary
between Python and the C core in ``csrc/``.
"""

from libc.stdint cimport uint8_t, uint64_t

cdef extern from "gd_core.h" nogil:
    ctypedef struct gd_cards:
        uint64_t w[2]
    int gd_pack_cards(const uint8_t *counts, gd_cards *out)
    void gd_unpack_cards(const gd_cards *cards, uint8_t *counts)

FACES = 54

_FACE_NAMES = [("S", "H", "C", "D")[f % 4] + ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")[f // 4]
               for f in range(52)] + ["SB", "HR"]


def _bad_count(int face, int count):
    from guandan.errors import InvalidCardsError
    return InvalidCardsError(
        f"too many copies of {_FACE_NAMES[face]}: {count} (the double deck has 2)")


def pack_cards(const uint8_t[::1] counts not None):
    """Pack a count vector of 54 faces (uint8, 0..2 each) into two 64-bit words.

    >>> import numpy as np
    >>> pack_cards(np.array([1] + [0] * 52 + [2], dtype=np.uint8))
    (1, 8796093022208)
    """
    if counts.shape[0] != FACES:
        from guandan.errors import InvalidCardsError
        raise InvalidCardsError(f"a count vector has {FACES} entries, got {counts.shape[0]}")
    cdef gd_cards packed
    cdef int bad = gd_pack_cards(&counts[0], &packed)
    if bad >= 0:
        raise _bad_count(bad, counts[bad])
    return packed.w[0], packed.w[1]


def unpack_cards(uint64_t lo, uint64_t hi):
    """The count vector (bytes of 54 faces) of two packed words; the inverse of :func:`pack_cards`."""
    cdef gd_cards packed
    cdef uint8_t counts[54]
    packed.w[0] = lo
    packed.w[1] = hi
    if hi >> 44:
        from guandan.errors import InvalidCardsError
        raise InvalidCardsError("packed cards have bits set beyond the 54 faces")
    gd_unpack_cards(&packed, counts)
    return bytes(counts[:FACES])
