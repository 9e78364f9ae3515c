# The C core's agents over card-level moves (csrc/gd_agents.h): the greedy agent's choice
# among a position's card-level moves.

from libc.stdint cimport uint64_t

from .gd_core cimport gd_cards


cdef extern from "gd_agents.h" nogil:
    ctypedef struct gd_greedy_seat:
        gd_cards hand
        int level
        int mine
        int responding
        int partner_play
        int opponent_low
    ptrdiff_t gd_greedy_choose(const uint64_t *moves, size_t n, const gd_greedy_seat *seat)
