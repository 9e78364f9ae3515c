# The C core's move generation (csrc/gd_core.h): hands packed 2 bits a face (gd_cards), a
# rank-level move in one word (gd_move), a position read once (gd_view), and the legal moves
# of a position at the rank and the card level.

from libc.stdint cimport uint8_t, uint64_t


cdef extern from "gd_core.h" nogil:
    ctypedef uint64_t gd_move
    ctypedef struct gd_cards:
        uint64_t w[2]
    ctypedef struct gd_view:
        gd_cards cards
    enum:
        GD_MAX_RANK_MOVES
        GD_FACES
    gd_move GD_PASS_MOVE
    void gd_init()
    int gd_pack_cards(const uint8_t *counts, gd_cards *out)
    void gd_unpack_cards(const gd_cards *cards, uint8_t *counts)
    int gd_check_cards(const gd_cards *cards)
    void gd_view_init(gd_view *v, const gd_cards *cards, int level)
    enum:
        GD_POSITION_OK
        GD_POSITION_LEVEL
        GD_POSITION_COUNTS
        GD_POSITION_BEAT
        GD_POSITION_PACKED
    int gd_prepare(const uint8_t *counts, int level, gd_move beat, gd_view *v, int *detail)
    int gd_prepare_packed(const gd_cards *cards, int level, gd_move beat, gd_view *v, int *detail)
    int GD_DETAIL_FACE(int detail)
    int GD_DETAIL_COUNT(int detail)
    int gd_check_move(gd_move m)
    const char *gd_move_error(int code)
    unsigned gd_move_size(gd_move m)
    size_t gd_rank_moves(const gd_view *v, gd_move beat, gd_move *out)
    size_t gd_count_rank_moves(const gd_view *v, gd_move beat)
    size_t gd_card_moves(const gd_view *v, gd_move beat, uint64_t *out, size_t cap)
    size_t gd_count_card_moves(const gd_view *v, gd_move beat)
    gd_move gd_card_to_rank(uint64_t lo, uint64_t hi, int level)
