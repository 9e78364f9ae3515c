# The C core's vectorized tables (csrc/gd_tables.h): many seeded deals stepped in one call,
# the caller's decisions observed as masks over the action space or as encoded rows.

from libc.stdint cimport int8_t, int64_t, uint8_t, uint32_t, uint64_t

from .gd_encode cimport gd_record
from .gd_play cimport gd_deal, gd_rng


cdef extern from "gd_tables.h" nogil:
    enum:
        GD_SPACE_SIZE
        GD_SPACE_WORDS
        GD_EXTERNAL
    ctypedef struct gd_tables_config:
        int level
        int policy[4]
        int promotion[3]
        int wins
        const uint64_t *space
    ctypedef struct gd_table:
        gd_deal deal
        gd_record record
        gd_rng deals
        gd_rng policies
        uint64_t seed
        uint32_t plies
        uint32_t dealt
        uint64_t legal[GD_SPACE_WORDS]
    void gd_deal_seeded(gd_deal *d, uint64_t seed, int level)
    void gd_table_start(gd_table *t, const gd_tables_config *c, uint64_t deals_state, uint64_t policies_state)
    void gd_space_init(const uint64_t *space)
    ptrdiff_t gd_space_index(const uint64_t *space, uint64_t word)
    int64_t gd_table_random_action(const gd_table *t, gd_rng *rng)
    int gd_table_rank_legal(const gd_table *t, int64_t a)
    int gd_table_play_rank(gd_table *t, const gd_tables_config *c, uint64_t word, float *rewards, int8_t *finish)
    int gd_table_play_card(gd_table *t, const gd_tables_config *c, uint64_t lo, uint64_t hi, float *rewards,
                           int8_t *finish)
    void gd_table_mask(gd_table *t, const gd_tables_config *c, uint8_t *out)
    size_t gd_table_card_moves(const gd_table *t, uint64_t *out, size_t cap)
    void gd_table_state(const gd_table *t, float *out)
    void gd_table_final_state(const gd_table *t, int seat, float *out)
