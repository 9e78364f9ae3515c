# The C core's encodings for learning agents (csrc/gd_encode.h): card vectors, the wild
# flags, the 513 state values of a seat and the 54 of an action, the public record they read.

from libc.stdint cimport int8_t, uint8_t, uint64_t

from .gd_core cimport gd_cards


cdef extern from "gd_encode.h" nogil:
    enum:
        GD_STATE_SIZE
        GD_ACTION_SIZE
        GD_ROW_SIZE
        GD_WILD_FLAGS
    ctypedef struct gd_record:
        gd_cards played[4]
        gd_cards last[4]
        uint8_t acted
        int8_t latest
    int gd_vector_index(int face)
    void gd_record_init(gd_record *r)
    void gd_record_apply(gd_record *r, int seat, const gd_cards *spent)
    void gd_card_vector(const gd_cards *cards, float *out)
    void gd_wild_flags(const gd_cards *hand, int level, float *out)
    void gd_encode_state(const gd_cards *hand, int seat, const gd_record *r, const uint8_t counts[4], int level,
                         int own_level, int other_level, float *out)
    void gd_encode_actions(const uint64_t *moves, size_t n, float *out)
    void gd_encode_rows(const float *state, const uint64_t *moves, size_t n, float *out)
