# The C core's deals (csrc/gd_play.h): the seeded generator (gd_rng), a deal's state and its
# trick flow (gd_deal), the built-in policies, playouts and perft.

from libc.stdint cimport int8_t, int64_t, uint8_t, uint64_t

from .gd_core cimport gd_cards, gd_move


cdef extern from "gd_play.h" nogil:
    ctypedef struct gd_rng:
        uint64_t state
    uint64_t gd_rng_next(gd_rng *rng)
    uint64_t gd_rng_below(gd_rng *rng, uint64_t n)
    ctypedef struct gd_deal:
        gd_cards hands[4]
        gd_move beat
        int8_t last
        uint8_t level
        uint8_t turn
        uint8_t passes
        uint8_t n_finished
        uint8_t finished[4]
        uint8_t over
    enum:
        GD_POLICY_RANDOM
        GD_POLICY_GREEDY
    int gd_deal_check(const gd_deal *d)
    const char *gd_deal_error(int code)
    void gd_spend(const gd_cards *hand, int level, gd_move m, gd_cards *spent)
    void gd_deal_apply(gd_deal *d, gd_move m, const gd_cards *spent)
    gd_move gd_choose(const gd_deal *d, int policy, gd_rng *rng)
    int gd_playout(gd_deal *d, int policy, gd_rng *rng)
    int64_t gd_perft(const gd_deal *d, int depth)
    int gd_deal_score(const gd_deal *d, int side, const uint8_t *promotion)
    int gd_deal_won(const gd_deal *d, int side)
